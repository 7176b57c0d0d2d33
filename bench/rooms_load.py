"""Load on ``tapete serve``: private One Card rooms of four humans over real sockets.

Run from the project root (needs the dev extras: ``websockets``, ``httpx``)::

    python bench/rooms_load.py [--steps 5,25,50,100] [--seconds 20] [--think 2.0]
                               [--practice 0.1] [--maestro 0.1] [--harness 2] [--idle]
                               [--processes 2 | --postgres]

It starts a server (SQLite in a temporary folder, bots at pace 0) on loopback — or, with
``--processes N``, N servers as one hall on a throwaway PostgreSQL and redis-server (each room
made on one, its players' sockets spread over all: most moves are relayed), or with
``--postgres`` one server on PostgreSQL (the same-run comparison) — then ramps:
for each step it adds rooms up to that many, each made the way friends make one (the host
creates it over HTTP, three friends join by its code, the host starts it over the socket, all
four join the game), and lets them play for ``--seconds``: the player whose turn it is waits
about ``--think`` seconds (uniform ±25%) and plays their first legal move. It prints, per step:
players connected, moves per second, the latency from a move sent to its update received on
all four seats (p50, p99, max, in ms), errors, and the server's RSS and CPU (share of one core
over the step), and the server's CPU per move. The harness runs on the same machine as the
server, sharing its cores; ``--harness N`` spreads its players over N processes (one Python
process cannot read 5,000 sockets' updates in time, and would measure itself).
``--practice F`` adds, for every room, F practice games of One Card against three bots at pace
0 (their player moves the same way; latency: the move to its own update). ``--maestro F``
adds, for every room, F practice games of One Card heads-up against maestro, the bot that
searches (about 0.1 s of a core a decision, in the server's search processes: ``tapete
serve --search-workers``); their figures are printed apart, and the other columns are the
other games' only — run it with and without, the same steps, to see what maestro's tables
cost the rest. ``--idle``: nobody moves (the memory of an idle connected player).
The server's door is on as ``tapete serve`` runs it (``Limits.full_cpu``: a full process
refuses newcomers): a capacity run turns it off with ``--serve "--limit full_cpu=0"`` (rooms
made faster than it lets in get 503s that this harness does not retry).
``--practice-share S``: the steps count players, S of them in practice games against three
bots and the rest in rooms of four (1.0: practice alone); each practice player arrives by
itself, and one a full server refuses (503) waits its ``Retry-After`` and asks again — the
columns «seated», «arrivals refused» and how fast each refusal was answered say what a full
server did.

The soak (issue 28): ``--soak M`` holds the last step for M minutes, a row a minute (latency,
errors, the server's memory, open files, tasks, sockets, the database's size against the
moves written into it); ``--churn C``: each player leaves (closes its socket) C times a
minute on average and comes back 2–8 s later, joining again with the last version it saw;
``--spectators S``: a friend watches one room in 1/S (entering by its code, following each
game and rematch; never waited for)::

    python bench/rooms_load.py --steps 250,1250 --seconds 20 --harness 2 --practice 0.1 \
        --spectators 0.1 --churn 0.2 --soak 30
Results go in ``bench/RESULTS.md``; a timing is never a test.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import multiprocessing
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Awaitable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import msgspec
import uvloop
import websockets
from prometheus_client.parser import text_string_to_metric_families

TICK = os.sysconf("SC_CLK_TCK")


class View(msgspec.Struct):
    turn: int | None = None
    legal: list[dict[str, Any]] = []
    result: Any = None


class Message(msgspec.Struct):
    """What a player of the harness reads of a message (msgspec skips the rest unbuilt)."""

    type: str
    version: int = 0
    game: str | None = None
    game_id: str | None = None
    code: str | None = None
    view: View | None = None
    seat: int | None = None


DECODE = msgspec.json.Decoder(Message).decode
"""The harness reads every update: only what it acts on, with the fastest decoder, to leave
the cores to the server (the harness shares them)."""


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
    codes: dict[str, int] = field(default_factory=dict)
    """The errors' codes, counted."""
    lags: list[float] = field(default_factory=list)
    """How late each player's think timer woke (the harness's own loop falling behind)."""
    refused: list[float] = field(default_factory=list)
    """How long each refused arrival waited for its 503 (a full server), in seconds."""
    seated: int = 0
    """Practice players at a table now (an arrival refused is not, until it is let in)."""
    comebacks: int = 0
    """Players who left (closed their socket) and came back."""


@dataclass
class Table:
    """One game as the harness follows it: a room's (four seats) or a practice game's (one).
    A room's players ask for a rematch when a game ends, a practice player starts another:
    the load does not fade as games end."""

    game_id: str
    seats: int = 4
    code: str | None = None
    """The room's code (None: a practice game)."""
    practice: dict[str, Any] | None = None
    """A practice game's options (``/api/onecard/nueva``'s body), for the next one."""
    sent: dict[int, float] = field(default_factory=dict)
    """Version the move makes → when it was sent."""
    got: dict[int, int] = field(default_factory=dict)
    """Version → how many seats have its update."""

    def switch(self, game_id: str) -> None:
        if game_id != self.game_id:
            self.game_id = game_id
            self.sent.clear()
            self.got.clear()


