"""What the app holds while it runs: the store, the rooms, the cookie signer."""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import event
from starlette.requests import Request
from starlette.websockets import WebSocket

from tapete.cluster import Node, NodeHandler
from tapete.i18n import text
from tapete.mail import LogMailer, Mailer
from tapete.registry import REGISTRY, Entry
from tapete.rooms import Live, Settings
from tapete.rooms.analysis import Coaching
from tapete.rooms.bots import close_search_pools
from tapete.rooms.daily import Dailies
from tapete.rooms.matchmaker import Matchmaker
from tapete.rooms.quick_board import RedisBoard
from tapete.server.account.guests import Guests
from tapete.server.edge.limits import Limits
from tapete.server.ops.gcpolicy import GcPolicy
from tapete.server.ops.load import Load
from tapete.store import Store, migrate
from tapete.store.health import cannot_write, probe
from tapete.throttle import Counts

SWITCH_INTERVAL = 0.0005
"""Seconds the event loop's thread keeps the GIL when another thread asks for it (Python's
default: 0.005): on PostgreSQL the move writer's thread, whose every statement lets the GIL go
and takes it back; with the loop busy, each taking back waited up to the whole interval, and
the moves of the next batch with it (bench/RESULTS.md, «The writer's thread and the GIL»).
On SQLite the moves are written on the loop itself (:mod:`tapete.store.writer`); the interval
still bounds what the database's other threads (aiosqlite's) make the loop wait."""

log = logging.getLogger(__name__)

DRAIN_SECONDS = 3.0
"""``tapete serve --drain-seconds``: with several processes, how long a stop (SIGTERM) keeps
playing while ``/salud`` says it is stopping, so that the proxy (a health check every 2 s in
``deploy/Caddyfile``) sends new connections elsewhere before its games are handed over."""

SHUTDOWN_SECONDS = 5.0
"""``tapete serve --shutdown-seconds``: how long a stop (SIGTERM) waits for the requests and
sockets in progress, and then again for the hall's own parts to end (:class:`Stopping`)."""

STEP_SECONDS = 0.25
"""The least a part of the hall is given to end, even past the deadline (so that the last
parts, giving the node's leases back and closing the store, are always tried)."""

REVOKED_REFRESH_SECONDS = 2.0
"""Several processes: how often each reads the guests revoked by the others (an account
deleted through another process)."""

PROBE_SECONDS = 1.0
"""While writes fail, ``/salud`` tries one (:func:`tapete.store.health.probe`) at most this
often, to say when they work again."""

WRONG_CODES_WINDOW = 600.0
"""The window of the wrong room codes' limits (``Limits.wrong_codes_per_*``), in seconds."""


class WrongCodes:
    """Wrong room codes, counted per guest and per network address however they arrive (the
    HTTP join, a room's page, the «Unirse con código» form, the socket's ``enter``): past
    either limit every lookup by code from them is refused before the room is looked up, so
    codes cannot be walked. Counted by the whole hall (:class:`~tapete.throttle.Counts`:
    every process together when there is Redis; docs/security.md)."""

    def __init__(self, limits: Limits, counts: Counts) -> None:
        window = WRONG_CODES_WINDOW
        self.by_guest = counts.throttle("wrong_codes_guest", limits.wrong_codes_per_guest, window)
        self.by_address = counts.throttle(
            "wrong_codes_address", limits.wrong_codes_per_address, window
        )

    async def throttled(self, guest: str | None, address: str) -> bool:
        """Whether this guest or address may look a room up by code now (checked first)."""
        guest_over = guest is not None and await self.by_guest.blocked(guest)
        return guest_over or await self.by_address.blocked(address)

    async def wrong(self, guest: str | None, address: str) -> None:
        """Count a code that found no room (a socket without a guest: its address alone)."""
        if guest is not None:
            await self.by_guest.hit(guest)
        await self.by_address.hit(address)


