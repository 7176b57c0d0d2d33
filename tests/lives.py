"""The room tests' store, and the ``Live``s and tables they open, closed whatever the test did.

``store`` is a :class:`~tapete.store.Store` on a fresh SQLite file of the test's own;
``lives`` opens a :class:`~tapete.rooms.Live` on it (or on another store given), ``tables``
a lone :class:`~tapete.rooms.Table` from a game's record, and each closes every one it
opened at the end of the test, passed or failed, so that a failing assertion leaks no bot,
clock or sweeper into the tests after it. A test that closes one itself (to play a restart,
or a room closed under a bot) keeps doing so: closing one twice is harmless.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from typing import Protocol

import pytest

from tapete.rooms import Live, Settings, Table
from tapete.store import GameRecord, Store


@pytest.fixture
async def store(sqlite_url: str) -> AsyncIterator[Store]:
    s = Store(sqlite_url)
    yield s
    await s.close()


class Lives(Protocol):
    def __call__(
        self,
        settings: Settings | None = None,
        idle_seconds: float = 60.0,
        *,
        store: Store | None = None,
    ) -> Live: ...


@pytest.fixture
async def lives(store: Store) -> AsyncIterator[Lives]:
    """Opens ``Live``s (on the test's store unless given another) and closes every one at
    the end, the last opened first, whatever the test did. Another store given must outlive
    this fixture: request its fixture before ``lives``."""
    default = store
    async with AsyncExitStack() as opened:

        def open_live(
            settings: Settings | None = None,
            idle_seconds: float = 60.0,
            *,
            store: Store | None = None,
        ) -> Live:
            live = Live(store or default, settings, idle_seconds)
            opened.push_async_callback(live.close)
            return live

        yield open_live


class Tables(Protocol):
    async def __call__(self, record: GameRecord, settings: Settings | None = None) -> Table: ...


@pytest.fixture
async def tables(store: Store) -> AsyncIterator[Tables]:
    """Opens tables (``Table.open`` of a record, on the test's store) and closes every one at
    the end, the last opened first, whatever the test did."""
    async with AsyncExitStack() as opened:

        async def open_table(record: GameRecord, settings: Settings | None = None) -> Table:
            table = await Table.open(record, store, settings)
            opened.push_async_callback(table.close)
            return table

        yield open_table
