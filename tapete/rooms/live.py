"""What this process runs of the hall: its tables (:mod:`~tapete.rooms.tables`), its private
rooms (:mod:`~tapete.rooms.private_rooms`) and the leases by which it runs them
(:mod:`~tapete.rooms.ownership`), and what spans them: a private room and its current table
are found, opened, taken over and let go together; a room starts its games on the tables;
a change to a room another process runs is asked of that process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import msgspec

from tapete.aio import running_loop
from tapete.cluster import Node
from tapete.rooms.inbox import Message, Settings, error
from tapete.rooms.logros import Logros
from tapete.rooms.messages import RoomActionType
from tapete.rooms.ownership import Elsewhere, Ownership, room_unit, table_unit
from tapete.rooms.private_room import PrivateRoom, room_error
from tapete.rooms.private_rooms import PrivateRooms, is_code
from tapete.rooms.table import Table
from tapete.rooms.tables import Tables

log = logging.getLogger(__name__)


class ActRequest(msgspec.Struct, array_like=True, frozen=True):
    """A private room's action asked of the process that runs the room."""

    code: str
    guest: str | None
    action: RoomActionType
    lang: str


class ActAnswer(msgspec.Struct, array_like=True, frozen=True):
    """What that process answers: ``done`` and the room's reply (an error message, or
    None: done), or not done (the room is not run there any more: ask again)."""

    done: bool
    reply: dict[str, Any] | None


_encode = msgspec.msgpack.Encoder().encode
_request = msgspec.msgpack.Decoder(ActRequest).decode
_answer = msgspec.msgpack.Decoder(ActAnswer).decode


