"""Faults under load: three ``tapete serve`` processes on PostgreSQL and Redis behind Caddy
(as ``tests/cluster`` and an operator run them), players playing La guerra against the
computer through Caddy's one address, and processes taken away underneath them.

Run from the project root (needs the dev extras, Debian's postgresql, redis-server, caddy)::

    python bench/chaos.py --rolling [--players 300] [--think 1.0]
    python bench/chaos.py [--players 600] [--minutes 10] [--every 60]

``--rolling``: a deploy — each process in turn is stopped with SIGTERM (it drains: hands its
games over, tells its sockets to reconnect), waited for, and started again, 20 s apart.
Without it: every ``--every`` seconds for ``--minutes``, a random process is SIGKILLed and
started again; once Redis is stopped for 10 s; once PostgreSQL is restarted.

Each player is a browser's socket as ``static/js/net.js`` makes it: it reconnects 250 ms
after a close (doubling to 5 s), joins with the last version it saw, turns its card about
``--think`` seconds after its turn comes, and starts another game when one ends (waiting
the ``Retry-After`` it is told). Afterwards every game's log is read back from PostgreSQL and
replayed by the engine: each version a player was shown must be in the log with the move
the player saw (0 lost), the log must hold versions 1..n once each (0 doubled) and replay
move by move (each one legal). Printed: reconnects per player, time from a lost socket to
the seat again (p50/p99/max), moves sent and refused (the error budget players spent), and
those checks. Figures in ``bench/RESULTS.md``; a timing is never a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rooms_load import LeanSocket, free_port, start_postgres, start_redis, wait_up

from tapete.games import guerra

ROOT = Path(__file__).resolve().parents[1]
CADDYFILE = ROOT / "deploy" / "Caddyfile"


@dataclass
class Seen:
    """What one player saw: each version of each game with the move it was shown."""

    moves: dict[tuple[str, int], Any] = field(default_factory=dict)
    reconnects: int = 0
    to_seat: list[float] = field(default_factory=list)
    """Seconds from a socket lost to the seat joined again."""
    sent: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    games: list[str] = field(default_factory=list)


class Hall:
    """The three processes, Redis, PostgreSQL and Caddy."""

    def __init__(self, work: Path, processes: int, drain: float) -> None:
        self.work = work
        self.db, self.stop_pg = start_postgres(work, synchronous=True)
        self.redis_url, self.redis = start_redis(work)
        self.redis_port = int(self.redis_url.rsplit(":", 1)[1].split("/")[0])
        self.drain = drain
        self.ports = [free_port() for _ in range(processes)]
        self.procs: list[subprocess.Popen[bytes] | None] = [None] * processes
        for i in range(processes):
            self.start(i)
        for i in range(processes):
            wait_up(self.base(i))
        self.front_port = free_port()
        self.caddy = self._caddy()
        wait_up(self.front)

    @property
    def front(self) -> str:
        return f"http://127.0.0.1:{self.front_port}"

    def base(self, i: int) -> str:
        return f"http://127.0.0.1:{self.ports[i]}"

    def start(self, i: int) -> None:
        log = open(self.work / f"serve-{i}.log", "ab")  # noqa: SIM115 (the child's)
        self.procs[i] = subprocess.Popen(
            [sys.executable, "-m", "tapete.cli", "serve", "--port", str(self.ports[i]),
             "--db", self.db, "--redis", self.redis_url, "--bot-pace", "0",
             "--drain-seconds", str(self.drain), "--log-level", "warning",
             "--limit", "sockets_per_address=1000000 games_per_minute_address=1000000"],
            stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        log.close()

    def _caddy(self) -> subprocess.Popen[bytes]:
        binary = shutil.which("caddy")
        if binary is None:
            raise SystemExit("caddy is not installed (apt-get install caddy)")
        env = {
            **os.environ,
            "TAPETE_UPSTREAMS": " ".join(f"127.0.0.1:{p}" for p in self.ports),
            "TAPETE_LISTEN": self.front,
            "XDG_DATA_HOME": str(self.work / "caddy"),
            "XDG_CONFIG_HOME": str(self.work / "caddy"),
        }
        log = open(self.work / "caddy.log", "ab")  # noqa: SIM115 (the child's)
        proc = subprocess.Popen(
            [binary, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
            env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        log.close()
        return proc

    def kill(self, i: int, how: int) -> float:
        """Stop process ``i`` with signal ``how``; seconds until it was gone."""
        proc = self.procs[i]
        assert proc is not None
        t0 = time.monotonic()
        proc.send_signal(how)
        code = proc.wait(60)
        if how == signal.SIGTERM and code != 0:
            print(f"process {i} ended with code {code} after SIGTERM", flush=True)
        return time.monotonic() - t0

    def close(self) -> None:
        self.caddy.terminate()
        self.caddy.wait(10)
        for proc in self.procs:
            if proc is not None and proc.poll() is None:
                proc.terminate()
                proc.wait(20)
        self.redis.terminate()
        self.redis.wait(10)
        subprocess.run(self.stop_pg, capture_output=True)


async def new_game(client: httpx.AsyncClient, seen: Seen) -> str:
    while True:
        try:
            r = await client.post("/api/guerra/nueva", json={"config": {"length": "final"}})
        except httpx.HTTPError:
            await asyncio.sleep(1.0)
            continue
        if r.status_code == 201:
            game = str(r.json()["id"])
            seen.games.append(game)
            return game
        seen.refused[f"new:{r.status_code}"] = seen.refused.get(f"new:{r.status_code}", 0) + 1
        await asyncio.sleep(float(r.headers.get("retry-after", "1")))


async def play(front: str, think: float, stop: asyncio.Event, seen: Seen, n: int) -> None:
    """One player, as a browser's page: reconnect on every close, join with the last version."""
    rng = random.Random(n)
    async with httpx.AsyncClient(base_url=front, timeout=30) as client:
        while True:
            try:
                await client.get("/")
                break
            except httpx.HTTPError:
                await asyncio.sleep(0.5)
        cookie = str(client.cookies["tapete_guest"])
        game = await new_game(client, seen)
        version: int | None = None
        delay = 0.25
        lost_at: float | None = None
        url = front.replace("http://", "ws://") + "/ws"
        while not stop.is_set():
            try:
                ws = await LeanSocket.connect(url, cookie)
            except (OSError, ConnectionError):
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
                continue
            delay = 0.25
            closer = asyncio.create_task(_close_at(ws, stop))
            turning: asyncio.Task[None] | None = None
            try:
                await ws.send(json.dumps({"type": "join", "game": game, "version": version}))
                async for raw in ws:
                    msg = json.loads(raw)
                    kind = msg.get("type")
                    if kind == "error":
                        code = str(msg.get("code"))
                        seen.refused[code] = seen.refused.get(code, 0) + 1
                        continue
                    if kind not in ("joined", "update", "sync") or msg.get("view") is None:
                        continue
                    if kind == "joined" and lost_at is not None:
                        seen.to_seat.append(time.monotonic() - lost_at)
                        lost_at = None
                    for missed in msg.get("missed") or []:
                        seen.moves[(game, missed["version"])] = missed["move"]
                    if kind == "update":
                        seen.moves[(game, msg["version"])] = msg["move"]
                    version = msg["version"]
                    view = msg["view"]
                    if view.get("result") is not None:
                        game, version = await new_game(client, seen), None
                        await ws.send(json.dumps({"type": "join", "game": game}))
                        continue
                    if {"type": "turn"} in view.get("legal", []):
                        if turning is not None:
                            turning.cancel()
                        turning = asyncio.create_task(
                            _turn_later(ws, version, think * rng.uniform(0.75, 1.25), seen)
                        )
            finally:
                closer.cancel()
                if turning is not None:
                    turning.cancel()
                await ws.close()
            if stop.is_set():
                return
            seen.reconnects += 1  # the server closed it: as net.js, again in 250 ms
            lost_at = time.monotonic()
            await asyncio.sleep(0.25)


