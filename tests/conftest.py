"""Suite-wide: the tests' two marks, a guard that keeps them true, and the browser tests last.

- ``processes``: the test starts a process — PostgreSQL, Redis, Caddy, Chromium, a
  ``tapete serve`` or another Python. Tests that use the PostgreSQL or Redis fixtures, and
  every test under ``tests/cluster`` and ``tests/e2e``, get it by themselves; a module that
  starts its own says so with ``pytestmark``. A test without the mark that starts a process
  fails (``subprocess.Popen`` refuses), so ``make check`` never waits on one unawares.
- ``slow``: a long playout or a load-ish test (seconds, not milliseconds).

``make check`` runs what is neither; ``make test`` runs everything.

Playwright's sync API leaves its event loop registered as the thread's running loop for as
long as the session-scoped ``playwright`` fixture lives, so an ``async def`` test run after
a browser test fails with "Runner.run() cannot be called from a running event loop": the
browser tests run last.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest_plugins = ["tests.databases", "tests.lives"]

TESTS = Path(__file__).parent
E2E = TESTS / "e2e"
OWN_PROCESSES = (TESTS / "cluster", E2E)
"""Folders whose every test starts processes (Redis; Chromium and a server)."""
PROCESS_FIXTURES = {"postgres_url", "fresh_postgres", "redis_server", "redis_client"}
"""Fixtures that start a server binary."""

os.environ.setdefault("TAPETE_LIMITS", "full_cpu=0")
"""Every ``tapete serve`` a test starts never counts itself full (README, «A full process»):
those tests make games by the dozen in a second on a machine the other tests share, which is
no wave of players to turn away. The door's own tests set it (``--limit full_cpu=…``, after
the environment's)."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "processes: starts a process (PostgreSQL, Redis, Caddy, Chromium, tapete serve, Python); "
        "not in make check",
    )
    config.addinivalue_line("markers", "slow: a long playout or a load-ish test; not in make check")


def _starts_processes(item: pytest.Item) -> bool:
    path = item.path.resolve()
    if any(folder in path.parents for folder in OWN_PROCESSES):
        return True
    if PROCESS_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and "postgresql" in callspec.params.values()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks the tests that start processes (before ``-m`` selects); the browser tests last."""
    for item in items:
        if _starts_processes(item):
            item.add_marker(pytest.mark.processes)
    browser = [i for i in items if E2E in i.path.resolve().parents]
    others = [i for i in items if E2E not in i.path.resolve().parents]
    items[:] = others + browser


class _NoProcess(subprocess.Popen):  # type: ignore[type-arg]
    def __init__(self, args: Any, *rest: Any, **options: Any) -> None:
        raise AssertionError(
            f"this test starts a process ({args!r}) and is not marked processes: mark it "
            "(pytestmark = pytest.mark.processes) so that make check leaves it to make test"
        )


@pytest.fixture(autouse=True)
def _processes_are_marked(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test not marked ``processes`` may not start one (a fixture could: it is checked
    by its use, :data:`PROCESS_FIXTURES`)."""
    if request.node.get_closest_marker("processes") is not None:
        yield
        return
    real = subprocess.Popen
    subprocess.Popen = _NoProcess  # type: ignore[misc]
    try:
        yield
    finally:
        subprocess.Popen = real  # type: ignore[misc]
