"""Probes of one ``tapete serve`` from outside, as an attacker and as an unlucky network would.

Run from the project root (dev extras: ``websockets``, ``httpx``)::

    python bench/fuzz.py [--games 25] [--messages 20000] [--seed 1]

It starts a server (SQLite in a temporary folder, bots at pace 0, the test API on) and runs,
one after the other:

- **stalls**: ``--games`` seeded practice games of each of the four games, played through
  the socket by a client that sends a random legal move whenever the view offers one; every
  game must end (a game with no frame for 20 s is a stall). Every frame received (``joined``,
  ``update``, ``sync``) is kept and afterwards checked against the move log: its view must be
  the one the log gives at its version (a frame "ahead of its version" shows a move that was
  not yet durable).
- **fuzz**: ``--messages`` random socket messages (random JSON of every shape, known types
  with random fields, broken text, deep nesting, lone surrogates, binary frames) at a joined
  game: the game's version must not move, the socket must still answer ``ping``, and the
  server's log must hold no traceback.
- **slow client**: a client with a 4 KB receive buffer that never reads sends 100,000 ``sync``:
  the server's memory growth, and whether it closed that socket.
- **creation and sockets**: one guest asks for 3,000 games as fast as it can, and opens 300
  sockets: how many were accepted.

It prints one line of figures per probe. Results go in ``bench/RESULTS.md``; a timing is
never a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from rooms_load import free_port
from websockets.asyncio.client import ClientConnection, connect

from tapete.registry import REGISTRY
from tapete.store import Store, default_url

KINDS = ("guerra", "onecard", "rummy", "peaje")
PEAJE = {"variant": "cooperativo", "players": 3}
"""El Peaje has no bots: a group of three around one phone, played by the harness alone."""


def rss(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[21]) * os.sysconf("SC_PAGE_SIZE")


class Server:
    """A ``tapete serve`` of our own, on loopback."""

    def __init__(self, work: Path, *flags: str) -> None:
        work.mkdir(parents=True, exist_ok=True)
        self.db = work / "fuzz.db"
        self.log = work / "server.log"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}/ws"
        command = [sys.executable, "-m", "tapete.cli", "serve", "--port", str(self.port)]
        command += ["--db", str(self.db), "--test-api", "--bot-pace", "0", *flags]
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/salud", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise SystemExit(f"the server did not start:\n{self.log.read_text()}")

    def tracebacks(self) -> int:
        return self.log.read_text(errors="replace").count("Traceback")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)

    async def guest(self) -> str:
        async with httpx.AsyncClient(base_url=self.base) as c:
            await c.get("/")
            return str(c.cookies["tapete_guest"])

    def socket(self, cookie: str, **kw: Any) -> Any:
        headers = {"Cookie": f"tapete_guest={cookie}", "Origin": self.base}
        return connect(self.ws, additional_headers=headers, max_size=2**22, **kw)

    async def new_game(self, cookie: str, kind: str, seed: int) -> str:
        body: dict[str, Any] = {"seed": seed, "config": PEAJE if kind == "peaje" else {}}
        async with httpx.AsyncClient(base_url=self.base, cookies={"tapete_guest": cookie}) as c:
            r = await c.post(f"/api/{kind}/nueva", json=body, headers={"Origin": self.base})
            r.raise_for_status()
            return str(r.json()["id"])


# --- stalls and frames ahead of their version ------------------------------------------


async def play(
    server: Server, cookie: str, kind: str, seed: int
) -> tuple[str, bool, list[tuple[int, int | None, Any]]]:
    """Play one game to its end with random legal moves; returns its id, whether it ended,
    and every frame seen (version, seat, view)."""
    rng = random.Random(seed)
    game = await server.new_game(cookie, kind, seed)
    frames: list[tuple[int, int | None, Any]] = []
    async with server.socket(cookie) as ws:
        await ws.send(json.dumps({"type": "join", "game": game}))
        seat: int | None = None
        while True:
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=20))
            except TimeoutError:
                return game, False, frames
            if msg.get("type") == "joined":
                seat = msg["seat"]
            if msg.get("type") == "error" and "sync" in msg:
                msg = {"type": "sync", **msg["sync"]}
            if msg.get("type") not in ("joined", "update", "sync"):
                continue
            view, version = msg["view"], msg["version"]
            frames.append((version, seat, view))
            if view.get("result"):
                return game, True, frames
            legal = view.get("legal") or []
            if legal:
                move = rng.choice(legal)
                await ws.send(json.dumps({"type": "move", "version": version, "move": move}))


async def ahead(server: Server, game_id: str, frames: list[tuple[int, int | None, Any]]) -> int:
    """Frames whose view is not the one the move log gives at their version."""
    store = Store(default_url(server.db))
    try:
        record = await store.game(game_id)
        moves = await store.moves(game_id)
    finally:
        await store.close()
    assert record is not None
    spec = REGISTRY[record.kind].game
    state = (
        spec.rules.load(record.position)
        if record.position is not None
        else spec.rules.new(spec.parse_config(record.config), record.seed)
    )
    wrong, at = 0, 0
    for version, seat, view in sorted(frames, key=lambda f: f[0]):
        while at < version and at < len(moves):
            spec.rules.apply(state, moves[at].seat, spec.parse_move(moves[at].move))
            at += 1
        expected = json.loads(json.dumps(spec.rules.view(state, seat)))
        wrong += expected != view
    return wrong


async def stalls(server: Server, games: int, seed: int) -> None:
    cookie = await server.guest()
    for kind in KINDS:
        started = time.perf_counter()
        stuck = behind = seen = 0
        for i in range(games):
            game, ended, frames = await play(server, cookie, kind, seed * 1000 + i)
            stuck += not ended
            seen += len(frames)
            behind += await ahead(server, game, frames)
        took = time.perf_counter() - started
        print(
            f"stalls {kind:8} games {games:4}  stalls {stuck:3}  frames {seen:6}"
            f"  ahead of version {behind:4}  ({took:.0f} s)",
            flush=True,
        )


# --- fuzz ---------------------------------------------------------------------------------

TYPES = ["ping", "join", "enter", "lobby", "move", "check", "hint", "sync", "", "MOVE", "x" * 50]


def junk(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value of any shape."""
    pick = rng.randrange(9 if depth < 4 else 5)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False])
    if pick == 2:
        return rng.choice([0, -1, 1, 2**63, 1e308, 0.5, 7])
    if pick == 3:
        return rng.choice(["", "turn", "play", "draw", "7C", "♠", "a" * 300, "\u202e", "\x00"])
    if pick == 4:
        return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(12)))
    if pick in (5, 6):
        return [junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["type", "version", "move", "card", "table", "game", "room", "ref", "action", "x"]
    return {rng.choice(keys): junk(rng, depth + 1) for _ in range(rng.randrange(5))}


def message(rng: random.Random, game: str, version: int) -> str | bytes:
    """One hostile frame."""
    pick = rng.randrange(10)
    if pick == 0:
        return "{" * rng.randrange(1, 3000) + "}" * rng.randrange(3)
    if pick == 1:
        return '{"type":"ping","ref":"\\ud800"}' if rng.random() < 0.5 else '{"type":"\\udfff"}'
    if pick == 2:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    if pick == 3:
        return "".join(chr(rng.randrange(1, 256)) for _ in range(rng.randrange(64)))
    body: dict[str, Any] = {"type": rng.choice(TYPES)}
    if rng.random() < 0.7:
        body["version"] = version if rng.random() < 0.6 else junk(rng)
    if rng.random() < 0.8:
        body["move"] = junk(rng)
    if rng.random() < 0.3:
        body["game"] = game if rng.random() < 0.5 else junk(rng)
    for _ in range(rng.randrange(3)):
        body[rng.choice(["table", "room", "action", "ref", "seat", "name"])] = junk(rng)
    if body["type"] == "join":
        body["game"] = game  # stay in our game
    return json.dumps(body, ensure_ascii=rng.random() < 0.5)


async def fuzz(server: Server, count: int, seed: int) -> None:
    rng = random.Random(seed)
    cookie = await server.guest()
    game = await server.new_game(cookie, "guerra", seed)  # one legal move: {"type":"turn"}
    before = server.tracebacks()
    sent = closed = reconnects = 0
    started = time.perf_counter()
    version = 0
    while sent < count:
        try:
            async with server.socket(cookie) as ws:
                await ws.send(json.dumps({"type": "join", "game": game}))
                version = json.loads(await ws.recv())["version"]
                while sent < count:
                    frame = message(rng, game, version)
                    if isinstance(frame, str) and '"move": {"type": "turn"}' in frame:
                        continue  # the one legal move would change the game: not junk
                    await ws.send(frame)
                    sent += 1
                    if sent % 200 == 0:
                        await drain(ws)
        except websockets.ConnectionClosed:
            closed += 1
            reconnects += 1
    async with server.socket(cookie) as ws:
        await ws.send(json.dumps({"type": "join", "game": game}))
        joined = json.loads(await ws.recv())
        await ws.send(json.dumps({"type": "ping", "ref": 1}))
        pong = await answered(ws, "pong")
    took = time.perf_counter() - started
    print(
        f"fuzz     messages {sent}  sockets closed by the server {closed}"
        f"  version {version} -> {joined.get('version')}  ping answered {pong}"
        f"  new tracebacks {server.tracebacks() - before}  ({took:.0f} s)",
        flush=True,
    )


async def drain(ws: ClientConnection) -> None:
    """Read what is waiting (the replies), without waiting for more."""
    while True:
        try:
            await asyncio.wait_for(ws.recv(), timeout=0.01)
        except TimeoutError:
            return


async def answered(ws: ClientConnection, kind: str) -> bool:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=1))
        except TimeoutError:
            continue
        if msg.get("type") == kind:
            return True
    return False


