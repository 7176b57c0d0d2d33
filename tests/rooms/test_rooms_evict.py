"""Finished games leave memory: a room whose game is over, with no one connected and no one
asking for it, is closed after a while; asked for again, it reopens from its log as it was."""

from __future__ import annotations

import asyncio

from tapete.rooms import Rooms
from tapete.store import Store

G0 = "a" * 24
# one duel ends it: the ace beats the two and takes every card
LAST_DUEL = {"piles": ["A♠", "2♣"]}


async def test_a_finished_room_nobody_watches_is_closed_and_reopens(store: Store) -> None:
    rooms = Rooms(store, idle_seconds=0)
    room = await rooms.create("guerra", {}, G0, position=LAST_DUEL)
    conn, _joined = room.subscribe(G0, lambda m: None, None)
    assert await rooms.evict() == 0  # not over yet
    assert await room.submit(G0, room.version, {"type": "turn"}) is None
    await room.settled()
    assert room.finished
    final = room.view_message(0)
    assert await rooms.evict() == 0  # over, but the player is still there
    room.unsubscribe(conn)
    assert await rooms.evict() == 1
    assert rooms.loaded() == []
    again = await rooms.get(room.id)
    assert again is not None and again is not room and again.finished
    assert again.view_message(0) == final
    await rooms.close()


async def test_an_unfinished_room_stays_even_when_nobody_watches(store: Store) -> None:
    rooms = Rooms(store, idle_seconds=0)
    room = await rooms.create("guerra", {}, G0, position={"piles": ["A♠ 3♦", "2♣ 4♥"]})
    assert not room.finished and not room.subscribers
    assert await rooms.evict() == 0
    assert rooms.loaded() == [room]
    await rooms.close()


async def test_a_room_asked_for_lately_stays(store: Store) -> None:
    rooms = Rooms(store, idle_seconds=3600)
    room = await rooms.create("guerra", {}, G0, position=LAST_DUEL)
    assert await room.submit(G0, room.version, {"type": "turn"}) is None
    await room.settled()
    assert room.finished and not room.subscribers
    assert await rooms.evict() == 0  # created a moment ago
    await rooms.close()


async def test_the_sweep_runs_by_itself_once_started(store: Store) -> None:
    rooms = Rooms(store, idle_seconds=0)
    assert await rooms.start() == 0
    room = await rooms.create("guerra", {}, G0, position=LAST_DUEL)
    assert await room.submit(G0, room.version, {"type": "turn"}) is None
    await room.settled()
    assert room.finished and rooms.loaded() == [room]
    await asyncio.sleep(1.3)  # the sweep runs at most once a second
    assert rooms.loaded() == []
    await rooms.close()
