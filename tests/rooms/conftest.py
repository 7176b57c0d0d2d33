"""What the room tests share: a store on a fresh SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tapete.store import Store, default_url, migrate


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    url = default_url(tmp_path / "room.db")
    migrate(url)
    s = Store(url)
    yield s
    await s.close()
