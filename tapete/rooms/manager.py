"""All the rooms of this process: creating games, finding them, resuming them on start."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from tapete.cluster import Node
from tapete.cosmetics import look
from tapete.games.protocol import IllegalMove
from tapete.registry import Entry, entry
from tapete.rooms.inbox import Message, Settings, error
from tapete.rooms.private_room import PrivateRoom, check_options, room_error, seats_for
from tapete.rooms.table import Table
from tapete.store import GameRecord, LoggedMove, RoomRecord, Store, utcnow

log = logging.getLogger(__name__)

RESUME_BATCH = 200
"""Games whose logs a restart reads in one go."""


@dataclass(frozen=True, slots=True)
class Elsewhere:
    """A game or private room that another process of the hall owns."""

    owner: str
    """That process's node id."""
    record: Any
    """Its record (a ``GameRecord``, a ``RoomRecord``), as the store holds it."""


def game_unit(record: GameRecord) -> str:
    """What one process owns with a game: the game alone (practice), or its private room
    (the room and all its games together, so that they never wait on each other)."""
    return room_unit(record.room_id) if record.room_id else f"game:{record.id}"


def room_unit(room_id: str) -> str:
    return f"room:{room_id}"


def _no_game(record: RoomRecord, seats: list[dict[str, Any]], absent: dict[int, bool]) -> Any:
    raise RuntimeError("a copy of a room to read starts no game")


