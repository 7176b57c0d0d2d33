"""Group commit: moves arriving together share one transaction; a stale one fails alone;
a batch that cannot commit tells every room it waits for, and writes nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tapete.store import StaleWrite, Store, migrate

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
