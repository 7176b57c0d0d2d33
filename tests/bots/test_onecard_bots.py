"""One Card bots: every answer is one of the view's legal moves, over seeded games of 2–4
players with and without house rules; the bots read only the view (JSON) and give the same
view the same answer, in any process; difícil plays the seed's strategy in set positions;
normal beats fácil."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from typing import Any

import pytest

from tapete.bots import onecard as bots
from tapete.games import onecard
from tapete.registry import REGISTRY

Answer = tuple[dict[str, Any], float] | None

HOUSE: list[dict[str, bool]] = [
    {},
    {"two_attack": True, "jokers": True},
    {"king_again": True, "three_blocks": True},
    {"no_special_finish": True, "jokers": True, "three_blocks": True},
    {name: True for name in onecard.OPTIONS},
]
ROTATION = ("facil", "normal", "dificil", "normal")


def ask(state: onecard.State, seat: int, level: str, check: bool = False) -> Answer:
    """The bot's answer from the seat's view only, checked against the view's legal moves."""
    view = onecard.view(state, seat)
    before = copy.deepcopy(view)
    answer = bots.choose(view, level)
    assert view == before, "the bot changed the view"
    if answer is not None:
        move, delay = answer
        assert move in view["legal"], (level, move, view["legal"])
        assert isinstance(delay, float) and 0.0 < delay <= 4.0
    if check:  # the same view (as JSON, in a copy) gets the same answer
        assert bots.choose(json.loads(json.dumps(view)), level) == answer
    return answer


def play(levels: tuple[str, ...], config: onecard.Config, seed: int, checks: int = 0) -> int | None:
    """A whole game between bots, the One Card race settled by the delays (the 3 s window
    when nobody is quicker); returns the winner, or None after 1,500 moves (with the house
    jokers, a hand can go round in circles once everyone holds the whole deck)."""
    state = onecard.new(config, seed)
    n = len(levels)
    asked = 0

    def answer(seat: int) -> Answer:
        nonlocal asked
        asked += 1
        return ask(state, seat, levels[seat], check=checks > 0 and asked % checks == 0)

    for _ in range(1500):
        if state.result is not None:
            return int(state.result["winner"])
        if state.exposed:
            target = state.exposed[0]
            offers: list[tuple[float, int, dict[str, Any]]] = [
                (bots.WINDOW, target, {"type": "close_window", "target": target})
            ]
            for seat in range(n):
                got = answer(seat)
                if got is not None and (
                    seat == target or got[0] == {"type": "catch", "target": target}
                ):
                    offers.append((got[1], seat, got[0]))
            _, seat, move = min(offers, key=lambda o: o[0])
            onecard.apply(state, seat, onecard.parse_move(move))
            continue
        for seat in onecard.actors(state):
            if seat != state.turn:
                got = answer(seat)
                if got is not None:
                    assert got[0] == {"type": "call"}
                    onecard.apply(state, seat, onecard.parse_move(got[0]))
        got = answer(state.turn)
        assert got is not None, "a bot must move on its turn"
        onecard.apply(state, state.turn, onecard.parse_move(got[0]))
    return None


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("house", HOUSE, ids=lambda h: "+".join(sorted(h)) or "plain")
def test_bots_only_play_legal_moves(players: int, house: dict[str, bool]) -> None:
    config = onecard.parse_config({"players": players, **house})
    for seed in range(2):
        levels = tuple(ROTATION[(seed + i) % len(ROTATION)] for i in range(players))
        winner = play(levels, config, 1000 * players + seed, checks=7)
        assert winner is None or 0 <= winner < players