def practice_seats(
    found: Entry,
    players: int,
    guest: str,
    level: str | None = None,
    worn: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Seat 0 is the guest, in what they ``worn`` (the shop's card back, frame…, as among
    friends); the others are the game's bots at ``level``, each stored as the game's
    ``n``-th bot and named only when shown (:func:`tapete.rooms.seats.seat_names`, in the
    viewer's language); a game without bots: the other seats are people around the same
    phone, with no guest of their own, and nobody's looks stand for them."""
    seats: list[dict[str, Any]] = [{"kind": "human", "guest": guest}]
    bots = found.bots
    if worn is not None and bots is not None:
        seats[0]["worn"] = worn
    for i in range(1, players):
        if bots is None:
            seats.append({"kind": "local"})
            continue
        seats.append({"kind": "bot", "level": level or bots.default, "n": i})
    return seats


class Rooms:
    """The rooms this process owns. A room is opened from its log the first time it is asked
    for, and every unfinished game is opened on :meth:`start`. A finished game nobody has
    looked at for ``idle_seconds`` is closed and dropped from memory (:meth:`evict`, every
    ``idle_seconds`` once started); asked for again, it reopens from its log."""

    def __init__(
        self,
        store: Store,
        settings: Settings | None = None,
        idle_seconds: float = 60.0,
        node: Node | None = None,
    ) -> None:
        self.store = store
        self.node = node
        """Several processes (Redis): each game and room is run by the one whose lease it
        is (:meth:`find`); without, this process runs them all."""
        if node is not None:
            node.on_lost = self._lost
            node.on_orphan = self._orphan
            node.requests["act"] = self._act_here
        self._chores: set[asyncio.Task[None]] = set()
        self.settings = settings or Settings()
        self.idle_seconds = idle_seconds
        self._rooms: dict[str, Table] = {}
        self._touched: dict[str, float] = {}
        self._lock = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        self._lobbies: dict[str, PrivateRoom] = {}
        """Private rooms by code."""

    async def start(self) -> int:
        """Rebuild the live games from their logs (every game of a private room, and the
        practice games moved within ``Settings.live_seconds``), reading the logs in bulk.
        Returns how many. Meanwhile :meth:`get` opens any game asked for at once."""
        self._sweeper = asyncio.create_task(self._sweep(), name="rooms-evict")
        if self.node is not None:  # each process opens what it is asked for, and the dead's
            return 0
        since = utcnow() - timedelta(seconds=self.settings.live_seconds)
        records = await self.store.unfinished(live_since=since)
        for start in range(0, len(records), RESUME_BATCH):
            batch = [r for r in records[start : start + RESUME_BATCH] if r.id not in self._rooms]
            logs = await self.store.logs([r.id for r in batch])
            rooms = await self.store.rooms_by_id([r.room_id for r in batch if r.room_id])
            for record in batch:
                stored = rooms.get(record.room_id) if record.room_id else None
                clocks = online_clocks(record.kind, stored.options) if stored else None
                await self._open(record, clocks, logs[record.id])
        return len(records)

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        for lobby in list(self._lobbies.values()):
            await lobby.close()
        self._lobbies.clear()
        for room in list(self._rooms.values()):
            await room.close()
        self._rooms.clear()
        self._touched.clear()
        for task in list(self._chores):
            task.cancel()

    async def evict(self) -> int:
        """Close, and drop from memory, the games no one is connected to: finished ones not
        asked for in ``idle_seconds``, practice games not asked for in
        ``Settings.idle_unfinished_seconds`` (a game of a private room stays while it is
        unfinished: its room counts on it). Each reopens from its log when asked for.
        Returns how many went."""
        now = asyncio.get_running_loop().time()
        async with self._lock:
            gone = [room for room in self._rooms.values() if self._idle(room, now)]
            await self._drop(gone)
        if gone:
            log.info("closed %d idle games; %d open", len(gone), len(self._rooms))
        return len(gone)

    def _idle(self, room: Table, now: float) -> bool:
        if room.subscribers:
            return False
        idle = now - self._touched.get(room.id, now)
        if room.finished:
            return idle >= self.idle_seconds
        return not room.online and idle >= self.settings.idle_unfinished_seconds

    async def _drop(self, rooms: list[Table]) -> None:
        """Close these rooms and forget them (the caller holds the lock)."""
        for room in rooms:
            await room.close()
            self._rooms.pop(room.id, None)
            self._touched.pop(room.id, None)
            await self._release(game_unit(room.record))

    async def set_aside(self, guest: str, kind: str, keep: str) -> int:
        """A new practice game of ``kind`` replaces the guest's others of that kind in memory
        (nobody connected to them: they reopen from their logs if asked for)."""
        async with self._lock:
            old = [
                room
                for room in self._rooms.values()
                if room.id != keep
                and not room.online
                and room.record.kind == kind
                and room.record.owner == guest
                and not room.subscribers
            ]
            await self._drop(old)
        return len(old)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(max(self.idle_seconds, 1.0))  # (never a busy loop)
            try:
                await self.evict()
                await self.close_idle_rooms()
            except Exception:  # never let the sweeper die
                log.exception("evicting rooms failed")

    async def create(
        self,
        kind: str,
        config: dict[str, Any],
        guest: str,
        *,
        level: str | None = None,
        seed: int | None = None,
        position: dict[str, Any] | None = None,
    ) -> Table:
        """Start a practice game for ``guest`` against bots. Raises IllegalMove("bad_config")."""
        found = entry(kind)
        spec = found.game
        start = spec.rules.load(position) if position is not None else None
        parsed = start.config if start is not None else spec.parse_config(config)
        if level is not None and (found.bots is None or found.bots.level(level) is None):
            raise IllegalMove("bad_config", field="level")
        account = await self.store.accounts.get(guest)
        looks = look(account.equipped, account.avatar) if account is not None else look(None, None)
        seats = practice_seats(found, spec.rules.seats(parsed), guest, level, looks)
        record = await self.store.create_game(
            kind,
            spec.config_json(parsed),
            seed if seed is not None else secrets.randbits(62),
            seats,
            owner=guest,
            position=spec.rules.dump(start) if start is not None else None,
        )
        await self._claim(game_unit(record))  # (a new game: nobody else holds it)
        room = await self._open(record)
        await self.set_aside(guest, kind, keep=room.id)
        return room

    async def find(self, game_id: str) -> Table | Elsewhere | None:
        """The game, run here (opened from its log if need be, and its lease taken when
        there are several processes), or which process runs it."""
        room = self._rooms.get(game_id)
        if room is not None:
            self._touched[game_id] = asyncio.get_running_loop().time()
            return room
        record = await self.store.game(game_id)
        if record is None:
            return None
        owner = await self._claim(game_unit(record))
        if owner is not None:
            return Elsewhere(owner, record)
        if record.room_id is not None:  # its room comes with it
            stored = await self.store.room_by_id(record.room_id)
            if stored is not None and stored.status != "closed":
                await self._lobby(stored)
        return await self._open(record)

    async def get(self, game_id: str) -> Table | None:
        """The game to show (a page): :meth:`find`'s, or a copy read from the log of a game
        another process runs (to read only)."""
        found = await self.find(game_id)
        if isinstance(found, Elsewhere):
            return await Table.replica(found.record, self.store, self.settings)
        return found

    def loaded(self) -> list[Table]:
        return list(self._rooms.values())

    def lobbies(self) -> list[PrivateRoom]:
        """The private rooms in memory."""
        return list(self._lobbies.values())

    async def _open(
        self,
        record: GameRecord,
        clocks: dict[str, float | None] | None = None,
        moves: list[LoggedMove] | None = None,
    ) -> Table:
        if record.room_id is not None and clocks is None:  # among friends: the room's clocks
            stored = await self.store.room_by_id(record.room_id)
            clocks = online_clocks(record.kind, stored.options if stored else {})
        async with self._lock:
            room = self._rooms.get(record.id)
            if room is None:
                room = await Table.open(record, self.store, self.settings, clocks, moves)
                room.stale = lambda: self._stale(room)
                if record.room_id is not None:
                    room.ended = lambda: self._ended(room)
                self._rooms[record.id] = room
            self._touched[record.id] = asyncio.get_running_loop().time()
            return room

    # private rooms

    async def create_room(self, kind: str, options: Any, host: str, name: str) -> PrivateRoom:
        """A private room for ``kind`` with ``host`` in its first seat. Raises IllegalMove
        (``bad_config``, ``no_rooms``)."""
        checked = check_options(kind, options)
        seats: list[dict[str, Any]] = [{"kind": "human", "guest": host, "name": name}]
        seats += [{"kind": "empty"}] * (seats_for(kind, checked) - 1)
        record = await self.store.create_room(kind, checked, host, seats)
        await self._claim(room_unit(record.id))
        return await self._lobby(record)

    async def find_lobby(self, code: object) -> PrivateRoom | Elsewhere | None:
        """The open room with ``code`` (six digits), run here (opened from the store if need
        be, with its game), or which process runs it."""
        if not isinstance(code, str) or len(code) != 6 or not code.isdigit():
            return None
        lobby = self._lobbies.get(code)
        if lobby is not None:
            return lobby
        record = await self.store.room(code)
        if record is None:
            return None
        owner = await self._claim(room_unit(record.id))
        if owner is not None:
            return Elsewhere(owner, record)
        lobby = await self._lobby(record)
        if record.game_id is not None:  # its game comes with it
            game = await self.store.game(record.game_id)
            if game is not None:
                await self._open(game)
        return lobby

    async def lobby(self, code: object) -> PrivateRoom | None:
        """The room to show (a page): :meth:`find_lobby`'s, or a copy read from the store of
        a room another process runs (to read only: change it with :meth:`act`)."""
        found = await self.find_lobby(code)
        if isinstance(found, Elsewhere):
            return PrivateRoom(found.record, self.store, _no_game)
        return found

    async def act(
        self, lobby: PrivateRoom, guest: str | None, action: dict[str, Any], lang: str = "es"
    ) -> Message | None:
        """Do ``action`` in the room, where it is run (here, or asked of the process that
        runs it); a copy ``lobby`` is brought up to date."""
        if self._lobbies.get(lobby.code) is lobby:
            return await lobby.act(guest, action, lang)
        for _ in range(3):
            found = await self.find_lobby(lobby.code)
            if found is None:
                return room_error("room_not_found", lang)
            if isinstance(found, PrivateRoom):
                reply = await found.act(guest, action, lang)
                lobby.record = found.record
                return reply
            assert self.node is not None
            status, reply = await self.node.call(
                found.owner, ["act", lobby.code, guest, action, lang]
            )
            if status == "ok":
                fresh = await self.store.room(lobby.code)
                if fresh is not None:
                    lobby.record = fresh
                return reply  # type: ignore[no-any-return]
        return error("busy", lang)

    async def _act_here(self, sender: str, body: list[Any]) -> list[Any]:
        """Another process's :meth:`act` for a room run here (or "moved": no longer)."""
        _, code, guest, action, lang = body
        found = await self.find_lobby(code)
        if not isinstance(found, PrivateRoom):
            return ["moved", None]
        return ["ok", await found.act(guest, action, lang)]

    # several processes: what this one holds

    async def _claim(self, unit: str) -> str | None:
        """Hold ``unit`` here: None; or the process that does."""
        return await self.node.claim(unit) if self.node is not None else None

    def _busy(self, unit: str) -> bool:
        """Whether a game or room of ``unit`` is still open here."""
        return any(game_unit(r.record) == unit for r in self._rooms.values()) or any(
            room_unit(lb.record.id) == unit for lb in self._lobbies.values()
        )

    async def _release(self, unit: str) -> None:
        """Let ``unit`` go if nothing of it is open here any more."""
        if self.node is not None and not self._busy(unit):
            await self.node.give_back(unit)

    async def _lost(self, units: list[str]) -> None:
        """Our leases on ``units`` ran out (another process may run them now): stop them
        here, and tell their connections to join again."""
        gone = set(units)
        async with self._lock:
            for room in [r for r in self._rooms.values() if game_unit(r.record) in gone]:
                self._rooms.pop(room.id, None)
                self._touched.pop(room.id, None)
                await room.moved()
            for code, lobby in list(self._lobbies.items()):
                if room_unit(lobby.record.id) in gone:
                    del self._lobbies[code]
                    await lobby.moved()

    def _stale(self, what: Table | PrivateRoom) -> None:
        """A commit found the log moved on: another process runs it now."""
        unit = game_unit(what.record) if isinstance(what, Table) else room_unit(what.record.id)
        task = asyncio.get_running_loop().create_task(self._lost([unit]))
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)
        if self.node is not None:
            self.node.held.discard(unit)

    async def _orphan(self, unit: str) -> None:
        """Take over ``unit`` from a process that died: open it from the log (a finished
        game needs nobody: let go)."""
        kind, _, ident = unit.partition(":")
        if kind == "game":
            record = await self.store.game(ident)
            if record is not None and record.outcome is None:
                await self._open(record)
        elif kind == "room":
            stored = await self.store.room_by_id(ident)
            if stored is not None and stored.status != "closed":
                await self.find_lobby(stored.code)
        await self._release(unit)

    async def lobby_of(self, room_id: str) -> PrivateRoom | None:
        record = await self.store.room_by_id(room_id)
        if record is None or record.status == "closed":
            return None
        return await self.lobby(record.code)

    async def close_idle_rooms(self, hours: float = 24.0) -> int:
        """Close the rooms nobody has touched for ``hours``: their codes are free again."""
        before = datetime.now().astimezone() - timedelta(hours=hours)
        closed = set(await self.store.close_idle_rooms(before))
        for code, lobby in list(self._lobbies.items()):
            if lobby.record.id in closed:
                await lobby.close()
                del self._lobbies[code]
                await self._release(room_unit(lobby.record.id))
        return len(closed)

    async def _lobby(self, record: RoomRecord) -> PrivateRoom:
        async with self._lock:
            lobby = self._lobbies.get(record.code)
            if lobby is None:
                lobby = await PrivateRoom.open(
                    record, self.store, self._start_room_game, self.settings.grace_seconds
                )
                lobby.game_over = lambda: self._room_game_over(lobby)
                lobby.stale = lambda: self._stale(lobby)
                lobby.left = lambda guest: self._left(lobby, guest)
                self._lobbies[record.code] = lobby
            return lobby

    def _room_game_over(self, lobby: PrivateRoom) -> bool:
        game_id = lobby.record.game_id
        if game_id is None:
            return True
        room = self._rooms.get(game_id)
        return room is None or room.finished  # unfinished games are always open

    def _ended(self, room: Table) -> None:
        """A room's game ended: its room tells everyone in it."""
        for lobby in self._lobbies.values():
            if lobby.record.id == room.record.room_id and lobby.record.game_id == room.id:
                lobby.game_ended()

    def _left(self, lobby: PrivateRoom, guest: str) -> None:
        room = self._rooms.get(lobby.record.game_id or "")
        if room is not None:
            seat = room.seat_of(guest)
            if seat is not None:
                room.player_left(seat)

    async def _start_room_game(
        self, record: RoomRecord, seats: list[dict[str, Any]], absent: dict[int, bool]
    ) -> str:
        """A room's next game with ``seats``; the seats of ``absent`` players start away
        (True) or with their grace running (False)."""
        spec = entry(record.kind).game
        assert spec.online is not None
        config = spec.online.with_seats(spec.parse_config(record.options["config"]), len(seats))
        game_seats = [
            {
                k: v
                for k, v in s.items()
                if v is not None and k in ("kind", "guest", "name", "level", "n", "worn")
            }
            for s in seats
        ]
        game = await self.store.create_game(
            record.kind,
            spec.config_json(config),
            secrets.randbits(62),
            game_seats,
            owner=record.host,
            room_id=record.id,
        )
        room = await self._open(game)
        if absent:
            room.absent_at_start(absent)
        return game.id


def online_clocks(kind: str, options: dict[str, Any]) -> dict[str, float | None]:
    """The clocks of a game among friends: each kind's online seconds, the turn clock as the
    room chose."""
    spec = entry(kind).game
    clocks = {k: c.online for k, c in spec.clocks.items()}
    if "turn" in clocks and "clock" in options:
        clocks["turn"] = options["clock"]
    return clocks
