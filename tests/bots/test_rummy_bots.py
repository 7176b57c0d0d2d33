"""Rummy bots: every move they make is legal (applied through the engine), principiante
never rearranges the table, and the same view gets the same answer."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from tapete.bots import rummy as bots
from tapete.games import rummy
from tapete.games.rummy import analyze
from tapete.registry import REGISTRY

Set = tuple[int, ...]


@pytest.fixture(autouse=True)
def no_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots' answers here are the solver's, whatever the machine's load: its 0.25 s
    clock (``BUDGET``, which cuts a search short on a slow machine) never rings. It once
    did, in a loaded run: the same view got a draw, then the meld."""
    monkeypatch.setattr(bots, "BUDGET", 60.0)


def only_extended(before: Sequence[Set], after: Sequence[Set]) -> bool:
    """Every set of ``before`` is in ``after`` unchanged or with tiles added on its ends
    (a group: with its fourth colour), each matched to a different set."""
    left = list(after)
    for s in sorted(before, key=len, reverse=True):
        match = None
        for i, a in enumerate(left):
            if a == s:
                match = i
                break
        if match is None:
            for i, a in enumerate(left):
                if len(a) <= len(s):
                    continue
                info = analyze(s)
                if info.kind == "run" and any(
                    a[k : k + len(s)] == s for k in range(len(a) - len(s) + 1)
                ):
                    match = i
                    break
                if info.kind == "group" and not (Counter(s) - Counter(a)):
                    match = i
                    break
        if match is None:
            return False
        left.pop(match)
    return True


def play_hand(levels: list[str], seed: int, check_beginner: bool = True) -> dict[str, Any]:
    state = rummy.new(rummy.Config(players=len(levels), hands=1), seed)
    plays = Counter[str]()
    for _ in range(3000):
        if rummy.outcome(state) is not None:
            break
        seat = rummy.actors(state)[0]
        view = rummy.view(state, seat)
        for other in range(len(levels)):  # nobody else acts out of turn
            if other != seat:
                assert bots.choose(rummy.view(state, other), levels[other]) is None
        choice = bots.choose(view, levels[seat])
        assert choice is not None
        move, delay = choice
        assert 0.8 <= delay <= 2.0
        before = list(state.table)
        parsed = rummy.parse_move(move)
        if isinstance(parsed, rummy.Play):
            plays[levels[seat]] += 1
        else:
            assert move in view["legal"]
        rummy.apply(state, seat, parsed)  # raises IllegalMove on an illegal move
        if (
            check_beginner
            and levels[seat] == "principiante"
            and isinstance(parsed, rummy.Play)
            and rummy.outcome(state) is None
            and state.hand == 1
        ):
            assert only_extended(before, list(state.table)), (before, state.table)
    else:
        raise AssertionError("the hand did not end")
    assert rummy.outcome(state) is not None
    tiles_now = sorted(x for x in rummy.all_tiles(state))
    assert len(tiles_now) == 106
    return {"plays": plays, "result": state.result}


@pytest.mark.parametrize(
    ("levels", "seed"),
    [
        (["principiante", "normal"], 1),
        (["normal", "principiante"], 2),
        (["experto", "normal"], 3),
        (["normal", "experto"], 4),
        (["experto", "principiante"], 5),
        (["principiante", "experto"], 6),
        (["principiante", "normal", "experto"], 7),
        (["experto", "experto", "principiante", "normal"], 8),
    ],
)
def test_bots_play_legal_moves_to_the_end(levels: list[str], seed: int) -> None:
    out = play_hand(levels, seed)
    assert sum(out["plays"].values()) > 0


def test_principiante_only_extends_the_ends() -> None:
    before = [(0, 1, 2), (9, 22, 35)]
    assert only_extended(before, [(0, 1, 2, 3), (9, 22, 35, 48)])
    assert only_extended(before, [(0, 1, 2), (9, 22, 35), (5, 6, 7)])
    assert not only_extended(before, [(0, 1), (2, 3, 4), (9, 22, 35)])
    s = rummy.load(
        {
            "racks": ["8R 3R 4A 13O 12N", "1O"],
            "table": ["4R 5R 6R 7R", "1A 2A 3A"],
            "melded": [True, True],
            "pool": "9N",
        }
    )
    move, _ = bots.choose(rummy.view(s, 0), "principiante") or ({}, 0.0)
    table = rummy.parse_layout(move["table"])
    assert only_extended(s.table, list(table))
    assert sorted(" ".join(x) for x in move["table"]) == ["1A 2A 3A 4A", "3R 4R 5R 6R 7R 8R"]


def test_levels_differ_where_rearranging_pays() -> None:
    # taking 7R off the run to make 7R 7A 7N: normal and experto see it, principiante not
    s = rummy.load(
        {"racks": ["7A 7N 1O", "1R"], "table": ["4R 5R 6R 7R"], "melded": [True, True],
         "pool": "9N 9A"}
    )  # fmt: skip
    view = rummy.view(s, 0)
    assert (bots.choose(view, "principiante") or ({}, 0.0))[0] == {"type": "draw"}
    for level in ("normal", "experto"):
        move, _ = bots.choose(view, level) or ({}, 0.0)
        assert move["type"] == "play"
        assert sorted(" ".join(x) for x in move["table"]) == ["4R 5R 6R", "7R 7A 7N"]


def test_experto_keeps_its_jokers_early() -> None:
    s = rummy.load(
        {
            "racks": ["J1 8A 9A 10A 2N", "1R 2R 3R 4R 5R 6R 7R 8R"],
            "table": ["1O 2O 3O"],
            "melded": [True, True],
            "pool": " ".join(["5N"] * 20),
        }
    )
    move, _ = bots.choose(rummy.view(s, 0), "experto") or ({}, 0.0)
    assert move["type"] == "play"
    assert all("J1" not in x for x in move["table"])
    # late in the hand it plays them
    s.racks[1] = s.racks[1][:3]
    move, _ = bots.choose(rummy.view(s, 0), "experto") or ({}, 0.0)
    assert any("J1" in x for x in move["table"])


def test_the_same_view_gets_the_same_answer() -> None:
    s = rummy.new(rummy.Config(players=2), 11)
    for level in bots.LEVELS:
        view = rummy.view(s, s.turn)
        assert bots.choose(view, level) == bots.choose(view, level)


def test_registered_in_the_dispatcher() -> None:
    s = rummy.load({"racks": ["10R 10A 10N 2O", "1R 2R"], "pool": "5N 6N"})
    found = REGISTRY["rummy"].bots
    assert found is not None
    out = found.choose(rummy.view(s, 0), "experto")
    assert out is not None and out[0]["type"] == "play"


def test_unknown_level() -> None:
    with pytest.raises(ValueError):
        bots.level_name("imposible")
    assert bots.level_name("Experto") == "experto"