class Full(Exception):
    """This process takes nobody new now — it is full (:class:`~tapete.server.ops.load.Load`:
    «hay mucha gente») or it is stopping (``restarting``): the app answers 503 with
    ``Retry-After``, nothing made."""

    def __init__(self, code: str = "full") -> None:
        super().__init__(code)
        self.code = code


class Stopping:
    """A stop of the hall within one deadline: each part (the rooms, the node, the store…)
    is asked to end in turn and given what is left of the time (at least
    :data:`STEP_SECONDS`); one that does not end in it is cancelled and left behind, with a
    warning naming it, and the next goes on. Nothing a stop waits for can keep the process
    from ending."""

    def __init__(self, seconds: float = SHUTDOWN_SECONDS) -> None:
        self.loop = asyncio.get_running_loop()
        self.deadline = self.loop.time() + seconds

    async def step(self, name: str, work: Awaitable[None]) -> bool:
        """Wait for ``work`` within what is left; whether it ended (and did not fail)."""
        task = asyncio.ensure_future(work)
        left = max(self.deadline - self.loop.time(), STEP_SECONDS)
        done, _ = await asyncio.wait({task}, timeout=left)
        if not done:
            task.cancel()
            log.warning("stopping: %s did not end in %.1f s; left behind", name, left)
            return False
        if task.cancelled():
            return False
        failed = task.exception()
        if failed is not None:
            log.error("stopping: %s failed", name, exc_info=failed)
            return False
        return True

    @staticmethod
    async def cancelled(task: asyncio.Task[Any] | None) -> None:
        """Cancel ``task`` and wait for it to end."""
        if task is not None and not task.done():
            task.cancel()
            await asyncio.wait({task})


class WriteHealth:
    """Whether the database writes. An error that says it cannot (a full disk, an I/O
    error: :func:`~tapete.store.health.cannot_write`), on any of the store's connections,
    makes it *failing* until a write succeeds again: a batch of moves, or the probe that
    ``/salud`` makes while failing (:meth:`check`). Said once in the log each way."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.failed_at: float | None = None
        self.wrote_at: float | None = None
        self.probed_at: float | None = None

    def watch(self, store: Store) -> None:
        """Hear every error of ``store``'s connections (pages, accounts, the move writer)."""
        for engine in (store.engine.sync_engine, store.writer.engine):
            event.listen(engine, "handle_error", self._error)
        store.writer.failures.append(self._heard)  # (its batches on the driver's connection)

    def _error(self, context: Any) -> None:
        self._heard(context.original_exception)

    def _heard(self, exc: BaseException) -> None:
        if cannot_write(exc):
            if not self.failing:
                log.warning("the database cannot write: %s", exc, exc_info=False)
            self.failed_at = self.clock()

    def wrote(self, *_: Any) -> None:
        """A write succeeded (moves committed, the probe)."""
        if self.failing:
            log.warning("the database writes again")
        self.wrote_at = self.clock()

    @property
    def failing(self) -> bool:
        failed, wrote = self.failed_at, self.wrote_at
        return failed is not None and (wrote is None or wrote < failed)

    async def check(self, store: Store) -> bool:
        """Whether writes work: while failing, a probe at most every
        :data:`PROBE_SECONDS` (no answer from it: still failing)."""
        if not self.failing:
            return True
        now = self.clock()
        if self.probed_at is not None and now - self.probed_at < PROBE_SECONDS:
            return False
        self.probed_at = now
        try:
            await probe(store.tx)
        except Exception:  # (its error was heard: still failing)
            return False
        self.wrote()
        return True


