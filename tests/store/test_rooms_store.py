"""Private rooms in the store, on SQLite and PostgreSQL: codes unique among open rooms and
free again once closed, seats as rows, versions that refuse a stale write, idle rooms
closed, guests' names kept."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from tapete.store import StaleWrite, Store, migrate

HOST, FRIEND = "h" * 24, "f" * 24
SEATS = [{"kind": "human", "guest": HOST, "name": "Ana"}, {"kind": "empty"}]


async def test_a_room_its_code_and_its_seats(any_db: str) -> None:
    migrate(any_db)
    store = Store(any_db)
    try:
        room = await store.create_room("onecard", {"players": 2}, HOST, SEATS)
        assert len(room.code) == 6 and room.code.isdigit()
        assert room.status == "lobby" and room.version == 0 and room.host == HOST
        assert room.seats[0] == {"kind": "human", "guest": HOST, "name": "Ana", "level": None}
        assert room.seats[1]["kind"] == "empty"
        found = await store.room(room.code)
        assert found is not None and found.id == room.id
        assert await store.room("000000" if room.code != "000000" else "111111") is None

        await store.ensure_guest(FRIEND)
        room.seats[1] = {"kind": "human", "guest": FRIEND, "name": "Luis"}
        room.version = 1
        await store.save_room(room, expected=0)
        again = await store.room_by_id(room.id)
        assert again is not None and again.version == 1
        assert [s["name"] for s in again.seats] == ["Ana", "Luis"]
        with pytest.raises(StaleWrite):  # a second writer at the same version
            await store.save_room(room, expected=0)
        assert [r.id for r in await store.open_rooms()] == [room.id]
    finally:
        await store.close()


async def test_codes_are_unique_among_open_rooms_and_freed_when_closed(any_db: str) -> None:
    migrate(any_db)
    store = Store(any_db)
    try:
        rooms = [await store.create_room("guerra", {}, HOST, SEATS) for _ in range(30)]
        codes = [r.code for r in rooms]
        assert len(set(codes)) == len(codes)
        assert codes != sorted(codes)  # not handed out in order
        closed = await store.close_idle_rooms(datetime.now().astimezone() + timedelta(seconds=1))
        assert set(closed) == {r.id for r in rooms}
        assert await store.room(codes[0]) is None  # a closed room is not found by its code
        assert await store.open_rooms() == []
    finally:
        await store.close()


async def test_a_guest_keeps_a_name(any_db: str) -> None:
    migrate(any_db)
    store = Store(any_db)
    try:
        assert await store.guest_name(FRIEND) is None
        await store.set_guest_name(FRIEND, "Luis")
        assert await store.guest_name(FRIEND) == "Luis"
        await store.set_guest_name(FRIEND, "Luisa")
        assert await store.guest_name(FRIEND) == "Luisa"
    finally:
        await store.close()


async def test_a_room_keeps_whom_its_host_removed(any_db: str) -> None:
    migrate(any_db)
    store = Store(any_db)
    try:
        room = await store.create_room("guerra", {}, HOST, SEATS)
        assert room.removed == []
        room.removed = [{"guest": FRIEND, "name": "Luis"}]
        room.version = 1
        await store.save_room(room, expected=0)
        again = await store.room(room.code)
        assert again is not None and again.removed == [{"guest": FRIEND, "name": "Luis"}]
    finally:
        await store.close()
