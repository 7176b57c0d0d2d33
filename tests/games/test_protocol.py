"""What the rooms rely on from every game's descriptor, beyond the rules: the clocks a
position runs are declared, each makes a move the game's codec reads back, the moves only a
clock may send, who checks drafts, and the codecs derived from the types."""

from __future__ import annotations

from typing import Any

import pytest

from tapete.games.protocol import GameSpec, IllegalMove
from tapete.registry import REGISTRY

SPECS: dict[str, GameSpec[Any, Any, Any]] = {k: e.game for k, e in REGISTRY.items()}


@pytest.mark.parametrize("name", sorted(SPECS))
def test_every_clock_a_game_runs_is_declared_and_makes_a_move(name: str) -> None:
    spec = SPECS[name]
    game = spec.rules
    config = spec.parse_config({})
    kinds: set[str] = set()
    for seed in range(30):
        state = game.new(config, seed)
        for kind, seat, _instance in game.clocks(state):
            assert kind in spec.clocks, f"{name} runs an undeclared clock {kind!r}"
            assert isinstance(kind, str) and 0 <= seat < game.seats(config)
            move = game.clock_move(kind, seat)
            assert spec.parse_move(spec.move_json(move)) == move
            kinds.add(kind)
    assert kinds <= set(spec.clocks)
    for kind in spec.clock_moves:
        from_clock = any(spec.move_json(game.clock_move(k, 0))["type"] == kind for k in spec.clocks)
        assert from_clock or spec.absent is not None, (
            f"{name}: the clock-only move {kind!r} comes from no clock"
        )


def test_el_peaje_runs_a_clock_only_in_a_room_that_chose_one() -> None:
    """RULES.md, clocks online: «El Peaje: no clock by default (a party game); 30 s
    optional.» Practice never runs one; its only clock-only move is the skip."""
    spec = SPECS["peaje"]
    assert spec.clocks["turn"].practice is None and spec.clocks["turn"].online is None
    assert spec.online is not None and spec.online.turn_clocks == (None, 30.0)
    assert spec.clock_moves == {"skip", "retire"}  # (retire: one who left, never a clock)
    assert spec.move_json(spec.rules.clock_move("turn", 0)) == {"type": "skip"}
    with pytest.raises(IllegalMove) as err:
        spec.rules.clock_move("window", 0)
    assert err.value.code == "unknown_move"


def test_only_rummy_checks_drafts() -> None:
    assert [k for k, s in SPECS.items() if s.drafting is not None] == ["rummy"]
    spec = SPECS["rummy"]
    assert spec.drafting is not None
    state = spec.rules.new(spec.parse_config({}), 1)
    report = spec.drafting.check(state, 0, spec.drafting.parse_layout([["1R", "2R"]]))
    assert report["ok"] is False


def test_only_la_guerra_lets_the_computer_follow() -> None:
    assert [k for k, s in SPECS.items() if s.bots_follow] == ["guerra"]


def test_only_el_peaje_has_no_bots() -> None:
    assert [k for k, e in REGISTRY.items() if e.bots is None] == ["peaje"]


@pytest.mark.parametrize("name", sorted(SPECS))
def test_default_options_round_trip(name: str) -> None:
    spec = SPECS[name]
    config = spec.parse_config({})
    assert spec.parse_config(spec.config_json(config)) == config


@pytest.mark.parametrize("name", sorted(SPECS))
@pytest.mark.parametrize(
    "bad",
    [[1], "x", {"players": "tres"}, {"no_such_option": 1}, {"players": True}],
)
def test_bad_options_are_refused_with_the_field(name: str, bad: Any) -> None:
    spec = SPECS[name]
    with pytest.raises(IllegalMove) as err:
        spec.parse_config(bad)
    assert err.value.code == "bad_config"
    if isinstance(bad, dict):
        assert err.value.params["field"] == next(iter(bad))


@pytest.mark.parametrize("name", sorted(SPECS))
@pytest.mark.parametrize(
    "bad", [[0], "turn", {"type": [0]}, {"type": 7}, {}, {"type": "turn", "x": 1}]
)
def test_malformed_moves_are_bad_move_or_unknown(name: str, bad: Any) -> None:
    spec = SPECS[name]
    with pytest.raises(IllegalMove) as err:
        spec.parse_move(bad)
    assert err.value.code in ("bad_move", "unknown_move")


@pytest.mark.parametrize("name", sorted(SPECS))
def test_every_legal_move_round_trips_through_json_and_repr(name: str) -> None:
    spec = SPECS[name]
    game = spec.rules
    namespace = {"move": spec.parse_move}
    for seed in range(5):
        state = game.new(spec.parse_config({}), seed)
        for seat in game.actors(state):
            for move in game.legal_moves(state, seat):
                assert spec.parse_move(spec.move_json(move)) == move
                if "move(" in repr(move):
                    assert eval(repr(move), namespace) == move