class LeanSocket(asyncio.Protocol):
    """The harness's WebSocket client: only what its players need (text frames in and out,
    pings answered, no compression, no fragments), so that the harness, which shares the
    server's cores, spends little of them reading 5,000 sockets. The ``websockets`` client
    spent about half a core a harness process at 5,000 players (bench/RESULTS.md).

    A client's frames must be masked: the mask here is four zero bytes (a valid key, which
    leaves the payload as it is)."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.messages: deque[bytes] = deque()
        self.waiter: asyncio.Future[None] | None = None
        self.open: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed = False
        self.transport: Any = None

    @classmethod
    async def connect(cls, url: str, cookie: str) -> LeanSocket:
        parts = urlsplit(url)
        assert parts.hostname is not None and parts.port is not None
        loop = asyncio.get_running_loop()
        _, sock = await loop.create_connection(cls, parts.hostname, parts.port)
        assert sock.transport is not None
        key = base64.b64encode(os.urandom(16)).decode()
        sock.transport.write(
            (
                f"GET {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                f"Sec-WebSocket-Version: 13\r\nCookie: tapete_guest={cookie}\r\n\r\n"
            ).encode()
        )
        await sock.open
        return sock

    def connection_made(self, transport: Any) -> None:
        self.transport = transport  # (uvloop's is not an asyncio.Transport subclass)

    def data_received(self, data: bytes) -> None:
        buf = self.buffer
        buf += data
        if not self.open.done():
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            if not buf.startswith(b"HTTP/1.1 101"):
                self.open.set_exception(ConnectionError(bytes(buf[:end]).decode(errors="replace")))
                return
            del buf[: end + 4]
            self.open.set_result(None)
        got = False
        while len(buf) >= 2:
            n, start = buf[1] & 0x7F, 2
            if n == 126:
                if len(buf) < 4:
                    break
                n, start = int.from_bytes(buf[2:4], "big"), 4
            elif n == 127:
                if len(buf) < 10:
                    break
                n, start = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < start + n:
                break
            opcode, payload = buf[0] & 0x0F, bytes(buf[start : start + n])
            del buf[: start + n]
            if opcode == 1:
                self.messages.append(payload)
                got = True
            elif opcode == 9:  # ping → pong
                self._frame(0xA, payload)
            elif opcode == 8:
                self.closed = got = True
                if self.transport is not None:
                    self.transport.close()
        if got:
            self._wake()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if not self.open.done():
            self.open.set_exception(ConnectionError("closed before the handshake"))
        self._wake()

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    def _frame(self, opcode: int, payload: bytes) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        n = len(payload)
        if n < 126:
            head = bytes((0x80 | opcode, 0x80 | n))
        elif n < 65536:
            head = bytes((0x80 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
        else:
            head = bytes((0x80 | opcode, 0x80 | 127)) + n.to_bytes(8, "big")
        self.transport.write(head + b"\0\0\0\0" + payload)

    async def send(self, text: str) -> None:
        self._frame(1, text.encode())

    async def close(self) -> None:
        if not self.closed:
            self._frame(8, (1000).to_bytes(2, "big"))
            self.closed = True
            self._wake()
        if self.transport is not None:
            self.transport.close()

    def __aiter__(self) -> LeanSocket:
        return self

    async def __anext__(self) -> bytes:
        while not self.messages:
            if self.closed:
                raise StopAsyncIteration
            self.waiter = asyncio.get_running_loop().create_future()
            await self.waiter
        return self.messages.popleft()


async def player(
    base: str,
    url: str,
    cookie: str,
    table: Table,
    seat: int,
    stats: Stats,
    think: float | None,
    stop: asyncio.Event,
    churn: float = 0.0,
) -> None:
    """One player's socket (``seat`` -1: a spectator of a room's games, who never moves and
    is not waited for). ``churn``: how many times a minute, on average, the player leaves
    (closes the socket) and comes back a few seconds later, joining again with the last
    version it saw — as a phone that locks does."""
    rng = random.Random(hash((table.game_id, seat)))
    watcher = seat < 0
    game, version = table.game_id, 0
    me = seat
    """The seat the server says is this player's in the game followed (a room's next game
    seats its players one place round: the next one starts)."""

    async def connected(ws: LeanSocket) -> None:
        """One socket's life: join, play, until it closes."""
        nonlocal game, version, me
        if table.code is not None:
            await ws.send(json.dumps({"type": "enter", "room": table.code}))
        game = table.game_id
        await ws.send(json.dumps({"type": "join", "game": game, "version": version or None}))
        pending: asyncio.Task[None] | None = None

        async def move_later(v: int, move: dict[str, Any]) -> None:
            assert think is not None
            wait = think * rng.uniform(0.75, 1.25)
            due = time.perf_counter() + wait
            await asyncio.sleep(wait)
            if stop.is_set() or v != version or game != table.game_id:
                return
            now = time.perf_counter()
            stats.lags.append(now - due)
            table.sent[v + 1] = now
            await ws.send(json.dumps({"type": "move", "version": v, "move": move}))

        async for raw in ws:
            msg = DECODE(raw)
            kind = msg.type
            if kind == "lobby":
                new = msg.game_id
                if isinstance(new, str) and new != game:  # the rematch began
                    table.switch(new)
                    game, version = new, 0
                    await ws.send(json.dumps({"type": "join", "game": game}))
            elif kind in ("joined", "update", "sync"):
                view = msg.view
                if view is None or (kind == "joined" and msg.game != game):
                    continue
                if kind == "joined" and msg.seat is not None and not watcher:
                    me = msg.seat
                version = msg.version
                if kind == "update" and not watcher:
                    n = table.got.pop(version, 0) + 1
                    if n < table.seats:
                        table.got[version] = n
                    elif version in table.sent:
                        stats.latencies.append(time.perf_counter() - table.sent.pop(version))
                        stats.moves += 1
                if view.result:
                    if think is None or watcher:
                        continue
                    if table.code is not None:
                        await ws.send(json.dumps({"type": "lobby", "action": "rematch"}))
                    else:  # practice: another game (a full server: wait, as told, again)
                        assert table.practice is not None
                        table.switch(await new_practice(base, cookie, table.practice, stats))
                        game, version = table.game_id, 0
                        await ws.send(json.dumps({"type": "join", "game": game}))
                    continue
                mine = view.turn == me and view.legal
                if think is not None and mine:
                    plays = [m for m in view.legal if m["type"] in ("play", "draw")]
                    if plays:  # (a move thought of for an older version is dropped)
                        if pending is not None:
                            pending.cancel()
                        pending = asyncio.create_task(move_later(version, plays[0]))
            elif kind == "error" and msg.code not in ("stale_version", "not_your_turn"):
                stats.errors += 1
                stats.codes[str(msg.code)] = stats.codes.get(str(msg.code), 0) + 1

    while not stop.is_set():
        ws = await LeanSocket.connect(url, cookie)
        watchers = [asyncio.create_task(_close_on(ws, stop.wait()))]
        if churn > 0:
            away = asyncio.sleep(rng.expovariate(churn / 60.0))
            watchers.append(asyncio.create_task(_close_on(ws, away)))
        try:
            await connected(ws)
        finally:
            for task in watchers:
                task.cancel()
            await ws.close()
        if stop.is_set() or churn <= 0:
            return
        stats.comebacks += 1
        await asyncio.sleep(rng.uniform(2.0, 8.0))  # away a few seconds, then back