@pytest.mark.parametrize("level", bots.LEVELS)
def test_each_level_alone(level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every seat at the same level, heads-up and four-handed. (maestro gives the same view
    the same answer while its count, not its clock, ends its search: here a small count and
    a clock that never rings — its 150 ms cut a search short once, in a loaded run.)"""
    monkeypatch.setattr(bots, "MASTER_MOVES", 3000)
    monkeypatch.setattr(bots, "MASTER_SECONDS", 60.0)
    for players in (2, 4):
        config = onecard.parse_config({"players": players})
        assert play((level,) * players, config, 77 + players, checks=5) is not None


def test_nothing_to_do_is_none() -> None:
    s = onecard.load({"hands": ["5H 9C 3S", "5S 2D 3D"], "discard": "5D"})
    for level in bots.LEVELS:
        assert bots.choose(onecard.view(s, 1), level) is None
        assert bots.choose(onecard.view(s, 0), level) is not None


def test_the_hall_dispatches_and_levels_are_checked() -> None:
    s = onecard.load({"hands": ["5H 9C 3S", "5S 2D 3D"], "discard": "5D"})
    view = onecard.view(s, 0)
    found = REGISTRY["onecard"].bots
    assert found is not None
    assert found.choose(view, "dificil") == bots.choose(view, "difícil")
    assert bots.choose(view, "fácil") == bots.choose(view, "facil")
    with pytest.raises(ValueError):
        bots.choose(view, "imposible")


def sample_views() -> list[tuple[dict[str, Any], str]]:
    """Views from seeded games, at every level, each with a choice of card."""
    out: list[tuple[dict[str, Any], str]] = []
    for seed in range(20):
        state = onecard.new(onecard.parse_config({"players": 2 + seed % 3, "jokers": True}), seed)
        for step in range(200):
            if state.result is not None or len(out) >= 8 * (seed + 1):
                break
            if state.exposed:
                target = state.exposed[0]
                onecard.apply(state, target, onecard.CloseWindow(target))
                continue
            view = onecard.view(state, state.turn)
            level = bots.LEVELS[step % 3]
            if sum(m["type"] == "play" for m in view["legal"]) > 1:
                out.append((view, level))
            got = bots.choose(view, level)
            assert got is not None
            onecard.apply(state, state.turn, onecard.parse_move(got[0]))
        if len(out) >= 30:
            break
    return out


@pytest.mark.processes
def test_the_same_view_gets_the_same_answer_in_another_process() -> None:
    """The randomness is seeded from the view, never from ``hash()`` (randomized per
    process)."""
    views = sample_views()
    assert len(views) >= 30
    here = [bots.choose(v, level) for v, level in views]
    script = (
        "import json, sys\n"
        "from tapete.bots import onecard\n"
        "views = json.load(sys.stdin)\n"
        "print(json.dumps([onecard.choose(v, level) for v, level in views]))\n"
    )
    for hash_seed in ("1", "4242"):
        done = subprocess.run(
            [sys.executable, "-c", script],
            input=json.dumps(views),
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        there = json.loads(done.stdout)
        assert there == [[m, d] for m, d in (a or (None, None) for a in here)]


def view_of(position: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    return onecard.view(onecard.load(position), seat)


def move_of(position: dict[str, Any], level: str = "dificil") -> dict[str, Any]:
    got = bots.choose(view_of(position), level)
    assert got is not None
    return got[0]


STOCK = "2H 3H 4H 6H 9H 10H JH QH KH 9D 10D JD QD"


def test_a_seven_names_the_suit_held_most() -> None:
    position = {"hands": ["7H 3D 6S 9S 10S QS", "KC 2C 3C 4C 5C 6C 8C"], "discard": "8H",
                "stock": STOCK}  # fmt: skip
    for level in ("normal", "dificil"):
        assert move_of(position, level) == {"type": "play", "card": "7H", "suit": "S"}


def test_dificil_names_the_suit_a_player_about_to_finish_lacks() -> None:
    """The opponent, down to one card, drew on diamonds: a 7 asking for diamonds may block
    them again (normal just names its longest suit)."""
    position = {"hands": ["7H 4D 6S 9S", "KC"], "discard": "8H", "stock": STOCK,
                "voids": [0, 0b0010], "called": [False, True]}  # fmt: skip
    assert view_of(position)["voids"] == [[], ["D"]]
    assert move_of(position, "dificil") == {"type": "play", "card": "7H", "suit": "D"}
    assert move_of(position, "normal") == {"type": "play", "card": "7H", "suit": "S"}


@pytest.mark.parametrize(
    "others",
    [["KC 2C 3C 4C 5C 6C 8C"], ["KC 2C 3C 5C 6C 8C", "4C 5D 6D 8D 9D 10D", "2D 3H 4H 6H 10H"]],
    ids=["heads-up", "four-handed"],
)
def test_dificil_keeps_an_ace_until_an_opponent_is_low(others: list[str]) -> None:
    hand = "AH 5H 9C 10S 3D 4S"
    position = {"hands": [hand, *others], "discard": "8H", "stock": "JH QH KH"}
    assert move_of(position) == {"type": "play", "card": "5H"}
    low = {"hands": [hand, "KC 2C", *others[1:]], "discard": "8H", "stock": "JH QH KH 3C 4C"}
    assert move_of(low) == {"type": "play", "card": "AH"}


def test_the_last_king_is_an_attack_nobody_can_return() -> None:
    """Three kings seen: the fourth cannot come back, so it is worth playing on a player
    close to finishing (and a returnable one is kept while nobody is)."""
    position = {"hands": ["KH 5H 9C 10S 3D 4S", "QC 2C 3C"], "discard": "8H",
                "stock": "JH QH 2H 3C 4C", "seen": [0] * 13 + [3, 0]}  # fmt: skip
    assert view_of(position)["seen"]["K"] == 3
    assert move_of(position) == {"type": "play", "card": "KH"}


def test_j_heads_up_is_played_with_a_card_to_follow() -> None:
    position = {"hands": ["JH 4H 9C 10S", "KC 2C 3C 4C 5C 6C 8C"], "discard": "8H",
                "stock": STOCK}  # fmt: skip
    assert move_of(position) == {"type": "play", "card": "JH"}
    s = onecard.load(position)
    onecard.apply(s, 0, onecard.Play(onecard.card("JH")))
    assert s.turn == 0  # heads-up, the J plays again: 4H follows
    got = bots.choose(onecard.view(s, 0), "dificil")
    assert got is not None and got[0] == {"type": "play", "card": "4H"}


def test_dificil_reverses_with_a_queen_when_the_next_player_is_about_to_finish() -> None:
    """Seat 1, next, is down to one card and was seen to lack clubs, diamonds and spades:
    a heart will not stop them, a queen makes them wait for the other two (normal plays
    from its longest suit)."""
    position = {"hands": ["QH 5H 4H 9C 10S 3D", "2H", "4C 5D 6D 8D 9D", "2D 3S 4S 6S 10D"],
                "discard": "8H", "stock": STOCK, "called": [False, True, False, False],
                "voids": [0, 0b1110, 0, 0]}  # fmt: skip
    assert move_of(position) == {"type": "play", "card": "QH"}
    assert move_of(position, "normal") != {"type": "play", "card": "QH"}


@pytest.mark.parametrize(
    ("level", "low", "high"), [("facil", 0.3, 0.7), ("normal", 0.8, 1.0), ("dificil", 1.0, 1.0)]
)
def test_calls_one_card(level: str, low: float, high: float) -> None:
    """Left with one card without calling: fácil calls about half the time, normal nearly
    always, difícil always, each within its reaction times."""
    calls = 0
    for turns in range(200):
        s = onecard.load({"hands": ["9C", "KC 2C 3C"], "discard": "8H", "turn": 1,
                          "turns": turns, "exposed": [0]})  # fmt: skip
        got = bots.choose(onecard.view(s, 0), level)
        if got is not None:
            assert got[0] == {"type": "call"}
            _, lo, hi = bots.CALL_TIMES[level]
            assert lo <= got[1] <= hi
            calls += 1
    assert low * 200 <= calls <= high * 200


def test_the_decision_to_call_holds_while_the_window_is_open() -> None:
    """Asked again after the others moved (the room asks after every move), fácil keeps
    its decision: calling "half the time" means half the windows, not half the asks."""
    answers = set()
    for turns in range(40):
        s = onecard.load({"hands": ["9H 4H", "5H 6H 2C", "7C 8C 3H", "2D 3D 4D"],
                          "discard": "8H", "turns": turns, "called": [False] * 4})  # fmt: skip
        onecard.apply(s, 0, onecard.Play(onecard.card("9H")))
        assert s.exposed == [0]
        first = bots.choose(onecard.view(s, 0), "facil")
        onecard.apply(s, 1, onecard.Play(onecard.card("5H")))
        onecard.apply(s, 2, onecard.Play(onecard.card("3H")))
        assert s.exposed == [0]
        assert bots.choose(onecard.view(s, 0), "facil") == first
        answers.add(first is None)
    assert answers == {True, False}


@pytest.mark.parametrize("level", bots.LEVELS)
def test_catches_a_player_who_did_not_call(level: str) -> None:
    s = onecard.load({"hands": ["9C 4D 5D", "KC"], "discard": "8H", "exposed": [1]})
    got = bots.choose(onecard.view(s, 0), level)
    assert got is not None and got[0] == {"type": "catch", "target": 1}
    lo, hi = bots.CATCH_TIMES[level]
    assert lo <= got[1] <= hi


def test_dificil_calls_while_holding_two_cards() -> None:
    s = onecard.load({"hands": ["9C 4D", "KC 2C 3C"], "discard": "8H", "turn": 1})
    got = bots.choose(onecard.view(s, 0), "dificil")
    assert got is not None and got[0] == {"type": "call"}
    assert bots.choose(onecard.view(s, 0), "normal") is None


@pytest.mark.slow
def test_normal_beats_facil() -> None:
    """A small strength check (the bench measures it properly): 300 heads-up games."""
    config = onecard.Config(players=2)
    wins = 0
    for seed in range(300):
        normal = seed % 2
        levels = ("normal", "facil") if normal == 0 else ("facil", "normal")
        wins += play(levels, config, 50_000 + seed) == normal
    assert wins >= 0.6 * 300


def _policy(state: onecard.State, seat: int) -> onecard.Move:
    """The playouts' policy as it reads over ``legal_moves`` (what ``_playout_move`` does
    faster, from the engine's integers)."""
    plays = [m for m in onecard.legal_moves(state, seat) if type(m) is onecard.Play]
    if not plays:
        return onecard.DRAW
    counts = [0, 0, 0, 0, 0]
    for c in state.hands[seat]:
        counts[c // 13 if c < 52 else 4] += 1
    top_suit = max(range(4), key=counts.__getitem__)
    best, best_score = plays[0], -99
    for m in plays:
        c = int(m.card)
        if c >= 52:
            score = -20
        elif c % 13 == 5:
            if m.suit != top_suit:
                continue
            score = -10 + counts[top_suit]
        else:
            score = counts[c // 13]
        if score > best_score:
            best, best_score = m, score
    return best


@pytest.mark.parametrize("house", HOUSE, ids=lambda h: "+".join(sorted(h)) or "plain")
def test_the_playouts_play_the_policy_and_only_legal_moves(house: dict[str, bool]) -> None:
    for seed in range(30):
        state = onecard.new(onecard.parse_config({"players": 2 + seed % 3, **house}), seed)
        while state.result is None:
            seat = state.turn
            move = bots._playout_move(state, seat)
            assert move == _policy(state, seat)
            assert move in onecard.legal_moves(state, seat)
            onecard.apply(state, seat, move)
