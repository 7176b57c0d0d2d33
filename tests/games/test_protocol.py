"""What the rooms rely on from every game, beyond the rules: the clocks a position runs, the
move each clock makes, the moves only a clock may send, and who checks drafts."""

from __future__ import annotations

import pytest

from tapete import games
from tapete.games import DRAFTS, GAMES, IllegalMove


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_clock_makes_a_move_only_clocks_may_send(name: str) -> None:
    game = GAMES[name]
    config = game.parse_config({})
    kinds: set[str] = set()
    for seed in range(30):
        state = game.new(config, seed)
        for kind, seat, _instance in game.clocks(state):
            assert isinstance(kind, str) and 0 <= seat < game.seats(config)
            move = game.clock_move(kind, seat)
            assert move.to_json()["type"] in game.CLOCK_MOVES
            kinds.add(kind)
    assert bool(kinds) == bool(game.CLOCK_MOVES)


@pytest.mark.parametrize("name", ["guerra", "peaje"])
def test_games_without_clocks_refuse_a_clock_move(name: str) -> None:
    game = games.get(name)
    assert not game.CLOCK_MOVES
    with pytest.raises(IllegalMove) as err:
        game.clock_move("turn", 0)
    assert err.value.code == "unknown_move"


def test_only_rummy_checks_drafts() -> None:
    assert sorted(DRAFTS) == ["rummy"]
    rummy = DRAFTS["rummy"]
    state = GAMES["rummy"].new(GAMES["rummy"].parse_config({}), 1)
    report = rummy.check(state, 0, rummy.parse_layout([["1R", "2R"]]))
    assert report["ok"] is False


def test_only_la_guerra_lets_the_computer_follow() -> None:
    assert [name for name in sorted(GAMES) if GAMES[name].BOTS_FOLLOW] == ["guerra"]