async def _close_on(ws: LeanSocket, when: Awaitable[Any]) -> None:
    await when
    await ws.close()


async def guests(base: str, n: int) -> list[tuple[httpx.AsyncClient, str]]:
    clients = [httpx.AsyncClient(base_url=base, timeout=30) for _ in range(n)]
    for c in clients:
        await c.get("/")
    return [(c, str(c.cookies["tapete_guest"])) for c in clients]


async def make_room(base: str, ws_url: str) -> tuple[Table, list[str]]:
    """A room the way friends make one (on the process at ``base``); returns its game and the
    four players' cookies."""
    clients = await guests(base, 4)
    try:
        r = await clients[0][0].post(
            "/api/salas", json={"game": "onecard", "options": {"config": {"players": 4}}}
        )
        code = r.json()["code"]
        for i, (c, _) in enumerate(clients[1:], 1):
            await c.post(f"/api/salas/{code}/unirse", json={"name": f"P{i}"})
    finally:
        for c, _ in clients:
            await c.aclose()
    cookies = [cookie for _, cookie in clients]
    async with websockets.connect(
        ws_url, additional_headers={"Cookie": f"tapete_guest={cookies[0]}"}
    ) as ws:
        await ws.send(json.dumps({"type": "enter", "room": code}))
        state = json.loads(await ws.recv())
        await ws.send(json.dumps({"type": "lobby", "action": "start", "version": state["version"]}))
        while True:
            msg = json.loads(await ws.recv())
            if msg.get("type") == "lobby" and msg.get("game_id"):
                return Table(msg["game_id"], code=code), cookies


AGAINST_THREE: dict[str, Any] = {"config": {"players": 4}}
"""A practice game of One Card against three bots (normal)."""
AGAINST_MAESTRO: dict[str, Any] = {"config": {"players": 2}, "level": "maestro"}
"""A practice game of One Card heads-up against maestro."""