async def _close_at(ws: LeanSocket, stop: asyncio.Event) -> None:
    await stop.wait()
    await ws.close()


async def _turn_later(ws: LeanSocket, version: int, wait: float, seen: Seen) -> None:
    await asyncio.sleep(wait)
    seen.sent += 1
    await ws.send(json.dumps({"type": "move", "version": version, "move": {"type": "turn"}}))


def check(db: str, seen: list[Seen]) -> dict[str, int]:
    """Replay every game's log; compare with what the players were shown."""
    engine = create_engine(db)
    games = sorted({g for s in seen for g in s.games})
    shown = {key: move for s in seen for key, move in s.moves.items()}
    out = {"games": len(games), "moves": 0, "lost": 0, "doubled": 0, "illegal": 0, "unfinished": 0}
    with engine.connect() as con:
        for game in games:
            config, seed, status = con.execute(
                text("select config, seed, status from games where id = :g"), {"g": game}
            ).one()
            rows = con.execute(
                text("select n, seat, move from moves where game_id = :g order by n"), {"g": game}
            ).all()
            ns = [int(n) for n, _, _ in rows]
            out["moves"] += len(ns)
            out["doubled"] += len(ns) - len(set(ns)) + (ns != list(range(1, len(ns) + 1)))
            logged = {int(n): (json.loads(m) if isinstance(m, str) else m) for n, _, m in rows}
            for (g, v), move in shown.items():
                if g == game and logged.get(v) != move:
                    out["lost"] += 1
                    print(
                        f"lost: game {game} version {v}: shown {move}, logged "
                        f"{logged.get(v)} (log ends at {max(logged, default=0)}, {status})"
                    )
            config = json.loads(config) if isinstance(config, str) else config
            state = guerra.new(guerra.parse_config(config), int(seed))
            try:
                for _, seat, move in rows:
                    raw = json.loads(move) if isinstance(move, str) else move
                    guerra.apply(state, int(seat), guerra.parse_move(raw))
            except Exception:
                out["illegal"] += 1
            if status != "finished":
                out["unfinished"] += 1  # (playable: it replayed; a player left it mid-way)
    engine.dispose()
    return out