class Hall:
    def __init__(
        self,
        url: str,
        settings: Settings,
        limits: Limits | None = None,
        gc_policy: bool = False,
        redis_url: str | None = None,
        mailer: Mailer | None = None,
        sqlite_writer: str | None = None,
        watch_load: bool = False,
    ) -> None:
        self.url = url
        self.mailer: Mailer = mailer or LogMailer()
        """Where e-mail goes (``TAPETE_SMTP_URL``; none: the log)."""
        self.secret: str | None = None
        """The hall's key (cookies, e-mail codes), once started."""
        self.redis_url = redis_url
        """Several processes as one hall: Redis for who runs which room (None: this
        process runs them all)."""
        self.node: Node | None = None
        self.use_gc_policy = gc_policy
        """Once the games are back, keep the collector's pauses short and the loop's hold on
        the GIL long (:mod:`gcpolicy`, :data:`SWITCH_INTERVAL`; ``tapete serve`` unless
        ``--gc-policy off``: the process is the hall's alone; not in tests, which make many
        halls in one process)."""
        self.sqlite_writer = sqlite_writer
        """On SQLite, where the moves are written (:class:`~tapete.store.Store`)."""
        self.ws = "asgi"
        """The WebSocket implementation uvicorn was given (``tapete serve --ws``; "asgi": an
        app not served by ``tapete serve``, as in tests)."""
        self.limits = limits or Limits()
        self.load = Load(self.limits.full_cpu if watch_load else 0.0)
        """How busy this process is; full: nothing new is made (``tapete serve`` watches
        it: ``watch_load``; a test's hall, whose process runs the tests too, does not)."""
        self.watch_load = watch_load
        self.loading: asyncio.Task[None] | None = None
        self.draining = False
        """Stopping (:meth:`drain`): nothing new is made here."""
        self.drain_seconds = DRAIN_SECONDS
        self.shutdown_seconds = SHUTDOWN_SECONDS
        """How long a stop waits for the hall's parts to end (``--shutdown-seconds``)."""
        self.counts = Counts()
        """The hall's throttles: this process's own, or every process's with Redis."""
        self.made_by_guest = self.counts.throttle(
            "games_guest", self.limits.games_per_minute_guest, 60.0
        )
        self.made_by_address = self.counts.throttle(
            "games_address", self.limits.games_per_minute_address, 60.0
        )
        self.wrong_codes = WrongCodes(self.limits, self.counts)
        """Room codes that found no room, by guest and address (the page and the socket)."""
        self.writes = WriteHealth()
        """Whether the database writes (``/salud``: 503 while it does not)."""
        self.settings = replace(
            settings,
            hint_threads=self.limits.hint_threads,
            hints_per_minute=self.limits.hints_per_minute,
        )
        """How rooms run, with the limits that are theirs to keep (hints)."""
        self.store: Store | None = None
        self._live: Live | None = None
        self._matchmaker: Matchmaker | None = None
        self._coaching: Coaching | None = None
        self._dailies: Dailies | None = None
        self.guests: Guests | None = None
        self.resuming: asyncio.Task[None] | None = None
        self.revoking: asyncio.Task[None] | None = None
        """Several processes: reading the guests revoked by the others."""
        self._revoked_seen: datetime | None = None
        self.gc_policy: GcPolicy | None = None
        """Rebuilding the unfinished games, from the start on (done: all are back)."""

    async def start(self, cluster: Callable[[Node], NodeHandler] | None = None) -> None:
        """Open the store, the tables and rooms; among several processes (Redis), start this
        one's node with the handler ``cluster`` makes for it (the sockets' router: what the
        other processes send, and what becomes of this one's tables and rooms)."""
        await asyncio.to_thread(migrate, self.url)
        self.store = Store(self.url, observe=self.writes.wrote, sqlite_writer=self.sqlite_writer)
        self.writes.watch(self.store)
        self.secret = await self.store.secret()
        revoked = await self.store.accounts.revoked()
        self.guests = Guests(
            self.secret, self.limits.cookies_issued_after, {guest for guest, _ in revoked}
        )
        self._revoked_seen = max((at for _, at in revoked), default=None)
        if self.redis_url is not None:
            self.node = Node(self.redis_url)
        self._live = Live(self.store, self.settings, node=self.node)
        if self.node is not None:
            assert cluster is not None, "several processes need the sockets' router"
            await self.node.start(cluster(self.node))
            self.counts.share(self.node.redis.connection_pool)
            log.info("node %s of a hall on redis", self.node.me)
        board = RedisBoard(self.node.redis) if self.node is not None else None
        self._matchmaker = Matchmaker(
            self._live.rooms,
            self.store,
            self.settings.quick_wait,
            board=board,
            ownership=self._live.ownership,
            tables=self._live.tables,
        )
        self._matchmaker.start()
        self._coaching = Coaching(self.store, max(1, self.settings.search_workers))
        self._dailies = Dailies(self.store, self._live.tables, self.secret)
        self.resuming = asyncio.create_task(self._resume(self._live), name="resume")
        if self.node is not None:  # (one process: every deletion goes through this one)
            self.revoking = asyncio.create_task(self._read_revoked(), name="revoked")
        if self.watch_load:
            self.loading = asyncio.create_task(self.load.run(), name="load")

    async def _read_revoked(self) -> None:
        """Several processes: read every few seconds the guests the others revoked."""
        assert self.store is not None and self.guests is not None
        while True:
            await asyncio.sleep(REVOKED_REFRESH_SECONDS)
            seen = self._revoked_seen
            since = seen - timedelta(minutes=1) if seen is not None else None  # (clocks differ)
            try:
                for guest, at in await self.store.accounts.revoked(since):
                    self.guests.revoke(guest)
                    self._revoked_seen = at if seen is None else max(at, seen)
                    seen = self._revoked_seen
            except Exception:  # (the database is away: tried again)
                log.warning("reading the revoked guests failed", exc_info=True)

    def revoke(self, guest: str) -> None:
        """``guest``'s account was deleted (and its revocation stored): none of its cookies
        is read again here (the other processes read it from the store)."""
        if self.guests is not None:
            self.guests.revoke(guest)

    def revoked(self, guest: str | None) -> bool:
        """Whether ``guest``'s cookies are refused (its account was deleted)."""
        return guest is not None and self.guests is not None and guest in self.guests.revoked

    async def _resume(self, live: Live) -> None:
        """Rebuild the unfinished games after the hall answers: a game asked for meanwhile
        opens at once (bench/restart.py)."""
        t0 = asyncio.get_running_loop().time()
        try:
            resumed = await live.start()
        except Exception:
            log.exception("resuming the unfinished games failed")
            return
        seconds = asyncio.get_running_loop().time() - t0
        log.info("resumed %d unfinished games in %.2f s", resumed, seconds)
        if self.use_gc_policy:  # (tapete serve: the process is the hall's alone)
            self.gc_policy = GcPolicy()
            self.gc_policy.start()
            sys.setswitchinterval(SWITCH_INTERVAL)

    def admit(self) -> None:
        """Whether this process takes someone new (a game, a room, a place in a queue):
        :class:`Full` if it is full or stopping."""
        if self.draining:
            raise Full("restarting")
        if not self.load.admit():
            raise Full()

    async def drain(self) -> None:
        """A stop (SIGTERM) begins: take nobody new (``/salud`` says so). Among several
        processes, play on for :attr:`drain_seconds` while the proxy notices, then hand every
        table and room over — closed here, each game's clocks' time left noted, the leases
        given back, the other processes told to open them from their logs at once — before
        the sockets are told to reconnect (uvicorn closes them with 1012 next: their clients
        come back through the proxy, to the process that runs their table now)."""
        self.draining = True
        if self.node is None or self._live is None:
            return
        log.info("stopping: taking nobody new; handing over in %.1f s", self.drain_seconds)
        await asyncio.sleep(self.drain_seconds)
        t0 = time.perf_counter()
        units = await self._live.hand_over()
        await self.node.drain()
        log.info(
            "stopping: %d units handed over in %.0f ms", units, 1000 * (time.perf_counter() - t0)
        )

    async def may_create(self, request: Request | WebSocket) -> bool:
        """Count a new game or room for this guest and address; False if either has made
        too many in the last minute (nothing is made then). Counted by the whole hall. A full
        process refuses first (:class:`Full`), counting nothing."""
        self.admit()
        guest, address = guest_of(request) or "?", address_of(request)
        by_guest, by_address = self.made_by_guest, self.made_by_address
        if await by_guest.blocked(guest) or await by_address.blocked(address):
            return False
        await by_guest.hit(guest)
        await by_address.hit(address)
        return True

    async def stop(self, stopping: Stopping | None = None) -> None:
        """Stop every part of the hall this started, in order, within ``stopping``'s
        deadline (:class:`Stopping`): reading the revoked guests, the collector's policy,
        the resuming of games, the tables and private rooms (each one's task, their bots'
        decisions and clocks, the sweeper), the node (its leases given back), the store (the move
        writer, its thread and the checkpointer's, the connections)."""
        stopping = stopping or Stopping(self.shutdown_seconds)
        await stopping.step("reading revoked guests", stopping.cancelled(self.revoking))
        await stopping.step("watching the load", stopping.cancelled(self.loading))
        if self.gc_policy is not None:
            await stopping.step("the collector's policy", self.gc_policy.stop())
        await stopping.step("resuming games", stopping.cancelled(self.resuming))
        if self._matchmaker is not None:
            await stopping.step("the matchmaker", self._matchmaker.close())
        if self._live is not None:
            await stopping.step("the tables and rooms", self._live.close())
        if self._coaching is not None:
            await stopping.step("the analyses", self._coaching.close())
        await stopping.step("the search processes", asyncio.to_thread(close_search_pools))
        if self.node is not None:  # (after the rooms: every lease goes back at once)
            await stopping.step("the node", self.node.stop())
        if self.store is not None:
            await stopping.step("the store", self.store.close())

    @property
    def coaching(self) -> Coaching:
        """The coach's analyses of finished games («Análisis»)."""
        assert self._coaching is not None, "the hall has not started"
        return self._coaching

    @property
    def dailies(self) -> Dailies:
        """The deals of the day («Reto del día»): attempts and the day's tables."""
        assert self._dailies is not None, "the hall has not started"
        return self._dailies

    @property
    def matchmaker(self) -> Matchmaker:
        """«Jugar ahora»: the queues of people waiting, and the tables made of them."""
        assert self._matchmaker is not None, "the hall has not started"
        return self._matchmaker

    @property
    def live(self) -> Live:
        """The tables and private rooms this process runs."""
        assert self._live is not None, "the hall has not started"
        return self._live

    async def store_ensure(self, guest: str) -> None:
        """The guest has its row (a guest exists from the first visit, its row from the
        first thing kept of it)."""
        assert self.store is not None
        await self.store.ensure_guest(guest)

    async def store_name(self, guest: str | None) -> str | None:
        """The display name the guest chose last (remembered), if any."""
        if guest is None or self.store is None:
            return None
        return await self.store.guest_name(guest)

    async def active_game(
        self, guest: str | None, lang: str, kind: str | None = None
    ) -> dict[str, Any] | None:
        """The guest's newest unfinished game (of ``kind``), for «Continuar partida»."""
        if guest is None or self.store is None:
            return None
        records = await self.store.games_of(guest, kind)
        if not records or records[0].kind not in REGISTRY:
            return None
        r = records[0]
        return {
            "id": r.id,
            "kind": r.kind,
            "title": text(r.kind, lang, REGISTRY[r.kind].game.hall.title),
            "url": f"/partida/{r.id}",
        }


def guest_of(request: Request | WebSocket) -> str | None:
    guest = request.scope.get("state", {}).get("guest")
    return guest if isinstance(guest, str) else None


def address_of(request: Request | WebSocket) -> str:
    """The peer's address (behind a trusted proxy, the one it forwarded)."""
    return request.client.host if request.client is not None else "?"


def playable(kind: object) -> Entry | None:
    return REGISTRY.get(kind) if isinstance(kind, str) else None