async def new_practice(
    base: str,
    cookie: str,
    body: dict[str, Any],
    stats: Stats,
    answered: asyncio.Future[None] | None = None,
) -> str:
    """A new practice game of One Card (``body``: its options) for the guest of ``cookie``;
    refused by a full server (503), it waits the ``Retry-After`` it was told and asks again
    (each refusal's answer time counted in ``stats``). ``answered``: set at the first answer,
    yes or no."""
    async with httpx.AsyncClient(
        base_url=base, timeout=30, cookies={"tapete_guest": cookie}
    ) as client:
        while True:
            t0 = time.perf_counter()
            r = await client.post("/api/onecard/nueva", json=body)
            if answered is not None and not answered.done():
                answered.set_result(None)
            if r.status_code != 503:
                return str(r.json()["id"])
            stats.refused.append(time.perf_counter() - t0)
            stats.seated -= 1  # (between games: not at a table)
            await asyncio.sleep(float(r.headers.get("retry-after", "5")))
            stats.seated += 1


async def make_practice(
    base: str, body: dict[str, Any], stats: Stats, answered: asyncio.Future[None] | None = None
) -> tuple[Table, str]:
    """A practice game of One Card: one guest against bots (let in when the server has room)."""
    [(client, cookie)] = await guests(base, 1)
    await client.aclose()
    stats.seated += 1
    try:
        game = await new_practice(base, cookie, body, stats, answered)
    except BaseException:
        stats.seated -= 1
        raise
    return Table(game, seats=1, practice=body), cookie


async def arrive(
    bases: list[str],
    n: int,
    stats: Stats,
    think: float | None,
    stop: asyncio.Event,
    tasks: list[asyncio.Task[None]],
    answered: asyncio.Future[None],
) -> None:
    """The ``n``-th practice player arrives (made on one process, its socket on the next):
    waits to be let in if refused, then plays."""
    table, cookie = await make_practice(bases[n % len(bases)], AGAINST_THREE, stats, answered)
    base = bases[(n + 1) % len(bases)]
    tasks.append(
        asyncio.create_task(
            player(base, ws_of(base), cookie, table, 0, stats, think, stop, MIX["churn"])
        )
    )


