"""A live game: seats, bots taking turns, the move log, and the versioned event stream.

One asyncio task per room owns its state and handles one message at a time. A
move goes through one gate, in order: who is it → may this seat act → is the
client's version current → apply → append to the log and commit → send every
subscriber its own view with the new version. Errors go back to the sender
only, as data; the state is untouched.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tapete.games.protocol import IllegalMove
from tapete.i18n import N_, SHARED, text
from tapete.i18n.errors import describe
from tapete.registry import entry
from tapete.store import GameRecord, Store

log = logging.getLogger(__name__)

Message = dict[str, Any]
Send = Callable[[Message], None]
"""Queue a message for one connection; never blocks the room."""

HISTORY = 512
"""How many past moves a room keeps to replay to a client that reconnects."""


@dataclass(slots=True)
class Subscriber:
    seat: int | None
    send: Send
    lang: str = "es"


@dataclass(slots=True)
class Logged:
    version: int
    seat: int
    move: Message
    events: list[Message]


@dataclass(slots=True)
class _Submit:
    guest: str | None
    version: Any
    move: Any
    future: asyncio.Future[Message | None] = field(repr=False)
    lang: str = "es"


@dataclass(slots=True)
class _BotTurn:
    seat: int
    version: int
    """The version the bot was asked on: its decision stands for that version only."""
    move: Message | None
    """None: nothing to do now (or, with ``failed``, the bot failed to decide)."""
    failed: bool = False
    """The bot raised: it plays its first legal move instead."""


@dataclass(slots=True)
class _ClockFire:
    key: tuple[str, int, Any]


@dataclass(slots=True)
class _Clock:
    kind: str
    seat: int
    instance: Any


@dataclass(frozen=True, slots=True)
class Settings:
    """How a room runs: bots' pace, clocks. Tests freeze or hurry bots with these."""

    bot_pace: float = 1.0
    """Multiplies the delay each bot asks for (0: bots act at once)."""
    bot_delay: float = 0.0
    """Added to every bot decision."""
    clocks: Mapping[str, float | None] = field(default_factory=dict)
    """Seconds for a kind of clock, over the game's practice default (``GameSpec.clocks``);
    None stops that kind. ``{"turn": 30}`` puts a turn clock on every game that has one."""
    takeover_after: int = 3
    """Timeouts in a row after which a bot plays an absent player's seat."""
    test_api: bool = False
    """Let the JSON API start games from a seed or a position (browser tests only)."""
    watchdog_seconds: float = 5.0
    """How often a room checks that every bot seat that must act is being asked."""


_STOP = object()


def error(code: str, lang: str = "es", message: str | None = None, **params: Any) -> Message:
    """An error message for the socket: a stable code and a sentence for the player."""
    words = message if message is not None else describe(code, lang, **params)
    return {"type": "error", "code": code, "message": words}


