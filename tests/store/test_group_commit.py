"""Group commit: moves arriving together share one transaction; a stale one fails alone;
a batch that cannot commit tells every room it waits for, and writes nothing."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tapete.metrics import COMMIT_BUSY
from tapete.store import StaleWrite, Store, default_url, migrate, writer

GUEST = "g" * 24


async def _games(store: Store, n: int) -> list[str]:
    seats = [{"kind": "human", "guest": GUEST}]
    return [(await store.create_game("guerra", {}, i, seats, GUEST)).id for i in range(n)]


async def test_moves_that_arrive_together_share_one_transaction(any_db: str) -> None:
    migrate(any_db)
    sizes: list[int] = []
    store = Store(any_db, observe=sizes.append)
    try:
        games = await _games(store, 40)
        await store.append_move(games[0], 1, 0, {"type": "turn"}, None)  # alone: a batch of 1
        assert sizes == [1]
        moves = [store.append_move(g, 1, 0, {"type": "turn"}, None) for g in games[1:]]
        moves.append(store.append_move(games[0], 2, 0, {"type": "turn"}, {"winner": 0}))
        await asyncio.gather(*moves)
        assert sum(sizes) == 41 and len(sizes) <= 3  # not one transaction per move
        for g in games[1:]:
            assert [(m.n, m.move) for m in await store.moves(g)] == [(1, {"type": "turn"})]
            record = await store.game(g)
            assert record is not None and record.version == 1 and record.status == "active"
        done = await store.game(games[0])
        assert done is not None and done.version == 2 and done.outcome == {"winner": 0}
    finally:
        await store.close()


async def test_a_stale_move_fails_alone(any_db: str) -> None:
    migrate(any_db)
    store = Store(any_db)
    try:
        a, b, c = await _games(store, 3)
        results = await asyncio.gather(
            store.append_move(a, 1, 0, {"type": "turn"}, None),
            store.append_move(b, 2, 0, {"type": "turn"}, None),  # b is at 0: stale
            store.append_move(c, 1, 0, {"type": "turn"}, {"winner": 1}),
            store.append_move(c, 1, 0, {"type": "turn"}, None),  # a second owner's copy
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], StaleWrite) and isinstance(results[3], StaleWrite)
        assert [m.n for m in await store.moves(a)] == [1]
        assert await store.moves(b) == []
        assert [m.move for m in await store.moves(c)] == [{"type": "turn"}]
        record = await store.game(c)
        assert record is not None and record.status == "finished"
    finally:
        await store.close()


async def test_a_batch_that_cannot_commit_writes_nothing(
    any_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    migrate(any_db)
    store = Store(any_db)
    try:
        a, b = await _games(store, 2)
        unwritable: dict[str, Any] = {"type": "turn", "bad": object()}  # not JSON: the insert fails
        results = await asyncio.gather(
            store.append_move(a, 1, 0, {"type": "turn"}, None),
            store.append_move(b, 1, 0, unwritable, None),
            return_exceptions=True,
        )
        assert all(isinstance(r, Exception) for r in results)
        assert await store.moves(a) == [] and await store.moves(b) == []
        record = await store.game(a)
        assert record is not None and record.version == 0  # the version went back too
        await store.append_move(a, 1, 0, {"type": "turn"}, None)  # the writer goes on
        assert [m.n for m in await store.moves(a)] == [1]
    finally:
        await store.close()


async def test_on_sqlite_a_batch_waits_for_the_write_lock_without_stopping_the_loop(
    tmp_path: Path,
) -> None:
    """Another connection holds SQLite's write lock: the move is not lost and the loop goes
    on meanwhile (the writer, on the loop, never blocks on the lock); once the lock is let
    go, the move is written, once."""
    url = default_url(tmp_path / "store.db")
    migrate(url)
    store = Store(url)
    try:
        assert store.writer.on_loop
        (game,) = await _games(store, 1)
        other = sqlite3.connect(tmp_path / "store.db", isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # the write lock, held across turns of the loop
        busy = COMMIT_BUSY._value.get()
        move = asyncio.ensure_future(store.append_move(game, 1, 0, {"type": "turn"}, None))
        ticks = 0
        while ticks < 50:  # the loop turns while the move waits
            await asyncio.sleep(0.001)
            ticks += 1
        assert not move.done()
        assert COMMIT_BUSY._value.get() - busy >= 10  # tried again and again, not blocked
        other.execute("ROLLBACK")
        other.close()
        await asyncio.wait_for(move, 1.0)
        assert [(m.n, m.move) for m in await store.moves(game)] == [(1, {"type": "turn"})]
        record = await store.game(game)
        assert record is not None and record.version == 1
    finally:
        await store.close()


async def test_on_sqlite_the_log_is_checkpointed_by_a_thread_not_by_commits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writer, "CHECKPOINT_SECONDS", 0.05)
    url = default_url(tmp_path / "store.db")
    migrate(url)
    store = Store(url)
    try:
        games = await _games(store, 5)
        for n in range(1, 41):
            await asyncio.gather(
                *(store.append_move(g, n, 0, {"type": "turn"}, None) for g in games)
            )
        with store.writer.engine.connect() as conn:  # the writer's own connection
            (autocheckpoint,) = conn.exec_driver_sql("PRAGMA wal_autocheckpoint").one()
            (timeout,) = conn.exec_driver_sql("PRAGMA busy_timeout").one()
        assert (autocheckpoint, timeout) == (0, 0)
        checkpointer = store.writer._checkpointer
        assert checkpointer is not None
        for _ in range(100):
            if checkpointer.checkpoints >= 2:
                break
            await asyncio.sleep(0.02)
        probe = sqlite3.connect(tmp_path / "store.db")
        busy, frames, done = probe.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        probe.close()
        assert checkpointer.checkpoints >= 2 and busy == 0 and frames == done
        assert [len(await store.moves(g)) for g in games] == [40] * 5
    finally:
        await store.close()
    assert not checkpointer._thread.is_alive()


async def test_on_sqlite_the_log_starts_over_under_writes_that_never_pause(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log is only written over from its start once everything in it is back in the
    database at the moment a write begins: with batches committed back to back (a hall
    under load) a checkpoint running beside them never ends at such a moment, and the log
    grew without end (2.6 GB in the soak's first seven minutes). Past
    :data:`writer.RESTART_FRAMES` the checkpointer makes the writer wait for one that does
    (``RESTART``), and the log stays small."""
    monkeypatch.setattr(writer, "CHECKPOINT_SECONDS", 0.02)
    monkeypatch.setattr(writer, "RESTART_FRAMES", 64)
    path = tmp_path / "store.db"
    url = default_url(path)
    migrate(url)
    store = Store(url)
    wal = Path(f"{path}-wal")
    try:
        games = await _games(store, 20)
        largest = 0
        for n in range(1, 301):  # batches back to back, no pause
            await asyncio.gather(
                *(store.append_move(g, n, 0, {"type": "turn"}, None) for g in games)
            )
            largest = max(largest, wal.stat().st_size)
        checkpointer = store.writer._checkpointer
        assert checkpointer is not None and checkpointer.restarts >= 1
        # 300 batches of ~25 pages each would be ~30 MB of log without a restart (23 MB
        # before it was made); with one, what the writer adds between two of the
        # checkpointer's looks (every 20 ms here, at ~80 µs a batch: up to ~4 MB on a
        # loaded machine) and while the restart waits for its moment
        assert largest < 8 * 2**20, largest
        assert [len(await store.moves(g)) for g in games] == [300] * 20
    finally:
        await store.close()
