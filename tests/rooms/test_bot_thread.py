"""A bot decides off the event loop: a slow decision (an expert's search) must not hold up
the loop that serves every room, and its move is still played when it comes."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from tapete.games import onecard
from tapete.rooms import Settings
from tapete.store import Store
from tests.lives import Tables

from .conftest import Chooser, patch_bots

G0 = "a" * 24
SEATS = [
    {"kind": "human", "guest": G0, "name": "Ana"},
    {"kind": "bot", "level": "normal", "name": "Bot"},
]
# seat 1 (the bot) is to play: the 2D (a diamond) or the 5S (a five) fits; the bot picks the 5S
POSITION = {"hands": ["9C 2H", "5S 2D 3C"], "discard": "5D", "stock": "4C 4D 4S 8H", "turn": 1}


async def test_a_slow_bot_decision_leaves_the_loop_free(
    store: Store, tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[int] = []

    def slow(real: Chooser) -> Chooser:
        def decide(view: dict[str, Any], level: str) -> Any:
            threads.append(threading.get_ident())
            time.sleep(0.4)  # a long search, holding its thread
            return real(view, level)

        return decide

    patch_bots(monkeypatch, "onecard", slow)
    record = await store.create_game("onecard", {"players": 2}, 1, SEATS, G0)
    room = await tables(record, Settings(bot_pace=0, clocks={"window": 30}))
    room.state = onecard.load(POSITION)
    room.bots.schedule()

    ticks = 0
    start = time.monotonic()
    while time.monotonic() - start < 0.3:
        await asyncio.sleep(0.01)
        ticks += 1
    # the loop kept turning while the bot thought (it would have stalled for 0.4 s)
    assert ticks >= 10
    assert threads and threads[0] != threading.get_ident()
    await room.settled()
    assert onecard.dump(room.state)["discard"].split()[-1] == "5S"


async def test_a_decision_for_a_closed_room_is_dropped(
    store: Store, tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []

    def slow(real: Chooser) -> Chooser:
        def decide(view: dict[str, Any], level: str) -> Any:
            time.sleep(0.2)
            calls.append(view["game"])
            return real(view, level)

        return decide

    patch_bots(monkeypatch, "onecard", slow)
    record = await store.create_game("onecard", {"players": 2}, 1, SEATS, G0)
    room = await tables(record, Settings(bot_pace=0, clocks={"window": 30}))
    room.state = onecard.load(POSITION)
    before = onecard.dump(room.state)
    room.bots.schedule()
    await asyncio.sleep(0.05)  # the bot is thinking
    await room.close()
    await asyncio.sleep(0.3)
    assert calls == ["onecard"]  # the thread ran to its end...
    assert onecard.dump(room.state) == before  # ...and nothing was played


async def test_a_bot_that_fails_still_plays_its_first_legal_move(
    store: Store,
    tables: Tables,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(real: Chooser) -> Chooser:
        def decide(view: dict[str, Any], level: str) -> Any:
            raise RuntimeError("a bug in a bot")

        return decide

    patch_bots(monkeypatch, "onecard", broken)
    record = await store.create_game("onecard", {"players": 2}, 1, SEATS, G0)
    room = await tables(record, Settings(bot_pace=0, clocks={"window": 30}))
    room.state = onecard.load(POSITION)
    room.bots.schedule()
    await room.settled()
    # its first legal move (the 2D) went down, and the failure is in the log
    first = onecard.legal_moves(onecard.load(POSITION), 1)[0].to_json()
    assert first == {"type": "play", "card": "2D"}
    assert onecard.dump(room.state)["discard"].split()[-1] == "2D"
    assert "bot decision failed" in caplog.text
