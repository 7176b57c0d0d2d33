"""Each test's cost in the whole machine's CPU (from /proc/stat: every process counts, the
browsers and the test's servers too), for a run on one worker: a pytest plugin.

    PYTHONPATH=bench .venv/bin/python -m pytest -q -p cpu_per_test tests/e2e
    # → /tmp/cpu_per_test.tsv: CPU s, wall s, test; costliest first

A module's server is counted in its first test. Figures go in bench/RESULTS.md.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

_costs: dict[str, tuple[float, float]] = {}


def _cpu() -> float:
    with open("/proc/stat") as f:
        x = f.readline().split()
    return (int(x[1]) + int(x[2]) + int(x[3])) / 100


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: Any) -> Iterator[None]:
    cpu, wall = _cpu(), time.monotonic()
    yield
    _costs[item.nodeid] = (_cpu() - cpu, time.monotonic() - wall)


def pytest_sessionfinish(session: pytest.Session) -> None:
    with open("/tmp/cpu_per_test.tsv", "w") as f:
        for test, (cpu, wall) in sorted(_costs.items(), key=lambda kv: -kv[1][0]):
            f.write(f"{cpu:.1f}\t{wall:.1f}\t{test}\n")
