"""One Card's «maestro» (issue 26, in progress): it searches from its seat's view only — two
games that differ in nothing that seat may see get the same move —, keeps its clock, takes
a win when there is one, and gives the same view the same answer while its clock is not
what stops it."""

from __future__ import annotations

import math
import random
import time
from typing import Any

import pytest

from tapete.bots import onecard as bots
from tapete.games import onecard

BUDGET = 3000
"""Engine moves a test's search may simulate (the level's own is eight times as many)."""


def with_choices(seeds: range, players: int = 2) -> list[tuple[onecard.State, int]]:
    """Positions of seeded games (difícil against difícil) where the seat to move has a
    choice of card."""
    found: list[tuple[onecard.State, int]] = []
    for seed in seeds:
        state = onecard.new(onecard.parse_config({"players": players}), seed)
        for _ in range(400):
            if state.result is not None or state.exposed:
                break
            seat = state.turn
            view = onecard.view(state, seat)
            if len({m["card"] for m in view["legal"] if m["type"] == "play"}) > 2:
                found.append((state.copy(), seat))
                break
            answer = bots.choose(view, "dificil")
            assert answer is not None
            onecard.apply(state, seat, onecard.parse_move(answer[0]))
    return found


def hidden_shuffled(state: onecard.State, seat: int, rng: random.Random) -> onecard.State:
    """The same game with what ``seat`` cannot see dealt again: the other hands and the
    stock swap cards among themselves, each keeping its size."""
    other = state.copy()
    hidden = [c for s, h in enumerate(other.hands) if s != seat for c in h] + other.stock
    rng.shuffle(hidden)
    for s, hand in enumerate(other.hands):
        if s != seat:
            other.hands[s] = [hidden.pop() for _ in hand]
    other.stock = hidden
    return other


def test_maestro_reads_only_its_view() -> None:
    rng = random.Random(5)
    positions = with_choices(range(40, 52))
    assert len(positions) >= 8
    for state, seat in positions:
        other = hidden_shuffled(state, seat, rng)
        assert other.hands != state.hands  # another game …
        mine, theirs = onecard.view(state, seat), onecard.view(other, seat)
        assert mine == theirs  # … that the seat cannot tell from this one
        move = bots.maestro_turn(mine, BUDGET, math.inf)
        assert move in mine["legal"]
        assert bots.maestro_turn(theirs, BUDGET, math.inf) == move


def test_the_same_view_gets_the_same_answer() -> None:
    """(Heads-up, where it searches; with three, as difícil, whose answers are tested so.)"""
    for state, seat in with_choices(range(60, 66)):
        view = onecard.view(state, seat)
        assert bots.maestro_turn(view, BUDGET, math.inf) == bots.maestro_turn(
            view, BUDGET, math.inf
        )


def test_maestro_keeps_its_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search with no end to its count stops at its clock — the one it is given, as the
    rooms give it ``Settings.search_seconds`` through ``choose``: measured in the bench
    (``bench/onecard_bots.py``: at most 150 ms); here only far above, whatever the load.
    (Heads-up: with more players maestro plays difícil's move, no search.)"""
    state, seat = with_choices(range(70, 80), players=2)[0]
    view = onecard.view(state, seat)
    start = time.perf_counter()
    move = bots.maestro_turn(view, 10**9, 0.05)
    assert time.perf_counter() - start < 2.0
    assert move in view["legal"]
    monkeypatch.setattr(bots, "MASTER_MOVES", 10**9)
    start = time.perf_counter()
    answer = bots.choose(view, "maestro", 0.05)
    assert time.perf_counter() - start < 2.0
    assert answer is not None and answer[0] in view["legal"]


def test_maestro_takes_a_win() -> None:
    """Heads-up, a J plays again: J♥ and then 5♥ ends the game at once (playing 5♥ first
    would leave the J alone for the next turn, and the opponent a turn to answer)."""
    s = onecard.load({"hands": ["JH 5H", "2S 4D 6C 8D"], "discard": "3H", "called": [True] * 2})
    view: dict[str, Any] = onecard.view(s, 0)
    assert bots.maestro_turn(view, BUDGET, math.inf) == {"type": "play", "card": "JH"}
    answer = bots.choose(view, "maestro")
    assert answer is not None and answer[0] in view["legal"]


HOUSE: list[dict[str, Any]] = [
    {},
    {"two_attack": True, "jokers": True},
    {"king_again": True, "three_blocks": True},
    {"no_special_finish": True, "jokers": True, "three_blocks": True},
    {name: True for name in onecard.OPTIONS} | {"penalty": 4},
]


def test_the_fast_playouts_play_the_engines_games() -> None:
    """maestro's own loop (``_fast_playout``) against the engine driven by the same policy
    (``_playout`` of ``_master_playout_move``): from positions of seeded games with every
    set of house rules and 2–4 players, every legal first move on several deals, played to
    the end (reshuffles of the discard included) — the same result and the same number of
    moves every time."""
    compared = reshuffled = 0
    for k, house in enumerate(HOUSE):
        for seed in range(12):
            players = 2 + (seed + k) % 3
            state = onecard.new(onecard.parse_config({"players": players, **house}), seed)
            rng = random.Random(seed)
            for turn in range(60):
                if state.result is not None:
                    break
                seat = state.turn
                view = onecard.view(state, seat)
                if turn % 7 == 0 and not state.exposed:
                    t = bots.Table.read(view)
                    moves = [
                        m
                        for m in onecard.legal_moves(state, seat)
                        if type(m) in (onecard.Play, onecard.Draw)
                    ]
                    for _ in range(3):
                        d = bots._deal(t, rng)
                        for move in moves:
                            dealt = bots._dealt_state(t, d)
                            slow = bots._playout(dealt, seat, move, 400, bots._master_playout_move)
                            fast = bots._fast_playout(t, d, seat, move, 400)
                            assert fast == slow, (house, seed, turn, str(move))
                            compared += 1
                        reshuffled += len(d.stock) < 12
                legal = onecard.legal_moves(state, seat)
                onecard.apply(state, seat, rng.choice(legal))
                for s in list(state.exposed):  # the catch window closes: play on
                    onecard.apply(state, s, onecard.WINDOWS[s])
    assert compared > 1000
    assert reshuffled > 20  # short stocks: the reshuffle is compared too
