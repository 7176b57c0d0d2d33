"""Nothing is shown before it is durable: while a move is being written, whoever reads the
room (a ``joined``, a ``sync``, a hint) waits, and then sees the move with its version; a
write that fails shows the game as it was."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tapete.rooms import Settings, Table, TableClosed
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


def unreadable_log(monkeypatch: pytest.MonkeyPatch, store: Store) -> asyncio.Event:
    """The log cannot be read (the database restarting) until the returned event is set."""
    back = asyncio.Event()
    real = store.moves

    async def moves(game_id: str) -> Any:
        if not back.is_set():
            raise OSError("the database is restarting")
        return await real(game_id)

    monkeypatch.setattr(store, "moves", moves)
    return back


async def test_a_failed_write_whose_log_cannot_be_read_shows_nothing_until_it_can(
    store: Store, lives: Lives, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The chaos bench's two moves lost (bench/RESULTS.md, «Chaos, ten minutes»): a commit
    failed while PostgreSQL restarted, and so did reading the log back; the table showed
    the move it had applied and not written, and its task died."""
    live = lives(Settings(bot_delay=30.0))
    room = await live.tables.create("guerra", {}, G0)
    before = room.view_message(0)["view"]
    gate, started = slow_writes(monkeypatch, store, fail=True)
    back = unreadable_log(monkeypatch, store)
    move = asyncio.create_task(room.submit(G0, 0, {"type": "turn"}))
    await started.wait()
    reader = asyncio.create_task(read(room))
    gate.set()
    for _ in range(20):
        await asyncio.sleep(0.01)
    assert not reader.done()  # the log is not read yet: nothing to show
    back.set()
    assert (await asyncio.wait_for(move, 5))["code"] == "busy"  # type: ignore[index]
    version, view, _, sync_view = await asyncio.wait_for(reader, 5)
    assert version == 0 and view == sync_view == before
    monkeypatch.undo()
    assert await room.submit(G0, 0, {"type": "turn"}) is None  # the table plays on
    assert [m.n for m in await store.moves(room.id)] == [1]


async def test_a_table_closed_while_its_log_cannot_be_read_shows_nothing(
    store: Store, lives: Lives, monkeypatch: pytest.MonkeyPatch
) -> None:
    live = lives(Settings(bot_delay=30.0))
    room = await live.tables.create("guerra", {}, G0)
    gate, started = slow_writes(monkeypatch, store, fail=True)
    unreadable_log(monkeypatch, store)
    move = asyncio.create_task(room.submit(G0, 0, {"type": "turn"}))
    await started.wait()
    reader = asyncio.create_task(read(room))
    gate.set()
    await asyncio.sleep(0.05)
    await asyncio.wait_for(room.close(), 5)  # (its lease lost meanwhile: another runs it)
    with pytest.raises(TableClosed):
        await asyncio.wait_for(reader, 5)
    assert (await asyncio.wait_for(move, 5))["code"] == "busy"  # type: ignore[index]
