"""The store's writes other than moves (rooms, games made, logros, leavings…): on SQLite
each is one transaction done within one turn of the event loop, so no write holds the
database's lock while the loop is busy elsewhere (the 30-minute soak's «database is locked»);
another process's lock is waited for on the loop, not inside SQLite."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

from tapete.metrics import WRITE_BUSY
from tapete.store import Store, default_url, migrate

NOW = datetime(2026, 12, 5, 8, 0, tzinfo=UTC)
ANA, BEA = "a" * 24, "b" * 24


def lock_is_free(path: Path) -> bool:
    """Another connection could take the write lock now, without waiting."""
    probe = sqlite3.connect(path, isolation_level=None, timeout=0)
    try:
        probe.execute("BEGIN IMMEDIATE")
        probe.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        probe.close()


async def turns_holding_the_lock(path: Path, write: Awaitable[object]) -> tuple[int, int]:
    """Run ``write``, looking at the lock at every turn of the loop until it is done: the
    turns it was held, and the turns looked at."""
    task = asyncio.ensure_future(write)
    held = turns = 0
    while not task.done():
        await asyncio.sleep(0)
        turns += 1
        held += not lock_is_free(path)
    await task
    return held, turns


async def test_on_sqlite_no_write_holds_the_lock_across_a_turn_of_the_loop(
    tmp_path: Path,
) -> None:
    path = tmp_path / "store.db"
    url = default_url(path)
    migrate(url)
    store = Store(url)
    try:
        seats = [{"kind": "human", "guest": ANA}, {"kind": "human", "guest": BEA}]
        game = await store.create_game("guerra", {}, 1, seats, ANA)
        room = await store.create_room("guerra", {}, ANA, seats)
        moved = dataclasses.replace(room, version=room.version + 1, status="playing")
        writes: list[Callable[[], Awaitable[object]]] = [
            lambda: store.create_game("onecard", {"players": 2}, 2, seats, BEA),
            lambda: store.create_room("onecard", {}, BEA, seats),
            lambda: store.save_room(moved, room.version),
            lambda: store.logros.count(game.id, ANA, {"partidas": 1}, {}, {"partidas": 1}, NOW),
            lambda: store.players.left(BEA, game.id, NOW),
            lambda: store.set_guest_name(ANA, "Ana"),
            lambda: store.ensure_guest("c" * 24),
        ]
        looked = 0
        for write in writes:
            held, turns = await turns_holding_the_lock(path, write())
            assert held == 0
            looked += turns
        assert looked >= len(writes)  # the lock was looked at while they ran
        assert await store.logros.earned_by(game.id, ANA) == ["partidas"]
        stored = await store.room_by_id(room.id)
        assert stored is not None and stored.status == "playing"
    finally:
        await store.close()


async def test_on_sqlite_a_write_waits_for_another_process_lock_on_the_loop(
    tmp_path: Path,
) -> None:
    """Another connection holds the write lock (``tapete backup``, a command): the write is
    tried again on the loop, which goes on meanwhile; once the lock is let go it is done,
    once."""
    path = tmp_path / "store.db"
    url = default_url(path)
    migrate(url)
    store = Store(url)
    try:
        seats = [{"kind": "human", "guest": ANA}]
        game = await store.create_game("guerra", {}, 1, seats, ANA)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        busy = WRITE_BUSY._value.get()
        counting = asyncio.ensure_future(
            store.logros.count(game.id, ANA, {"partidas": 1}, {}, {"partidas": 3}, NOW)
        )
        for _ in range(50):  # the loop turns while the write waits
            await asyncio.sleep(0.001)
        assert not counting.done()
        assert WRITE_BUSY._value.get() - busy >= 10  # tried again and again, not blocked
        other.execute("ROLLBACK")
        other.close()
        assert await asyncio.wait_for(counting, 1.0) == []
        assert (await store.logros.of(ANA))["partidas"].progress == 1
        again = await store.logros.count(game.id, ANA, {"partidas": 1}, {}, {"partidas": 3}, NOW)
        assert again is None  # counted once
        assert (await store.logros.of(ANA))["partidas"].progress == 1
    finally:
        await store.close()
