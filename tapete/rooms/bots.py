"""Who plays a table's bot seats: asking each bot when it must act, off the event loop, and
keeping no seat waiting — the question of who must be asked is derived again after every
change, and a watchdog repairs a table where someone must act and nobody is deciding.

A seat is a bot's if the record says so, or while a bot stands in for a player who let
their clock run out ``takeover_after`` times in a row (until they act again)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import time
import weakref
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from tapete.aio import running_loop
from tapete.bots import Chooser
from tapete.games.protocol import IllegalMove
from tapete.metrics import BOT_SECONDS
from tapete.rooms.inbox import BotTurn, Message, error
from tapete.throttle import Throttle

if TYPE_CHECKING:
    from tapete.rooms.table import Table

log = logging.getLogger(__name__)

_HINT_POOLS: dict[int, ThreadPoolExecutor] = {}
_PROCESS_POOLS: dict[tuple[str, int], ProcessPoolExecutor] = {}

HINT_WINDOW = 60.0
"""Seconds over which ``Settings.hints_per_minute`` counts a seat's hints."""


def hint_pool(threads: int) -> ThreadPoolExecutor:
    """The threads that compute hints (``threads`` of them), shared by every table that asks
    for as many: a bot's decision runs on asyncio's default pool, so hints never keep a bot
    waiting, and many hints at once wait for each other rather than take every thread."""
    threads = max(1, threads)
    pool = _HINT_POOLS.get(threads)
    if pool is None:
        pool = _HINT_POOLS[threads] = ThreadPoolExecutor(threads, thread_name_prefix="tapete-hint")
    return pool


def _processes(kind: str, workers: int) -> ProcessPoolExecutor:
    """``workers`` processes for ``kind`` of work, shared by every table that asks for as
    many, started (``spawn``: a fresh interpreter, nothing of the loop's threads) when
    first needed."""
    key = (kind, max(1, workers))
    pool = _PROCESS_POOLS.get(key)
    if pool is None:
        context = multiprocessing.get_context("spawn")
        pool = _PROCESS_POOLS[key] = ProcessPoolExecutor(key[1], mp_context=context)
    return pool


def search_pool(workers: int) -> ProcessPoolExecutor:
    """The processes that compute searching bots' decisions (``Settings.search_workers``)."""
    return _processes("search", workers)


def coach_pool(workers: int) -> ProcessPoolExecutor:
    """The processes that make the coach's analyses («Análisis»), apart from the search
    pool: an analysis of a long game never keeps a searching bot waiting for its turn."""
    return _processes("coach", workers)


def close_search_pools() -> None:
    """Stop the search and coach processes (at the hall's end; later work starts them
    again)."""
    for pool in _PROCESS_POOLS.values():
        pool.shutdown(wait=True, cancel_futures=True)
    _PROCESS_POOLS.clear()


