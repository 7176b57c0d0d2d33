"""Load on one ``tapete serve``: private One Card rooms of four humans over real sockets.

Run from the project root (needs the dev extras: ``websockets``, ``httpx``)::

    python bench/rooms_load.py [--steps 5,25,50,100] [--seconds 20] [--think 2.0]

It starts a server (SQLite in a temporary folder, bots at pace 0) on loopback, then ramps:
for each step it adds rooms up to that many, each made the way friends make one (the host
creates it over HTTP, three friends join by its code, the host starts it over the socket, all
four join the game), and lets them play for ``--seconds``: the player whose turn it is waits
about ``--think`` seconds (uniform ±25%) and plays their first legal move. It prints, per step:
players connected, moves per second, the latency from a move sent to its update received on
all four seats (p50, p99, max, in ms), errors, and the server's RSS and CPU (share of one core
over the step). The harness runs on the same machine as the server, sharing its cores. Results
go in ``bench/RESULTS.md``; a timing is never a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

TICK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def proc_usage(pid: int) -> tuple[float, int]:
    """The process's CPU seconds so far and its resident memory in bytes."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / TICK
    rss = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    return cpu, rss


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: int = 0


@dataclass
class Table:
    """One room's game as the harness follows it."""

    game_id: str
    seats: int = 4
    sent: dict[int, float] = field(default_factory=dict)
    """Version the move makes → when it was sent."""
    got: dict[int, int] = field(default_factory=dict)
    """Version → how many seats have its update."""


async def player(
    url: str, cookie: str, table: Table, seat: int, stats: Stats, think: float, stop: asyncio.Event
) -> None:
    rng = random.Random(hash((table.game_id, seat)))
    async with websockets.connect(
        url, additional_headers={"Cookie": f"tapete_guest={cookie}"}, max_size=2**22
    ) as ws:
        await ws.send(json.dumps({"type": "join", "game": table.game_id}))
        view: dict[str, Any] = {}
        version = 0
        pending: asyncio.Task[None] | None = None

        async def move_later(v: int, move: dict[str, Any]) -> None:
            await asyncio.sleep(think * rng.uniform(0.75, 1.25))
            if stop.is_set() or v != version:
                return
            table.sent[v + 1] = time.perf_counter()
            await ws.send(json.dumps({"type": "move", "version": v, "move": move}))

        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=1.0)
            except TimeoutError:
                continue
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind in ("joined", "update", "sync"):
                view, version = msg["view"], msg["version"]
                if kind == "update":
                    n = table.got.get(version, 0) + 1
                    table.got[version] = n
                    if n == table.seats and version in table.sent:
                        stats.latencies.append(time.perf_counter() - table.sent.pop(version))
                        stats.moves += 1
                if view.get("result"):
                    return
                mine = view.get("turn") == seat and view.get("legal")
                if mine and (pending is None or pending.done()):
                    plays = [m for m in view["legal"] if m["type"] in ("play", "draw")]
                    if plays:
                        pending = asyncio.create_task(move_later(version, plays[0]))
            elif kind == "error" and msg.get("code") not in ("stale_version", "not_your_turn"):
                stats.errors += 1


async def make_room(base: str, ws_url: str) -> tuple[Table, list[str]]:
    """A room the way friends make one; returns its game and the four players' cookies."""
    clients = [httpx.AsyncClient(base_url=base, timeout=30) for _ in range(4)]
    try:
        for c in clients:
            await c.get("/salud")
            await c.get("/")
        cookies = [str(c.cookies["tapete_guest"]) for c in clients]
        r = await clients[0].post(
            "/api/salas", json={"game": "onecard", "options": {"config": {"players": 4}}}
        )
        code = r.json()["code"]
        for i, c in enumerate(clients[1:], 1):
            await c.post(f"/api/salas/{code}/unirse", json={"name": f"P{i}"})
    finally:
        for c in clients:
            await c.aclose()
    async with websockets.connect(
        ws_url, additional_headers={"Cookie": f"tapete_guest={cookies[0]}"}
    ) as ws:
        await ws.send(json.dumps({"type": "enter", "room": code}))
        state = json.loads(await ws.recv())
        await ws.send(json.dumps({"type": "lobby", "action": "start", "version": state["version"]}))
        while True:
            msg = json.loads(await ws.recv())
            if msg.get("type") == "lobby" and msg.get("game_id"):
                return Table(msg["game_id"]), cookies


async def run(steps: list[int], seconds: float, think: float) -> None:
    work = Path(tempfile.mkdtemp(prefix="tapete-load-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    ws_url = f"ws://127.0.0.1:{port}/ws"
    log = open(work / "server.log", "wb")  # noqa: SIM115 (closed at the end)
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tapete.cli",
            "serve",
            "--port",
            str(port),
            "--db",
            str(work / "load.db"),
            "--bot-pace",
            "0",
            "--log-level",
            "warning",
            # every player of the harness comes from one address (127.0.0.1)
            "--limit",
            "sockets_per_address=1000000 games_per_minute_address=1000000",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        for _ in range(100):
            try:
                if httpx.get(base + "/salud", timeout=0.5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)
        stop = asyncio.Event()
        tasks: list[asyncio.Task[None]] = []
        stats = Stats()
        rooms = 0
        print(f"server pid {server.pid}; think {think} s; {seconds} s a step; One Card, 4 humans")
        print("| players | moves/s | p50 ms | p99 ms | max ms | errors | RSS MB | server CPU |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for target in steps:
            while rooms < target:
                table, cookies = await make_room(base, ws_url)
                for seat, cookie in enumerate(cookies):
                    tasks.append(
                        asyncio.create_task(player(ws_url, cookie, table, seat, stats, think, stop))
                    )
                rooms += 1
            await asyncio.sleep(min(3.0, seconds / 4))  # everyone joined and settled
            stats.latencies.clear()
            stats.moves = stats.errors = 0
            cpu0, _ = proc_usage(server.pid)
            t0 = time.perf_counter()
            await asyncio.sleep(seconds)
            elapsed = time.perf_counter() - t0
            cpu1, rss = proc_usage(server.pid)
            lat = sorted(stats.latencies) or [0.0]
            p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
            p50 = statistics.median(lat)
            print(
                f"| {rooms * 4} | {stats.moves / elapsed:.1f} | {p50 * 1000:.1f} "
                f"| {p99 * 1000:.1f} | {lat[-1] * 1000:.1f} | {stats.errors} "
                f"| {rss / 2**20:.0f} | {100 * (cpu1 - cpu0) / elapsed:.0f}% |",
                flush=True,
            )
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        server.terminate()
        server.wait(10)
        log.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--steps", default="5,25,50,100")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=2.0)
    args = parser.parse_args()
    asyncio.run(run([int(x) for x in args.steps.split(",")], args.seconds, args.think))


if __name__ == "__main__":
    main()
