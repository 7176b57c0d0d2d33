"""Games leave memory: a room whose game is over, or a practice game left unfinished, with no
one connected and no one asking for it, is closed after a while; asked for again, it reopens
from its log as it was. A new practice game of a kind sets the guest's old one aside, and a
restart rebuilds only the live games."""

from __future__ import annotations

import asyncio
import gc
import weakref
from datetime import timedelta

from tapete.rooms import Settings
from tapete.store import Store, utcnow
from tests.lives import Lives

G0 = "a" * 24
# one duel ends it: the ace beats the two and takes every card
LAST_DUEL = {"piles": ["A♠", "2♣"]}


async def test_a_finished_room_nobody_watches_is_closed_and_reopens(lives: Lives) -> None:
    live = lives(idle_seconds=0)
    room = await live.tables.create("guerra", {}, G0, position=LAST_DUEL)
    conn, _joined = room.subscribe(G0, lambda m: None, None)
    assert await live.tables.evict() == 0  # not over yet
    assert await room.submit(G0, room.version, {"type": "turn"}) is None
    await room.settled()
    assert room.finished
    final = room.view_message(0)
    assert await live.tables.evict() == 0  # over, but the player is still there
    room.unsubscribe(conn)
    assert await live.tables.evict() == 1
    assert live.tables.loaded() == []
    again = await live.read_table(room.id)
    assert again is not None and again is not room and again.finished
    assert again.view_message(0) == final


UNFINISHED = {"piles": ["A♠ 3♦", "2♣ 4♥"]}


async def test_an_unfinished_game_stays_a_while_then_leaves_memory(lives: Lives) -> None:
    live = lives(idle_seconds=0)  # the default: ten minutes for unfinished ones
    room = await live.tables.create("guerra", {}, G0, position=UNFINISHED)
    assert not room.finished and not room.subscribers
    assert await live.tables.evict() == 0
    assert live.tables.loaded() == [room]
    await live.close()
    quick = lives(Settings(idle_unfinished_seconds=0), idle_seconds=3600)
    room = await quick.tables.create("guerra", {}, G0, position=UNFINISHED)
    assert await room.submit(G0, room.version, {"type": "turn"}) is None
    await room.settled()
    seen = room.view_message(0)
    assert await quick.tables.evict() == 1 and quick.tables.loaded() == []
    again = await quick.read_table(room.id)  # the player comes back: as it was
    assert again is not None and again.view_message(0) == seen


async def test_a_new_practice_game_of_a_kind_sets_the_old_one_aside(lives: Lives) -> None:
    live = lives()
    games = [await live.tables.create("guerra", {}, G0, position=UNFINISHED) for _ in range(30)]
    other = await live.tables.create("onecard", {}, G0)
    kept = {r.id for r in live.tables.loaded()}
    assert kept == {games[-1].id, other.id}  # one a kind in memory, however many made
    first = await live.read_table(games[0].id)  # still there to resume
    assert first is not None and not first.finished


async def test_a_restart_rebuilds_only_the_live_games(store: Store, lives: Lives) -> None:
    live = lives()
    old = await live.tables.create("guerra", {}, G0, position=UNFINISHED)
    await live.close()
    later = lives(Settings(live_seconds=0))  # nothing moved "since now"
    assert await later.start() == 0 and later.tables.loaded() == []
    assert await later.read_table(old.id) is not None  # asked for: reopened from its log
    await later.close()
    again = lives()  # moved within the hour: live
    assert await again.start() == 1
    await again.close()
    recent = await store.unfinished(live_since=utcnow() - timedelta(hours=1))
    assert [g.id for g in recent] == [old.id]


async def test_a_room_asked_for_lately_stays(lives: Lives) -> None:
    live = lives(idle_seconds=3600)
    room = await live.tables.create("guerra", {}, G0, position=LAST_DUEL)
    assert await room.submit(G0, room.version, {"type": "turn"}) is None
    await room.settled()
    assert room.finished and not room.subscribers
    assert await live.tables.evict() == 0  # created a moment ago


async def test_the_sweep_runs_by_itself_once_started(lives: Lives) -> None:
    live = lives(idle_seconds=0)
    assert await live.start() == 0
    room = await live.tables.create("guerra", {}, G0, position=LAST_DUEL)
    assert await room.submit(G0, room.version, {"type": "turn"}) is None
    await room.settled()
    assert room.finished and live.tables.loaded() == [room]
    await asyncio.sleep(1.3)  # the sweep runs at most once a second
    assert live.tables.loaded() == []


async def test_a_game_that_leaves_memory_is_freed_at_once_not_by_the_collector(
    lives: Lives,
) -> None:
    """A closed table holds nothing in a reference cycle (its clocks and bot driver pointed
    back at it): it is freed as it is dropped. ``tapete serve`` freezes what lives long and
    collects cycles once an hour, so every game ended was kept until then — the soak's
    16 MB a minute (bench/RESULTS.md, «What grew: the games that had ended»)."""
    live = lives(idle_seconds=0)
    room = await live.tables.create("guerra", {}, G0, position=LAST_DUEL)
    conn, _joined = room.subscribe(G0, lambda m: None, None)
    assert await room.submit(G0, room.version, {"type": "turn"}) is None
    await room.settled()
    room.unsubscribe(conn)
    gone = weakref.ref(room)
    del room, _joined
    gc.collect()
    gc.disable()
    try:
        assert await live.tables.evict() == 1
        await asyncio.sleep(0)
        assert gone() is None, [type(r).__name__ for r in gc.get_referrers(gone())]
    finally:
        gc.enable()
