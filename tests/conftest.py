"""Suite-wide: the browser tests run last.

Playwright's sync API leaves its event loop registered as the thread's running loop for as
long as the session-scoped ``playwright`` fixture lives, so an ``async def`` test run after
a browser test fails with "Runner.run() cannot be called from a running event loop".
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["tests.databases"]

E2E = Path(__file__).parent / "e2e"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    browser = [i for i in items if E2E in i.path.resolve().parents]
    others = [i for i in items if E2E not in i.path.resolve().parents]
    items[:] = others + browser