def quantiles(values: list[float]) -> str:
    if not values:
        return "–"
    v = sorted(values)
    p99 = v[min(len(v) - 1, int(len(v) * 0.99))]
    return f"{statistics.median(v) * 1000:.0f} / {p99 * 1000:.0f} / {v[-1] * 1000:.0f} ms"


async def run(args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="tapete-chaos-"))
    hall = Hall(work, 3, args.drain)
    stop = asyncio.Event()
    seen = [Seen() for _ in range(args.players)]
    players = []
    try:
        for n in range(args.players):
            players.append(asyncio.create_task(play(hall.front, args.think, stop, seen[n], n)))
            if n % 20 == 19:
                await asyncio.sleep(0.1)
        await asyncio.sleep(10)  # everyone seated and playing
        t0 = time.monotonic()
        events: list[str] = []
        if args.rolling:
            for i in range(3):
                took = await asyncio.to_thread(hall.kill, i, signal.SIGTERM)
                hall.start(i)
                await asyncio.to_thread(wait_up, hall.base(i))
                events.append(f"SIGTERM {i}: gone in {took:.1f} s, back")
                await asyncio.sleep(args.every)
        else:
            rng = random.Random(1)
            rounds = int(args.minutes * 60 / args.every)
            redis_round, pg_round = rounds // 3, 2 * rounds // 3
            for r in range(rounds):
                await asyncio.sleep(args.every / 2)
                if r == redis_round:  # Redis away for 10 s
                    os.kill(hall.redis.pid, signal.SIGSTOP)
                    await asyncio.sleep(10)
                    os.kill(hall.redis.pid, signal.SIGCONT)
                    events.append(f"{time.monotonic() - t0:.0f} s: Redis stopped 10 s")
                if r == pg_round:  # PostgreSQL restarted
                    ctl = hall.stop_pg[: hall.stop_pg.index("-m")]
                    data = Path(ctl[ctl.index("-D") + 1])  # (postgres writes beside its data)
                    log = str(data.parent / "restarted.log")
                    # (no pipes: the new postmaster would hold them open, and run() wait on it)
                    await asyncio.to_thread(
                        subprocess.run,
                        [*ctl, "-l", log, "-w", "-m", "fast", "restart"],
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    )
                    events.append(f"{time.monotonic() - t0:.0f} s: PostgreSQL restarted")
                i = rng.randrange(3)
                await asyncio.to_thread(hall.kill, i, signal.SIGKILL)
                hall.start(i)
                events.append(f"{time.monotonic() - t0:.0f} s: SIGKILL {i}")
                await asyncio.sleep(args.every / 2)
        await asyncio.sleep(10)  # the last reconnects
        stop.set()
        await asyncio.gather(*players, return_exceptions=True)
        for e in events:
            print(e)
        elapsed = time.monotonic() - t0
        found = check(hall.db, seen)
        reconnects = [s.reconnects for s in seen]
        refused: dict[str, int] = {}
        for s in seen:
            for k, v in s.refused.items():
                refused[k] = refused.get(k, 0) + v
        print(
            f"{args.players} players, {elapsed:.0f} s; reconnects a player: max "
            f"{max(reconnects)}, mean {statistics.mean(reconnects):.2f}; back on the seat "
            f"p50/p99/max: {quantiles([x for s in seen for x in s.to_seat])}; moves sent "
            f"{sum(s.sent for s in seen)}, refused {refused or 0}"
        )
        print(
            f"logs: {found['games']} games, {found['moves']} moves; shown but not in the log "
            f"(lost): {found['lost']}; doubled or out of order: {found['doubled']}; not "
            f"replaying: {found['illegal']}; unfinished (playable): {found['unfinished']}",
            flush=True,
        )
    finally:
        stop.set()
        for task in players:
            task.cancel()
        hall.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=600)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--every", type=float, default=60.0, help="seconds between faults")
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--rolling", action="store_true", help="a deploy: SIGTERM each in turn")
    parser.add_argument("--drain", type=float, default=3.0, help="tapete serve --drain-seconds")
    args = parser.parse_args()
    if args.rolling and args.every == 60.0:
        args.every = 20.0
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