class Live:
    """This process's tables and private rooms. Without a ``node`` it runs every one of the
    hall's; with one (several processes on Redis), those whose lease it holds, and it finds
    which process runs the others (:class:`~tapete.rooms.ownership.Elsewhere`)."""

    def __init__(
        self,
        store: Any,
        settings: Settings | None = None,
        idle_seconds: float = 60.0,
        node: Node | None = None,
    ) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.node = node
        self.ownership = Ownership(node)
        self.tables = Tables(
            store, self.settings, self.ownership, self, self._release, idle_seconds
        )
        self.rooms = PrivateRooms(
            store, self.ownership, self, self._release, self.settings.grace_seconds
        )
        self._sweeper: asyncio.Task[None] | None = None
        self._chores: set[asyncio.Task[None]] = set()
        self.logros = Logros(store)
        """Counting the logros of finished games (:mod:`tapete.rooms.logros`)."""

    async def start(self) -> int:
        """Start sweeping what is idle, and (one process alone) rebuild the live games from
        their logs; returns how many. Among several processes each opens what it is asked
        for, and what a dead one ran (:meth:`orphan`)."""
        self._sweeper = asyncio.create_task(self._sweep(), name="live-sweep")
        if self.ownership.shared:
            return 0
        return await self.tables.resume()

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        await self.rooms.close()
        await self.tables.close()
        chores = list(self._chores)
        for task in chores:
            task.cancel()
        await asyncio.gather(*chores, return_exceptions=True)  # (none left running on a store)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(max(self.tables.idle_seconds, 1.0))  # (never a busy loop)
            try:
                await self.tables.evict()
                await self.rooms.close_idle()
            except Exception:  # never let the sweeper die
                log.exception("evicting tables failed")

    # finding a table or a room, wherever it is run

    async def find_table(self, game_id: str) -> Table | Elsewhere | None:
        """The game's table, run here (opened from its log if need be, with its private
        room, and its lease taken when there are several processes), or which process runs
        it."""
        table = self.tables.get(game_id)
        if table is not None:
            return table
        record = await self.store.game(game_id)
        if record is None:
            return None
        owner = await self.ownership.claim(table_unit(record))
        if owner is not None:
            return Elsewhere(owner, record)
        if record.room_id is not None:  # its room comes with it
            stored = await self.store.room_by_id(record.room_id)
            if stored is not None and stored.status != "closed":
                await self.rooms.open(stored)
        return await self.tables.open(record)

    async def read_table(self, game_id: str) -> Table | None:
        """The game's table to show (a page): :meth:`find_table`'s, or a copy read from the
        log of a game another process runs (to read only)."""
        found = await self.find_table(game_id)
        if isinstance(found, Elsewhere):
            return await Table.replica(found.record, self.store, self.settings)
        return found

    async def find_room(self, code: object) -> PrivateRoom | Elsewhere | None:
        """The open room with ``code`` (six digits), run here (opened from the store if need
        be, with its table), or which process runs it."""
        if not is_code(code):
            return None
        assert isinstance(code, str)
        room = self.rooms.get(code)
        if room is not None:
            return room
        record = await self.store.room(code)
        if record is None:
            return None
        owner = await self.ownership.claim(room_unit(record.id))
        if owner is not None:
            return Elsewhere(owner, record)
        room = await self.rooms.open(record)
        if record.game_id is not None:  # its table comes with it
            game = await self.store.game(record.game_id)
            if game is not None:
                await self.tables.open(game)
        return room

    async def read_room(self, code: object) -> PrivateRoom | None:
        """The room to show (a page): :meth:`find_room`'s, or a copy read from the store of
        a room another process runs (to read only: change it with :meth:`act`)."""
        found = await self.find_room(code)
        if isinstance(found, Elsewhere):
            return PrivateRoom(found.record, self.store)
        return found

    async def room_of(self, room_id: str) -> PrivateRoom | None:
        """The private room with this id, to show (None: no such room, or closed)."""
        record = await self.store.room_by_id(room_id)
        if record is None or record.status == "closed":
            return None
        return await self.read_room(record.code)

    async def act(
        self, room: PrivateRoom, guest: str | None, action: RoomActionType, lang: str = "es"
    ) -> Message | None:
        """Do ``action`` in the room, where it is run (here, or asked of the process that
        runs it); a copy ``room`` is brought up to date."""
        if self.rooms.get(room.code) is room:
            return await room.act(guest, action, lang)
        for _ in range(3):
            found = await self.find_room(room.code)
            if found is None:
                return room_error("room_not_found", lang)
            if isinstance(found, PrivateRoom):
                reply = await found.act(guest, action, lang)
                room.record = found.record
                return reply
            assert self.node is not None
            asked = _encode(ActRequest(room.code, guest, action, lang))
            try:
                answer = _answer(await self.node.call(found.owner, asked))
            except (msgspec.DecodeError, msgspec.ValidationError):
                return error("busy", lang)  # (it failed there: said in its log)
            if answer.done:
                fresh = await self.store.room(room.code)
                if fresh is not None:
                    room.record = fresh
                return answer.reply
        return error("busy", lang)

    async def answer(self, sender: str, body: bytes) -> bytes:
        """Another process's :meth:`act` (an :class:`ActRequest`) for a room run here: its
        reply, or not done (the room is not run here any more)."""
        asked = _request(body)
        found = await self.find_room(asked.code)
        if not isinstance(found, PrivateRoom):
            return _encode(ActAnswer(False, None))
        return _encode(ActAnswer(True, await found.act(asked.guest, asked.action, asked.lang)))

    # what the tables and rooms tell (TableEvents, RoomEvents)

    def stale(self, what: Table | PrivateRoom) -> None:
        """A commit found the log moved on: another process runs it now."""
        unit = table_unit(what.record) if isinstance(what, Table) else room_unit(what.record.id)
        task = running_loop().create_task(self.lost([unit]))
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)
        self.ownership.forget(unit)

    def finished(self, table: Table) -> None:
        """A game ended: its logros are counted (in the background; the end dialog's
        question counts it at once if it comes first)."""
        task = running_loop().create_task(self._count(table.id))
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _count(self, game_id: str) -> None:
        try:
            await self.logros.count_game(game_id)
        except Exception:  # (a count failed: the next question about it counts it again)
            log.exception("counting the logros of %s failed", game_id)

    def ended(self, table: Table) -> None:
        """A room's game ended: its room tells everyone in it."""
        room = self.rooms.of_game(table.record.room_id, table.id)
        outcome = table.game.outcome(table.state)
        if room is not None and outcome is not None:
            room.game_ended(table.record.seats, outcome)

    async def start_game(
        self, room: PrivateRoom, seats: list[dict[str, Any]], absent: dict[int, bool]
    ) -> str:
        return (await self.tables.create_for_room(room.record, seats, absent)).id

    def game_over(self, room: PrivateRoom) -> bool:
        game_id = room.record.game_id
        if game_id is None:
            return True
        table = self.tables.get(game_id)
        return table is None or table.finished  # unfinished games are always open

    def player_left(self, room: PrivateRoom, guest: str) -> None:
        table = self.tables.get(room.record.game_id or "")
        if table is not None:
            seat = table.seat_of(guest)
            if seat is not None:
                table.player_left(seat)

    # several processes: what this one holds

    async def _release(self, unit: str) -> None:
        """Let ``unit`` go if nothing of it is open here any more."""
        if not self.tables.holds(unit) and not self.rooms.holds(unit):
            await self.ownership.give_back(unit)

    async def lost(self, units: list[str]) -> None:
        """Our leases on ``units`` ran out (another process may run them now): stop them
        here, and tell their connections to join again."""
        gone = set(units)
        await self.tables.moved(gone)
        await self.rooms.moved(gone)

    async def hand_over(self) -> int:
        """Draining: stop every table and room run here, each told to its connections as
        moved (the sockets relayed from other processes join again wherever it goes), the
        seconds left on each game's clocks left for the next process. Returns how many units
        were run here; the caller gives their leases back."""
        node = self.ownership.node
        units = set(node.held) if node is not None else set()
        for table in self.tables.loaded():
            unit = table_unit(table.record)
            if unit in units:
                await self.ownership.leave_clocks(unit, table.id, table.clocks.left())
        await self.tables.moved(units)
        await self.rooms.moved(units)
        return len(units)

    async def orphan(self, unit: str) -> None:
        """Take over ``unit`` from a process that died: open it from the log (a finished
        game needs nobody: let go)."""
        kind, _, ident = unit.partition(":")
        if kind == "game":
            record = await self.store.game(ident)
            if record is not None and record.outcome is None:
                await self.tables.open(record)
        elif kind == "room":
            stored = await self.store.room_by_id(ident)
            if stored is not None and stored.status != "closed":
                await self.find_room(stored.code)
        await self._release(unit)
