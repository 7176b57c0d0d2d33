"""Waiting for a condition in an async test: checked every 10 ms, never a fixed sleep."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


async def until(check: Callable[[], object], seconds: float = 10.0) -> None:
    """Return once ``check()`` is true, or after ``seconds`` (the test's assertion says what
    did not happen)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not check() and loop.time() < end:
        await asyncio.sleep(0.01)
