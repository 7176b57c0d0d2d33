"""Nothing is shown before it is durable: while a move is being written, whoever reads the
room (a ``joined``, a ``sync``, a hint) waits, and then sees the move with its version; a
write that fails shows the game as it was."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tapete.rooms import Settings, Table
from tapete.store import Store
from tests.lives import Lives

G0 = "a" * 24


def slow_writes(monkeypatch: pytest.MonkeyPatch, store: Store, fail: bool = False) -> Any:
    """Hold every ``append_move`` until the returned gate is set; ``started`` is set when
    one is in flight."""
    gate, started = asyncio.Event(), asyncio.Event()
    real = store.append_move

    async def append_move(*args: Any, **kwargs: Any) -> None:
        started.set()
        await gate.wait()
        if fail:
            raise OSError("the disk is gone")
        await real(*args, **kwargs)

    monkeypatch.setattr(store, "append_move", append_move)
    return gate, started


async def read(room: Table) -> tuple[int, dict[str, Any], int, dict[str, Any]]:
    """What a joining socket and a ``sync`` are shown."""
    await room.durable()
    conn, joined = room.subscribe(G0, lambda m: None, None)
    room.unsubscribe(conn)
    synced = room.view_message(0)
    return joined["version"], joined["view"], synced["version"], synced["view"]


async def test_readers_wait_for_the_move_to_be_written(
    store: Store, lives: Lives, monkeypatch: pytest.MonkeyPatch
) -> None:
    live = lives(Settings(bot_delay=30.0))
    room = await live.tables.create("guerra", {}, G0)
    before = room.view_message(0)["view"]
    gate, started = slow_writes(monkeypatch, store)
    move = asyncio.create_task(room.submit(G0, 0, {"type": "turn"}))
    await started.wait()
    reader = asyncio.create_task(read(room))
    for _ in range(10):
        await asyncio.sleep(0)
    assert not reader.done()  # it waits: the move is applied but not yet durable
    gate.set()
    assert await move is None
    version, view, sync_version, sync_view = await reader
    assert (version, sync_version) == (1, 1)
    assert view == sync_view != before and view["counts"] == [25, 26]


async def test_a_failed_write_shows_the_game_as_it_was(
    store: Store, lives: Lives, monkeypatch: pytest.MonkeyPatch
) -> None:
    live = lives(Settings(bot_delay=30.0))
    room = await live.tables.create("guerra", {}, G0)
    before = room.view_message(0)["view"]
    gate, started = slow_writes(monkeypatch, store, fail=True)
    move = asyncio.create_task(room.submit(G0, 0, {"type": "turn"}))
    await started.wait()
    reader = asyncio.create_task(read(room))
    await asyncio.sleep(0)
    gate.set()
    assert (await move)["code"] == "busy"  # type: ignore[index]
    version, view, _, sync_view = await reader
    assert version == 0 and view == sync_view == before


async def test_a_hint_waits_for_the_move_to_be_written(
    store: Store, lives: Lives, monkeypatch: pytest.MonkeyPatch
) -> None:
    from .test_hint import MELD

    live = lives()
    room = await live.tables.create("rummy", {}, G0, position=MELD)
    gate, started = slow_writes(monkeypatch, store)
    move = asyncio.create_task(room.submit(G0, 0, {"type": "draw"}))
    await started.wait()
    hint = asyncio.create_task(room.hint(G0))
    for _ in range(10):
        await asyncio.sleep(0)
    assert not hint.done()
    gate.set()
    assert await move is None
    assert (await hint)["code"] == "not_your_turn"  # it drew: Sofía's turn now