async def harness(
    pipe: Connection, bases: list[str], think: float | None, practice: float, maestro: float
) -> None:
    """One harness process: grows its share of rooms when told, reports what it measured.
    With several server processes, each room is made on one and its four players' sockets
    are spread over all of them (most go through another process than the room's own)."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    stats = Stats()
    searched = Stats()  # (the games against maestro: apart)
    rooms = games = duels = 0
    arriving: list[asyncio.Task[None]] = []
    while True:
        command, arg = await loop.run_in_executor(None, pipe.recv)
        if command == "grow":
            if isinstance(arg, tuple):  # (rooms, practice players): --practice-share
                target_rooms, solo = arg
                answers = []
                while games < solo:  # each arrives by itself, let in or waiting
                    answers.append(loop.create_future())
                    arriving.append(
                        asyncio.create_task(
                            arrive(bases, games, stats, think, stop, tasks, answers[-1])
                        )
                    )
                    games += 1
                    if games % 16 == 0:
                        await asyncio.sleep(0.05)  # (arrivals over the step, not all at once)
                if answers:  # (every arrival let in or told to wait, before measuring)
                    await asyncio.wait(answers, timeout=120)
                arg = target_rooms
            while rooms < arg:
                batch = range(rooms, min(arg, rooms + 8))  # (rooms made 8 at a time)
                homes = [bases[i % len(bases)] for i in batch]
                made = await asyncio.gather(*(make_room(h, ws_of(h)) for h in homes))
                for i, (table, cookies) in zip(batch, made, strict=True):
                    for seat, cookie in enumerate(cookies):
                        base = bases[(i + seat) % len(bases)]
                        tasks.append(
                            asyncio.create_task(
                                player(
                                    base, ws_of(base), cookie, table, seat, stats, think, stop,
                                    MIX["churn"],
                                )
                            )
                        )  # fmt: skip
                    if MIX["spectators"] and i % round(1 / MIX["spectators"]) == 0:
                        base = bases[(i + 4) % len(bases)]  # a friend watching the room
                        [(client, watcher)] = await guests(base, 1)
                        await client.aclose()
                        tasks.append(
                            asyncio.create_task(
                                player(base, ws_of(base), watcher, table, -1, stats, think, stop)
                            )
                        )
                rooms += len(batch)
                while games < int(rooms * practice):
                    table, cookie = await make_practice(
                        bases[games % len(bases)], AGAINST_THREE, stats
                    )
                    base = bases[(games + 1) % len(bases)]
                    tasks.append(
                        asyncio.create_task(
                            player(
                                base, ws_of(base), cookie, table, 0, stats, think, stop,
                                MIX["churn"],
                            )
                        )
                    )  # fmt: skip
                    games += 1
                while duels < int(rooms * maestro):
                    home = bases[duels % len(bases)]
                    table, cookie = await make_practice(home, AGAINST_MAESTRO, searched)
                    base = bases[(duels + 1) % len(bases)]
                    tasks.append(
                        asyncio.create_task(
                            player(base, ws_of(base), cookie, table, 0, searched, think, stop)
                        )
                    )
                    duels += 1
            pipe.send(rooms * 4 + games + duels)
        elif command == "reset":
            for st in (stats, searched):
                st.latencies.clear()
                st.lags.clear()
                st.refused.clear()
                st.moves = st.errors = 0
                st.codes.clear()
            pipe.send(None)
        elif command == "report":
            pipe.send(
                (
                    list(stats.latencies), stats.moves, stats.errors, list(stats.lags),
                    list(searched.latencies), searched.moves, searched.errors,
                    list(stats.refused), rooms * 4 + stats.seated, stats.comebacks,
                    dict(stats.codes),
                )
            )  # fmt: skip
        else:
            stop.set()
            for waiting in arriving:
                waiting.cancel()
            await asyncio.gather(*arriving, *tasks, return_exceptions=True)
            pipe.send(None)
            return


MIX = {"churn": 0.0, "spectators": 0.0}
"""The harness process's players: how often a minute each leaves and comes back; the share
of rooms a friend watches."""


def harness_process(
    pipe: Connection,
    bases: list[str],
    think: float | None,
    practice: float,
    maestro: float,
    mix: dict[str, float],
) -> None:
    MIX.update(mix)
    uvloop.run(harness(pipe, bases, think, practice, maestro))


def ws_of(base: str) -> str:
    return base.replace("http://", "ws://") + "/ws"


SERVER_STOCK = [sys.executable, "-m", "tapete.cli"]
SERVER = SERVER_STOCK
"""How the harness starts ``tapete serve`` (``--gc-probe``: through bench/_gc_probe.py)."""


def start_server(
    work: Path, port: int, extra: list[str], db: str = "load.db", log_level: str = "warning"
) -> tuple[subprocess.Popen[bytes], Path]:
    """``tapete serve`` on ``work/db`` with bots at pace 0 and the per-address limits lifted;
    the process and its log (a new file each start)."""
    path = work / f"server-{port}-{time.monotonic_ns()}.log"
    log = path.open("wb")
    proc = subprocess.Popen(
        [
            *SERVER,
            "serve",
            "--port",
            str(port),
            "--db",
            db if "://" in db else str(work / db),
            "--bot-pace",
            "0",
            "--log-level",
            log_level,
            # every player of the harness comes from one address (127.0.0.1)
            "--limit",
            "sockets_per_address=1000000 games_per_minute_address=1000000",
            *extra,
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    log.close()  # (the child has its own copy)
    return proc, path


def gauges(bases: list[str], names: tuple[str, ...]) -> dict[str, float]:
    """The servers' gauges and counters of ``names`` from /metrics, summed over labels and
    processes."""
    out = dict.fromkeys(names, 0.0)
    text = "".join(httpx.get(b + "/metrics", timeout=10).text for b in bases)
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name in out:
                out[sample.name] += sample.value
    return out


def soak_rows(
    ask: Any,
    processes: int,
    pids: list[int],
    bases: list[str],
    work: Path,
    minutes: float,
    probe: bool = False,
) -> None:
    """Hold the last step for ``minutes``, a row a minute: the players' latency, errors, and
    what might grow — the servers' memory, open files, tasks, the database against the moves
    written into it — with the servers' CPU (share of one core) and how late the harness
    itself was (p99 of its players' moves past their due time). ``probe``: the servers run
    under bench/_gc_probe.py; what they left to the collector over the soak is printed."""
    print()
    print(
        "| minute | players | moves/s | p50 ms | p99 ms | max ms | errors | RSS MB | open fds "
        "| tasks | sockets | DB MB | moves written | DB bytes a move | came back | server CPU "
        "| harness late p99 ms | errors' codes |"
    )
    print(
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    )
    names = ("tapete_tasks", "tapete_sockets", "tapete_moves_total")
    first = gauges(bases, names)
    size0 = sum(f.stat().st_size for f in work.glob("load.db*"))
    if probe:
        for pid in pids:
            os.kill(pid, signal.SIGUSR1)
    for minute in range(1, int(minutes) + 1):
        ask("reset", [None] * processes)
        t0 = time.perf_counter()
        cpu0 = sum(proc_usage(pid)[0] for pid in pids)
        time.sleep(60.0)
        reports = ask("report", [None] * processes)
        elapsed = time.perf_counter() - t0
        cpu = (sum(proc_usage(pid)[0] for pid in pids) - cpu0) / elapsed
        lags = sorted(x for r in reports for x in r[3]) or [0.0]
        late = lags[min(len(lags) - 1, int(len(lags) * 0.99))]
        lat = sorted(x for r in reports for x in r[0]) or [0.0]
        moves = sum(r[1] for r in reports)
        errors = sum(r[2] for r in reports)
        players = sum(r[8] for r in reports)
        back = sum(r[9] for r in reports)
        codes: dict[str, int] = {}
        for r in reports:
            for code, n in r[10].items():
                codes[code] = codes.get(code, 0) + n
        rss = sum(proc_usage(pid)[1] for pid in pids)
        fds = sum(len(os.listdir(f"/proc/{pid}/fd")) for pid in pids)
        now = gauges(bases, names)
        size = sum(f.stat().st_size for f in work.glob("load.db*"))
        written = now["tapete_moves_total"] - first["tapete_moves_total"]
        per_move = f"{(size - size0) / written:.0f}" if written and size0 else "–"
        print(
            f"| {minute} | {players} | {moves / elapsed:.1f} | {statistics.median(lat) * 1000:.1f} "
            f"| {lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000:.1f} | {lat[-1] * 1000:.1f} "
            f"| {errors} | {rss / 2**20:.0f} | {fds} | {now['tapete_tasks']:.0f} "
            f"| {now['tapete_sockets']:.0f} | {size / 2**20:.1f} | {written:.0f} | {per_move} "
            f"| {back} | {100 * cpu:.0f}% | {late * 1000:.1f} "
            f"| {', '.join(f'{k} ×{v}' for k, v in sorted(codes.items())) or '–'} |",
            flush=True,
        )
    if probe:
        print_probe(pids, work)


def print_probe(pids: list[int], work: Path) -> None:
    """Ask each server what it left to the collector since the soak began, and print it."""
    for pid in pids:
        out = work / f"gc-{pid}.json"
        os.kill(pid, signal.SIGUSR2)
        deadline = time.monotonic() + 120
        while not out.exists() and time.monotonic() < deadline:
            time.sleep(0.5)
        time.sleep(0.5)  # (written whole)
        found = json.loads(out.read_text())
        garbage = found["garbage"]
        print(
            f"\nServer {pid}: {sum(c for c, _ in garbage.values())} objects in cycles, "
            f"{sum(b for _, b in garbage.values()) / 2**20:.1f} MB (their own sizes)"
        )
        print("| type | objects | KB |\n|---|---:|---:|")
        for kind, (count, size) in list(garbage.items())[:30]:
            print(f"| {kind} | {count} | {size / 1024:.0f} |")
        print("\nAlive now and not at the start (by type):")
        for kind, count in list(found["grown"].items())[:30]:
            print(f"- {kind}: +{count}")
        print(f"\nTables alive / closed: {found['closed_tables']}")
        rss0, rss1 = found["rss"]
        print(f"\nRSS at the start and now: {rss0 / 2**20:.0f} → {rss1 / 2**20:.0f} MB")
        if "traced" in found:
            t0, t1 = found["traced"]
            print(f"Python's allocations (traced): {t0 / 2**20:.0f} → {t1 / 2**20:.0f} MB")
        if "held" in found:
            print("\nMemory held now that was not at the start, by where it was asked for:")
            print("| where | KB |\n|---|---:|")
            for where, size in found["held"].items():
                print(f"| {where} | {size / 1024:.0f} |")


def histograms(bases: list[str]) -> dict[str, dict[float, float]]:
    """The servers' histograms from /metrics: name (with labels but ``le``) → bound → count
    (cumulative), summed over the labels but ``generation``, and over the processes."""
    out: dict[str, dict[float, float]] = {}
    text = "".join(httpx.get(b + "/metrics", timeout=10).text for b in bases)
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if not s.name.endswith("_bucket"):
                continue
            generation = s.labels.get("generation")
            name = s.name if generation is None else f"{s.name}{{{generation}}}"
            bound = float(s.labels["le"])
            out.setdefault(name, {})[bound] = out.get(name, {}).get(bound, 0.0) + s.value
    return out


def quantile(before: dict[float, float], after: dict[float, float], q: float) -> tuple[float, int]:
    """The bucket bound under which a share ``q`` of what was observed in between fell, and
    how many were."""
    bounds = sorted(after)
    counts = [after[b] - before.get(b, 0.0) for b in bounds]
    total = counts[-1] if counts else 0.0
    for b, c in zip(bounds, counts, strict=True):
        if total and c >= q * total:
            return b, int(total)
    return float("nan"), int(total)


def top_bound(before: dict[float, float], after: dict[float, float]) -> float:
    """The smallest bound under which everything observed in between fell."""
    return quantile(before, after, 1.0)[0]


def wait_up(base: str) -> None:
    for _ in range(200):
        try:
            if httpx.get(base + "/salud", timeout=0.5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"{base} does not answer")


def start_postgres(work: Path, synchronous: bool = True) -> tuple[str, list[str]]:
    """A throwaway PostgreSQL (Debian's binaries) in ``work``: its URL, and how to stop it.
    ``synchronous=False``: ``synchronous_commit=off`` (a crash of PostgreSQL may lose the
    last commits, never consistency: what SQLite's ``synchronous=NORMAL`` in WAL mode trades
    too)."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name)
    )
    if not found:
        raise SystemExit("PostgreSQL is not installed (apt-get install postgresql)")
    bin_dir = found[-1].parent
    as_pg = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    root = Path(tempfile.mkdtemp(prefix="tapete-load-pg-"))  # (its own: postgres reads it)
    if os.getuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    port = free_port()
    subprocess.run(
        [*as_pg, str(bin_dir / "initdb"), "-D", str(root / "data"), "-U", "postgres",
         "-A", "trust", "--no-sync", "-E", "UTF8"],
        check=True, capture_output=True,
    )  # fmt: skip
    ctl = [*as_pg, str(bin_dir / "pg_ctl"), "-D", str(root / "data")]
    opts = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c max_connections=200"
    if not synchronous:
        opts += " -c synchronous_commit=off"
    subprocess.run(
        [*ctl, "-l", str(root / "log"), "-w", "-o", opts, "start"], check=True, capture_output=True
    )
    return f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres", [*ctl, "-m", "fast", "stop"]


def start_redis(work: Path) -> tuple[str, subprocess.Popen[bytes]]:
    port = free_port()
    proc = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "",
         "--appendonly", "no", "--dir", str(work)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    return f"redis://127.0.0.1:{port}/0", proc


def run(
    steps: list[int],
    seconds: float,
    think: float | None,
    practice: float,
    processes: int,
    extra: list[str],
    servers: int = 1,
    postgres: bool = False,
    synchronous: bool = True,
    maestro: float = 0.0,
    practice_share: float | None = None,
    soak: float = 0.0,
    churn: float = 0.0,
    watch: float = 0.0,
) -> None:
    work = Path(tempfile.mkdtemp(prefix="tapete-load-"))
    os.environ["TAPETE_GC_PROBE"] = str(work)  # (read by bench/_gc_probe.py only)
    services: list[Any] = []
    db = "load.db"
    if postgres or servers > 1:
        db, stop_pg = start_postgres(work, synchronous)
        services.append(stop_pg)
    if servers > 1:
        redis_url, redis_proc = start_redis(work)
        services.append(redis_proc)
        extra = [*extra, "--redis", redis_url]
    ports = [free_port() for _ in range(servers)]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    started = []
    for port in ports:  # (one after another: the first migrates the database)
        started.append(start_server(work, port, extra, db=db)[0])
        wait_up(f"http://127.0.0.1:{port}")
    pids = [p.pid for p in started]
    workers: list[tuple[multiprocessing.Process, Connection]] = []
    try:
        for _ in range(processes):
            mine, theirs = multiprocessing.Pipe()
            proc = multiprocessing.Process(
                target=harness_process,
                args=(
                    theirs,
                    bases,
                    think,
                    practice,
                    maestro,
                    {"churn": churn, "spectators": watch},
                ),
            )
            proc.start()
            workers.append((proc, mine))

        def ask(command: str, args: list[Any]) -> list[Any]:
            for (_, pipe), arg in zip(workers, args, strict=True):
                pipe.send((command, arg))
            return [pipe.recv() for _, pipe in workers]

        mix = f", {practice:g} practice game(s) vs bots a room" if practice else ""
        if practice_share is not None:
            mix = f"; steps in players, {practice_share:g} of them in practice games vs 3 bots"
        if maestro:
            mix += f", {maestro:g} heads-up game(s) vs maestro a room (apart)"
        pace = "idle" if think is None else f"think {think} s"
        where = "PostgreSQL" if "://" in db else "SQLite"
        where += f" + Redis, {servers} server processes" if servers > 1 else ", one process"
        print(
            f"server pids {pids} ({where}); {pace}; {seconds} s a step; One Card rooms of 4 "
            f"humans{mix}; harness in {processes} process(es)"
        )
        print(
            "| players | moves/s | p50 ms | p99 ms | max ms | errors | RSS MB | server CPU "
            "| CPU ms/move | server p99 ms | p99 ms: move's wait for its commit / until its batch "
            "begins / a batch's commit "
            "| GC: longest pause ms ×runs, by generation | harness late p99 ms "
            "| vs maestro: moves/s, p50 / p99 ms, errors "
            "| seated | arrivals refused | refusal answered p99 / max ms |"
        )
        print(
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"
        )
        for target in steps:

            def split(n: int) -> list[int]:
                return [n // processes + (i < n % processes) for i in range(processes)]

            if practice_share is None:
                players = sum(ask("grow", split(target)))
            else:
                rooms = round(target * (1 - practice_share) / 4)
                solo = target - 4 * rooms
                players = sum(ask("grow", list(zip(split(rooms), split(solo), strict=True))))
            time.sleep(min(3.0, seconds / 4))  # everyone joined and settled
            ask("reset", [None] * processes)
            h0 = histograms(bases)
            cpu0 = sum(proc_usage(pid)[0] for pid in pids)
            t0 = time.perf_counter()
            time.sleep(seconds)
            reports = ask("report", [None] * processes)
            elapsed = time.perf_counter() - t0
            usage = [proc_usage(pid) for pid in pids]
            cpu1, rss = sum(u[0] for u in usage), sum(u[1] for u in usage)
            h1 = histograms(bases)
            move = "tapete_move_seconds_bucket"
            server_p99, _ = quantile(h0.get(move, {}), h1.get(move, {}), 0.99)
            waits = [
                quantile(h0.get(k, {}), h1.get(k, {}), 0.99)[0] * 1000
                for k in (
                    "tapete_commit_queue_seconds_bucket",
                    "tapete_commit_start_seconds_bucket",
                    "tapete_commit_seconds_bucket",
                )
            ]
            pauses = []
            for gen in range(3):
                key = f"tapete_gc_pause_seconds_bucket{{{gen}}}"
                runs = quantile(h0.get(key, {}), h1.get(key, {}), 1.0)[1]
                if runs:
                    bound = top_bound(h0.get(key, {}), h1[key])
                    pauses.append(f"{gen}: ≤ {bound * 1000:g} ×{runs}")
            lat = sorted(x for r in reports for x in r[0]) or [0.0]
            moves = sum(r[1] for r in reports)
            errors = sum(r[2] for r in reports)
            p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
            lags = sorted(x for r in reports for x in r[3]) or [0.0]
            late = lags[min(len(lags) - 1, int(len(lags) * 0.99))]
            p50 = statistics.median(lat)
            per_move = f"{1000 * (cpu1 - cpu0) / moves:.2f}" if moves else "–"
            duel = sorted(x for r in reports for x in r[4]) or [0.0]
            duel_moves = sum(r[5] for r in reports)
            duel_errors = sum(r[6] for r in reports)
            refused = sorted(x for r in reports for x in r[7])
            seated = sum(r[8] for r in reports)
            answered = (
                f"{refused[min(len(refused) - 1, int(len(refused) * 0.99))] * 1000:.1f} / "
                f"{refused[-1] * 1000:.1f}"
                if refused
                else "–"
            )
            versus = (
                f"{duel_moves / elapsed:.1f}, {statistics.median(duel) * 1000:.1f} / "
                f"{duel[min(len(duel) - 1, int(len(duel) * 0.99))] * 1000:.1f}, {duel_errors}"
                if maestro
                else "–"
            )
            print(
                f"| {players} | {moves / elapsed:.1f} | {p50 * 1000:.1f} "
                f"| {p99 * 1000:.1f} | {lat[-1] * 1000:.1f} | {errors} "
                f"| {rss / 2**20:.0f} | {100 * (cpu1 - cpu0) / elapsed:.0f}% | {per_move} "
                f"| ≤ {server_p99 * 1000:g} | ≤ {waits[0]:g} / ≤ {waits[1]:g} / ≤ {waits[2]:g} "
                f"| {', '.join(pauses)} | {late * 1000:.1f} | {versus} "
                f"| {seated} | {len(refused)} | {answered} |",
                flush=True,
            )
        if soak > 0:
            soak_rows(ask, processes, pids, bases, work, soak, probe=SERVER != SERVER_STOCK)
        ask("stop", [None] * processes)
    finally:
        for proc, _ in workers:
            proc.join(10)
            if proc.is_alive():
                proc.kill()
        for server in started:
            server.terminate()
        for server in started:
            server.wait(10)
        for service in services:
            if isinstance(service, subprocess.Popen):
                service.terminate()
                service.wait(10)
            else:
                subprocess.run(service, capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--steps", default="5,25,50,100", help="rooms of four at each step")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--idle", action="store_true", help="connect, never move")
    parser.add_argument("--practice", type=float, default=0.0, help="practice games a room")
    parser.add_argument(
        "--practice-share",
        type=float,
        default=None,
        help="steps count players; this share of them play practice games vs 3 bots (1.0: all)",
    )
    parser.add_argument(
        "--maestro", type=float, default=0.0, help="heads-up games against maestro a room"
    )
    parser.add_argument("--harness", type=int, default=1, help="harness processes")
    parser.add_argument(
        "--soak", type=float, default=0.0, help="then hold the last step this many minutes"
    )
    parser.add_argument(
        "--churn", type=float, default=0.0, help="times a minute a player leaves and comes back"
    )
    parser.add_argument(
        "--spectators", type=float, default=0.0, help="share of rooms a friend watches"
    )
    parser.add_argument("--serve", default="", help="more arguments for tapete serve")
    parser.add_argument(
        "--gc-probe",
        action="store_true",
        help="with --soak: what the servers left to the collector (add --gc-policy off; "
        "TAPETE_GC_PROBE_TRACE=1: and the memory they hold, by where it was asked for)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes as one hall (2+: on a throwaway PostgreSQL and Redis)",
    )
    parser.add_argument(
        "--postgres", action="store_true", help="one process on a throwaway PostgreSQL"
    )
    parser.add_argument(
        "--async-commit",
        action="store_true",
        help="PostgreSQL with synchronous_commit=off (this machine's fsync stalls: RESULTS.md)",
    )
    args = parser.parse_args()
    if args.gc_probe:
        global SERVER
        SERVER = [sys.executable, str(Path(__file__).with_name("_gc_probe.py"))]
    run(
        [int(x) for x in args.steps.split(",")],
        args.seconds,
        None if args.idle else args.think,
        args.practice,
        args.harness,
        args.serve.split(),
        args.processes,
        args.postgres,
        not args.async_commit,
        args.maestro,
        args.practice_share,
        args.soak,
        args.churn,
        args.spectators,
    )


if __name__ == "__main__":
    main()