class BotDriver:
    def __init__(self, table: Table) -> None:
        self.table: Table = weakref.proxy(table)
        """The table, by a weak reference: the table holds its bot driver, and a cycle between
        them kept every game that had ended in memory until the collector's hourly sweep
        (``tapete serve`` freezes what lives long: :mod:`tapete.server.ops.gcpolicy`)."""
        self.pending: dict[int, int] = {}
        """Seat → the version its decision in flight was asked on (thinking, waiting out its
        delay, or queued), until the table handles the answer."""
        self.deciding: dict[int, asyncio.Task[None]] = {}
        """Seat → the task computing that decision (and waiting out its delay)."""
        self.passed: dict[int, int] = {}
        """Seat → the version on which the bot answered that it has nothing to do: it is not
        asked again until the version changes."""
        self.standins: set[int] = set()
        """Human seats a bot plays for now (timeouts in a row; a player away too long)."""
        self.left: set[int] = set()
        """Human seats whose player left the game: a bot plays them to its end."""
        self.away: set[int] = set()
        """Human seats whose player dropped and did not come back within the grace."""
        self.taken: set[int] = set()
        """Human seats a stand-in ever took after timeouts in this game (for the ratings:
        RULES.md «Quick play», «Leaving»)."""
        self.hinting: set[int] = set()
        """Seats whose hint is being computed (one at a time each)."""
        self._bot_seats = [i for i, s in enumerate(table.record.seats) if s.get("kind") == "bot"]
        """The seats that are a bot's from the start (asked after every move: made once)."""
        self.hinted = Throttle(table.settings.hints_per_minute, HINT_WINDOW)
        """The hints each seat had in the last minute."""
        self._watchdog: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._watchdog = asyncio.create_task(self._watch(), name=f"table-{self.table.id}-watchdog")
        self.schedule()

    async def stop(self) -> None:
        if self._watchdog is not None:
            self._watchdog.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watchdog
            self._watchdog = None
        for task in list(self.deciding.values()):
            task.cancel()

    @property
    def busy(self) -> bool:
        return bool(self.pending)

    def back(self, seat: int) -> None:
        """The player of ``seat`` acted: no bot stands in for them any more."""
        self.standins.discard(seat)

    def returned(self, seat: int) -> None:
        """The player of ``seat`` is connected again."""
        self.away.discard(seat)

    def gone(self, seat: int) -> None:
        """The player of ``seat`` left the game: a bot plays the seat to the end."""
        self.left.add(seat)
        self.schedule()

    # who plays

    def seats(self) -> list[int]:
        """Bot seats, and human seats a bot stands in for: after ``takeover_after`` timeouts in
        a row, until that player sends a move of their own."""
        table = self.table
        bots = table.entry.bots
        if bots is None:
            return []
        out = self._bot_seats
        if table.spec.timeouts is not None and bots.standin is not None:
            limit = table.settings.takeover_after
            timeouts = table.spec.timeouts(table.state)
            self.standins.update(i for i, n in enumerate(timeouts) if n >= limit)
            self.taken |= self.standins
        return out + sorted((self.standins | self.left | self.away) - set(out))

    def out(self) -> set[int]:
        """Human seats that count as left: their player left, or is away past the grace,
        or a stand-in took their seat after timeouts at some point of the game."""
        self.seats()  # (brings the stand-ins of the latest timeouts in)
        return self.left | self.away | self.taken

    def level(self, seat: int) -> str:
        """The level a bot seat plays at: its own, or the stand-in level for a human's."""
        bots = self.table.entry.bots
        assert bots is not None
        s = self.table.record.seats[seat]
        if s.get("kind") == "bot":
            return str(s.get("level") or bots.default)
        return bots.standin or bots.default

    def to_ask(self) -> list[int]:
        """Who must be asked now: the bot (or stood-in) seats among the game's actors with no
        decision in flight for the current version, that have not already answered on it
        that they have nothing to do."""
        table = self.table
        if table.finished:
            return []
        actors = set(table.game.actors(table.state))
        bots = self.seats()
        humans = set(range(len(table.record.seats))) - set(bots)
        if table.spec.bots_follow and actors & humans:
            return []  # e.g. La guerra: the computer turns after the player, "a la vez"
        return [
            seat
            for seat in bots
            if seat in actors
            and self.pending.get(seat) != table.version
            and self.passed.get(seat) != table.version
        ]

    def schedule(self) -> None:
        """Re-evaluate, after every change, who must be asked: a decision asked on an older
        version was computed on a stale view and is dropped; every seat that must act now is
        asked on the current version."""
        for seat, version in list(self.pending.items()):
            if version != self.table.version:
                self.forget(seat)
        for seat in self.to_ask():
            self.ask(seat)

    def forget(self, seat: int) -> None:
        """Drop the seat's decision in flight: its answer, if it comes, is discarded."""
        self.pending.pop(seat, None)
        task = self.deciding.pop(seat, None)
        if task is not None:
            task.cancel()

    def ask(self, seat: int) -> None:
        table = self.table
        self.forget(seat)
        level = self.level(seat)
        view = table.game.view(table.state, seat)
        self.pending[seat] = table.version
        spec = table.entry.bots
        assert spec is not None
        if level in spec.instant:
            self._decide_now(seat, view, level, table.version, spec.choose)
            return
        self._track(seat, asyncio.create_task(self._decide(seat, view, level, table.version)))

    def _track(self, seat: int, task: asyncio.Task[None]) -> None:
        """``task`` is the seat's decision in flight (:meth:`forget` cancels it)."""
        self.deciding[seat] = task

        def done(task: asyncio.Task[None]) -> None:
            if self.deciding.get(seat) is task:
                del self.deciding[seat]

        task.add_done_callback(done)

    def _decide_now(
        self, seat: int, view: Message, level: str, version: int, choose: Chooser
    ) -> None:
        """An instant level's decision (``BotSpec.instant``), on the loop: queued at once,
        or after the delay the bot asks for."""
        table = self.table
        start = time.perf_counter()
        try:
            decision = choose(view, level)
        except Exception:  # a bot must never stall its table: its first legal move is played
            log.exception("table %s: bot decision failed for seat %d", table.id, seat)
            table.queue.put_nowait(BotTurn(seat, version, None, failed=True))
            return
        took = time.perf_counter() - start
        BOT_SECONDS.labels(table.record.kind, level).observe(took)
        if decision is None:
            table.queue.put_nowait(BotTurn(seat, version, None))
            return
        move, wanted = decision
        delay = wanted * table.settings.bot_pace + table.settings.bot_delay - took
        if delay > 0:
            self._track(seat, asyncio.create_task(self._later(BotTurn(seat, version, move), delay)))
        else:
            table.queue.put_nowait(BotTurn(seat, version, move))

    async def _later(self, turn: BotTurn, delay: float) -> None:
        await asyncio.sleep(delay)
        self.table.queue.put_nowait(turn)

    async def _decide(self, seat: int, view: Message, level: str, version: int) -> None:
        """A bot's decision, computed off the event loop (an expert's search must not hold
        up the other tables), then queued after the delay the bot asks for, less the time
        it took to decide. Every answer is queued, even "nothing now", so the table handles
        it in order and re-evaluates who must be asked."""
        table = self.table
        loop = running_loop()
        start = loop.time()
        spec = table.entry.bots
        assert spec is not None
        workers = table.settings.search_workers
        try:
            if level in spec.searching:
                seconds = table.settings.search_seconds
                if spec.timed is not None:
                    call: tuple[Any, ...] = (spec.timed, view, level, seconds)
                else:
                    call = (spec.choose, view, level)
                if workers > 0:
                    decision = await loop.run_in_executor(search_pool(workers), *call)
                else:
                    decision = await asyncio.to_thread(*call)
            else:
                decision = await asyncio.to_thread(spec.choose, view, level)
        except Exception:  # a bot must never stall its table: its first legal move is played
            log.exception("table %s: bot decision failed for seat %d", table.id, seat)
            table.queue.put_nowait(BotTurn(seat, version, None, failed=True))
            return
        BOT_SECONDS.labels(table.record.kind, level).observe(loop.time() - start)
        if decision is None:
            table.queue.put_nowait(BotTurn(seat, version, None))
            return
        move, wanted = decision
        delay = wanted * table.settings.bot_pace + table.settings.bot_delay
        delay -= loop.time() - start
        if delay > 0:
            await asyncio.sleep(delay)
        table.queue.put_nowait(BotTurn(seat, version, move))

    async def turn(self, turn: BotTurn) -> None:
        """Apply a bot's answer if it still stands: it must be the seat's decision in flight,
        and the version it was asked on must be the current one (a decision computed on a
        stale view is dropped; :meth:`schedule` asks again if the seat must still act). It is
        tried as it is (a Rummy play is a whole table, not one of ``legal_moves``)."""
        table = self.table
        if self.pending.get(turn.seat) != turn.version:
            return  # superseded: a fresh decision was asked, or none is wanted
        del self.pending[turn.seat]
        if (
            turn.version != table.version
            or table.finished
            or turn.seat not in table.game.actors(table.state)
        ):
            return
        if turn.move is None and not turn.failed:
            self.passed[turn.seat] = turn.version  # nothing to do until the table moves
            return
        if turn.move is not None:
            try:
                await table.commit(turn.seat, table.spec.parse_move(turn.move))
                return
            except IllegalMove as exc:
                log.warning("table %s: bot move refused (%s): %r", table.id, exc.code, turn.move)
        # a bot must never stall its table: its first legal move instead
        fallback = table.game.legal_moves(table.state, turn.seat)
        if fallback:
            await table.commit(turn.seat, fallback[0])
        else:  # nothing it could play: not asked again on this version (no spinning)
            self.passed[turn.seat] = turn.version

    # the watchdog

    async def _watch(self) -> None:
        """Every ``watchdog_seconds``, check that no bot seat that must act is left unasked."""
        while True:
            await asyncio.sleep(max(self.table.settings.watchdog_seconds, 0.01))  # never busy
            try:
                self.check()
            except Exception:  # never let the watchdog die
                log.exception("table %s: the bot watchdog failed", self.table.id)

    def check(self) -> list[int]:
        """Find the bot seats that must act on the current version with nobody deciding for
        them, warn, and ask them. Returns those seats.

        Checked only while the table is idle (nothing queued, nothing being handled): then a
        decision in flight is a live task, asked on the current version; a busy table
        re-evaluates after every message anyway."""
        table = self.table
        if table.finished or not table.idle.is_set() or not table.queue.empty():
            return []
        stuck = self.to_ask()  # must act, and nothing asked on this version
        for seat, version in self.pending.items():
            task = self.deciding.get(seat)
            if version == table.version and (task is None or task.done()):
                stuck.append(seat)  # recorded as asked, but nobody is deciding
        for seat in stuck:
            log.warning(
                "table %s: bot seat %d must act on version %d and nobody is deciding for it;"
                " asking it",
                table.id,
                seat,
                table.version,
            )
            self.ask(seat)
        return stuck

    # hints

    async def hint(self, guest: str | None, lang: str = "es") -> Message:
        """The move the game's hint level would make for this player now (Rummy's expert),
        computed on the hints' own threads (:func:`hint_pool`); the page shows it, nothing is
        played. One seat gets one hint at a time and ``hints_per_minute`` at most: past
        that, ``too_fast``."""
        table = self.table
        seat = table.view_seat(guest)
        if seat is None:
            return table.unseated(guest, lang)
        bots = table.entry.bots
        if bots is None or bots.hint is None:
            return error("unknown_type", lang, type="hint")
        if table.online:  # the expert's play would be an unfair help among friends
            return error("no_hints_online", lang)
        if seat in self.hinting or not self._hint_allowed(seat):
            return error("too_fast", lang)
        await table.durable()
        if seat not in table.game.actors(table.state):
            return error("not_your_turn", lang)
        view, version = table.game.view(table.state, seat), table.version
        self.hinting.add(seat)
        try:
            loop = running_loop()
            pool = hint_pool(table.settings.hint_threads)
            decision = await loop.run_in_executor(pool, bots.choose, view, bots.hint)
        except Exception:  # a failing search is no hint, not a broken socket
            log.exception("table %s: the hint search failed for seat %d", table.id, seat)
            return error("busy", lang)
        finally:
            self.hinting.discard(seat)
        move = decision[0] if decision is not None else None
        return {"type": "hint", "version": version, "move": move}

    def _hint_allowed(self, seat: int) -> bool:
        """Count a hint for ``seat``, unless it had ``hints_per_minute`` in the last minute."""
        if self.hinted.blocked(seat):
            return False
        self.hinted.hit(seat)
        return True
