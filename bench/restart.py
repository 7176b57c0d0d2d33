"""How fast a restarted ``tapete serve`` is back: N unfinished games, then a restart.

Run from the project root (needs the dev extras: ``websockets``, ``httpx``)::

    python bench/restart.py [--games 1000]

It starts a server (SQLite in a temporary folder, bots at pace 0), makes ``--games`` practice
games of One Card against three bots (each with the bots' first moves in its log), stops the
server (SIGTERM) and starts it again on the same database. It prints the seconds from the
new process's start to: its first HTTP answer (``/salud``), a socket joined to a game picked
at random (its view back: the game is playable), and every unfinished game rebuilt from its
log (the server's log line). Results go in ``bench/RESULTS.md``; a timing is never a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
import websockets
from rooms_load import free_port, start_server


def serve(work: Path, port: int) -> tuple[subprocess.Popen[bytes], Path]:
    """(At ``info``: the server's line saying its games are back is what is waited for.)"""
    return start_server(work, port, [], db="restart.db", log_level="info")


async def up(base: str, proc: subprocess.Popen[bytes]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=1) as client:
        while True:
            assert proc.poll() is None, "the server died"
            try:
                if (await client.get("/salud")).status_code == 200:
                    return
            except httpx.HTTPError:
                await asyncio.sleep(0.005)


async def make_games(base: str, n: int) -> list[tuple[str, str]]:
    """``n`` practice games, each of a new guest: (game id, the guest's cookie)."""
    out: list[tuple[str, str]] = []

    async def one() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            await client.get("/")
            r = await client.post("/api/onecard/nueva", json={"config": {"players": 4}})
            out.append((r.json()["id"], str(client.cookies["tapete_guest"])))

    for start in range(0, n, 50):
        await asyncio.gather(*(one() for _ in range(min(50, n - start))))
    return out


async def run(n: int) -> None:
    work = Path(tempfile.mkdtemp(prefix="tapete-restart-"))
    port = free_port()
    base, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws"
    first, _ = serve(work, port)
    try:
        await up(base, first)
        games = await make_games(base, n)
        await asyncio.sleep(2)  # the bots' first moves are in the logs
        game_id, cookie = random.choice(games)
        async with httpx.AsyncClient(
            base_url=base, timeout=10, cookies={"tapete_guest": cookie}
        ) as client:
            before = (await client.get(f"/api/partidas/{game_id}")).json()["version"]
    finally:
        first.terminate()
        first.wait(30)
    t0 = time.perf_counter()
    second, log = serve(work, port)
    try:
        await up(base, second)
        t_http = time.perf_counter() - t0
        async with websockets.connect(
            ws_url, additional_headers={"Cookie": f"tapete_guest={cookie}"}
        ) as ws:
            await ws.send(json.dumps({"type": "join", "game": game_id}))
            joined = json.loads(await ws.recv())
            assert joined["type"] == "joined" and joined["version"] == before, joined
        t_join = time.perf_counter() - t0
        while "resumed" not in log.read_text():
            await asyncio.sleep(0.01)
        t_all = time.perf_counter() - t0
        line = next(x for x in log.read_text().splitlines() if "resumed" in x)
        print(f"{n} unfinished games; after the restart (s):")
        print("| first HTTP answer | a game joined | every game rebuilt |")
        print("|---:|---:|---:|")
        print(f"| {t_http:.2f} | {t_join:.2f} | {t_all:.2f} |")
        print(f"server: {line}")
    finally:
        second.terminate()
        second.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    asyncio.run(run(args.games))


if __name__ == "__main__":
    main()
