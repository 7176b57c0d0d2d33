"""«Jugar ahora» under arrivals: players pressing it at a steady rate for a while, across the
games strangers play, on one ``tapete serve`` (SQLite) or on N as one hall (PostgreSQL and
redis-server, players spread over the processes).

Run from the project root (needs the dev extras: ``httpx``)::

    python bench/matchmaking.py [--rate 1000] [--minutes 5] [--wait 20] [--processes 2]

Each player is a new guest (its own cookie) who arrives at a random moment (a Poisson process
at ``--rate`` a minute), picks a game among those «Jugar ahora» offers and a table size (2, 3,
4 or «me da igual», equally likely), posts ``/api/jugar`` to one process (round robin), then
asks ``GET /api/jugar`` every half second — on any process — until seated. Seated players
never come to their table, whose seats wait for them (a grace of an hour: no stand-in plays
them, so what is measured is matching and making tables, not hundreds of bot games).
It prints: players, tables made, the time from the press to «seated» (p50, p99, max; the goal
is p99 ≤ the wait + 1 s), the share of seats taken by people, and the servers' CPU seconds
per table made (everything the servers did meanwhile, tables played included). Results go in
``bench/RESULTS.md``; a timing is never a test.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from tapete.rooms.matchmaker import quick_games

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rooms_load import (  # (the other load bench's server helpers)
    free_port,
    proc_usage,
    start_postgres,
    start_redis,
    start_server,
    wait_up,
)

GAMES = tuple(quick_games())
"""The games «Jugar ahora» offers (the registry's)."""
SIZES = (2, 3, 4, None)
POLL = 0.5


async def player(
    bases: list[str], index: int, at: float, start: float, out: list[tuple[float, str, int]]
) -> None:
    try:
        await _player(bases, index, at, start, out)
    except httpx.HTTPError as exc:
        out.append((float("nan"), f"{type(exc).__name__}", 0))


async def _player(
    bases: list[str], index: int, at: float, start: float, out: list[tuple[float, str, int]]
) -> None:
    await asyncio.sleep(max(0.0, start + at - time.monotonic()))
    base = bases[index % len(bases)]
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        await client.get("/api/jugar")  # (a cookie: a new guest)
        game = random.choice(GAMES)
        pressed = time.monotonic()
        r = await client.post("/api/jugar", json={"game": game, "players": random.choice(SIZES)})
        if r.status_code != 202:
            out.append((float("nan"), f"refused {r.status_code}", 0))
            return
        while True:
            await asyncio.sleep(POLL)
            other = bases[(index + 1) % len(bases)]  # (asked on another process too)
            r = await client.get(other + "/api/jugar")
            body = r.json()
            if body.get("state") == "seated":
                out.append((time.monotonic() - pressed, str(body["url"]), 0))
                return
            if body.get("state") != "waiting":
                out.append((float("nan"), f"lost {body}", 0))
                return


def seats_of(bases: list[str], urls: set[str]) -> tuple[int, int]:
    """People and bots at the tables made (read from each table's page data)."""
    import re

    people = bots = 0
    for url in urls:
        text = httpx.get(bases[0] + url, timeout=30).text
        found = re.search(r'id="tapete-first"[^>]*>(.*?)</script>', text, re.S)
        if not found:
            continue
        import json

        seats = json.loads(found.group(1)).get("seats", [])
        people += sum(1 for s in seats if s.get("kind") == "human")
        bots += sum(1 for s in seats if s.get("kind") == "bot")
    return people, bots


async def arrivals(bases: list[str], rate: float, minutes: float) -> list[tuple[float, str, int]]:
    rng = random.Random(7)
    at, times = 0.0, []
    while True:
        at += rng.expovariate(rate / 60.0)
        if at > minutes * 60:
            break
        times.append(at)
    out: list[tuple[float, str, int]] = []
    start = time.monotonic()
    await asyncio.gather(*(player(bases, i, t, start, out) for i, t in enumerate(times)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rate", type=float, default=1000.0, help="players a minute")
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument("--wait", type=float, default=20.0, help="the server's --quick-wait")
    ap.add_argument("--processes", type=int, default=1)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="tapete-mm-"))
    procs: list[subprocess.Popen[bytes]] = []
    stop_pg: list[str] | None = None
    redis = None
    # bots at their own pace (as in the hall); the people seated never come to their tables,
    # and a long grace keeps stand-ins from playing their seats: the tables wait, so what is
    # measured is matching and making tables (with stand-ins, hundreds of tables of bots
    # would be the load, and the capacity issue's bench measures that)
    extra = ["--quick-wait", str(args.wait), "--bot-pace", "1", "--grace-seconds", "3600"]
    extra += ["--limit", "games_per_minute_guest=1000000"]
    try:
        if args.processes > 1:
            db, stop_pg = start_postgres(work, synchronous=False)
            redis_url, redis = start_redis(work)
            extra += ["--redis", redis_url]
        else:
            db = "mm.db"
        bases = []
        for _ in range(args.processes):
            port = free_port()
            proc, _log = start_server(work, port, extra, db=db)
            procs.append(proc)
            bases.append(f"http://127.0.0.1:{port}")
        for base in bases:
            wait_up(base)
        cpu0 = sum(proc_usage(p.pid)[0] for p in procs)
        t0 = time.monotonic()
        results = asyncio.run(arrivals(bases, args.rate, args.minutes))
        seconds = time.monotonic() - t0
        cpu = sum(proc_usage(p.pid)[0] for p in procs) - cpu0
        waits = sorted(w for w, _, _ in results if w == w)
        urls = {u for w, u, _ in results if w == w}
        failures = [u for w, u, _ in results if w != w]
        people, bots = seats_of(bases, urls)
        q = statistics.quantiles(waits, n=100) if len(waits) > 1 else [float("nan")] * 99
        print(
            f"processes {args.processes}, {args.rate:.0f} a minute for {args.minutes} min "
            f"(wait {args.wait:.0f} s): {len(results)} players, {len(urls)} tables, "
            f"{len(failures)} not seated; to a table p50 {q[49]:.2f} s, p99 {q[98]:.2f} s, "
            f"max {waits[-1] if waits else float('nan'):.2f} s; seats by people "
            f"{people / max(1, people + bots):.0%} ({people} of {people + bots}); servers' CPU "
            f"{cpu:.1f} s in {seconds:.0f} s, {cpu / max(1, len(urls)) * 1000:.0f} ms a table"
        )
        if failures:
            print("not seated:", failures[:5])
    finally:
        for proc in procs:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if redis is not None:
            redis.terminate()
            redis.wait(10)
        if stop_pg is not None:
            subprocess.run(stop_pg, capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
