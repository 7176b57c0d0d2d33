"""The ``lives`` fixture (:mod:`tests.lives`) closes what it opened even when the test fails
midway: a tiny failing test is run in this process (pytester, no new process), and the Live
it opened through the fixture is found closed afterwards — no table left, no sweeper, the
table's task and watchdog stopped — where one opened by hand, failing the same way, is not.
And closing a Live twice, as a test that plays a restart does, is harmless."""

from __future__ import annotations

import asyncio

import pytest

from tapete.rooms import Live, Settings, Table
from tests.lives import Lives

pytest_plugins = ["pytester"]

FROZEN = Settings(bot_pace=0, bot_delay=3600)

FAILING = """
from tapete.rooms import Live, Settings

FROZEN = Settings(bot_pace=0, bot_delay=3600)


async def test_fails_midway(lives, store, seen):
    live = {open}
    assert await live.start() == 0
    room = await live.tables.create("guerra", {{}}, "a" * 24)
    seen.append((live, room, room._task, live._sweeper))
    assert room.version == -1, "failed midway"
    await live.close()
"""


class Seen:
    """What the inner test opened, handed out to it as the ``seen`` fixture."""

    def __init__(self) -> None:
        self.opened: list[tuple[Live, Table, object, object]] = []

    @pytest.fixture
    def seen(self) -> list[tuple[Live, Table, object, object]]:
        return self.opened


def run_failing(pytester: pytest.Pytester, open_live: str) -> tuple[Live, Table, object, object]:
    pytester.makepyfile(test_inner=FAILING.format(open=open_live))
    seen = Seen()
    result = pytester.runpytest_inprocess(
        "-p", "tests.databases", "-p", "tests.lives",
        "-p", "no:cacheprovider", "-p", "no:playwright",  # (its soft assertions do not nest)
        "-o", "asyncio_mode=auto", "-o", "asyncio_default_fixture_loop_scope=function",
        plugins=[seen],
    )  # fmt: skip
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*failed midway*"])
    assert len(seen.opened) == 1
    return seen.opened[0]


def test_a_live_of_a_test_that_fails_midway_is_closed(pytester: pytest.Pytester) -> None:
    live, room, task, sweeper = run_failing(pytester, "lives(FROZEN)")
    assert isinstance(task, asyncio.Task) and isinstance(sweeper, asyncio.Task)
    assert live.tables.loaded() == [] and live._sweeper is None  # closed...
    assert room._task is None and room.bots._watchdog is None  # ...its table with it
    assert task.done() and sweeper.done()


def test_a_live_opened_by_hand_in_a_test_that_fails_midway_is_left_open(
    pytester: pytest.Pytester,
) -> None:
    """The check above can fail: without the fixture nothing closes the Live."""
    live, room, _, sweeper = run_failing(pytester, "Live(store, FROZEN)")
    assert live.tables.loaded() == [room] and live._sweeper is sweeper
    assert room._task is not None


async def test_closing_a_live_twice_is_harmless(lives: Lives) -> None:
    live = lives(FROZEN)
    assert await live.start() == 0
    room = await live.tables.create("guerra", {}, "a" * 24)
    await live.close()
    assert live.tables.loaded() == [] and live._sweeper is None and room._task is None
    await live.close()  # (and the fixture closes it a third time)
    assert live.tables.loaded() == [] and live._sweeper is None
