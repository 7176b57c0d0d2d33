"""The room tests' store and ``Live``s, closed whatever the test did.

``store`` is a :class:`~tapete.store.Store` on a fresh SQLite file of the test's own;
``lives`` opens a :class:`~tapete.rooms.Live` on it (or on another store given) and closes
every one it opened at the end of the test, passed or failed, so that a failing assertion
leaks no bot, clock or sweeper into the tests after it. A test that closes a ``Live``
itself (to play a restart) keeps doing so: closing one twice is harmless.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from typing import Protocol

import pytest

from tapete.rooms import Live, Settings
from tapete.store import Store


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