class Room:
    """One game being played. Create with :meth:`open`, which replays the move log."""

    def __init__(self, record: GameRecord, store: Store, settings: Settings | None = None) -> None:
        self.record = record
        self.id = record.id
        self.store = store
        self.entry = entry(record.kind)
        self.spec = self.entry.game
        self.game = self.spec.rules
        self.config = self.spec.parse_config(record.config)
        self.state = self._initial()
        self.version = 0
        self.settings = settings or Settings()
        self.history: deque[Logged] = deque(maxlen=HISTORY)
        self.subscribers: dict[int, Subscriber] = {}
        self._ids = itertools.count(1)
        self._queue: asyncio.Queue[object] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._pending_bots: dict[int, int] = {}
        """Seat → the version its decision in flight was asked on (thinking, waiting out its
        delay, or queued), until the room handles the answer."""
        self._deciding: dict[int, asyncio.Task[None]] = {}
        """Seat → the task computing that decision (and waiting out its delay)."""
        self._passed: dict[int, int] = {}
        """Seat → the version on which the bot answered that it has nothing to do: it is not
        asked again until the version changes."""
        self._watchdog: asyncio.Task[None] | None = None
        self._standins: set[int] = set()
        self._clocks: dict[tuple[str, int, Any], tuple[asyncio.TimerHandle, float]] = {}
        self.idle = asyncio.Event()
        self._drafts: dict[int, tuple[int, Any]] = {}
        """By seat, the last draft it had checked (Rummy's table in the making) and the
        version it was made on: a reload gives it back; nobody else ever sees it."""

    # life cycle

    @classmethod
    async def open(cls, record: GameRecord, store: Store, settings: Settings | None = None) -> Room:
        room = cls(record, store, settings)
        await room._replay_log()
        room._task = asyncio.create_task(room._run(), name=f"room-{room.id}")
        room._watchdog = asyncio.create_task(room._watch(), name=f"room-{room.id}-watchdog")
        room._sync_clocks()
        room._schedule_bots()
        return room

    def _initial(self) -> Any:
        """The game before any move: a seeded deal, or the stored starting position."""
        if self.record.position is not None:
            return self.game.load(self.record.position)
        return self.game.new(self.config, self.record.seed)

    async def _replay_log(self) -> None:
        self.state = self._initial()
        self.version = 0
        self.history.clear()
        for logged in await self.store.moves(self.id):
            move = self.spec.parse_move(logged.move)
            events = self.game.apply(self.state, logged.seat, move)
            self.version = logged.n
            self.history.append(Logged(logged.n, logged.seat, logged.move, events))

    async def close(self) -> None:
        if self._watchdog is not None:
            self._watchdog.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watchdog
            self._watchdog = None
        for handle, _ in self._clocks.values():
            handle.cancel()
        self._clocks.clear()
        for task in list(self._deciding.values()):
            task.cancel()
        if self._task is not None:
            self._queue.put_nowait(_STOP)
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    @property
    def finished(self) -> bool:
        return self.game.outcome(self.state) is not None

    # seats

    def seat_of(self, guest: str | None) -> int | None:
        if guest is None:
            return None
        for i, seat in enumerate(self.record.seats):
            if seat.get("kind") == "human" and seat.get("guest") == guest:
                return i
        return None

    def seats_json(self, viewer: int | None, lang: str = "es") -> list[Message]:
        """The seats as a page shows them: a bot's name (a message id) in ``lang``."""
        out = []
        for i, s in enumerate(self.record.seats):
            name = str(s.get("name") or "")
            if s["kind"] == "bot" and name:
                name = text(self.spec.key, lang, name, n=s.get("n", i))
            elif not name:
                name = text(SHARED, lang, N_("Tú") if i == viewer else N_("Jugador {n}"), n=i + 1)
            out.append({"seat": i, "name": name, "kind": s["kind"], "you": i == viewer})
        return out

    def error(self, code: str, lang: str, **params: Any) -> Message:
        """A refusal in ``lang``, in this game's words where it has its own."""
        words = describe(code, lang, self.spec.key, self.spec.messages, self.spec.params, **params)
        return {"type": "error", "code": code, "message": words}

    # subscribers

    def subscribe(
        self, guest: str | None, send: Send, since: int | None, lang: str = "es"
    ) -> tuple[int, Message]:
        """Register a connection; returns its id and the ``joined`` message for it.

        With ``since`` (the last version the client saw) and the moves since then
        still in memory, ``missed`` lists them; otherwise the view alone resyncs.
        """
        seat = self.seat_of(guest)
        conn = next(self._ids)
        self.subscribers[conn] = Subscriber(seat=seat, send=send, lang=lang)
        missed: list[Message] | None = None
        if isinstance(since, int) and 0 <= since <= self.version:
            first = self.version - len(self.history) + 1
            if since + 1 >= first:
                missed = [self._update(x, seat) for x in self.history if x.version > since]
        message = {
            "type": "joined",
            "game": self.id,
            "kind": self.record.kind,
            "seat": seat,
            "seats": self.seats_json(seat, lang),
            "version": self.version,
            "view": self.game.view(self.state, seat),
            "clocks": self.clocks_json(),
            "missed": missed,
            "draft": self.draft_of(seat),
        }
        return conn, message

    def draft_of(self, seat: int | None) -> Any:
        """The seat's own draft on the current version (None if it has none)."""
        if seat is None or seat not in self._drafts:
            return None
        version, draft = self._drafts[seat]
        return draft if version == self.version else None

    def unsubscribe(self, conn: int) -> None:
        self.subscribers.pop(conn, None)

    def view_message(self, seat: int | None) -> Message:
        return {
            "type": "sync",
            "version": self.version,
            "view": self.game.view(self.state, seat),
            "clocks": self.clocks_json(),
        }

    def clocks_json(self) -> list[Message]:
        """The running clocks, with the milliseconds left, for the page's countdowns."""
        now = asyncio.get_running_loop().time()
        return [
            {"kind": kind, "seat": seat, "ms": max(0, int((deadline - now) * 1000))}
            for (kind, seat, _), (_, deadline) in self._clocks.items()
        ]

    def check_draft(self, guest: str | None, table: Any, lang: str = "es") -> Message:
        """Report on a draft (Rummy) without changing anything: read-only, answered at once."""
        drafting = self.spec.drafting
        seat = self.seat_of(guest)
        if drafting is None:
            return error("unknown_type", lang, type="check")
        if seat is None:
            return error("spectator", lang)
        try:
            layout = drafting.parse_layout(table)
        except IllegalMove as exc:
            return self.error(exc.code, lang, **exc.params)
        self._drafts[seat] = (self.version, table)
        return {
            "type": "checked",
            "version": self.version,
            "report": drafting.check(self.state, seat, layout),
        }

    # moves

    async def submit(
        self, guest: str | None, version: Any, move: Any, lang: str = "es"
    ) -> Message | None:
        """Pass a player's move through the gate; returns an error message, or None if applied."""
        future: asyncio.Future[Message | None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Submit(guest, version, move, future, lang))
        return await future

    async def _run(self) -> None:
        while True:
            if self._queue.empty():
                self.idle.set()
            item = await self._queue.get()
            self.idle.clear()
            if item is _STOP:
                return
            try:
                if isinstance(item, _Submit):
                    item.future.set_result(await self._gate(item))
                elif isinstance(item, _BotTurn):
                    await self._bot_turn(item)
                elif isinstance(item, _ClockFire):
                    await self._clock_fired(item)
            except Exception:  # a bug must not kill the room: log it, resync from the log
                log.exception("room %s failed on %r", self.id, item)
                if isinstance(item, _Submit) and not item.future.done():
                    item.future.set_result(error("busy", item.lang))
                await self._replay_log()
            self._sync_clocks()
            self._schedule_bots()

    async def _gate(self, sub: _Submit) -> Message | None:
        seat = self.seat_of(sub.guest)
        if seat is None:
            return error("spectator", sub.lang)
        self._standins.discard(seat)  # the player is back
        if self.finished:
            return error("game_over", sub.lang)
        if seat not in self.game.actors(self.state):
            return error("not_your_turn", sub.lang)
        if type(sub.version) is not int or sub.version != self.version:
            err = error("stale_version", sub.lang, got=sub.version, current=self.version)
            err["sync"] = self.view_message(seat)
            return err
        if isinstance(sub.move, dict) and sub.move.get("type") in self.spec.clock_moves:
            return {**error("unknown_move", sub.lang), "version": self.version}
        try:
            move = self.spec.parse_move(sub.move)
            await self._commit(seat, move)
        except IllegalMove as exc:
            return {**self.error(exc.code, sub.lang, **exc.params), "version": self.version}
        return None

    async def _commit(self, seat: int, move: Any) -> None:
        move_json = self.spec.move_json(move)
        events = self.game.apply(self.state, seat, move)  # raises IllegalMove, state untouched
        version = self.version + 1
        try:
            await self.store.append_move(
                self.id, version, seat, move_json, self.game.outcome(self.state)
            )
        except Exception:
            await self._replay_log()  # the move was not committed: forget it
            raise
        self.version = version
        logged = Logged(version, seat, move_json, events)
        self.history.append(logged)
        self._sync_clocks()
        self._broadcast(logged)

    def _update(self, logged: Logged, seat: int | None) -> Message:
        return {
            "type": "update",
            "version": logged.version,
            "seat": logged.seat,
            "move": logged.move,
            "events": [_redact(e, seat) for e in logged.events],
        }

    def _broadcast(self, logged: Logged) -> None:
        clocks = self.clocks_json()
        for conn, sub in list(self.subscribers.items()):
            try:
                message = self._update(logged, sub.seat)
                message["view"] = self.game.view(self.state, sub.seat)
                message["clocks"] = clocks
                sub.send(message)
            except Exception:
                self.subscribers.pop(conn, None)

    # bots and absent players

    def _bot_seats(self) -> list[int]:
        """Bot seats, and human seats a bot stands in for: after ``takeover_after`` timeouts in
        a row, until that player sends a move of their own."""
        if self.entry.bots is None:
            return []
        out = [i for i, s in enumerate(self.record.seats) if s.get("kind") == "bot"]
        if self.spec.timeouts is not None and self.entry.bots.standin is not None:
            limit = self.settings.takeover_after
            timeouts = self.spec.timeouts(self.state)
            self._standins.update(i for i, n in enumerate(timeouts) if n >= limit)
        return out + sorted(self._standins - set(out))

    def _to_ask(self) -> list[int]:
        """Who must be asked now: the bot (or stood-in) seats among the game's actors with no
        decision in flight for the current version, that have not already answered on it
        that they have nothing to do."""
        if self.finished:
            return []
        actors = set(self.game.actors(self.state))
        bots_ = self._bot_seats()
        humans = set(range(len(self.record.seats))) - set(bots_)
        if self.spec.bots_follow and actors & humans:
            return []  # e.g. La guerra: the computer turns after the player, "a la vez"
        return [
            seat
            for seat in bots_
            if seat in actors
            and self._pending_bots.get(seat) != self.version
            and self._passed.get(seat) != self.version
        ]

    def _schedule_bots(self) -> None:
        """Re-evaluate, after every change, who must be asked: a decision asked on an older
        version was computed on a stale view and is dropped; every seat that must act now is
        asked on the current version."""
        for seat, version in list(self._pending_bots.items()):
            if version != self.version:
                self._forget(seat)
        for seat in self._to_ask():
            self._ask(seat)

    def _forget(self, seat: int) -> None:
        """Drop the seat's decision in flight: its answer, if it comes, is discarded."""
        self._pending_bots.pop(seat, None)
        task = self._deciding.pop(seat, None)
        if task is not None:
            task.cancel()

    def _ask(self, seat: int) -> None:
        self._forget(seat)
        level = self._level(seat)
        view = self.game.view(self.state, seat)
        self._pending_bots[seat] = self.version
        task = asyncio.create_task(self._decide(seat, view, level, self.version))
        self._deciding[seat] = task

        def done(task: asyncio.Task[None]) -> None:
            if self._deciding.get(seat) is task:
                del self._deciding[seat]

        task.add_done_callback(done)

    async def _decide(self, seat: int, view: Message, level: str, version: int) -> None:
        """A bot's decision, computed off the event loop (an expert's search must not hold
        up the other rooms), then queued after the delay the bot asks for, less the time
        it took to decide. Every answer is queued, even "nothing now", so the room handles
        it in order and re-evaluates who must be asked."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        assert self.entry.bots is not None
        try:
            decision = await asyncio.to_thread(self.entry.bots.choose, view, level)
        except Exception:  # a bot must never stall its table: its first legal move is played
            log.exception("room %s: bot decision failed for seat %d", self.id, seat)
            self._queue.put_nowait(_BotTurn(seat, version, None, failed=True))
            return
        if decision is None:
            self._queue.put_nowait(_BotTurn(seat, version, None))
            return
        move, wanted = decision
        delay = wanted * self.settings.bot_pace + self.settings.bot_delay
        delay -= loop.time() - start
        if delay > 0:
            await asyncio.sleep(delay)
        self._queue.put_nowait(_BotTurn(seat, version, move))

    async def _bot_turn(self, turn: _BotTurn) -> None:
        """Apply a bot's answer if it still stands: it must be the seat's decision in flight,
        and the version it was asked on must be the current one (a decision computed on a
        stale view is dropped; :meth:`_schedule_bots` asks again if the seat must still
        act). It is tried as it is (a Rummy play is a whole table, not one of
        ``legal_moves``)."""
        if self._pending_bots.get(turn.seat) != turn.version:
            return  # superseded: a fresh decision was asked, or none is wanted
        del self._pending_bots[turn.seat]
        if (
            turn.version != self.version
            or self.finished
            or turn.seat not in self.game.actors(self.state)
        ):
            return
        if turn.move is None and not turn.failed:
            self._passed[turn.seat] = turn.version  # nothing to do until the table moves
            return
        if turn.move is not None:
            try:
                await self._commit(turn.seat, self.spec.parse_move(turn.move))
                return
            except IllegalMove as exc:
                log.warning("room %s: bot move refused (%s): %r", self.id, exc.code, turn.move)
        # a bot must never stall its table: its first legal move instead
        fallback = self.game.legal_moves(self.state, turn.seat)
        if fallback:
            await self._commit(turn.seat, fallback[0])
        else:  # nothing it could play: not asked again on this version (no spinning)
            self._passed[turn.seat] = turn.version

    # the watchdog

    async def _watch(self) -> None:
        """Every ``watchdog_seconds``, check that no bot seat that must act is left unasked."""
        while True:
            await asyncio.sleep(max(self.settings.watchdog_seconds, 0.01))  # never a busy loop
            try:
                self._check_bots()
            except Exception:  # never let the watchdog die
                log.exception("room %s: the bot watchdog failed", self.id)

    def _check_bots(self) -> list[int]:
        """Find the bot seats that must act on the current version with nobody deciding for
        them, warn, and ask them. Returns those seats.

        Checked only while the room is idle (nothing queued, nothing being handled): then a
        decision in flight is a live task, asked on the current version; a busy room
        re-evaluates after every message anyway."""
        if self.finished or not self.idle.is_set() or not self._queue.empty():
            return []
        stuck = self._to_ask()  # must act, and nothing asked on this version
        for seat, version in self._pending_bots.items():
            task = self._deciding.get(seat)
            if version == self.version and (task is None or task.done()):
                stuck.append(seat)  # recorded as asked, but nobody is deciding
        for seat in stuck:
            log.warning(
                "room %s: bot seat %d must act on version %d and nobody is deciding for it;"
                " asking it",
                self.id,
                seat,
                self.version,
            )
            self._ask(seat)
        return stuck

    def _level(self, seat: int) -> str:
        """The level a bot seat plays at: its own, or the stand-in level for a human's."""
        bots = self.entry.bots
        assert bots is not None
        s = self.record.seats[seat]
        if s.get("kind") == "bot":
            return str(s.get("level") or bots.default)
        return bots.standin or bots.default

    async def hint(self, guest: str | None, lang: str = "es") -> Message:
        """The move the game's hint level would make for this player now (Rummy's expert),
        computed off the loop; the page shows it, nothing is played."""
        seat = self.seat_of(guest)
        if seat is None:
            return error("spectator", lang)
        bots = self.entry.bots
        if bots is None or bots.hint is None:
            return error("unknown_type", lang, type="hint")
        if seat not in self.game.actors(self.state):
            return error("not_your_turn", lang)
        view = self.game.view(self.state, seat)
        decision = await asyncio.to_thread(bots.choose, view, bots.hint)
        move = decision[0] if decision is not None else None
        return {"type": "hint", "version": self.version, "move": move}

    # clocks

    def _wanted_clocks(self) -> set[tuple[str, int, Any]]:
        if self.finished:
            return set()
        wanted = set()
        for kind, seat, instance in self.game.clocks(self.state):
            if self._seconds(kind) is not None:
                wanted.add((kind, seat, instance))
        return wanted

    def _seconds(self, kind: str) -> float | None:
        """How long a clock of ``kind`` runs here: the room's setting, else the game's
        practice default; None: it does not run (a kind the game never declared neither)."""
        declared = self.spec.clocks.get(kind)
        if declared is None:
            log.warning("room %s: clock kind %r is not declared by its game", self.id, kind)
            return None
        if kind in self.settings.clocks:
            return self.settings.clocks[kind]
        return declared.practice

    def _sync_clocks(self) -> None:
        """Start the clocks the game asks for now; stop those it no longer does."""
        wanted = self._wanted_clocks()
        for key in list(self._clocks):
            if key not in wanted:
                self._clocks.pop(key)[0].cancel()
        loop = asyncio.get_running_loop()
        for key in wanted - set(self._clocks):
            seconds = self._seconds(key[0]) or 0.0
            handle = loop.call_later(seconds, self._queue.put_nowait, _ClockFire(key))
            self._clocks[key] = (handle, loop.time() + seconds)

    async def _clock_fired(self, fire: _ClockFire) -> None:
        if self._clocks.pop(fire.key, None) is None or fire.key not in self._wanted_clocks():
            return
        kind, seat, _ = fire.key
        move = self.game.clock_move(kind, seat)
        await self._commit(seat, move)

    async def settled(self) -> None:
        """Wait until the room has nothing left to do now (for tests and shutdown)."""
        while True:
            await asyncio.sleep(0)
            if self._deciding:
                await asyncio.wait(set(self._deciding.values()))
                continue
            if self._queue.empty() and not self._pending_bots:
                await self.idle.wait()
                if self._queue.empty() and not self._pending_bots and not self._deciding:
                    return


def _redact(event: Message, seat: int | None) -> Message:
    """Events are public but for ``secret`` (e.g. the cards a player drew): only the event's
    own seat receives it."""
    if "secret" in event and event.get("seat") != seat:
        return {k: v for k, v in event.items() if k != "secret"}
    return event
