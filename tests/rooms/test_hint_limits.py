"""Hints have threads of their own (``Settings.hint_threads``): many hints at once wait for
each other, not for the bots' threads nor the bots for them; one seat gets one hint at a
time and ``hints_per_minute`` at most (then ``too_fast``). Counts, not timings."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from tapete.rooms import Settings
from tests.lives import Lives

from .conftest import Chooser, patch_bots
from .test_hint import G0, MELD


def held(names: list[str], gate: threading.Event) -> Any:
    def wrap(real: Chooser) -> Chooser:
        def decide(view: dict[str, Any], level: str) -> Any:
            names.append(threading.current_thread().name)
            gate.wait(10)
            return real(view, level)

        return decide

    return wrap


async def test_hints_run_on_their_own_bounded_pool(
    lives: Lives, monkeypatch: pytest.MonkeyPatch
) -> None:
    names: list[str] = []
    gate = threading.Event()
    patch_bots(monkeypatch, "rummy", held(names, gate))
    live = lives(Settings(hint_threads=1))
    guests = [f"{i}" * 24 for i in range(4)]
    tables = [await live.tables.create("rummy", {}, g, position=MELD) for g in guests]
    hints = [asyncio.create_task(t.hint(g)) for t, g in zip(tables, guests, strict=True)]
    while not names:
        await asyncio.sleep(0.01)
    for _ in range(20):  # let any other hint start, if it could
        await asyncio.sleep(0.005)
    assert len(names) == 1  # one thread: the other three wait their turn
    gate.set()
    replies = await asyncio.gather(*hints)
    assert [r["type"] for r in replies] == ["hint"] * 4
    assert len(names) == 4 and len(set(names)) == 1 and names[0].startswith("tapete-hint")


async def test_one_hint_at_a_time_per_seat(lives: Lives, monkeypatch: pytest.MonkeyPatch) -> None:
    names: list[str] = []
    gate = threading.Event()
    patch_bots(monkeypatch, "rummy", held(names, gate))
    live = lives()
    room = await live.tables.create("rummy", {}, G0, position=MELD)
    first = asyncio.create_task(room.hint(G0))
    while not names:
        await asyncio.sleep(0.01)
    second = await asyncio.wait_for(room.hint(G0), 5)
    assert second["type"] == "error" and second["code"] == "too_fast"
    gate.set()
    assert (await first)["type"] == "hint"
    assert len(names) == 1


async def test_a_hint_search_that_fails_is_busy_and_the_seat_may_ask_again(
    lives: Lives, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(real: Chooser) -> Chooser:
        def decide(view: dict[str, Any], level: str) -> Any:
            if level == "experto":
                raise RuntimeError("the search broke")
            return real(view, level)

        return decide

    patch_bots(monkeypatch, "rummy", broken)
    live = lives()
    room = await live.tables.create("rummy", {}, G0, position=MELD)
    failed = await room.hint(G0)
    assert failed["type"] == "error" and failed["code"] == "busy"
    again = await room.hint(G0)  # not stuck «one at a time»
    assert again["code"] == "busy" and room.version == 0


async def test_at_most_hints_per_minute_per_seat(lives: Lives) -> None:
    live = lives(Settings(hints_per_minute=2))
    room = await live.tables.create("rummy", {}, G0, position=MELD)
    replies = [await room.hint(G0) for _ in range(4)]
    assert [r["type"] for r in replies] == ["hint", "hint", "error", "error"]
    assert replies[2]["code"] == "too_fast"


def test_the_hall_gives_rooms_its_hint_limits(tmp_path: Any) -> None:
    from tapete.server.edge.limits import Limits
    from tapete.server.state import Hall

    hall = Hall("sqlite://", Settings(), Limits(hint_threads=3, hints_per_minute=7))
    assert (hall.settings.hint_threads, hall.settings.hints_per_minute) == (3, 7)
