"""La guerra: one test per rule sentence of the seed (``seeds/002_…``) and of RULES.md.

Every test starts from an explicit position (``guerra.load``): piles as text, top card
first. Unless a test says otherwise the won cards go back in fixed order (the winner's
cards first, as played), so the piles after a duel can be written down exactly.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from tapete.cards import Card, full_deck, parse_cards
from tapete.games import guerra
from tapete.games.protocol import Event, IllegalMove

# --- helpers ---------------------------------------------------------------------------


def pos(*piles: str, **config: Any) -> guerra.State:
    """A position from piles (top card first); fixed order unless ``order`` is given."""
    return guerra.load({"piles": list(piles), "config": {"order": "fixed", **config}})


def codes(cards: Iterable[Card]) -> str:
    return " ".join(c.code for c in cards)


def piles(state: guerra.State) -> list[str]:
    return [codes(p) for p in state.piles]


def kinds(events: list[Event]) -> list[str]:
    return [e["t"] for e in events]


def turn(state: guerra.State, seat: int) -> list[Event]:
    return guerra.apply(state, seat, guerra.Turn())


def play_duel(state: guerra.State) -> list[Event]:
    """Turn for every seat the table waits for (lowest seat first) until the duel ends."""
    start = state.duels
    events: list[Event] = []
    while state.result is None and state.duels == start:
        events += turn(state, guerra.actors(state)[0])
    return events


def play_out(state: guerra.State, max_duels: int = 10_000) -> list[Event]:
    events: list[Event] = []
    while state.result is None and state.duels < max_duels:
        events += turn(state, guerra.actors(state)[0])
    return events


def only(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e["t"] == kind]


# --- cards and order -------------------------------------------------------------------


def test_order_ace_high_to_two() -> None:
    """«Orden (de mayor a menor): A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2.»"""
    order = ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"]
    for high, low in itertools.pairwise(order):
        for piles_, winner in (([high, low], 0), ([low, high], 1)):
            s = pos(piles_[0].replace("S", "H") + " 2D", piles_[1] + " 3D")
            events = play_duel(s)
            assert only(events, "won")[0]["seat"] == winner, (high, low)


def test_suits_do_not_matter() -> None:
    """«Palos: no importan.» — dos reyes de palos distintos empatan y hay guerra."""
    s = pos("KS 2C 3C 4C 5C", "KH 2D 3D 4D 5D")
    events = turn(s, 0) + turn(s, 1)
    assert kinds(events) == ["turn", "turn", "war"]
    assert guerra.actors(s) == [0, 1]


def test_deck_has_52_cards_without_jokers() -> None:
    """«Baraja: 52 cartas francesas sin comodines.»"""
    s = guerra.new(guerra.parse_config({}), seed=1)
    cards = guerra.all_cards(s)
    assert len(cards) == 52
    assert set(cards) == set(full_deck())


# --- preparation -----------------------------------------------------------------------


def test_deal_26_each_two_players() -> None:
    """«Repartir: cada uno recibe 26 cartas boca abajo en un montón.»"""
    s = guerra.new(guerra.parse_config({}), seed=7)
    assert [len(p) for p in s.piles] == [26, 26]
    assert s.duels == 0 and s.result is None


def test_shuffle_is_seeded() -> None:
    """«Barajar: se barajan bien las 52 cartas.» — con la misma semilla, el mismo reparto."""
    a = guerra.new(guerra.parse_config({}), seed=42)
    b = guerra.new(guerra.parse_config({}), seed=42)
    c = guerra.new(guerra.parse_config({}), seed=43)
    assert guerra.dump(a) == guerra.dump(b)
    assert piles(a) != piles(c)
    assert piles(a)[0] != codes(full_deck()[:26])


@pytest.mark.parametrize(("players", "sizes"), [(3, [18, 17, 17]), (4, [13, 13, 13, 13])])
def test_deal_as_evenly_as_it_goes(players: int, sizes: list[int]) -> None:
    """RULES.md: «con 3 o 4 jugadores la baraja se reparte lo más igual posible»."""
    s = guerra.new(guerra.parse_config({"players": players}), seed=5)
    assert [len(p) for p in s.piles] == sizes
    assert set(guerra.all_cards(s)) == set(full_deck())
    assert guerra.actors(s) == list(range(players))


def test_both_turn_at_once() -> None:
    """«Inicio: a una señal, los dos dan la vuelta a la vez a su carta de arriba.»

    Los dos pueden dar la vuelta en cualquier orden; el duelo se resuelve al final.
    """
    a = pos("9H KS", "5C KH")
    b = pos("9H KS", "5C KH")
    assert guerra.actors(a) == [0, 1]
    assert guerra.legal_moves(a, 0) == [guerra.Turn()]
    ea = turn(a, 0) + turn(a, 1)
    eb = turn(b, 1) + turn(b, 0)
    assert piles(a) == piles(b) == ["KS 9H 5C", "KH"]
    assert only(ea, "won") == only(eb, "won")


def test_no_looking_before_turning() -> None:
    """«No mirar: nadie mira su montón.» — la vista solo da cuántas cartas hay."""
    s = pos("9H KS 2C", "5C KH 3D")
    for seat in (0, 1, None):
        v = guerra.view(s, seat)
        assert v["counts"] == [3, 3]
        text = json.dumps(v)
        for code in ("9H", "KS", "2C", "5C", "KH", "3D"):
            assert f'"{code}"' not in text


# --- the duel --------------------------------------------------------------------------


def test_duel_higher_card_takes_both_to_the_bottom() -> None:
    """«Gana la carta más alta. El ganador se lleva las dos cartas y las pone debajo de su
    montón.»"""
    s = pos("9H KS 2C", "5C KH 3D")
    assert kinds(turn(s, 0)) == ["turn"]
    assert guerra.actors(s) == [1]
    assert piles(s) == ["KS 2C", "5C KH 3D"]
    events = turn(s, 1)
    assert kinds(events) == ["turn", "won", "duel"]
    assert only(events, "won") == [{"t": "won", "seat": 0, "cards": 2, "why": "higher"}]
    assert piles(s) == ["KS 2C 9H 5C", "KH 3D"]
    assert s.duels == 1
    assert guerra.actors(s) == [0, 1]


def test_seed_example_9_beats_5() -> None:
    """«El jugador 1 saca un 9 y el jugador 2 un 5. El jugador 1 gana las dos cartas y las
    pone debajo de su montón.»"""
    s = pos("9H KS 2C 3C 4C 4D", "5C KH 3D 4S 5S QD")
    events = turn(s, 0) + turn(s, 1)
    assert only(events, "turn")[0]["up"] == ["9H"]
    assert only(events, "turn")[1]["up"] == ["5C"]
    assert piles(s) == ["KS 2C 3C 4C 4D 9H 5C", "KH 3D 4S 5S QD"]
    last = guerra.view(s, 0)["last"]
    assert last["winner"] == 0 and last["cards"] == 2
    assert last["steps"][0]["placed"] == {
        "0": {"down": 0, "up": ["9H"]},
        "1": {"down": 0, "up": ["5C"]},
    }


def test_winning_cards_never_go_on_top() -> None:
    """«Errores típicos: … poner las cartas ganadas encima en lugar de debajo del montón.»"""
    s = pos("AH 2C 3C", "2H 4D 5D")
    play_duel(s)
    assert piles(s)[0].startswith("2C 3C")
    assert piles(s)[0].endswith("AH 2H")


# --- war -------------------------------------------------------------------------------


def test_seed_example_war_of_kings() -> None:
    """«Siguiente duelo: el jugador 1 tiene un rey y el jugador 2 también. ¡Guerra! Cada uno
    añade tres cartas boca abajo. Luego cada uno da la vuelta a una carta: el jugador 1 un 4
    y el jugador 2 una reina. El jugador 2 gana la guerra y se lleva las 10 cartas: dos
    reyes, seis cartas boca abajo, el 4 y la reina.»"""
    s = pos("9H KS 2C 3C 4C 4D", "5C KH 3D 4S 5S QD")
    play_duel(s)  # 9 vs 5
    events = turn(s, 0) + turn(s, 1)
    assert kinds(events) == ["turn", "turn", "war"]
    assert events[-1] == {"t": "war", "seats": [0, 1], "n": 1}
    table = guerra.view(s, None)["table"]
    assert table[0]["placed"] == {"0": {"down": 0, "up": ["KS"]}, "1": {"down": 0, "up": ["KH"]}}
    assert table[1]["war"] is True and table[1]["contenders"] == [0, 1]
    e0 = turn(s, 0)
    assert e0 == [{"t": "turn", "seat": 0, "down": 3, "up": ["4D"]}]
    e1 = turn(s, 1)
    assert e1[0] == {"t": "turn", "seat": 1, "down": 3, "up": ["QD"]}
    assert only(e1, "won") == [{"t": "won", "seat": 1, "cards": 10, "why": "higher"}]
    # ten cards: two kings, six face down, the 4 and the queen — the winner's first
    assert piles(s)[1] == "KH 3D 4S 5S QD KS 2C 3C 4C 4D"
    assert piles(s)[0] == "9H 5C"
    assert s.wars == 1 and s.duels == 2


def test_seed_example_war_with_random_order_takes_the_same_ten() -> None:
    """«El jugador 2 gana la guerra y se lleva las 10 cartas» — también con orden mezclado."""
    s = pos("KS 2C 3C 4C 4D", "KH 3D 4S 5S QD", order="random")
    play_duel(s)
    assert not s.piles[0]
    assert sorted(s.piles[1]) == sorted(parse_cards("KS 2C 3C 4C 4D KH 3D 4S 5S QD"))
    assert s.result is not None and s.result["winner"] == 1


def test_war_three_down_then_one_up() -> None:
    """«Cada jugador pone tres cartas boca abajo en el centro. Luego cada uno da la vuelta a
    una cuarta carta. La carta boca arriba más alta gana todas las cartas del centro.»"""
    s = pos("7S 2C 3C 4C AD 9C", "7H 3D 4S 5S 8D 9D")
    events = play_duel(s)
    turns = only(events, "turn")
    assert [(e["down"], e["up"]) for e in turns[2:]] == [(3, ["AD"]), (3, ["8D"])]
    assert piles(s) == ["9C 7S 2C 3C 4C AD 7H 3D 4S 5S 8D", "9D"]


def test_war_one_down_by_option() -> None:
    """RULES.md: «Guerra: 3 cartas boca abajo (o 1, según la opción) y luego una boca
    arriba.»"""
    s = pos("KS 2C 4D 7C", "KH 3D QD 7D", down=1)
    events = play_duel(s)
    turns = only(events, "turn")
    assert [(e["down"], e["up"]) for e in turns[2:]] == [(1, ["4D"]), (1, ["QD"])]
    assert only(events, "won")[0] == {"t": "won", "seat": 1, "cards": 6, "why": "higher"}
    assert piles(s) == ["7C", "7D KH 3D QD KS 2C 4D"]


def test_war_inside_a_war() -> None:
    """«Si vuelve a haber empate, sigue otra guerra.»"""
    s = pos("KS 2C 3C 4C 9D 5H 6H 7H 2D 8S", "KH 3D 4S 5S 9S 6C 7C 8C AD 8H")
    events = play_duel(s)
    assert [e["n"] for e in only(events, "war")] == [1, 2]
    assert only(events, "won")[0] == {"t": "won", "seat": 1, "cards": 18, "why": "higher"}
    assert piles(s) == [
        "8S",
        "8H KH 3D 4S 5S 9S 6C 7C 8C AD KS 2C 3C 4C 9D 5H 6H 7H 2D",
    ]
    assert s.wars == 2 and s.duels == 1
    assert s.last is not None and len(s.last["steps"]) == 3


def test_war_inside_a_war_one_down() -> None:
    """«Nuevo empate: otra guerra.» — con 1 carta boca abajo."""
    s = pos("KS 2C 9D 3H 2D", "KH 3D 9S 4C AD", down=1)
    events = play_duel(s)
    assert len(only(events, "war")) == 2
    assert piles(s) == ["", "KH 3D 9S 4C AD KS 2C 9D 3H 2D"]
    assert s.result is not None and s.result["winner"] == 1


# --- three and four players ------------------------------------------------------------


def test_three_players_highest_wins() -> None:
    """«¿Se puede jugar a la Guerra entre tres? Sí. Cada uno saca una carta y gana la más
    alta.»"""
    s = pos("5C 2H", "9C 3H", "7C 4H")
    events = play_duel(s)
    assert only(events, "won")[0]["seat"] == 1
    # fixed order: the winner's cards, then the others seat by seat after the winner
    assert piles(s) == ["2H", "3H 9C 7C 5C", "4H"]


def test_three_players_only_the_tied_go_to_war() -> None:
    """«Si hay empate, solo los jugadores con las cartas empatadas van a la guerra.»"""
    s = pos("KS 2C 3C 4C 5D", "KH 3D 4S 5S QD", "7C 8C")
    events = turn(s, 0) + turn(s, 1) + turn(s, 2)
    assert only(events, "war") == [{"t": "war", "seats": [0, 1], "n": 1}]
    assert guerra.actors(s) == [0, 1]
    assert guerra.legal_moves(s, 2) == []
    with pytest.raises(IllegalMove) as err:
        turn(s, 2)
    assert err.value.code == "not_your_turn"
    events = turn(s, 0) + turn(s, 1)
    # the untied player's card still goes to the winner
    assert only(events, "won")[0] == {"t": "won", "seat": 1, "cards": 11, "why": "higher"}
    assert piles(s) == ["", "KH 3D 4S 5S QD 7C KS 2C 3C 4C 5D", "8C"]
    assert s.out == [True, False, False]
    assert guerra.actors(s) == [1, 2]


def test_four_players_tie_between_two_of_them() -> None:
    """«Solo los jugadores con las cartas empatadas van a la guerra» — con cuatro."""
    s = pos("2S 3S", "JH 2C 3C 4C 5C", "JD 2D 3D 4D 9D", "10C 6C")
    events = play_duel(s)
    assert only(events, "war")[0]["seats"] == [1, 2]
    assert only(events, "won")[0]["seat"] == 2
    assert piles(s) == ["3S", "", "JD 2D 3D 4D 9D 10C 2S JH 2C 3C 4C 5C", "6C"]
    assert s.out == [False, True, False, False]


def test_three_way_tie_then_two_way_war() -> None:
    """RULES.md: «un nuevo empate es una nueva guerra entre los que siguen empatados»."""
    s = pos(
        "QS 2S 3S 4S 9S 5S 6S 7S AS", "QH 2H 3H 4H 9H 5H 6H 7H KH", "QD 2D 3D 4D 5D 8D", "3C 8C"
    )
    events = play_duel(s)
    wars = only(events, "war")
    assert [w["seats"] for w in wars] == [[0, 1, 2], [0, 1]]
    # seat 2 lost the first war with its 5 and does not play the second
    assert s.last is not None
    assert s.last["steps"][2]["contenders"] == [0, 1]
    assert set(s.last["steps"][2]["placed"]) == {"0", "1"}
    assert only(events, "won")[0] == {"t": "won", "seat": 0, "cards": 24, "why": "higher"}
    assert [len(p) for p in s.piles] == [24, 0, 1, 1]
    assert s.out == [False, True, False, False]


# --- too few cards ---------------------------------------------------------------------


def test_too_few_cards_for_a_war_three_down() -> None:
    """«Pocas cartas para una guerra: quien no tiene suficientes pone boca abajo las que
    pueda y juega su última carta boca arriba.»"""
    s = pos("KS 2C AD", "KH 3D 4S 5S QD 9C")
    events = play_duel(s)
    turns = only(events, "turn")
    assert turns[2] == {"t": "turn", "seat": 0, "down": 1, "up": ["AD"]}
    assert turns[3] == {"t": "turn", "seat": 1, "down": 3, "up": ["QD"]}
    assert piles(s) == ["KS 2C AD KH 3D 4S 5S QD", "9C"]
    assert s.result is None


def test_too_few_cards_three_down_and_losing_ends_the_game() -> None:
    """«Pon boca abajo todas las que tengas; cuenta tu última carta.» — y si pierde, se
    queda sin cartas y pierde la partida."""
    s = pos("KS 2C 3C 5D", "KH 3D 4S 5S QD 9C")
    events = play_duel(s)
    assert only(events, "turn")[2] == {"t": "turn", "seat": 0, "down": 2, "up": ["5D"]}
    assert s.result is not None
    assert s.result["winner"] == 1 and s.result["reason"] == "all_cards"
    assert s.result["counts"] == [0, 10]
    assert kinds(events)[-2:] == ["out", "end"]


def test_too_few_cards_one_left_turns_it_face_up() -> None:
    """«Pocas cartas para una guerra: … juega su última carta boca arriba.» — con una
    sola carta no pone ninguna boca abajo."""
    s = pos("KS 9D", "KH 3D 4S 5S QD 9C")
    events = play_duel(s)
    assert only(events, "turn")[2] == {"t": "turn", "seat": 0, "down": 0, "up": ["9D"]}
    assert s.result is not None and s.result["winner"] == 1


def test_too_few_cards_for_a_war_one_down() -> None:
    """«Pocas cartas para una guerra: quien no tiene suficientes pone boca abajo las que
    pueda y juega su última carta boca arriba.» — con 1 carta boca abajo."""
    s = pos("KS AD", "KH 3D QD 4S", down=1)
    events = play_duel(s)
    turns = only(events, "turn")
    assert turns[2] == {"t": "turn", "seat": 0, "down": 0, "up": ["AD"]}
    assert turns[3] == {"t": "turn", "seat": 1, "down": 1, "up": ["QD"]}
    assert piles(s) == ["KS AD KH 3D QD", "4S"]


def test_no_card_to_turn_up_loses_two_players() -> None:
    """«Si ya no le queda ninguna, pierde.»"""
    s = pos("KS", "KH 3D 4S 5S QD")
    events = turn(s, 0) + turn(s, 1)
    assert kinds(events) == ["turn", "turn", "war", "turn"]
    assert events[-1] == {"t": "turn", "seat": 0, "down": 0, "up": []}
    assert guerra.actors(s) == [1]
    events = turn(s, 1)
    assert only(events, "won")[0] == {"t": "won", "seat": 1, "cards": 6, "why": "no_cards"}
    assert s.result is not None
    assert s.result["winner"] == 1 and s.result["reason"] == "all_cards"
    assert guerra.outcome(s) == s.result


def test_no_card_to_turn_up_is_out_three_players() -> None:
    """RULES.md: «un jugador sin carta que dar la vuelta pierde (con 3–4 jugadores, queda
    fuera)»."""
    s = pos("KS", "KH 3D 4S 5S QD", "2C 9C")
    events = play_duel(s)
    assert only(events, "won")[0]["seat"] == 1
    assert only(events, "out") == [{"t": "out", "seat": 0}]
    assert s.result is None
    assert s.out == [True, False, False]
    assert piles(s) == ["", "KH 3D 4S 5S QD 2C KS", "9C"]
    assert guerra.actors(s) == [1, 2]
    with pytest.raises(IllegalMove) as err:
        turn(s, 0)
    assert err.value.code == "not_your_turn"
    assert guerra.view(s, 0)["out"] == [True, False, False]


def test_loser_of_last_card_is_out_three_players() -> None:
    """«Pierde: quien se queda sin cartas.» — con tres, queda fuera y los demás siguen."""
    s = pos("2S", "9H 3H", "5C 4C")
    play_duel(s)
    assert s.out == [True, False, False]
    assert s.result is None
    play_out(s)
    assert s.result is not None
    assert s.result["winner"] == 1 and s.result["counts"] == [0, 5, 0]


# --- running out together --------------------------------------------------------------


def test_everyone_runs_out_last_face_up_cards_decide() -> None:
    """RULES.md: «Si todos los que quedan en una guerra se quedan sin cartas a la vez,
    deciden las últimas cartas boca arriba»."""
    s = pos("KS 2C 5D", "KH 3D 9D")
    events = play_duel(s)
    assert only(events, "won")[0] == {"t": "won", "seat": 1, "cards": 6, "why": "higher"}
    assert s.result is not None
    assert s.result["winner"] == 1 and s.result["counts"] == [0, 6]


def test_everyone_runs_out_still_tied_is_a_draw() -> None:
    """RULES.md: «… si siguen empatadas, la partida es un empate»."""
    s = pos("KS 2C 5D", "KH 3D 5H")
    events = play_duel(s)
    assert len(only(events, "war")) == 2
    assert s.result is not None
    assert s.result["winner"] is None and s.result["reason"] == "draw_war"
    assert s.result["counts"] == [0, 0]
    assert only(events, "out") == [{"t": "out", "seat": 0}, {"t": "out", "seat": 1}]
    assert sorted(guerra.all_cards(s)) == sorted(parse_cards("KS 2C 5D KH 3D 5H"))
    assert guerra.view(s, None)["carry"] == 6
    assert guerra.actors(s) == []


def test_everyone_runs_out_still_tied_one_down_is_a_draw() -> None:
    """RULES.md: «… si siguen empatadas, la partida es un empate» — con 1 boca abajo."""
    s = pos("7S", "7H", down=1)
    play_duel(s)
    assert s.result is not None and s.result["reason"] == "draw_war"


def test_runners_out_together_four_players_carry_to_next_winner() -> None:
    """RULES.md (3–4 jugadores): los que se quedan sin cartas a la vez en una guerra quedan
    fuera y las cartas de la mesa pasan al ganador del duelo siguiente."""
    s = pos("KS", "KH", "2C 9C", "3C 4C 5C")
    events = play_duel(s)
    assert only(events, "out") == [{"t": "out", "seat": 0}, {"t": "out", "seat": 1}]
    assert only(events, "won") == []
    assert s.result is None
    assert s.out == [True, True, False, False]
    assert sorted(s.carry) == sorted(parse_cards("KS KH 2C 3C"))
    v = guerra.view(s, 2)
    assert v["carry"] == 4 and v["last"]["why"] == "carry" and v["last"]["winner"] is None
    assert guerra.actors(s) == [2, 3]
    events = play_duel(s)  # 9 vs 4: seat 2 takes its duel and the carried cards
    assert only(events, "won")[0] == {"t": "won", "seat": 2, "cards": 6, "why": "higher"}
    assert piles(s) == ["", "", "9C 4C KS KH 2C 3C", "5C"]
    assert not s.carry


def test_runners_out_together_leave_one_player_who_takes_all() -> None:
    """RULES.md (3–4 jugadores): los que se quedan sin cartas a la vez quedan fuera; si solo
    queda uno, gana con todas las cartas."""
    s = pos("KS", "KH", "2C 9C")
    events = play_duel(s)
    assert s.result is not None
    assert s.result["winner"] == 2 and s.result["reason"] == "all_cards"
    assert s.result["counts"] == [0, 0, 4]
    assert not s.carry
    assert kinds(events)[-1] == "end"


def test_runners_out_together_and_the_loser_with_no_card_left_is_out_too() -> None:
    """«Si ya no le queda ninguna, pierde.» — quien perdió el duelo con su última carta queda
    fuera a la vez que los que se quedaron sin cartas en la guerra."""
    s = pos("KS", "KH", "2C", "3C 4C 5C")
    events = play_duel(s)
    assert only(events, "out") == [
        {"t": "out", "seat": 0},
        {"t": "out", "seat": 1},
        {"t": "out", "seat": 2},
    ]
    assert s.result is not None
    assert s.result["winner"] == 3 and s.result["counts"] == [0, 0, 0, 6]
    assert s.result["duels"] == 1


def test_runners_out_together_and_nobody_left_is_a_draw() -> None:
    """«… si siguen empatadas, la partida es un empate» — todos sin cartas a la vez."""
    s = pos("KS", "KH", "2C")
    play_duel(s)
    assert s.result is not None
    assert s.result["winner"] is None and s.result["reason"] == "draw_war"
    assert len(guerra.all_cards(s)) == 3


# --- how to win, limits ----------------------------------------------------------------


def test_winner_takes_all_cards() -> None:
    """«Gana: quien tiene las 52 cartas.»"""
    s = guerra.new(guerra.parse_config({"length": "final"}), seed=3)
    play_out(s, max_duels=20_000)
    assert s.result is not None and s.result["reason"] == "all_cards"
    winner = s.result["winner"]
    assert s.result["counts"][winner] == 52
    assert len(s.piles[winner]) == 52


def test_loser_has_no_cards() -> None:
    """«Pierde: quien se queda sin cartas.»"""
    s = pos("AS 2C", "KS")
    events = play_duel(s)
    assert s.result == {
        "winner": 0,
        "reason": "all_cards",
        "counts": [3, 0],
        "duels": 1,
        "wars": 0,
        "tied": [],
    }
    assert events[-1] == {"t": "end", **s.result}
    assert guerra.actors(s) == []
    assert guerra.legal_moves(s, 0) == []


@pytest.mark.parametrize(("length", "limit"), [("corta", 80), ("media", 200)])
def test_duel_limit_most_cards_wins(length: str, limit: int) -> None:
    """«Tiempo limitado: si se acuerda un tiempo o un número de duelos, al final gana quien
    tiene más cartas.» — corta 80 duelos, media 200."""
    s = guerra.load(
        {
            "piles": ["9H 2C 4D", "5C 3C"],
            "config": {"length": length, "order": "fixed"},
            "duels": limit - 2,
        }
    )
    assert guerra.view(s, 0)["limit"] == limit
    assert guerra.view(s, 0)["duel"] == limit - 1
    play_duel(s)  # duel limit-1: 9 vs 5
    assert s.result is None and s.duels == limit - 1
    events = play_duel(s)  # duel limit: 2 vs 3
    assert s.duels == limit
    assert s.result is not None
    assert s.result["reason"] == "limit" and s.result["winner"] == 0
    assert s.result["counts"] == [3, 2]
    assert kinds(events)[-1] == "end"


def test_duel_limit_counts_the_cards() -> None:
    """«Con límite de tiempo: al final se cuentan las cartas; gana quien tiene más.»"""
    s = guerra.load({"piles": ["2H 4C", "9H 3C 5C 6C"], "config": {"order": "fixed"}, "duels": 79})
    play_duel(s)
    assert s.result is not None
    assert s.result["counts"] == [1, 5]
    assert s.result["winner"] == 1 and s.result["reason"] == "limit"


def test_duel_limit_equal_counts_is_a_draw() -> None:
    """RULES.md: «Con límite de duelos gana quien tiene más cartas; a igualdad, empate.»"""
    s = guerra.load({"piles": ["9H 2C", "5C 3C 4C 6C"], "config": {"order": "fixed"}, "duels": 79})
    play_duel(s)
    assert s.result is not None
    assert s.result["counts"] == [3, 3]
    assert s.result["winner"] is None and s.result["reason"] == "draw_limit"
    assert s.result["tied"] == [0, 1]


def test_duel_limit_draw_three_players_names_the_tied() -> None:
    """RULES.md: «a igualdad, empate» — con tres, empatan los que tienen más."""
    s = guerra.load(
        {
            "piles": ["9H 2C", "5C 3C 4C 6C", "4D 7D"],
            "config": {"order": "fixed", "length": "media"},
            "duels": 199,
        }
    )
    play_duel(s)
    assert s.result is not None
    assert s.result["counts"] == [4, 3, 1]
    assert s.result["winner"] == 0
    s = guerra.load(
        {
            "piles": ["9H 2C", "5C 3C 4C 6C 7C", "4D 7D"],
            "config": {"order": "fixed", "length": "media"},
            "duels": 199,
        }
    )
    play_duel(s)
    assert s.result is not None
    assert s.result["counts"] == [4, 4, 1]
    assert s.result["reason"] == "draw_limit" and s.result["tied"] == [0, 1]


def test_war_counts_as_one_duel_toward_the_limit() -> None:
    """«corta (80 duelos)» — una guerra es parte del mismo duelo."""
    s = guerra.load(
        {
            "piles": ["KS 2C 3C 4C AD 5C", "KH 3D 4S 5S 8D 6C"],
            "config": {"order": "fixed"},
            "duels": 79,
        }
    )
    play_duel(s)
    assert s.result is not None and s.result["duels"] == 80 and s.result["wars"] == 1
    assert s.result["winner"] == 0 and s.result["counts"] == [11, 1]


def test_hasta_el_final_has_no_limit() -> None:
    """«… o hasta que alguien tenga todas las cartas»."""
    s = guerra.load(
        {"piles": ["9H 2C 3D", "5C 3C 4D"], "config": {"length": "final"}, "duels": 100_000}
    )
    assert guerra.view(s, None)["limit"] is None
    play_duel(s)
    play_duel(s)
    assert s.duels == 100_002
    assert s.result is None


def test_length_defaults_to_corta() -> None:
    """«corta (80 duelos), media (200 duelos) o hasta que alguien tenga todas las cartas»."""
    assert guerra.parse_config({}).limit == 80
    assert guerra.parse_config({"length": "media"}).limit == 200
    assert guerra.parse_config({"length": "final"}).limit is None


# --- variants --------------------------------------------------------------------------


def test_as_bajo_ace_loses_to_a_two() -> None:
    """«As bajo (variante): algunos juegan el as como 1.»"""
    s = pos("AS 3C", "2H 4C", ace_low=True)
    events = play_duel(s)
    assert only(events, "won")[0]["seat"] == 1
    assert guerra.view(s, 0)["last"]["values"] == [{"0": 1, "1": 2}]
    s = pos("AS 3C", "2H 4C")
    events = play_duel(s)
    assert only(events, "won")[0]["seat"] == 0


def test_ace_high_by_default() -> None:
    """«Según la regla básica, el as es la carta más alta.»"""
    s = pos("AS 3C", "KH 4C")
    assert only(play_duel(s), "won")[0]["seat"] == 0
    assert guerra.parse_config({}).ace_low is False


def test_standard_defaults() -> None:
    """«Estándar de esta descripción: dos jugadores, as alto, tres cartas boca abajo en una
    guerra.»"""
    c = guerra.parse_config({})
    assert (c.players, c.ace_low, c.down, c.sums) == (2, False, 3, False)
    assert c.order == "random"


def test_sums_two_cards_each_higher_sum_wins() -> None:
    """«Guerra de sumas: con dos cartas y sumas se convierte en un pequeño ejercicio de
    cálculo.» RULES.md: «cada uno da la vuelta a dos cartas; gana la suma más alta»."""
    s = pos("9H 2C 5D", "7H 3C 6D", sums=True)
    events = play_duel(s)
    turns = only(events, "turn")
    assert turns[0]["up"] == ["9H", "2C"] and turns[1]["up"] == ["7H", "3C"]
    assert only(events, "won")[0] == {"t": "won", "seat": 0, "cards": 4, "why": "higher"}
    assert piles(s) == ["5D 9H 2C 7H 3C", "6D"]
    assert s.last is not None and s.last["values"] == [{"0": 11, "1": 10}]


def test_sums_tie_is_a_war_with_sums() -> None:
    """RULES.md: «un empate en las sumas es una guerra jugada con sumas»."""
    s = pos("9H 2C 2D 3D 4D 5H 6H 8S", "8H 3C 2S 3S 4S 7C 7D 8D", sums=True)
    events = play_duel(s)
    turns = only(events, "turn")
    assert [(t["down"], t["up"]) for t in turns[2:]] == [(3, ["5H", "6H"]), (3, ["7C", "7D"])]
    assert only(events, "won")[0] == {"t": "won", "seat": 1, "cards": 14, "why": "higher"}
    assert s.last is not None and s.last["values"] == [{"0": 11, "1": 11}, {"0": 11, "1": 14}]


def test_sums_with_one_down() -> None:
    """RULES.md: guerra de sumas con 1 carta boca abajo: una boca abajo y dos boca arriba."""
    s = pos("9H 2C 2D 5H 6H", "8H 3C 2S 7C 7D", sums=True, down=1)
    events = play_duel(s)
    assert [(t["down"], t["up"]) for t in only(events, "turn")[2:]] == [
        (1, ["5H", "6H"]),
        (1, ["7C", "7D"]),
    ]
    assert s.result is not None and s.result["winner"] == 1


def test_sums_too_few_cards_for_a_war() -> None:
    """«Pocas cartas para una guerra: … pone boca abajo las que pueda y juega su última carta
    boca arriba.» — con sumas, las dos últimas cuentan boca arriba."""
    s = pos("9H 2C 2D 3D KH", "8H 3C 2S 3S 4S 7C 7D", sums=True)
    events = play_duel(s)
    turns = only(events, "turn")
    assert turns[2] == {"t": "turn", "seat": 0, "down": 1, "up": ["3D", "KH"]}
    assert only(events, "won")[0]["seat"] == 0  # 16 against 14
    s = pos("9H 2C QD", "8H 3C 2S 3S 4S 7C 7D", sums=True)
    events = play_duel(s)
    assert only(events, "turn")[2] == {"t": "turn", "seat": 0, "down": 0, "up": ["QD"]}
    assert only(events, "won")[0]["seat"] == 1  # 12 against 14
    assert s.result is not None and s.result["winner"] == 1


def test_sums_last_card_alone_in_a_duel() -> None:
    """«Cuenta tu última carta.» — con sumas y una sola carta, cuenta esa carta."""
    s = pos("9H", "2C 3C 4C", sums=True)
    events = play_duel(s)
    assert only(events, "turn")[0]["up"] == ["9H"]
    assert only(events, "won")[0]["seat"] == 0  # 9 against 5


def test_sums_with_as_bajo() -> None:
    """«As bajo»: con sumas, el as suma 1."""
    s = pos("AH 2C 5D", "2H 2D 6D", sums=True, ace_low=True)
    assert only(play_duel(s), "won")[0]["seat"] == 1  # 3 against 4


# --- order of won cards ----------------------------------------------------------------


WAR = ("KS 2C 3C 4C 4D 8S", "KH 3D 4S 5S QD 8H")
POT = sorted(parse_cards("KS 2C 3C 4C 4D KH 3D 4S 5S QD"))


def _war_with_rng(rng: int) -> list[Card]:
    s = guerra.load({"piles": list(WAR), "config": {"order": "random"}, "rng": rng})
    play_duel(s)
    assert s.piles[1][0].code == "8H"
    return list(s.piles[1])[1:]


def test_random_order_is_seeded_and_reproducible() -> None:
    """RULES.md: «las cartas ganadas van debajo del montón del ganador en un orden al azar
    (con semilla)». «Orden de las cartas ganadas: lo mejor es ponerlas debajo del montón
    mezcladas.»"""
    a = _war_with_rng(12345)
    b = _war_with_rng(12345)
    assert a == b
    assert sorted(a) == POT
    orders = {codes(_war_with_rng(r)) for r in range(8)}
    assert len(orders) > 1
    assert all(sorted(parse_cards(o)) == POT for o in orders)


def test_random_order_uses_the_state_rng() -> None:
    """«… en un orden al azar (con semilla)»: el generador está en la posición y avanza."""
    s = guerra.load({"piles": list(WAR), "config": {"order": "random"}, "rng": 777})
    before = s.rng.state
    play_duel(s)
    assert s.rng.state != before
    assert guerra.dump(s)["rng"] == s.rng.state


def test_fixed_order_puts_the_winners_cards_first() -> None:
    """RULES.md: «Opción: orden fijo (primero las cartas del ganador), para enseñar.»"""
    s = guerra.load({"piles": list(WAR), "config": {"order": "fixed"}, "rng": 12345})
    before = s.rng.state
    play_duel(s)
    assert codes(s.piles[1]) == "8H KH 3D 4S 5S QD KS 2C 3C 4C 4D"
    assert s.rng.state == before  # fixed order draws nothing


def test_fixed_order_can_repeat_for_ever_and_ends_as_a_loop_draw() -> None:
    """«Orden de las cartas ganadas: … si no, el juego puede repetirse sin fin.» — en orden
    fijo y hasta el final, una posición repetida termina en empate («loop»)."""
    s = pos("2H 2D 4C", "3S 4H", length="final")
    seen: dict[tuple[str, ...], int] = {}
    repeated = False
    while s.result is None:
        key = tuple(piles(s))
        repeated = repeated or key in seen
        seen.setdefault(key, s.duels)
        play_duel(s)
        assert s.duels < 100
    assert repeated  # the position really came back
    assert s.result["reason"] == "loop"
    assert s.result["winner"] is None
    assert s.result["counts"] == [len(p) for p in s.piles]
    assert sorted(guerra.all_cards(s)) == sorted(parse_cards("2H 2D 4C 3S 4H"))


def test_fixed_order_loop_with_a_limit_ends_at_the_limit() -> None:
    """«Partidas muy largas: … Ayuda un límite de tiempo o un número fijo de duelos.»"""
    s = pos("2H 2D 4C", "3S 4H", length="corta")
    play_out(s)
    assert s.result is not None and s.result["reason"] == "limit" and s.duels == 80
    assert s.loop is None


def test_random_order_never_ends_by_loop() -> None:
    """«lo mejor es ponerlas debajo del montón mezcladas … si no, el juego puede repetirse
    sin fin» — mezcladas, no hay detección de repeticiones."""
    s = guerra.load({"piles": ["2H 2D 4C", "3S 4H"], "config": {"length": "final"}, "rng": 1})
    play_out(s, max_duels=10_000)
    assert s.result is not None and s.result["reason"] in ("all_cards", "draw_war")
    assert s.loop is None


# --- illegal moves and bad input -------------------------------------------------------


def test_turning_twice_is_not_your_turn() -> None:
    """«Juego limpio al voltear: siempre a la vez y sin mirar antes.» — nadie da la vuelta
    dos veces en el mismo paso."""
    s = pos("9H KS", "5C KH")
    turn(s, 0)
    before = guerra.dump(s)
    with pytest.raises(IllegalMove) as err:
        turn(s, 0)
    assert err.value.code == "not_your_turn"
    assert guerra.SPEC.describe(err.value, "es") == "No es tu turno."
    assert guerra.SPEC.describe(err.value, "en") == "It's not your turn."
    assert guerra.dump(s) == before


def test_seat_out_of_range_is_not_your_turn() -> None:
    """Un asiento que no juega no puede dar la vuelta."""
    s = pos("9H KS", "5C KH")
    before = guerra.dump(s)
    for seat in (2, -1, 99):
        with pytest.raises(IllegalMove) as err:
            turn(s, seat)
        assert err.value.code == "not_your_turn"
    assert guerra.dump(s) == before


def test_turning_after_the_end_is_game_over() -> None:
    """«Gana quien tiene todas las cartas.» — después ya no se juega."""
    s = pos("AS", "2S")
    play_duel(s)
    assert s.result is not None
    before = guerra.dump(s)
    for seat in (0, 1):
        with pytest.raises(IllegalMove) as err:
            turn(s, seat)
        assert err.value.code == "game_over"
    assert guerra.dump(s) == before


def test_unknown_move_object_is_refused() -> None:
    """La única jugada es dar la vuelta a la carta."""
    s = pos("AS", "2S")
    before = guerra.dump(s)
    with pytest.raises(IllegalMove) as err:
        guerra.apply(s, 0, "draw")  # type: ignore[arg-type]
    assert err.value.code == "unknown_move"
    assert guerra.dump(s) == before


@pytest.mark.parametrize(
    "config",
    [
        {"players": 5},
        {"players": 1},
        {"players": "2"},
        {"players": True},
        {"down": 2},
        {"down": "3"},
        {"down": True},
        {"length": "larga"},
        {"length": ["corta"]},
        {"length": None},
        {"order": "shuffled"},
        {"ace_low": "yes"},
        {"sums": 1},
        {"jokers": True},
        {"players": 2, "speed": "fast"},
    ],
)
def test_parse_config_refuses_bad_options(config: dict[str, Any]) -> None:
    """RULES.md: opciones — 2 a 4 jugadores; corta, media o hasta el final; 3 o 1 boca abajo."""
    with pytest.raises(IllegalMove) as err:
        guerra.parse_config(config)
    assert err.value.code == "bad_config"
    assert err.value.params["field"] in config  # the option at fault is named


def test_parse_config_refuses_non_objects() -> None:
    """Una configuración es un objeto JSON."""
    with pytest.raises(IllegalMove) as err:
        guerra.parse_config([])
    assert err.value.code == "bad_config"


def test_parse_config_accepts_every_option() -> None:
    """RULES.md: «Variantes: as bajo; guerra de sumas» y «orden fijo»."""
    data = {
        "players": 4,
        "length": "final",
        "down": 1,
        "ace_low": True,
        "sums": True,
        "order": "fixed",
    }
    config = guerra.parse_config(data)
    assert guerra.config_json(config) == data
    assert guerra.seats(config) == 4
    assert config.up == 2


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"type": "draw"}, "unknown_move"),
        ({"type": "play", "card": "AS"}, "unknown_move"),
        ({}, "bad_move"),
        ([], "bad_move"),
        ({"type": "turn", "seat": 1}, "bad_move"),
    ],
)
def test_parse_move_refuses_unknown_moves(data: Any, code: str) -> None:
    """La única jugada es «turn» (dar la vuelta)."""
    with pytest.raises(IllegalMove) as err:
        guerra.parse_move(data)
    assert err.value.code == code


def test_move_codec_round_trips() -> None:
    """La jugada es un dato con un solo códec JSON."""
    move = guerra.Turn()
    assert guerra.parse_move(move.to_json()) == move
    assert guerra.parse_move(json.loads(json.dumps(move.to_json()))) == move
    assert str(move) == "turn"
    assert hash(move) == hash(guerra.Turn())


# --- view, dump and load ---------------------------------------------------------------


def test_view_hides_face_down_cards_in_a_war() -> None:
    """«En una guerra, las cartas extra van boca abajo.» — nadie las ve, ni su dueño."""
    s = pos("KS 2C 3C 4C 4D 9S", "KH 3D 4S 5S QD 9H")
    turn(s, 0)
    turn(s, 1)
    turn(s, 0)
    hidden = ["2C", "3C", "4C", "9S", "3D", "4S", "5S", "QD", "9H"]
    for seat in (0, 1, None):
        v = guerra.view(s, seat)
        text = json.dumps(v)
        for code in hidden:
            assert f'"{code}"' not in text, (seat, code)
        assert v["table"][1]["placed"] == {"0": {"down": 3, "up": ["4D"]}}
        assert v["counts"] == [1, 5]
        assert v["actors"] == [1]
    assert guerra.view(s, 1)["legal"] == [{"type": "turn"}]
    assert guerra.view(s, 0)["legal"] == []
    assert guerra.view(s, None)["legal"] == []


def test_view_fields() -> None:
    """Lo que se ve en la mesa: cartas de cada montón, duelo, guerras, cartas boca arriba."""
    s = pos("9H KS", "5C KH", length="media")
    v = guerra.view(s, 0)
    assert v["game"] == "guerra" and v["seat"] == 0
    assert v["limit"] == 200 and v["duel"] == 1 and v["duels"] == 0 and v["wars"] == 0
    assert v["counts"] == [2, 2] and v["out"] == [False, False]
    assert v["table"] == [{"contenders": [0, 1], "war": False, "placed": {}}]
    assert v["carry"] == 0 and v["last"] is None and v["result"] is None
    assert v["config"]["length"] == "media"
    json.dumps(v)


def test_dump_load_round_trip_mid_war() -> None:
    """La posición (``dump``) es toda la partida: cargarla da el mismo futuro."""
    s = pos("KS 2C 3C 4C 4D 9S 8C", "KH 3D 4S 5S QD 9H 7C", order="random")
    turn(s, 0)
    turn(s, 1)
    turn(s, 1)
    data = guerra.dump(s)
    t = guerra.load(json.loads(json.dumps(data)))
    assert guerra.dump(t) == data
    assert guerra.view(t, 0) == guerra.view(s, 0)
    ea = play_out(s)
    eb = play_out(t)
    assert ea == eb
    assert guerra.dump(s) == guerra.dump(t)


def test_dump_load_round_trip_new_game() -> None:
    """``load(dump(s))`` es la misma partida, también al empezar y al terminar."""
    s = guerra.new(guerra.parse_config({"players": 3, "sums": True}), seed=11)
    data = guerra.dump(s)
    assert guerra.dump(guerra.load(data)) == data
    play_out(s)
    data = guerra.dump(s)
    assert guerra.dump(guerra.load(data)) == data


def test_load_accepts_both_card_texts() -> None:
    """El texto de las cartas acepta «10♥» y «10H»; el volcado usa los símbolos."""
    a = guerra.load({"piles": ["10♥ K♠", "9♣ 2♦"]})
    b = guerra.load({"piles": ["10H KS", "9c 2d"]})
    assert a.piles == b.piles
    assert guerra.dump(a)["piles"] == ["10♥ K♠", "9♣ 2♦"]


def test_load_defaults() -> None:
    """Una posición puede dar solo los montones; lo demás toma su valor por defecto."""
    s = guerra.load({"piles": ["9H", "5C", "2D"]})
    assert s.config.players == 3
    assert s.config.length == "corta" and s.config.order == "random"
    assert s.out == [False, False, False]
    assert s.duels == 0 and s.wars == 0 and not s.carry and s.result is None
    assert guerra.actors(s) == [0, 1, 2]


def test_the_documented_position_is_the_short_form_played() -> None:
    """docs/positions.md: the example position, and the short way a test writes it, are the
    same game (``dump`` writes exactly the documented JSON, key order included)."""
    doc = (Path(__file__).parents[2] / "docs" / "positions.md").read_text()
    section = doc.split("## La guerra", 1)[1].split("\n## ", 1)[0]
    example = json.loads(section.split("```json", 2)[2].split("```", 1)[0])
    s = guerra.load(
        {"piles": ["9H KS 2C 3C 4C 4D 7S", "5C KH 3D 4S 5S QD 8S"], "config": {"order": "fixed"}}
    )
    for seat in (0, 1, 0, 1, 0):
        guerra.apply(s, seat, guerra.Turn())
    assert json.dumps(guerra.dump(s)) == json.dumps(example)
    assert json.dumps(guerra.dump(guerra.load(example))) == json.dumps(example)


def test_load_gives_missing_fields_of_a_step_their_defaults() -> None:
    """A test may write a step with only what matters: ``war`` false, nothing placed, and a
    seat's ``down`` or ``up`` empty; seat keys as strings (JSON) or integers."""
    s = guerra.load(
        {"piles": ["9H", "5C 7C"], "steps": [{"contenders": [0, 1], "placed": {"0": {"up": "KS"}}}]}
    )
    assert guerra.actors(s) == [1]
    assert not s.steps[0].war and not s.steps[0].placed[0].down
    assert guerra.dump(s)["steps"] == [
        {"contenders": [0, 1], "war": False, "placed": {"0": {"down": "", "up": "K♠"}}}
    ]
    empty = {"contenders": [0, 1], "placed": {0: {}}}
    t = guerra.load({"piles": ["9H", "5C 7C"], "steps": [empty]})
    assert guerra.dump(t)["steps"][0]["placed"] == {"0": {"down": "", "up": ""}}
    u = guerra.load({"piles": ["9H", "5C"], "steps": [{"contenders": [1]}]})
    assert guerra.actors(u) == [1]


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"piles": ["9H ZZ", "5C"]}, "$.piles[0]"),
        ({"piles": ["9H", "5C"], "duels": "7"}, "$.duels"),
        ({"piles": ["9H", "5C"], "steps": [{"war": True}]}, "$.steps[0]"),
        ({"piles": ["9H", "5C"], "carry": 3}, "$.carry"),
    ],
)
def test_load_names_what_does_not_read(data: dict[str, Any], where: str) -> None:
    """A position that does not read is refused with the field at fault (a ``ValueError``)."""
    with pytest.raises(ValueError, match=re.escape(where)):
        guerra.load(data)


def test_load_takes_the_players_from_the_piles() -> None:
    """«2 jugadores por defecto; 3 o 4 opcional»: the number of piles is ``players``, so a
    position of one pile or five is refused as the options would be."""
    four = guerra.load({"piles": ["9H", "5C", "2D", "3D"], "config": {"players": 2}})
    assert four.config.players == 4
    for piles in (["9H"], ["9H", "5C", "2D", "3D", "4D"]):
        with pytest.raises(IllegalMove) as err:
            guerra.load({"piles": piles})
        assert err.value.code == "bad_config" and err.value.params["field"] == "players"


def test_a_pile_is_card_text_top_first() -> None:
    """The pile type reads any card text (or a list of cards or card texts) and writes the
    symbol form; ``take`` turns cards off the top."""
    pile = guerra.Pile.from_wire("10h, ks 1D")
    assert pile.to_wire() == "10♥ K♠ A♦"
    assert guerra.Pile.from_wire(["10H", Card.parse("KS"), "AD"]) == pile
    assert guerra.Pile.from_wire("").to_wire() == ""
    top = pile.take(2)
    assert (top.to_wire(), pile.to_wire()) == ("10♥ K♠", "A♦")
    assert isinstance(top, guerra.Pile) and not pile.take(0)
