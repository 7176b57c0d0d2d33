"""One Card's rules run compiled (mypyc, ``setup.py``) where the build had a C compiler — on
this project's machines, always: ``make`` installs gcc — and the compiled module plays every
game exactly as its source does (the source is loaded here as a module of its own, and both
are driven with the same moves)."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tapete.games import onecard
from tapete.games.onecard import game as compiled
from tapete.games.protocol import IllegalMove

SOURCE = Path(compiled.__file__).with_name("game.py")
HOUSE: list[dict[str, Any]] = [
    {},
    {"two_attack": True, "jokers": True, "penalty": 3},
    {"king_again": True, "three_blocks": True},
    {name: True for name in onecard.OPTIONS},
]


@pytest.fixture(scope="module")
def source() -> Iterator[ModuleType]:
    name = "onecard_game_source"
    spec = importlib.util.spec_from_file_location(name, SOURCE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # (its dataclass looks itself up there)
    spec.loader.exec_module(module)
    yield module
    del sys.modules[name]


def test_the_rules_run_compiled() -> None:
    assert onecard.COMPILED, (
        f"One Card's rules run from {compiled.__file__}: build them (make installs gcc, then"
        " `pip install -e .` compiles them, setup.py)"
    )
    assert Path(compiled.__file__).suffix == ".so"


def _refusal(module: Any, state: Any, seat: int, move: Any) -> tuple[str, dict[str, Any]] | None:
    try:
        module.apply(state, seat, move)
    except IllegalMove as e:
        return e.code, dict(e.params)
    return None


@pytest.mark.parametrize("house", HOUSE, ids=lambda h: "+".join(sorted(h)) or "plain")
def test_the_compiled_rules_play_as_their_source(source: ModuleType, house: dict[str, Any]) -> None:
    """Seeded games of random moves (calls, catches and closed windows among them), 2–4
    players: after every move the same events, the same position, the same view for every
    seat and the same legal moves; and the same refusal for a move out of turn or a card
    not held."""
    moves = 0
    for seed in range(8):
        players = 2 + seed % 3
        config = onecard.parse_config({"players": players, **house})
        fast, slow = compiled.new(config, seed), source.new(config, seed)
        rng = random.Random(seed)
        while fast.result is None:
            assert compiled.dump(fast) == source.dump(slow)
            seat = rng.choice(compiled.actors(fast))
            legal = compiled.legal_moves(fast, seat)
            assert [str(m) for m in legal] == [str(m) for m in source.legal_moves(slow, seat)]
            for s in range(players):
                assert compiled.view(fast, s) == source.view(slow, s)
            if moves % 17 == 0:  # a refusal, on both, changes nothing
                other = (fast.turn + 1) % players
                bad = onecard.Play(fast.hands[other][0]) if fast.hands[other] else onecard.DRAW
                assert _refusal(compiled, fast, fast.turn, bad) == _refusal(
                    source, slow, slow.turn, bad
                )
                assert compiled.dump(fast) == source.dump(slow)
            move = rng.choice(legal) if legal else onecard.WINDOWS[fast.exposed[0]]
            assert compiled.apply(fast, seat, move) == source.apply(slow, seat, move)
            moves += 1
        assert compiled.outcome(fast) == source.outcome(slow)
    assert moves > 500
