"""Two processes that both believe they run a game (a lease lost unawares): the move log's
version lets one commit move n, the other's move changes nothing, is told nobody, and its
room stops and tells its connections to join again where the game is run now."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest

from tapete.rooms import Settings
from tapete.rooms.inbox import Moved
from tapete.store import Store, default_url, migrate
from tests.lives import Lives

GUEST = "s" * 24
FROZEN = Settings(bot_pace=0, bot_delay=3600)  # (the bot never answers: only our moves)


@pytest.fixture
async def two_stores(tmp_path: Path) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores on one database, as two processes have."""
    url = default_url(tmp_path / "two.db")
    migrate(url)
    async with AsyncExitStack() as opened:
        one, two = Store(url), Store(url)
        opened.push_async_callback(one.close)
        opened.push_async_callback(two.close)
        yield one, two


async def test_a_stale_owner_never_commits_and_hands_its_sockets_on(
    two_stores: tuple[Store, Store], lives: Lives
) -> None:
    one, two = two_stores  # (requested before lives: the stores outlive the Lives)
    here, there = lives(FROZEN, store=one), lives(FROZEN, store=two)
    room = await here.tables.create("guerra", {}, GUEST)
    copy = await there.read_table(room.id)  # the second process opened it too
    assert copy is not None and copy is not room and copy.version == 0
    told: list[Any] = []
    copy.subscribe(GUEST, told.append, None)

    assert await room.submit(GUEST, 0, {"type": "turn"}) is None  # move 1, committed
    refused = await copy.submit(GUEST, 0, {"type": "turn"})  # the other's move 1
    assert refused is not None and refused["code"] == "busy"
    for _ in range(100):
        if not there.tables.loaded():
            break
        await asyncio.sleep(0.01)
    assert there.tables.loaded() == []  # it stopped running the game
    assert told == [Moved("table")]  # its socket joins again elsewhere
    moves = await one.moves(room.id)
    assert [(m.n, m.seat) for m in moves] == [(1, 0)]  # one move 1: the first owner's
    again = await there.read_table(room.id)  # asked again: rebuilt from the log, as it is
    assert again is not None and again.version == room.version
