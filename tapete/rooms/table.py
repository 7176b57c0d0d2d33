"""A live game: seats, the gate, the move log, and the pieces that work around them.

One asyncio task per room owns its state and handles one message at a time (its queue:
:mod:`~tapete.rooms.inbox`). A move goes through one gate, in order: who is it → may this
seat act → is the client's version current → apply → append to the log and commit → send
every subscriber its own view with the new version (:mod:`~tapete.rooms.stream`). Errors go
back to the sender only, as data; the state is untouched. Deadlines are
:mod:`~tapete.rooms.clocks`; bots taking turns, standing in and giving hints,
:mod:`~tapete.rooms.bots`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Mapping
from typing import Any, Protocol

from tapete.aio import LeanQueue, running_loop
from tapete.games.protocol import IllegalMove
from tapete.metrics import MOVE_SECONDS, MOVES
from tapete.registry import Entry, entry
from tapete.rooms.bots import BotDriver
from tapete.rooms.clocks import Clocks
from tapete.rooms.device import Device
from tapete.rooms.guide import Step, guided_seat, step_of, words
from tapete.rooms.inbox import (
    STOP,
    BotTurn,
    ClockFire,
    GraceOver,
    JoinOver,
    Message,
    Moved,
    Send,
    Settings,
    Shared,
    Submit,
    Wake,
    error,
)
from tapete.rooms.seats import seat_names, seat_of
from tapete.rooms.stream import HISTORY, Logged, Stream
from tapete.store import GameRecord, LoggedMove, StaleWrite, Store
from tapete.store.health import cannot_write
from tapete.store.players import Rated, RatedSeat

log = logging.getLogger(__name__)


def standin_of(found: Entry) -> str | None:
    """What plays a seat whose player went, in a game among friends: ``"bot"`` (a bot
    stands in), ``"skip"`` (a game without bots plays what it says for them: El Peaje skips
    their turn), None (the table waits for them)."""
    if found.bots is not None:
        return "bot"
    return "skip" if found.game.absent is not None else None


class TableClosed(Exception):
    """The table was closed while its reader waited for it to be durable: it shows nothing
    now (its game opens again from its log, here or where it is run)."""


RECOVER_SECONDS = (0.05, 2.0)
"""After a move that could not be written, how soon the log is read again if it cannot be
read either (the database restarting), doubling up to the second figure."""


class TableEvents(Protocol):
    """What a table tells whoever runs it (:class:`~tapete.rooms.live.Live`)."""

    def stale(self, table: Table) -> None:
        """A commit found the log moved on without this table: another process of the hall
        runs the game now."""

    def ended(self, table: Table) -> None:
        """The move just committed ended a game among friends (its private room says so to
        everyone in it)."""

    def finished(self, table: Table) -> None:
        """The move just committed ended the game (any game: its logros are counted)."""


class Table:
    """One game being played. Create with :meth:`open`, which replays the move log."""

    def __init__(
        self,
        record: GameRecord,
        store: Store,
        settings: Settings | None = None,
        clocks: Mapping[str, float | None] | None = None,
        events: TableEvents | None = None,
    ) -> None:
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
        self.online = record.room_id is not None
        """A game among friends in a private room (not practice)."""
        self.clock_seconds: Mapping[str, float | None] = clocks or {}
        """The room's own clocks (a private room's online seconds), over the game's practice
        defaults; the server's settings still win (tests, an operator's --turn-seconds)."""
        self._moves = MOVES.labels(record.kind)
        self._move_seconds = MOVE_SECONDS.labels(record.kind)
        """This game's children of the two metrics of every move (labels() takes a lock)."""
        self.stream = Stream()
        self.clocks = Clocks(self)
        self.bots = BotDriver(self)
        self.queue: LeanQueue[object] = LeanQueue()
        self.idle = asyncio.Event()
        self._durable = asyncio.Event()
        """Set while the state is what the log holds: cleared from applying a move until it
        is written (or forgotten), so nobody is shown a move a crash would lose."""
        self._durable.set()
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self._recovering = False
        self._dropped: dict[int, tuple[float, asyncio.TimerHandle]] = {}
        """Human seats of a game among friends with nobody connected: since when (loop time)
        and the timer of their grace."""
        self._joining: dict[int, asyncio.TimerHandle] = {}
        """Human seats of a game among friends that nobody has come to yet since the table
        opened (a new game, or one rebuilt after a restart): the timer of their time to
        come (:attr:`Settings.join_seconds`), past which their grace begins."""
        self.events = events
        """Told when the log moved on without this table, and when a game among friends
        ends; None: a copy to read (:meth:`replica`), which commits nothing."""
        self.device = None if self.online else Device.of(self.entry, record.seats)
        """A practice game on one device passed round (None: each player on their own)."""
        self.guided = guided_seat(self.spec, record.seats)
        """The seat a guided first game tells what to do (None: not a guided game)."""
        self._guide_told: Step | None = None
        """The step the guided seat was last told."""
        self._drafts: dict[int, tuple[int, Any]] = {}
        """By seat, the last draft it had checked (Rummy's table in the making) and the
        version it was made on: a reload gives it back; nobody else ever sees it."""

    # life cycle

    @classmethod
    async def open(
        cls,
        record: GameRecord,
        store: Store,
        settings: Settings | None = None,
        clocks: Mapping[str, float | None] | None = None,
        moves: list[LoggedMove] | None = None,
        events: TableEvents | None = None,
        left: dict[str, float] | None = None,
    ) -> Table:
        """The table of ``record``, its state replayed from its log (``moves``: the log, read
        already with others' on a restart); ``events``: who is told when the log moves on
        without it or a game among friends ends; ``left``: the seconds its clocks had left
        when another process handed it over (:meth:`Clocks.left`)."""
        table = cls(record, store, settings, clocks, events)
        table.clocks.resumed = dict(left or {})
        await table._replay_log(moves)
        table._task = asyncio.create_task(table._run(), name=f"table-{table.id}")
        table.clocks.sync()
        table.bots.start()
        table._expect_players()
        return table

    @classmethod
    async def replica(
        cls, record: GameRecord, store: Store, settings: Settings | None = None
    ) -> Table:
        """The game as its log holds it, to read only (a page's data, the view): run by no
        task, no clock, no bot (another process of the hall owns it)."""
        table = cls(record, store, settings)
        await table._replay_log()
        return table

    async def moved(self) -> None:
        """Another process owns the game now: tell every connection, and stop."""
        for sub in list(self.stream.subscribers.values()):
            with contextlib.suppress(Exception):
                sub.send(Moved("table"))
        self.stream.subscribers.clear()
        await self.close()

    def _initial(self) -> Any:
        """The game before any move: a seeded deal, or the stored starting position."""
        if self.record.position is not None:
            return self.game.load(self.record.position)
        return self.game.new(self.config, self.record.seed)

    async def _replay_log(self, moves: list[LoggedMove] | None = None) -> None:
        """Rebuild the state from the log; it is replaced at once, when the log is read (a
        reader never sees a half-replayed game)."""
        if moves is None:
            moves = await self.store.moves(self.id)
        state, version, history = self._initial(), 0, []
        kept = len(moves) - HISTORY  # (only the last moves are kept to replay)
        for i, logged in enumerate(moves):
            move = self.spec.parse_move(logged.move)
            events = self.game.apply(state, logged.seat, move)
            version = logged.n
            if i >= kept:
                history.append(Logged(logged.n, logged.seat, logged.move, events).packed())
        self.state, self.version = state, version
        self.stream.history.clear()
        self.stream.history.extend(history)

    async def _recover(self) -> None:
        """The state again from the log, after a move that could not be written (or a
        bug): as often as it takes, waiting longer each time (:data:`RECOVER_SECONDS`) —
        the database may be restarting — while the caller keeps :meth:`durable` waiting,
        so that nobody is shown a move that is not in the log. :meth:`close` stops it."""
        delay, most = RECOVER_SECONDS
        self._recovering = True
        try:
            while True:
                try:
                    await self._replay_log()
                    return
                except Exception as exc:
                    log.warning(
                        "table %s: its log cannot be read (%s): again in %.2f s", self.id, exc,
                        delay,
                    )  # fmt: skip
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, most)
        finally:
            self._recovering = False

    async def durable(self) -> None:
        """Wait until the state holds no move that is not yet in the log. Whoever shows the
        room (a view, a draft's report, a hint) awaits this, then builds what it shows
        without awaiting anything else."""
        while not self._durable.is_set():
            await self._durable.wait()
        if self._closed:
            raise TableClosed(self.id)

    async def close(self) -> None:
        for _, handle in self._dropped.values():
            handle.cancel()
        self._dropped.clear()
        for handle in self._joining.values():
            handle.cancel()
        self._joining.clear()
        self._closed = True
        await self.bots.stop()
        self.clocks.stop()
        if self._task is not None:
            if self._recovering:  # (the log cannot be read: what it holds goes unshown)
                self._task.cancel()
            else:
                self.queue.put_nowait(STOP)
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for item in self.queue.drain():  # (sent as it closed: nobody will play them here)
            if isinstance(item, Submit) and not item.future.done():
                item.future.set_result(error("busy", item.lang))
        self._durable.set()  # (whoever waited is told it closed)

    @property
    def finished(self) -> bool:
        return self.game.outcome(self.state) is not None

    @property
    def subscribers(self) -> dict[int, Any]:
        return self.stream.subscribers

    @property
    def history(self) -> list[Logged]:
        """The moves kept to replay, unpacked (oldest first)."""
        return [Logged.unpacked(x) for x in self.stream.history]

    # seats

    def seat_of(self, guest: str | None) -> int | None:
        """The seat ``guest`` sits at (on one device: the device's owner's)."""
        return seat_of(self.record.seats, guest)

    def view_seat(self, guest: str | None) -> int | None:
        """The seat whose view ``guest`` is shown, and plays for: their own; on one device
        passed round, the one it was handed to (:mod:`~tapete.rooms.device`)."""
        seat = self.seat_of(guest)
        device = self.device
        if device is None or seat != device.owner:
            return seat
        return device.seat(self.state, self.game.actors(self.state), self.finished)

    def seats_json(self, viewer: int | None, lang: str = "es") -> list[Message]:
        """The seats as a page shows them, named in ``lang`` as ``viewer`` reads them (on
        one device every seat by its name: nobody there is «Tú»)."""
        out = []
        if self.device is not None:
            viewer = None
        names = seat_names(self.entry, self.record.seats, viewer, lang)
        for i, s in enumerate(self.record.seats):
            seat: Message = {"seat": i, "name": names[i], "kind": s["kind"], "you": i == viewer}
            if isinstance(s.get("worn"), dict):  # (a friend's card back, frame: public)
                seat["worn"] = s["worn"]
            out.append(seat)
        return out

    def error(self, code: str, lang: str, **params: Any) -> Message:
        """A refusal in ``lang``, in this game's words where it has its own."""
        words = self.spec.describe(IllegalMove(code, **params), lang)
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
        device = self.device is not None and seat == self.device.owner
        conn = self.stream.add(self.view_seat(guest), send, lang, device)
        if seat is not None:
            self._back(seat)
        else:
            self._presence_changed(skip=conn)
        message = self.joined(guest, lang)
        message["missed"] = self.stream.missed(since, self.version, message["seat"])
        message["presence"] = self.presence()
        return conn, message

    def joined(self, guest: str | None, lang: str = "es") -> Message:
        """What a seat (or a spectator) is shown of the game now: the ``joined`` message a
        connection gets (less who is connected, which the connection changes), which a
        table's page also carries so as to draw at once. The caller has awaited
        :meth:`durable`. On one device, ``device`` says so, and ``handover`` whom the device
        is to be handed to (their seat and name) before it shows more; while nothing is
        hidden, ``seat`` is None (the page names everyone) and the view is the first of the
        device's seats to move (what the device may do: its ``legal``)."""
        return self._joined(self.view_seat(guest), lang, self.seat_of(guest))

    def _joined(self, seat: int | None, lang: str, own: int | None = None) -> Message:
        message: Message = {
            "type": "joined",
            "game": self.id,
            "kind": self.record.kind,
            "seat": seat,
            "seats": self.seats_json(seat, lang),
            "version": self.version,
            "view": self.game.view(self.state, seat),
            "clocks": self.clocks.json(),
            "missed": [],
            "draft": self.draft_of(seat),
        }
        if seat is not None and seat == self.guided:
            self._guide_told = step_of(self.spec, self.state, seat)
            message["guide"] = words(self.spec, self._guide_told, lang)
        device = self.device
        if device is not None and own == device.owner:
            message["device"] = True
            if device.holder(self.state, self.finished) is None:
                message["seat"] = None  # (nothing hidden now: the page names everyone)
            waits = device.waits_for(self.state, self.finished)
            if waits is not None:
                name = seat_names(self.entry, self.record.seats, None, lang)[waits]
                message["handover"] = {"seat": waits, "name": name}
        return message

    def unsubscribe(self, conn: int) -> None:
        sub = self.stream.subscribers.get(conn)
        self.stream.remove(conn)
        if sub is None:
            return
        if sub.seat is not None and self.online and not self._connected(sub.seat):
            self._drop(sub.seat)
        self._presence_changed()

    # presence (games among friends): who is connected, who is away, who a bot plays for

    def _connected(self, seat: int) -> bool:
        return any(s.seat == seat for s in self.stream.subscribers.values())

    def _expect_players(self) -> None:
        """An unfinished game among friends has just opened: each of its players has
        :attr:`Settings.join_seconds` to come to it, or their grace begins (a tab closed
        between the room and its new table, a player who does not come back after a
        restart: the others are never left waiting on nobody)."""
        if not self.online or self.finished:
            return
        loop = running_loop()
        for seat, s in enumerate(self.record.seats):
            if s.get("kind") == "human" and not self._connected(seat):
                self._joining[seat] = loop.call_later(
                    self.settings.join_seconds, self.queue.put_nowait, JoinOver(seat)
                )

    def _join_over(self, over: JoinOver) -> None:
        if self._joining.pop(over.seat, None) is None or self._connected(over.seat):
            return  # they came meanwhile (or their grace began already)
        if over.seat in self.bots.left:
            return
        self._drop(over.seat)
        self._presence_changed()

    def _drop(self, seat: int) -> None:
        """Nobody is connected for ``seat`` any more: its grace begins (after the end too:
        the table then says that they went, and their room does not wait for them)."""
        joining = self._joining.pop(seat, None)
        if joining is not None:
            joining.cancel()
        if seat in self._dropped or seat in self.bots.away:
            return
        loop = running_loop()
        since = loop.time()
        handle = loop.call_later(
            self.settings.grace_seconds, self.queue.put_nowait, GraceOver(seat, since)
        )
        self._dropped[seat] = (since, handle)

    def _back(self, seat: int) -> None:
        """The player of ``seat`` is connected (again)."""
        joining = self._joining.pop(seat, None)
        if joining is not None:
            joining.cancel()
        dropped = self._dropped.pop(seat, None)
        if dropped is not None:
            dropped[1].cancel()
        was_away = seat in self.bots.away
        self.bots.returned(seat)
        if dropped is not None or was_away:
            self._presence_changed()
            self.bots.schedule()
        else:
            self._presence_changed()

    def absent_at_start(self, absent: Mapping[int, bool]) -> None:
        """A new game among friends whose room knows some players are not here: ``True``,
        away already (a stand-in plays at once, until they come back); ``False``, just gone
        (their grace begins now, as if they had dropped)."""
        for seat, away in absent.items():
            if self._connected(seat):
                continue
            if away:
                self.bots.away.add(seat)
            else:
                self._drop(seat)
        self._presence_changed()
        self.queue.put_nowait(Wake())

    def player_left(self, seat: int) -> None:
        """The player of ``seat`` left the room in the middle of the game: a bot plays the
        seat to its end (a game without bots: what the game says, El Peaje's skip)."""
        self.bots.gone(seat)
        self._presence_changed()
        self.queue.put_nowait(Wake())

    def _grace_over(self, over: GraceOver) -> None:
        dropped = self._dropped.get(over.seat)
        if dropped is None or dropped[0] != over.since:
            return  # they came back meanwhile
        del self._dropped[over.seat]
        self.bots.away.add(over.seat)
        self._presence_changed()

    def presence(self) -> Message:
        """Who is here: each seat connected or not, the seconds of grace left to one who
        dropped, whether a bot plays for it now, whether its player is away (past the grace,
        or left); how many watch without a seat; and what plays for a player away
        (:func:`standin_of`; None once the game is over)."""
        now = running_loop().time()
        bots = set(self.bots.seats())
        away = self.bots.away | self.bots.left
        seats = []
        for i, s in enumerate(self.record.seats):
            if s.get("kind") != "human":
                continue
            dropped = self._dropped.get(i)
            grace = None
            if dropped is not None:
                grace = max(0, int((dropped[0] + self.settings.grace_seconds - now) * 1000))
            seats.append(
                {
                    "seat": i,
                    "connected": self._connected(i),
                    "grace_ms": grace,
                    "bot": i in bots,
                    "away": i in away,
                }
            )
        watchers = sum(1 for s in self.stream.subscribers.values() if s.seat is None)
        standin = None if self.finished else standin_of(self.entry)
        return {"type": "presence", "seats": seats, "watchers": watchers, "standin": standin}

    def _presence_changed(self, skip: int | None = None) -> None:
        if not self.online:
            return
        message = Shared(self.presence())
        for conn, sub in list(self.stream.subscribers.items()):
            if conn == skip:
                continue
            try:
                sub.send(message)
            except Exception:
                self.stream.subscribers.pop(conn, None)

    def view_message(self, seat: int | None) -> Message:
        return {
            "type": "sync",
            "version": self.version,
            "view": self.game.view(self.state, seat),
            "clocks": self.clocks.json(),
        }

    def clocks_json(self) -> list[Message]:
        return self.clocks.json()

    # drafts (a game whose players build a layout the server checks as they go)

    def check_draft(self, guest: str | None, table: Any, lang: str = "es") -> Message:
        """Report on a draft (Rummy) without changing anything: read-only, answered at once.
        The draft is kept for this seat and this version (a reload gives it back)."""
        drafting = self.spec.drafting
        seat = self.view_seat(guest)
        if drafting is None:
            return error("unknown_type", lang, type="check")
        if seat is None:
            return self.unseated(guest, lang)
        try:
            layout = drafting.parse_layout(table)
        except IllegalMove as exc:
            return self.error(exc.code, lang, **exc.params)
        self._drafts[seat] = (self.version, table)
        return {
            "type": "checked",
            "version": self.version,
            "report": self.spec.word_draft(drafting.check(self.state, seat, layout), lang),
        }

    def draft_of(self, seat: int | None) -> Any:
        """The seat's own draft on the current version (None if it has none)."""
        if seat is None or seat not in self._drafts:
            return None
        version, draft = self._drafts[seat]
        return draft if version == self.version else None

    async def hint(self, guest: str | None, lang: str = "es") -> Message:
        return await self.bots.hint(guest, lang)

    # moves

    async def submit(
        self, guest: str | None, version: Any, move: Any, lang: str = "es"
    ) -> Message | None:
        """Pass a player's move through the gate; returns an error message, or None if applied."""
        if self._closed:
            return error("busy", lang)
        future: asyncio.Future[Message | None] = running_loop().create_future()
        self.queue.put_nowait(Submit(guest, version, self.read_move(move), future, lang))
        return await future

    def read_move(self, data: Any) -> Any:
        """A move as a player sent it, read before the gate: the move, or the
        :class:`IllegalMove` that says why it is none (a move only a clock may send is
        ``unknown_move``). Reading is pure: a malformed move costs the room nothing."""
        kind = data.get("type") if isinstance(data, dict) else None
        if isinstance(kind, str) and kind in self.spec.clock_moves:
            return IllegalMove("unknown_move")
        try:
            return self.spec.parse_move(data)
        except IllegalMove as exc:
            return exc

    async def _run(self) -> None:
        while True:
            if self.queue.empty():
                self.idle.set()
            item = await self.queue.get()
            self.idle.clear()
            if item is STOP:
                return
            try:
                if isinstance(item, Submit):
                    reply = await self._gate(item)
                    if not item.future.done():  # (its sender may have gone meanwhile)
                        item.future.set_result(reply)
                elif isinstance(item, BotTurn):
                    await self.bots.turn(item)
                elif isinstance(item, ClockFire):
                    await self._clock_fired(item)
                elif isinstance(item, GraceOver):
                    self._grace_over(item)
                elif isinstance(item, JoinOver):
                    self._join_over(item)
                await self._absent_turns()
            except asyncio.CancelledError:  # (closed while its log could not be read)
                if isinstance(item, Submit) and not item.future.done():
                    item.future.set_result(error("busy", item.lang))
                raise
            except StaleWrite:  # another process moved the log on: it owns the game
                log.warning("table %s: the log moved on without it", self.id)
                if isinstance(item, Submit) and not item.future.done():
                    item.future.set_result(error("busy", item.lang))
                if self.events is not None:
                    self.events.stale(self)
            except Exception as exc:  # a bug must not kill the room: log it, resync from the log
                full = cannot_write(exc)  # (no bug: the database cannot write now, a full disk)
                if full:
                    log.debug("table %s: a move could not be written (%s)", self.id, exc)
                else:
                    log.exception("table %s failed on %r", self.id, item)
                if isinstance(item, Submit) and not item.future.done():
                    item.future.set_result(error("unavailable" if full else "busy", item.lang))
                self._durable.clear()  # what the failure left is shown to nobody
                try:
                    await self._recover()
                finally:
                    self._durable.set()
            self.clocks.sync()
            self.bots.schedule()
            self._show_device()
            self._guide()

    async def _gate(self, sub: Submit) -> Message | None:
        seat = self.seat_of(sub.guest)
        if seat is None:
            return error("spectator", sub.lang)
        self.bots.back(seat)  # the player is back
        if self.finished:
            return error("game_over", sub.lang)
        actors = self.game.actors(self.state)
        device = self.device
        if device is not None and seat == device.owner:
            movers = device.movers(self.state, actors, False)
            if not movers:
                return self.unseated(sub.guest, sub.lang)
        elif seat in actors:
            movers = [seat]
        else:
            return error("not_your_turn", sub.lang)
        if type(sub.version) is not int or sub.version != self.version:
            err = error("stale_version", sub.lang, got=sub.version, current=self.version)
            err["sync"] = self.view_message(self.view_seat(sub.guest))
            return err
        try:
            if isinstance(sub.move, IllegalMove):
                raise sub.move
            await self.commit(movers[0], sub.move)
        except IllegalMove as exc:
            return {**self.error(exc.code, sub.lang, **exc.params), "version": self.version}
        for mover in movers[1:]:  # (on one device, nothing hidden: the same for each)
            if self.finished or mover not in self.game.actors(self.state):
                break
            try:
                await self.commit(mover, sub.move)
            except IllegalMove:
                break
        self._move_seconds.observe(time.perf_counter() - sub.at)
        return None

    def unseated(self, guest: str | None, lang: str) -> Message:
        """Why ``guest``'s device plays nothing now: it waits to be handed to someone
        («Pasa el móvil a Ana»), or it is nobody's turn there; anyone else only watches."""
        device = self.device
        if device is None or self.seat_of(guest) != device.owner:
            return error("spectator", lang)
        waits = device.waits_for(self.state, self.finished)
        if waits is None:
            return error("not_your_turn", lang)
        name = seat_names(self.entry, self.record.seats, None, lang)[waits]
        return error("hand_over", lang, player=name)

    # one device passed round

    def hand_over(self, guest: str | None, seat: Any, lang: str = "es") -> Message | None:
        """The device is handed to ``seat`` («Soy Ana»): its connections are shown that
        seat's view. Refused (as data, nothing changed) if it is not a game on one device,
        not ``guest``'s device, or not that seat's turn. The caller has awaited
        :meth:`durable`."""
        device = self.device
        own = self.seat_of(guest)
        if device is None or own != device.owner:
            return error("no_device", lang)
        if type(seat) is not int or not device.hand_to(seat, self.state, self.finished):
            return error("not_your_turn", lang)
        self._show_device()
        return None

    def _guide(self) -> None:
        """A guided game: tell its seat the step it is at now, if it changed (a ``guide``
        message: ``{"key", "text"}`` in the connection's language, or None)."""
        seat = self.guided
        if seat is None:
            return
        step = step_of(self.spec, self.state, seat)
        if step == self._guide_told:
            return
        self._guide_told = step
        self.stream.tell(
            lambda sub: sub.seat == seat,
            lambda lang: {
                "type": "guide",
                "version": self.version,
                "guide": words(self.spec, step, lang),
            },
        )

    def _show_device(self) -> None:
        """Show the device's connections the seat it is to see now, if it changed: the
        ``joined`` message of that seat (after a move that passes the turn: nobody's, with
        whom to hand it to)."""
        device = self.device
        if device is None:
            return
        seat = device.seat(self.state, self.game.actors(self.state), self.finished)
        moved = {
            id(sub) for sub in self.stream.subscribers.values() if sub.device and sub.seat != seat
        }
        for sub in self.stream.subscribers.values():
            if id(sub) in moved:
                sub.seat = seat
        self.stream.tell(
            lambda sub: id(sub) in moved, lambda lang: self._joined(seat, lang, device.owner)
        )

    async def commit(self, seat: int, move: Any) -> None:
        """Apply ``move`` for ``seat``, commit it to the log, then tell everyone. Raises
        IllegalMove (nothing changed) or the store's error (the move is forgotten). Until the
        move is written (or forgotten), :meth:`durable` waits."""
        move_json = self.spec.move_json(move)
        self._durable.clear()
        try:
            await self._apply_and_write(seat, move, move_json)
        finally:
            self._durable.set()

    async def _apply_and_write(self, seat: int, move: Any, move_json: Message) -> None:
        events = self.game.apply(self.state, seat, move)  # raises IllegalMove, state untouched
        version = self.version + 1
        outcome = self.game.outcome(self.state)
        try:
            await self.store.append_move(
                self.id, version, seat, move_json, outcome, self.rated(outcome)
            )
        except Exception:
            await self._recover()  # the move was not committed: forget it
            raise
        self.version = version
        self.clocks.sync()
        logged = Logged(version, seat, move_json, events)
        self.stream.publish(logged, lambda s: self.game.view(self.state, s), self.clocks.json())
        self._moves.inc()
        if self.finished and self.events is not None:
            self.events.finished(self)
        if self.online and self.finished:
            self._presence_changed()  # (nobody plays for anyone now)
            if self.events is not None:
                self.events.ended(self)

    def rated(self, outcome: Any) -> Rated | None:
        """A rated game's result for the ratings, once it has one (RULES.md «Quick play»):
        each seat's place from the game's descriptor; a bot's seat (a bot from the start)
        not rated; a human who left, whose grace ran out, or whose seat a stand-in took
        after timeouts, last."""
        quick = self.spec.quick
        if outcome is None or not self.record.rated or quick is None or quick.places is None:
            return None
        out = self.bots.out()
        seats = tuple(
            RatedSeat(
                s.get("guest") if s.get("kind") == "human" else None,
                place,
                i in out,
            )
            for i, (s, place) in enumerate(
                zip(self.record.seats, quick.places(outcome), strict=True)
            )
        )
        return Rated(self.record.kind, seats)

    async def _absent_turns(self) -> None:
        """A game without bots among friends: play what the game says for the seats whose
        player is away (El Peaje skips their turn), while one of them must act and someone
        is still at the table (at most once round it: no spinning)."""
        absent = self.spec.absent
        if absent is None or not self.online:
            return
        away = self.bots.away | self.bots.left
        humans = {i for i, s in enumerate(self.record.seats) if s.get("kind") == "human"}
        if not away or humans <= away:
            return
        for _ in range(len(self.record.seats) + 1):
            if self.finished:
                return
            actors = self.game.actors(self.state)
            gone = self.bots.left
            todo = [
                (seat, absent(self.state, seat, seat in gone))
                for seat in sorted(away)
                if seat in actors
            ]
            move = next(((seat, m) for seat, m in todo if m is not None), None)
            if move is None:
                return
            await self.commit(*move)

    async def _clock_fired(self, fire: ClockFire) -> None:
        key = self.clocks.fired(fire)
        if key is None:
            return
        kind, seat, _ = key
        await self.commit(seat, self.game.clock_move(kind, seat))

    async def settled(self) -> None:
        """Wait until the room has nothing left to do now (for tests and shutdown)."""
        while True:
            await asyncio.sleep(0)
            if self.bots.deciding:
                await asyncio.wait(set(self.bots.deciding.values()))
                continue
            if self.queue.empty() and not self.bots.busy:
                await self.idle.wait()
                if self.queue.empty() and not self.bots.busy and not self.bots.deciding:
                    return
