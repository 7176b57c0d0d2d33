"""All the rooms of this process: creating games, finding them, resuming them on start."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from tapete.games.protocol import IllegalMove
from tapete.registry import Entry, entry
from tapete.rooms.inbox import Settings
from tapete.rooms.lobby import Lobby, check_options, seats_for
from tapete.rooms.room import Room
from tapete.store import GameRecord, LoggedMove, RoomRecord, Store, utcnow

log = logging.getLogger(__name__)

RESUME_BATCH = 200
"""Games whose logs a restart reads in one go."""


def practice_seats(
    found: Entry, players: int, guest: str, level: str | None = None
) -> list[dict[str, Any]]:
    """Seat 0 is the guest; the others are the game's bots at ``level`` (a game without
    bots: the other seats are people around the same phone, with no guest of their own)."""
    seats: list[dict[str, Any]] = [{"kind": "human", "guest": guest}]
    bots = found.bots
    for i in range(1, players):
        if bots is None:
            seats.append({"kind": "local"})
            continue
        name, params = bots.seat_name(i, players - 1)
        seats.append({"kind": "bot", "name": name, **params, "level": level or bots.default})
    return seats


class Rooms:
    """The rooms this process owns. A room is opened from its log the first time it is asked
    for, and every unfinished game is opened on :meth:`start`. A finished game nobody has
    looked at for ``idle_seconds`` is closed and dropped from memory (:meth:`evict`, every
    ``idle_seconds`` once started); asked for again, it reopens from its log."""

    def __init__(
        self, store: Store, settings: Settings | None = None, idle_seconds: float = 60.0
    ) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.idle_seconds = idle_seconds
        self._rooms: dict[str, Room] = {}
        self._touched: dict[str, float] = {}
        self._lock = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        self._lobbies: dict[str, Lobby] = {}
        """Private rooms by code."""

    async def start(self) -> int:
        """Rebuild the live games from their logs (every game of a private room, and the
        practice games moved within ``Settings.live_seconds``), reading the logs in bulk.
        Returns how many. Meanwhile :meth:`get` opens any game asked for at once."""
        since = utcnow() - timedelta(seconds=self.settings.live_seconds)
        records = await self.store.unfinished(live_since=since)
        self._sweeper = asyncio.create_task(self._sweep(), name="rooms-evict")
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

    def _idle(self, room: Room, now: float) -> bool:
        if room.subscribers:
            return False
        idle = now - self._touched.get(room.id, now)
        if room.finished:
            return idle >= self.idle_seconds
        return not room.online and idle >= self.settings.idle_unfinished_seconds

    async def _drop(self, rooms: list[Room]) -> None:
        """Close these rooms and forget them (the caller holds the lock)."""
        for room in rooms:
            await room.close()
            self._rooms.pop(room.id, None)
            self._touched.pop(room.id, None)

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
    ) -> Room:
        """Start a practice game for ``guest`` against bots. Raises IllegalMove("bad_config")."""
        found = entry(kind)
        spec = found.game
        start = spec.rules.load(position) if position is not None else None
        parsed = start.config if start is not None else spec.parse_config(config)
        if level is not None and (found.bots is None or found.bots.level(level) is None):
            raise IllegalMove("bad_config", field="level")
        seats = practice_seats(found, spec.rules.seats(parsed), guest, level)
        record = await self.store.create_game(
            kind,
            spec.config_json(parsed),
            seed if seed is not None else secrets.randbits(62),
            seats,
            owner=guest,
            position=spec.rules.dump(start) if start is not None else None,
        )
        room = await self._open(record)
        await self.set_aside(guest, kind, keep=room.id)
        return room

    async def get(self, game_id: str) -> Room | None:
        room = self._rooms.get(game_id)
        if room is not None:
            self._touched[game_id] = asyncio.get_running_loop().time()
            return room
        record = await self.store.game(game_id)
        if record is None:
            return None
        return await self._open(record)

    def loaded(self) -> list[Room]:
        return list(self._rooms.values())

    def lobbies(self) -> list[Lobby]:
        """The private rooms in memory."""
        return list(self._lobbies.values())

    async def _open(
        self,
        record: GameRecord,
        clocks: dict[str, float | None] | None = None,
        moves: list[LoggedMove] | None = None,
    ) -> Room:
        if record.room_id is not None and clocks is None:  # among friends: the room's clocks
            stored = await self.store.room_by_id(record.room_id)
            clocks = online_clocks(record.kind, stored.options if stored else {})
        async with self._lock:
            room = self._rooms.get(record.id)
            if room is None:
                room = await Room.open(record, self.store, self.settings, clocks, moves)
                self._rooms[record.id] = room
            self._touched[record.id] = asyncio.get_running_loop().time()
            return room

    # private rooms

    async def create_room(self, kind: str, options: Any, host: str, name: str) -> Lobby:
        """A private room for ``kind`` with ``host`` in its first seat. Raises IllegalMove
        (``bad_config``, ``no_rooms``)."""
        checked = check_options(kind, options)
        seats: list[dict[str, Any]] = [{"kind": "human", "guest": host, "name": name}]
        seats += [{"kind": "empty"}] * (seats_for(kind, checked) - 1)
        record = await self.store.create_room(kind, checked, host, seats)
        return await self._lobby(record)

    async def lobby(self, code: object) -> Lobby | None:
        """The open room with ``code`` (six digits), opened from the store if need be."""
        if not isinstance(code, str) or len(code) != 6 or not code.isdigit():
            return None
        lobby = self._lobbies.get(code)
        if lobby is not None:
            return lobby
        record = await self.store.room(code)
        return await self._lobby(record) if record is not None else None

    async def lobby_of(self, room_id: str) -> Lobby | None:
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
        return len(closed)

    async def _lobby(self, record: RoomRecord) -> Lobby:
        async with self._lock:
            lobby = self._lobbies.get(record.code)
            if lobby is None:
                lobby = await Lobby.open(record, self.store, self._start_room_game)
                lobby.game_over = lambda: self._room_game_over(lobby)
                lobby.left = lambda guest: self._left(lobby, guest)
                self._lobbies[record.code] = lobby
            return lobby

    def _room_game_over(self, lobby: Lobby) -> bool:
        game_id = lobby.record.game_id
        if game_id is None:
            return True
        room = self._rooms.get(game_id)
        return room is None or room.finished  # unfinished games are always open

    def _left(self, lobby: Lobby, guest: str) -> None:
        room = self._rooms.get(lobby.record.game_id or "")
        if room is not None:
            seat = room.seat_of(guest)
            if seat is not None:
                room.player_left(seat)

    async def _start_room_game(self, record: RoomRecord, seats: list[dict[str, Any]]) -> str:
        spec = entry(record.kind).game
        assert spec.online is not None
        config = spec.online.with_seats(spec.parse_config(record.options["config"]), len(seats))
        game_seats = [
            {
                k: v
                for k, v in s.items()
                if v is not None and k in ("kind", "guest", "name", "level", "n")
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
        await self._open(game)
        return game.id


def online_clocks(kind: str, options: dict[str, Any]) -> dict[str, float | None]:
    """The clocks of a game among friends: each kind's online seconds, the turn clock as the
    room chose."""
    spec = entry(kind).game
    clocks = {k: c.online for k, c in spec.clocks.items()}
    if "turn" in clocks and "clock" in options:
        clocks["turn"] = options["clock"]
    return clocks
