"""The coach of a finished game (tapete/rooms/analysis.py): each move of a seat judged from
the view that seat had before it, by the game's coach (Rummy: the exact solver); the
costliest marked; refusals for a game still played and a game with no coach."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tapete.games import rummy
from tapete.registry import REGISTRY
from tapete.rooms.analysis import NoCoach, analyse
from tapete.rooms.replay import NotOver
from tapete.store import GameRecord, LoggedMove, Store
from tests.waiting import until

# seat 0 could put down 6R on the run and the three 9s (4 tiles, 33 points); the pool is
# empty, so a seat that puts down nothing passes, and the hand ends when every seat has
POSITION: dict[str, Any] = {
    "racks": ["6R 9N 9A 9O 1N 11N", "2R 12A"],
    "table": ["3R 4R 5R"],
    "melded": [True, True],
    "pool": "",
    "config": {"hands": 1},
}
MOVES: list[tuple[int, dict[str, Any]]] = [
    (0, {"type": "pass"}),  # nothing down: 33 points that could have gone
    (1, {"type": "play", "table": [["2R", "3R", "4R", "5R"]]}),  # all it could
    (0, {"type": "play", "table": [["2R", "3R", "4R", "5R", "6R"]]}),  # only the 6R: 27
    (1, {"type": "pass"}),  # (nothing it could)
    (0, {"type": "pass"}),  # the three 9s kept: 27 again; two passes, the end
]


def record(position: dict[str, Any] | None = POSITION, kind: str = "rummy") -> GameRecord:
    return GameRecord(
        id="g1", kind=kind, config={}, seed=1, seats=[], owner="x", status="finished",
        version=len(MOVES), outcome=None, position=position,
    )  # fmt: skip


def logged(moves: list[tuple[int, dict[str, Any]]]) -> list[LoggedMove]:
    return [LoggedMove(n, seat, move) for n, (seat, move) in enumerate(moves, start=1)]


def test_the_game_is_played_as_logged() -> None:
    state = rummy.load(POSITION)
    for seat, move in MOVES:
        rummy.apply(state, seat, rummy.parse_move(move))
    assert rummy.outcome(state) is not None


def test_each_move_of_the_seat_is_judged_and_the_costliest_marked() -> None:
    found = analyse(REGISTRY["rummy"], record(), logged(MOVES), 0)
    assert found["seat"] == 0 and found["unit"] == "points"
    moves = found["moves"]
    assert [m["n"] for m in moves] == [1, 3, 5]
    said = [(m["code"], m["params"], m["loss"]) for m in moves]
    assert said == [
        ("could_place", {"best": 4, "made": 0}, 33),
        ("could_place", {"best": 4, "made": 1}, 27),
        ("could_place", {"best": 3, "made": 0}, 27),
    ]
    placed = {t for s in moves[0]["best"]["table"] for t in s}
    assert {"6R", "9N", "9A", "9O"} <= placed and "1N" not in placed  # (the solver's play)
    assert found["costliest"] == [1, 3, 5]  # (27 and 27: the earlier first)
    # the other seat played as well as it could: nothing marked
    theirs = analyse(REGISTRY["rummy"], record(), logged(MOVES), 1)
    assert [(m["n"], m["code"], m["loss"]) for m in theirs["moves"]] == [
        (2, "best_play", 0), (4, "best_play", 0),
    ]  # fmt: skip
    assert theirs["costliest"] == []


def test_a_game_still_played_and_a_game_without_a_coach_are_refused() -> None:
    with pytest.raises(NotOver):
        analyse(REGISTRY["rummy"], record(), logged(MOVES[:3]), 0)
    with pytest.raises(NoCoach):
        analyse(REGISTRY["peaje"], record(None, "peaje"), [], 0)


# One Card heads-up, where a J plays again: J♥ then 5♥ wins at once; the player threw 5♥
# first, which gave the opponent a turn (it drew, and J♥ won a turn later)
ONE_CARD: dict[str, Any] = {
    "hands": ["JH 5H", "2S 4D 6C 8D 9S"], "discard": "3H", "stock": "10C 10D",
    "called": [True, True],
}  # fmt: skip
ONE_CARD_MOVES: list[tuple[int, dict[str, Any]]] = [
    (0, {"type": "play", "card": "5H"}),
    (1, {"type": "draw"}),
    (0, {"type": "play", "card": "JH"}),  # (its last card: no choice to judge)
]


def test_one_card_the_coach_finds_the_win_a_player_missed() -> None:
    from tapete.games import onecard

    position, moves = ONE_CARD, ONE_CARD_MOVES
    state = onecard.load(position)
    for seat, move in moves:
        onecard.apply(state, seat, onecard.parse_move(move))
    assert (onecard.outcome(state) or {}).get("winner") == 0
    found = analyse(REGISTRY["onecard"], record(position, "onecard"), logged(moves), 0)
    assert found["unit"] == "percent"
    [judged] = found["moves"]
    assert judged["n"] == 1 and judged["best"] == {"type": "play", "card": "JH"}
    assert judged["code"] == "better_play" and judged["params"]["chance_best"] == 100
    assert judged["loss"] == 100 - judged["params"]["chance_made"] >= 3
    assert found["costliest"] == [1]


async def test_the_rooms_make_an_analysis_once_in_the_coach_processes(store: Store) -> None:
    """Asked for, an analysis is made in the background (the coach's processes), its
    progress told; once made it is kept, and asked again it is read, not made again."""
    from tapete.rooms.analysis import Coaching
    from tapete.rooms.bots import close_search_pools

    made = await store.create_game("rummy", {}, 1, [], "x" * 24, position=POSITION)
    state = rummy.load(POSITION)
    for n, (seat, move) in enumerate(MOVES, start=1):
        events = rummy.apply(state, seat, rummy.parse_move(move))
        assert events is not None
        await store.append_move(made.id, n, seat, move, rummy.outcome(state))
    record = await store.game(made.id)
    assert record is not None and record.status == "finished"
    coaching = Coaching(store, workers=1)
    try:
        both = await asyncio.gather(  # (two asking at once: one making)
            coaching.status(REGISTRY["rummy"], record, 0),
            coaching.status(REGISTRY["rummy"], record, 0),
        )
        assert list(both) == [{"state": "computing", "done": 0, "of": 3}] * 2
        assert len(coaching.running) == 1
        again = await coaching.status(REGISTRY["rummy"], record, 0)  # (one making at a time)
        assert again["state"] == "computing" and len(coaching.running) == 1
        for _ in range(600):
            ready = await coaching.status(REGISTRY["rummy"], record, 0)
            if ready["state"] == "ready":
                break
            await asyncio.sleep(0.05)
        assert ready == {"state": "ready", **analyse(REGISTRY["rummy"], record, logged(MOVES), 0)}
        assert await store.analysis(made.id, 0) is not None
        # (the making forgets itself once its row is saved: a reader may see the row first —
        # it did once, in a loaded run)
        await until(lambda: not coaching.running)
        assert not coaching.running
    finally:
        await coaching.close()
        close_search_pools()
