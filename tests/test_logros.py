"""Each logro's rule from an explicit finished game (tapete/logros.py and each game's
descriptor): a game that earns it, and one just short of it."""

from __future__ import annotations

from typing import Any

import pytest

from tapete.games.protocol import Finished, Logro
from tapete.logros import HALL, KEPT, best_streak
from tapete.registry import REGISTRY

LOGROS: dict[str, Logro] = {
    logro.key: logro for e in REGISTRY.values() for logro in (*e.game.logros,)
} | {logro.key: logro for logro in HALL}


def finished(kind: str, **fields: Any) -> Finished:
    spec = REGISTRY[kind].game
    config = spec.parse_config(fields.pop("config", {}))
    base: dict[str, Any] = {
        "config": config,
        "outcome": {},
        "seat": 0,
        "won": False,
        "moves": [],
        "bots": (None, "normal"),
    }
    return Finished(**(base | fields))


def play(seat: int, *events: dict[str, Any]) -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
    return seat, {"type": "play"}, list(events)


CASES: list[tuple[str, str, dict[str, Any], int]] = [
    # One Card
    ("onecard.primera", "onecard", {"won": True}, 1),
    ("onecard.primera", "onecard", {"won": False}, 0),
    ("onecard.diez", "onecard", {"won": True}, 1),
    ("onecard.partidas", "onecard", {"won": False}, 1),
    ("onecard.dificil", "onecard", {"won": True, "bots": (None, "dificil")}, 1),
    ("onecard.dificil", "onecard", {"won": True, "bots": (None, "normal")}, 0),
    ("onecard.maestro", "onecard", {"won": True, "bots": (None, "maestro")}, 1),
    ("onecard.maestro", "onecard", {"won": False, "bots": (None, "maestro")}, 0),
    ("onecard.ataque", "onecard",
     {"won": True, "moves": [play(0, {"t": "play", "seat": 0, "card": "AS", "attack": 8})]}, 1),
    ("onecard.ataque", "onecard",  # (the +8 was the other's)
     {"won": True, "moves": [play(1, {"t": "play", "seat": 1, "card": "AS", "attack": 8})]}, 0),
    ("onecard.ataque", "onecard",
     {"won": True, "moves": [play(0, {"t": "play", "seat": 0, "card": "AS", "attack": 6})]}, 0),
    ("onecard.pillado", "onecard",
     {"moves": [(0, {"type": "catch"}, [{"t": "caught", "seat": 1, "by": 0, "n": 2}])]}, 1),
    ("onecard.pillado", "onecard",
     {"moves": [(1, {"type": "catch"}, [{"t": "caught", "seat": 0, "by": 1, "n": 2}])]}, 0),
    ("onecard.sin_robar", "onecard", {"won": True, "moves": [play(0, {"t": "play"})]}, 1),
    ("onecard.sin_robar", "onecard",
     {"won": True, "moves": [(0, {"type": "draw"}, [{"t": "draw", "seat": 0}])]}, 0),
    # Rummy
    ("rummy.primera", "rummy", {"moves": [(1, {}, [{"t": "hand_end", "winners": [0]}])]}, 1),
    ("rummy.primera", "rummy", {"moves": [(1, {}, [{"t": "hand_end", "winners": [0, 1]}])]}, 0),
    ("rummy.diez", "rummy", {"moves": [(0, {}, [{"t": "hand_end", "winners": [0]}]),
                                       (1, {}, [{"t": "hand_end", "winners": [0]}])]}, 2),
    ("rummy.partidas", "rummy", {}, 1),
    ("rummy.apertura", "rummy", {"moves": [play(0, {"t": "play", "tiles": [], "meld": 52})]}, 1),
    ("rummy.apertura", "rummy", {"moves": [play(0, {"t": "play", "tiles": [], "meld": 49})]}, 0),
    ("rummy.de_golpe", "rummy", {"moves": [play(0, {"t": "play", "tiles": ["1R"] * 14})]}, 1),
    ("rummy.de_golpe", "rummy", {"moves": [play(0, {"t": "play", "tiles": ["1R"] * 13})]}, 0),
    ("rummy.experto", "rummy", {"won": True, "bots": (None, "experto")}, 1),
    ("rummy.experto", "rummy", {"won": True, "bots": (None, "normal")}, 0),
    # La guerra
    ("guerra.primera", "guerra", {"won": True}, 1),
    ("guerra.primera", "guerra", {"won": False}, 0),
    ("guerra.todas", "guerra", {"won": True, "outcome": {"reason": "all_cards"}}, 1),
    ("guerra.todas", "guerra", {"won": True, "outcome": {"reason": "limit"}}, 0),
    ("guerra.doble", "guerra", {"moves": [
        (0, {}, [{"t": "duel"}]), (1, {}, [{"t": "war", "seats": [0, 1]}]),
        (0, {}, [{"t": "war", "seats": [0, 1]}]), (1, {}, [{"t": "won", "seat": 0}])]}, 1),
    ("guerra.doble", "guerra", {"moves": [  # one war only
        (0, {}, [{"t": "duel"}]), (1, {}, [{"t": "war", "seats": [0, 1]}]),
        (1, {}, [{"t": "won", "seat": 0}])]}, 0),
    ("guerra.doble", "guerra", {"moves": [  # two wars, the other took it
        (0, {}, [{"t": "duel"}]), (1, {}, [{"t": "war", "seats": [0, 1]}]),
        (0, {}, [{"t": "war", "seats": [0, 1]}]), (1, {}, [{"t": "won", "seat": 1}])]}, 0),
    ("guerra.sumas", "guerra", {"won": True, "config": {"sums": True}}, 1),
    ("guerra.sumas", "guerra", {"won": True, "config": {"sums": False}}, 0),
    ("guerra.partidas", "guerra", {}, 1),
    # El Peaje
    ("peaje.primera", "peaje", {"outcome": {"reason": "route", "misses": [3]}}, 1),
    ("peaje.primera", "peaje", {"outcome": {"reason": "deck", "misses": [3]}}, 0),
    ("peaje.limpia", "peaje", {"outcome": {"reason": "route", "misses": [0]}}, 1),
    ("peaje.limpia", "peaje", {"outcome": {"reason": "route", "misses": [1]}}, 0),
    ("peaje.dificil", "peaje",
     {"config": {"difficulty": "dificil"}, "outcome": {"reason": "route", "misses": [0]}}, 1),
    ("peaje.dificil", "peaje",
     {"config": {"difficulty": "media"}, "outcome": {"reason": "route", "misses": [0]}}, 0),
    ("peaje.peajes", "peaje", {"moves": [(0, {}, [{"t": "toll"}]), (0, {}, [{"t": "toll"}])]}, 2),
    ("peaje.fiesta", "peaje", {"bots": (None,) * 4}, 1),
    ("peaje.fiesta", "peaje", {"bots": (None,) * 3}, 0),
    ("peaje.partidas", "peaje", {}, 1),
    # the hall's
    ("hall.reto", "peaje", {"daily": True}, 1),
    ("hall.reto", "peaje", {"daily": False}, 0),
    ("hall.mejores", "onecard", {"won": True, "upset": True}, 1),
    ("hall.mejores", "onecard", {"won": False, "upset": True}, 0),
    ("hall.mejores", "onecard", {"won": True, "upset": False}, 0),
]  # fmt: skip


