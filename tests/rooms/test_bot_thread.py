"""A bot decides off the event loop: a slow decision (an expert's search) must not hold up
the loop that serves every room, and its move is still played when it comes. An instant
level (``BotSpec.instant``: a rule of thumb, tens of microseconds) is decided on the loop
at once, its move queued without a thread's hop."""

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
    {"kind": "bot", "level": "dificil", "name": "Bot"},
]
# seat 1 (the bot) is to play: the 2D (a diamond) or the 5S (a five) fits; the bot picks the 5S
POSITION = {"hands": ["9C 2H", "5S 2D 3C"], "discard": "5D", "stock": "4C 4D 4S 8H", "turn": 1}


async def test_a_slow_bot_decision_leaves_the_loop_free(
    store: Store, tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[int] = []
    thinking, answered = threading.Event(), threading.Event()
    released: list[bool] = []

    def slow(real: Chooser) -> Chooser:
        def decide(view: dict[str, Any], level: str) -> Any:
            threads.append(threading.get_ident())
            thinking.set()
            # a long search, holding its thread until the loop answers: on the loop's own
            # thread it would hold the loop, which could never answer (no timing measured:
            # counting the loop's ticks in 0.3 s failed once on a loaded machine)
            released.append(answered.wait(10))
            return real(view, level)

        return decide

    patch_bots(monkeypatch, "onecard", slow)
    record = await store.create_game("onecard", {"players": 2}, 1, SEATS, G0)
    room = await tables(record, Settings(bot_pace=0, clocks={"window": 30}))
    room.state = onecard.load(POSITION)
    room.bots.schedule()

    while not thinking.is_set():  # the loop turns while the bot thinks...
        await asyncio.sleep(0.01)
    answered.set()  # ...and answers it from here
    await room.settled()
    assert released and all(released)  # (every decision was answered, none timed out)
    assert threads and threads[0] != threading.get_ident()
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


async def test_a_searching_bot_decides_in_a_process_of_its_own(
    store: Store, tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One Card's maestro searches in the search processes (``Settings.search_workers``),
    not in a thread of the loop's interpreter: its search never holds the loop's lock; it
    is given the seconds it may think (``Settings.search_seconds``)."""
    from tapete.rooms.bots import close_search_pools, search_pool

    pool = search_pool(1)
    sent: list[tuple[Any, ...]] = []
    submit = pool.submit

    def spy(fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        sent.append((fn, *args))
        return submit(fn, *args, **kwargs)

    monkeypatch.setattr(pool, "submit", spy)
    seats = [SEATS[0], {"kind": "bot", "level": "maestro", "name": "Bot"}]
    record = await store.create_game("onecard", {"players": 2}, 1, seats, G0)
    settings = Settings(bot_pace=0, clocks={"window": 30}, search_workers=1, search_seconds=0.05)
    room = await tables(record, settings)
    room.state = onecard.load(POSITION)
    room.bots.schedule()
    try:
        await asyncio.wait_for(room.settled(), 60)  # (the first search starts the process)
    finally:
        close_search_pools()
    asked = {(args[0].__module__, args[2]) for args in sent}  # (its turn, then its call)
    assert sent and asked == {("tapete.bots.onecard", "maestro")}
    assert {args[3] for args in sent} == {0.05}  # (the seconds it may think: the setting)
    assert onecard.dump(room.state)["discard"].split()[-1] in ("2D", "5S")  # maestro's play


@pytest.mark.parametrize("pace", [0.0, 1.0])
async def test_an_instant_level_decides_on_the_loop(
    store: Store, tables: Tables, monkeypatch: pytest.MonkeyPatch, pace: float
) -> None:
    threads: list[int] = []

    def watched(real: Chooser) -> Chooser:
        def decide(view: dict[str, Any], level: str) -> Any:
            threads.append(threading.get_ident())
            decision = real(view, level)
            if decision is None:
                return None
            return decision[0], 0.05  # (a bot that asks to wait 0.05 s, times the pace)

        return decide

    patch_bots(monkeypatch, "onecard", watched)
    seats = [SEATS[0], {**SEATS[1], "level": "normal"}]
    record = await store.create_game("onecard", {"players": 2}, 1, seats, G0)
    room = await tables(record, Settings(bot_pace=pace, clocks={"window": 30}))
    room.state = onecard.load(POSITION)
    room.bots.schedule()
    assert threads == [threading.get_ident()]  # decided at once, on the loop's thread
    if pace:  # its move waits the delay it asked for, cancellable as any decision
        assert 1 in room.bots.deciding and room.version == 0
    else:  # queued at once: no task, no thread
        assert 1 not in room.bots.deciding and room.queue.qsize() == 1
    await room.settled()
    assert set(threads) == {threading.get_ident()}  # (and every decision after it)
    assert onecard.dump(room.state)["discard"].split()[-1] == "5S"
