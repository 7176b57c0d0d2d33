"""The private rooms this process runs, in memory, by their six-digit codes: making them,
opening them from the store, and closing the ones nobody has used for a day."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from tapete.games.protocol import IllegalMove
from tapete.registry import entry
from tapete.rooms.ownership import Ownership, room_unit
from tapete.rooms.private_room import PrivateRoom, RoomEvents, check_options, seats_for
from tapete.store import RoomRecord, Store


def is_code(code: object) -> bool:
    """Whether ``code`` has the shape of a room's code: six digits.

    >>> is_code("607618"), is_code("60761"), is_code(607618), is_code("６０７６１８")
    (True, False, False, False)
    """
    return isinstance(code, str) and len(code) == 6 and code.isascii() and code.isdigit()


class PrivateRooms:
    """The private rooms run here, by code."""

    def __init__(
        self,
        store: Store,
        ownership: Ownership,
        events: RoomEvents,
        release: Callable[[str], Awaitable[None]],
        grace_seconds: float = 45.0,
    ) -> None:
        self.store = store
        self.ownership = ownership
        self.events = events
        """What each room opened here asks of its tables, and tells when it moved on."""
        self.release = release
        """Told the unit of each room closed here (it goes if nothing else of it is open)."""
        self.grace_seconds = grace_seconds
        self._rooms: dict[str, PrivateRoom] = {}
        self._by_id: dict[str, PrivateRoom] = {}
        """The same rooms by their id (a game's end finds its room in one look)."""
        self._lock = asyncio.Lock()

    def get(self, code: str) -> PrivateRoom | None:
        """The room of ``code`` if it is open here."""
        return self._rooms.get(code)

    def loaded(self) -> list[PrivateRoom]:
        return list(self._rooms.values())

    def holds(self, unit: str) -> bool:
        """Whether the room of ``unit`` is open here."""
        prefix = room_unit("")
        return unit.startswith(prefix) and unit.removeprefix(prefix) in self._by_id

    def of_game(self, room_id: str | None, game_id: str) -> PrivateRoom | None:
        """The room open here whose current game is ``game_id``."""
        room = self._by_id.get(room_id) if room_id is not None else None
        return room if room is not None and room.record.game_id == game_id else None

    async def open(self, record: RoomRecord) -> PrivateRoom:
        """The room of ``record``, opened if it is not open yet."""
        async with self._lock:
            room = self._rooms.get(record.code)
            if room is None:
                room = await PrivateRoom.open(record, self.store, self.events, self.grace_seconds)
                self._rooms[record.code] = self._by_id[record.id] = room
            return room

    async def create(self, kind: str, options: Any, host: str, name: str) -> PrivateRoom:
        """A private room for ``kind`` with ``host`` in its first seat. Raises IllegalMove
        (``bad_config``, ``no_rooms``, ``banned``)."""
        checked = check_options(kind, options)
        if await self.store.players.banned(host):  # (bots only: RULES.md «Quick play»)
            raise IllegalMove("banned")
        seats: list[dict[str, Any]] = [{"kind": "human", "guest": host, "name": name}]
        seats += [{"kind": "empty"}] * (seats_for(kind, checked) - 1)
        record = await self.store.create_room(kind, checked, host, seats)
        await self.ownership.claim(room_unit(record.id))  # (a new room: nobody holds it)
        return await self.open(record)

    async def create_quick(self, kind: str, seats: list[dict[str, Any]]) -> PrivateRoom:
        """A table of strangers («Jugar ahora»): ``seats`` (people with their public names,
        bots), the game's standard options for that many (``GameSpec.quick``), rated if the
        game is; its first game started. Nobody hosts it: the first person is its host only
        on paper."""
        spec = entry(kind).game
        quick, online = spec.quick, spec.online
        assert quick is not None and online is not None
        options = check_options(
            kind,
            {"config": spec.config_json(quick.config), "seats": len(seats), "rated": quick.rated}
            | ({"clock": quick.clock} if quick.clock is not None else {}),
        )
        host = next(s["guest"] for s in seats if s.get("kind") == "human")
        record = await self.store.create_room(kind, options, host, seats, quick=True)
        await self.ownership.claim(room_unit(record.id))  # (a new room: nobody holds it)
        room = await self.open(record)
        await room.begin()
        return room

    async def close_idle(self, hours: float = 24.0) -> int:
        """Close the rooms nobody has touched for ``hours``: their codes are free again."""
        before = datetime.now().astimezone() - timedelta(hours=hours)
        closed = set(await self.store.close_idle_rooms(before))
        for code, room in list(self._rooms.items()):
            if room.record.id in closed:
                await room.close()
                self._forget(code)
                await self.release(room_unit(room.record.id))
        return len(closed)

    async def moved(self, units: set[str]) -> None:
        """The rooms of ``units`` are run elsewhere now: stop them here, and tell everyone
        in them to enter again."""
        async with self._lock:
            for code, room in list(self._rooms.items()):
                if room_unit(room.record.id) in units:
                    self._forget(code)
                    await room.moved()

    async def close(self) -> None:
        for room in list(self._rooms.values()):
            await room.close()
        self._rooms.clear()
        self._by_id.clear()

    def _forget(self, code: str) -> None:
        room = self._rooms.pop(code)
        if self._by_id.get(room.record.id) is room:
            del self._by_id[room.record.id]