@pytest.mark.parametrize(("key", "kind", "fields", "expected"), CASES)
def test_a_logros_rule(key: str, kind: str, fields: dict[str, Any], expected: int) -> None:
    assert LOGROS[key].count(finished(kind, **fields)) == expected


def test_every_logro_has_its_cases_and_a_key_of_its_own() -> None:
    keys = [logro.key for logro in LOGROS.values()] + [k.key for k in KEPT]
    assert len(keys) == len(set(keys)) >= 30
    tried = {(key, expected > 0) for key, _, _, expected in CASES}
    for key in LOGROS:
        assert (key, True) in tried, f"{key}: no game that earns it"
        if LOGROS[key].goal == 1 and not key.endswith(".partidas"):
            assert (key, False) in tried, f"{key}: no game short of it"


def test_a_logro_of_a_game_lives_with_the_game() -> None:
    for kind, e in REGISTRY.items():
        assert all(logro.key.startswith(f"{kind}.") for logro in e.game.logros)


def test_the_best_streak() -> None:
    from datetime import date, timedelta

    d = date(2026, 12, 4)
    assert best_streak([]) == 0
    assert best_streak([d]) == 1
    week = [d - timedelta(days=i) for i in range(7)]
    assert best_streak([*week, d - timedelta(days=9)]) == 7
