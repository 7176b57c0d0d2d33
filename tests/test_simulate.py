"""``tapete.simulate``: seeded simulations of La guerra through the public protocol."""

from __future__ import annotations

import json

import pytest

from tapete.games import guerra
from tapete.games.protocol import IllegalMove
from tapete.simulate import REASONS, format_report, simulate


def test_report_fields_and_totals() -> None:
    report = simulate("guerra", 20, seed=1, options={})
    assert report["game"] == "guerra" and report["games"] == 20 and report["seed"] == 1
    assert report["options"] == guerra.config_json(guerra.Config())
    assert report["limit"] == 80 and report["max_duels"] is None
    assert set(report["reasons"]) == set(REASONS)
    assert sum(report["reasons"].values()) == 20
    assert report["reached_limit"] == report["reasons"]["limit"] + report["reasons"]["draw_limit"]
    assert sum(report["wins"]) + report["draws"] == 20
    assert report["duels_min"] <= report["duels_mean"] <= report["duels_max"] <= 80
    assert report["wars_mean"] <= report["wars_max"]
    assert report["moves"] >= 2 * report["duels_mean"] * 20 * 0.99
    json.dumps(report)


def test_same_arguments_same_report() -> None:
    options = {"players": 3, "sums": True}
    assert simulate("guerra", 15, 7, options) == simulate("guerra", 15, 7, options)
    assert simulate("guerra", 15, 7, options) != simulate("guerra", 15, 8, options)


def test_games_use_consecutive_seeds() -> None:
    """Game i is the game of seed ``seed + i``: three one-game runs add up to one run."""
    whole = simulate("guerra", 3, 40, {"length": "media"})
    parts = [simulate("guerra", 1, 40 + i, {"length": "media"}) for i in range(3)]
    for reason in REASONS:
        assert whole["reasons"][reason] == sum(p["reasons"][reason] for p in parts)
    assert whole["duels_max"] == max(p["duels_max"] for p in parts)
    assert whole["moves"] == sum(p["moves"] for p in parts)


def test_one_game_matches_playing_it_directly() -> None:
    report = simulate("guerra", 1, 123, {"length": "final"})
    state = guerra.new(guerra.parse_config({"length": "final"}), 123)
    moves = 0
    while state.result is None:
        guerra.apply(state, guerra.actors(state)[0], guerra.Turn())
        moves += 1
    assert report["duels_max"] == state.duels == report["duels_mean"]
    assert report["wars_max"] == state.wars
    assert report["reasons"][state.result["reason"]] == 1
    assert report["moves"] == moves


def test_limits_are_respected() -> None:
    corta = simulate("guerra", 30, 1, {"length": "corta"})
    media = simulate("guerra", 30, 1, {"length": "media"})
    assert corta["duels_max"] <= 80 and corta["reached_limit"] > 0
    assert media["duels_max"] <= 200 and media["limit"] == 200
    assert corta["reasons"]["capped"] == media["reasons"]["capped"] == 0


def test_final_games_have_a_safety_cap() -> None:
    report = simulate("guerra", 10, 1, {"length": "final"}, max_duels=30)
    assert report["max_duels"] == 30 and report["limit"] is None
    assert report["reasons"]["capped"] > 0
    assert report["duels_max"] <= 30
    assert report["reached_limit"] == 0
    assert sum(report["reasons"].values()) == 10
    assert sum(report["wins"]) + report["draws"] + report["reasons"]["capped"] == 10
    assert simulate("guerra", 2, 1, {"length": "final"})["max_duels"] == 20_000


def test_final_games_end_with_all_cards() -> None:
    report = simulate("guerra", 10, 5, {"length": "final", "order": "fixed", "down": 1})
    assert report["reasons"]["capped"] == 0
    assert (
        report["reasons"]["all_cards"] + report["reasons"]["loop"] + report["reasons"]["draw_war"]
        == 10
    )


@pytest.mark.parametrize(
    "options",
    [{"players": 5}, {"down": 2}, {"length": "larga"}, {"jokers": True}, {"max_duels": 10}],
)
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(IllegalMove) as err:
        simulate("guerra", 1, 1, options)
    assert err.value.code == "bad_config"


def test_unknown_game_is_refused() -> None:
    with pytest.raises(IllegalMove) as err:
        simulate("parchís", 1, 1, {})
    assert err.value.code == "bad_config"


@pytest.mark.parametrize(("games", "cap"), [(0, 10), (-1, 10), (1, 0)])
def test_bad_counts_are_refused(games: int, cap: int) -> None:
    with pytest.raises(ValueError):
        simulate("guerra", games, 1, {}, max_duels=cap)


def test_format_report_in_spanish() -> None:
    report = simulate("guerra", 5, 10, {"players": 3, "ace_low": True, "order": "fixed"})
    text = format_report(report)
    assert text.splitlines()[0] == "La guerra: 5 partidas (semillas 10–14)"
    assert "3 jugadores" in text and "as bajo" in text and "orden fijo" in text
    assert "Duelos por partida: media" in text
    assert "Llegaron al límite de 80 duelos" in text
    for reason in REASONS:
        assert f"({reason})" in text
    assert "jugador 3:" in text


def test_format_report_final_shows_the_cap() -> None:
    text = format_report(simulate("guerra", 2, 1, {"length": "final"}, max_duels=50))
    assert "hasta el final" in text
    assert "Tope de seguridad: 50 duelos" in text
    assert "Llegaron al límite" not in text
