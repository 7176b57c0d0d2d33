"""A game handed from one process to another (a stop's drain): its clocks start again with
the seconds they had left when it was handed over — not their whole time, nor less: the
time the handover took is given back, exactly."""

from __future__ import annotations

import asyncio

import pytest

from tapete.games import onecard
from tapete.rooms import Settings, Table
from tapete.rooms.clocks import name
from tapete.store import Store

G0, G1 = "a" * 24, "b" * 24
SEATS = [
    {"kind": "human", "guest": G0, "name": "Ana"},
    {"kind": "human", "guest": G1, "name": "Luis"},
]
# seat 0 to play: its turn clock runs
POSITION = {"hands": ["9C 2H", "5S 2D 3C"], "discard": "5D", "stock": "4C 4D 4S 8H", "turn": 0}


async def test_the_next_process_starts_each_clock_with_what_it_had_left(store: Store) -> None:
    settings = Settings(clocks={"turn": 30})
    record = await store.create_game(
        "onecard", {"players": 2}, 1, SEATS, G0, position=onecard.dump(onecard.load(POSITION))
    )
    first = await Table.open(record, store, settings)
    try:
        [turn] = first.clocks.running
        assert turn[:2] == ("turn", 0)
        await asyncio.sleep(0.3)  # the clock runs here a while
        left = first.clocks.left()
        assert list(left) == [name(turn)] and 29.6 < left[name(turn)] < 29.75
    finally:
        await first.close()
    await asyncio.sleep(0.2)  # the handover: time nobody should lose

    second = await Table.open(record, store, settings, left=left)
    try:
        [clock] = second.clocks_json()
        assert clock["seat"] == 0 and clock["of"] == 30_000
        assert clock["ms"] == pytest.approx(left[name(turn)] * 1000, abs=20)  # given back
        assert second.clocks.resumed == {}  # once: the next turn's clock runs its whole time
    finally:
        await second.close()


async def test_a_clock_the_game_no_longer_runs_is_not_resumed(store: Store) -> None:
    """A note for a clock that does not run on the next process (the game moved on, or
    another kind) starts nothing."""
    record = await store.create_game(
        "onecard", {"players": 2}, 1, SEATS, G0, position=onecard.dump(onecard.load(POSITION))
    )
    table = await Table.open(
        record, store, Settings(clocks={"turn": 30}), left={"('turn', 1, None)": 3.0}
    )
    try:
        [clock] = table.clocks_json()
        assert clock["seat"] == 0 and clock["ms"] == pytest.approx(30_000, abs=20)
    finally:
        await table.close()