# --- a slow client; creation and sockets ----------------------------------------------------


async def slow_client(server: Server) -> None:
    cookie = await server.guest()
    game = await server.new_game(cookie, "guerra", 7)
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect(("127.0.0.1", server.port))
    start = rss(server.proc.pid)
    sent, closed = 0, False
    async with server.socket(cookie, sock=raw, max_queue=1) as ws:
        await ws.send(json.dumps({"type": "join", "game": game}))
        try:
            for _ in range(100_000):
                await ws.send('{"type":"sync"}')
                sent += 1
            await asyncio.sleep(5)
            await ws.send('{"type":"ping"}')
        except websockets.ConnectionClosed:
            closed = True
        grown = rss(server.proc.pid) - start
    print(
        f"slow     syncs sent {sent}  server memory grew {grown / 1e6:.1f} MB"
        f"  closed by the server {closed}",
        flush=True,
    )


async def creation(server: Server) -> None:
    cookie = await server.guest()
    made = 0
    async with httpx.AsyncClient(base_url=server.base, cookies={"tapete_guest": cookie}) as c:
        for _ in range(3000):
            r = await c.post("/api/guerra/nueva", json={}, headers={"Origin": server.base})
            made += r.status_code == 201
    open_ok = 0
    sockets = []
    for _ in range(300):
        try:
            ws = await server.socket(cookie)
            await ws.send('{"type":"ping"}')
            msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=2))
            open_ok += msg.get("type") == "pong"
            sockets.append(ws)
        except (websockets.ConnectionClosed, websockets.InvalidStatus, TimeoutError):
            pass
    for ws in sockets:
        await ws.close()
    print(f"abuse    games made by one guest {made} of 3000  sockets open {open_ok} of 300")


async def main_async(args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="tapete-fuzz-"))
    many = "games_per_minute_guest=1000000 games_per_minute_address=1000000"
    fast = "socket_rate=1000000000 socket_burst=1000000000"
    # the probes make many games and play faster than any hand, on purpose
    server = Server(work / "probes", "--limit", many, "--limit", fast)
    try:
        await stalls(server, args.games, args.seed)
        await fuzz(server, args.messages, args.seed)
        await slow_client(server)
        print(f"tracebacks in the server log: {server.tracebacks()} ({server.log})")
    finally:
        server.stop()
    limited = Server(work / "limits")  # the limits as shipped
    try:
        await creation(limited)
    finally:
        limited.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=25, help="games of each kind")
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
