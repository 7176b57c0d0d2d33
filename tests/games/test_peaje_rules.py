"""El Peaje: one test per rule sentence of the seed (``seeds/000_…``) and of RULES.md.

Every test starts from an explicit position (``peaje.load``). The helper :func:`pos` takes
the cards *in the order they will be turned* (``coming``) and writes the engine's deck,
whose next card is its LAST code; ``cards`` is the route from the initial card on, and the
cards standing on the route count as already turned (``revealed``), as they would in play.
"""

from __future__ import annotations

import copy
import itertools
import json
from fractions import Fraction
from typing import Any

import pytest

from tapete.cards import Card, full_deck, parse_cards
from tapete.games import peaje
from tapete.games.protocol import Event, IllegalMove
from tapete.rng import Rng

A = peaje.Answer
REVEAL = peaje.Reveal()
HIT = peaje.Mark(True)
MISS = peaje.Mark(False)
CONFIRM_MISS = peaje.ConfirmMiss()
CONFIRM_TOLL = peaje.ConfirmToll()

# --- helpers ---------------------------------------------------------------------------


def route(
    coming: str = "", cards: str = "6H", *, removed: str = "", **fields: Any
) -> dict[str, Any]:
    """One route of a position: ``coming`` in the order the cards will be turned."""
    on_route = cards.split()
    return {
        "deck": " ".join(reversed(coming.split())),
        "cards": cards,
        "revealed": " ".join(on_route[1:] + removed.split()),
        **fields,
    }


def pos(
    coming: str = "",
    cards: str = "6H",
    *,
    removed: str = "",
    misses: int = 0,
    tolls: int = 0,
    **config: Any,
) -> peaje.State:
    """A one-route position (solitario, fácil unless told otherwise)."""
    r = route(coming, cards, removed=removed, misses=misses, tolls=tolls)
    return peaje.load({"routes": [r], "config": config})


def group(*routes: dict[str, Any], current: int = 0, rng: int = 0, **config: Any) -> peaje.State:
    """A position with several routes (turnos rápidos) or several players."""
    return peaje.load({"routes": list(routes), "current": current, "rng": rng, "config": config})


def play(state: peaje.State, *moves: peaje.Move) -> list[Event]:
    events: list[Event] = []
    for m in moves:
        events += peaje.apply(state, 0, m)
    return events


def kinds(events: list[Event]) -> list[str]:
    return [e["t"] for e in events]


def only(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e["t"] == kind]


def codes(cards: list[Card]) -> str:
    return " ".join(c.code for c in cards)


def on_route(state: peaje.State, i: int = 0) -> str:
    return codes(state.routes[i].cards)


def deck(state: peaje.State, i: int = 0) -> str:
    """The deck in the order it will be turned (next card first)."""
    return codes(state.routes[i].deck[::-1])


def question(state: peaje.State) -> str:
    return peaje.question(state)


def refused(state: peaje.State, move: peaje.Move, code: str, seat: int = 0) -> IllegalMove:
    """The move is refused with ``code`` and the position is exactly as it was."""
    before = json.dumps(peaje.dump(state), sort_keys=True)
    with pytest.raises(IllegalMove) as info:
        peaje.apply(state, seat, move)
    assert info.value.code == code
    assert json.dumps(peaje.dump(state), sort_keys=True) == before
    return info.value


def words(e: IllegalMove, lang: str = "es") -> str:
    """A refusal as a player reads it."""
    return peaje.SPEC.describe(e, lang)


def odds_of(reference: str, q: str = "mayor_menor", seen: str = "") -> dict[str, Any]:
    cards = parse_cards(reference)
    r = peaje.Route(deck=[], cards=cards, revealed=cards[1:] + parse_cards(seen))
    return peaje.odds(r, q)


# --- the deck --------------------------------------------------------------------------


def test_52_cards_shuffled_none_repeated() -> None:
    """«la web mezcla 52 cartas y no repite ninguna dentro de la misma partida.»"""
    s = peaje.new(peaje.parse_config({}), seed=3)
    (r,) = s.routes
    assert len(r.cards) == 1 and len(r.deck) == 51
    assert sorted(r.deck + r.cards) == sorted(full_deck())
    assert [sorted(c) for c in peaje.all_cards(s)] == [sorted(full_deck())]


def test_a_new_game_shuffles_again() -> None:
    """«Para repetir, inicia una partida nueva: las cartas se mezclan de nuevo.» — la misma
    semilla da la misma mezcla (la partida se puede repetir); otra semilla, otra mezcla."""
    config = peaje.parse_config({})
    assert peaje.dump(peaje.new(config, 8)) == peaje.dump(peaje.new(config, 8))
    assert deck(peaje.new(config, 8)) != deck(peaje.new(config, 9))


def test_the_game_starts_with_a_visible_card_on_position_0() -> None:
    """«La partida comienza con una carta visible. Esa carta será la primera referencia.»
    RULES.md: las posiciones se numeran desde 1; la posición 0 tiene la carta inicial."""
    s = peaje.new(peaje.parse_config({"difficulty": "media"}), seed=11)
    r = s.routes[0]
    assert r.pos == 1 and question(s) == "mayor_menor"
    v = peaje.view(s, 0)
    assert v["routes"][0]["cards"] == [r.cards[0].code]
    assert v["reference"] == r.cards[0].code
    assert v["routes"][0]["left"] == 51


# --- the route by difficulty -----------------------------------------------------------

# Initial 6♥; then 10♣ (mayor), 3♣ (redonda), 9♦ (roja), K♠ (picas): every answer right.
ANSWERS = {"mayor_menor": "mayor", "redonda_picuda": "redonda", "roja_negra": "roja",
           "palo": "picas"}  # fmt: skip


@pytest.mark.parametrize(
    ("difficulty", "coming", "steps"),
    [
        ("facil", "10C 9D KS", ["mayor_menor", "PEAJE", "roja_negra", "palo"]),
        ("media", "10C 3C 9D KS", ["mayor_menor", "redonda_picuda", "PEAJE", "roja_negra", "palo"]),
        (
            "dificil",
            "10C 3C 9D KS",
            ["mayor_menor", "redonda_picuda", "PEAJE", "roja_negra", "PEAJE", "palo"],
        ),
    ],
)
def test_route_by_difficulty(difficulty: str, coming: str, steps: list[str]) -> None:
    """RULES.md, la ruta: fácil «1 Mayor o menor → PEAJE → 2 Roja o negra → 3 Acierta el
    palo»; media «1 Mayor o menor → 2 Redonda o picuda → PEAJE → 3 Roja o negra → 4 Acierta
    el palo»; difícil «… → 2 Redonda o picuda → PEAJE → 3 Roja o negra → PEAJE → 4 Acierta
    el palo». Se recorre la ruta acertándolo todo y se anota lo que va pidiendo."""
    s = pos(coming, difficulty=difficulty)
    seen: list[str] = []
    while s.result is None:
        if s.phase == "toll":
            seen.append("PEAJE")
            play(s, CONFIRM_TOLL)
        else:
            seen.append(question(s))
            play(s, A(ANSWERS[question(s)]))
    assert seen == steps
    assert s.result["winner"] == 0 and s.result["reason"] == "route"
    assert s.routes[0].tolls == steps.count("PEAJE")
    assert on_route(s) == "6H " + " ".join(coming.split())


def test_redonda_o_picuda_is_not_asked_in_facil() -> None:
    """«Redonda o picuda […] Esta pregunta no aparece en dificultad fácil.»"""
    assert "redonda_picuda" not in peaje.parse_config({"difficulty": "facil"}).questions
    s = pos("10C", difficulty="facil")
    play(s, A("mayor"), CONFIRM_TOLL)
    assert question(s) == "roja_negra"


# --- the four questions ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("reference", "card", "answer", "hit"),
    [
        ("6H", "10C", "mayor", True),
        ("6H", "10C", "menor", False),
        ("6H", "2S", "menor", True),
        ("6H", "2S", "mayor", False),
        ("KH", "AS", "mayor", True),  # el as es la más alta
        ("2C", "AD", "mayor", True),
        ("AH", "KS", "menor", True),
        ("AH", "2S", "menor", True),
        ("AH", "2S", "mayor", False),
        ("JD", "QD", "mayor", True),  # J < Q < K < A
        ("QD", "KC", "mayor", True),
        ("10S", "JS", "mayor", True),
    ],
)
def test_mayor_o_menor(reference: str, card: str, answer: str, hit: bool) -> None:
    """«Mayor o menor: Predice si la siguiente carta tendrá un valor mayor o menor. El as es
    la carta más alta.»"""
    s = pos(card, reference, difficulty="media")
    events = play(s, A(answer))
    assert only(events, "reveal")[0]["hit"] is hit
    assert kinds(events)[-1] == ("hit" if hit else "miss")


@pytest.mark.parametrize("answer", ["mayor", "menor"])
@pytest.mark.parametrize(("reference", "card"), [("6H", "6D"), ("AS", "AH"), ("2C", "2D")])
def test_mayor_o_menor_tie_is_a_miss(reference: str, card: str, answer: str) -> None:
    """«un empate cuenta como fallo.» — diga lo que diga, un valor igual es fallo."""
    s = pos(card, reference)
    events = play(s, A(answer))
    assert only(events, "reveal")[0]["right"] == []
    assert kinds(events) == ["reveal", "miss"]


def test_ace_is_the_highest_card() -> None:
    """RULES.md: «Card order everywhere: A (high) K Q J 10 9 8 7 6 5 4 3 2» — el as gana a
    todas, y con un as de referencia solo se puede acertar «menor»."""
    order = parse_cards("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS")
    for low, high in itertools.pairwise(order):
        assert peaje.right("mayor_menor", low, high) == {"mayor"}
        assert peaje.right("mayor_menor", high, low) == {"menor"}
    ace = Card.parse("AH")
    assert all(peaje.right("mayor_menor", ace, c) <= {"menor"} for c in full_deck())


@pytest.mark.parametrize(
    ("card", "right"), [("5H", "redonda"), ("5C", "redonda"), ("5D", "picuda"), ("5S", "picuda")]
)
def test_redonda_o_picuda(card: str, right: str) -> None:
    """«Corazones y tréboles son palos redondos. Diamantes y picas son palos picudos.»"""
    for answer in ("redonda", "picuda"):
        s = pos(card, "6H 10C", difficulty="media")
        assert question(s) == "redonda_picuda"
        events = play(s, A(answer))
        assert only(events, "reveal")[0]["hit"] is (answer == right), answer


@pytest.mark.parametrize(
    ("card", "right"), [("QH", "roja"), ("QD", "roja"), ("QC", "negra"), ("QS", "negra")]
)
def test_roja_o_negra(card: str, right: str) -> None:
    """«Roja o negra: Elige roja para corazones o diamantes; negra para tréboles o picas.»"""
    for answer in ("roja", "negra"):
        s = pos(card, "6H 10C", difficulty="facil")
        assert question(s) == "roja_negra"
        events = play(s, A(answer))
        assert kinds(events)[-1] == ("hit" if answer == right else "miss"), answer


@pytest.mark.parametrize(
    ("card", "suit"),
    [("7H", "corazones"), ("7D", "diamantes"), ("7C", "treboles"), ("7S", "picas")],
)
def test_acierta_el_palo(card: str, suit: str) -> None:
    """«Acierta el palo: La última pregunta exige acertar el palo exacto: corazones,
    diamantes, tréboles o picas.»"""
    for answer in peaje.QUESTIONS["palo"]:
        s = pos(card, "6H 10C 9D", difficulty="facil")
        assert question(s) == "palo"
        events = play(s, A(answer))
        assert kinds(events)[-1] == ("end" if answer == suit else "miss"), answer


def test_an_answer_must_fit_the_question() -> None:
    """Solo valen las respuestas de la pregunta de la casilla: «roja» no responde a mayor o
    menor, ni «mayor» a acierta el palo."""
    refused(pos("10C"), A("roja"), "bad_answer")
    refused(pos("10C"), A("Mayor"), "bad_answer")
    refused(pos("7H", "6H 10C 9D"), A("mayor"), "bad_answer")
    refused(pos("7H", "6H 10C 9D"), A("tréboles"), "bad_answer")  # the code is "treboles"
    s = pos("10C")
    assert peaje.legal_moves(s, 0) == [A("mayor"), A("menor")]


# --- hits and the reference ------------------------------------------------------------


def test_a_hit_puts_the_card_on_the_position_and_advances() -> None:
    """«Un acierto hace avanzar.» RULES.md: «A hit puts the revealed card on the position
    just passed and advances.»"""
    s = pos("10C 3C", difficulty="media")
    events = play(s, A("mayor"))
    assert only(events, "hit") == [{"t": "hit", "pos": 1}]
    assert on_route(s) == "6H 10C" and s.routes[0].pos == 2
    assert deck(s) == "3C"
    assert s.phase == "answer" and question(s) == "redonda_picuda"


def test_the_reference_is_the_card_on_the_previous_position() -> None:
    """RULES.md: «The reference card of position k is the card standing on position k−1».
    Tras acertar con 10♣, la referencia pasa a ser el 10♣."""
    s = pos("10C 3C", difficulty="media")
    play(s, A("mayor"))
    assert peaje.view(s, 0)["reference"] == "10C"
    events = play(s, A("redonda"))
    assert only(events, "reveal")[0]["reference"] == "10C"


def test_mayor_o_menor_is_always_judged_against_the_initial_card() -> None:
    """RULES.md: «Mayor o menor (always position 1) is always judged against the initial
    card.» — al volver a la casilla 1 tras un fallo, la referencia es otra vez la inicial:
    un 8 es «mayor» que el 6♥ aunque sea menor que el 10♣ que estaba en la casilla 1."""
    s = pos("5D 8D", "6H 10C", difficulty="media")
    play(s, A("redonda"), CONFIRM_MISS)  # 5♦ es picuda: fallo, se vuelve a la casilla 1
    assert s.routes[0].pos == 1 and peaje.view(s, 0)["reference"] == "6H"
    events = play(s, A("mayor"))
    assert only(events, "reveal")[0]["reference"] == "6H"
    assert kinds(events)[-1] == "hit"


# --- misses ----------------------------------------------------------------------------


def test_a_miss_removes_the_card_counts_and_steps_back() -> None:
    """«Un fallo suma al marcador y hace retroceder hasta la posición anterior.» RULES.md:
    «the revealed card is removed, the miss counter goes up, and the player goes back one
    position (from k to k−1), removing the card that stood on k−1 (it must be earned
    again).»"""
    s = pos("4D 2H QS", "6H 10C 3C", tolls=1, difficulty="dificil")
    assert s.routes[0].pos == 3 and question(s) == "roja_negra"
    events = play(s, A("negra"))  # 4♦ es roja
    assert kinds(events) == ["reveal", "miss"] and s.routes[0].misses == 1
    play(s, CONFIRM_MISS, CONFIRM_TOLL)
    r = s.routes[0]
    assert on_route(s) == "6H 10C" and r.pos == 2 and question(s) == "redonda_picuda"
    assert Card.parse("4D") not in r.deck + r.cards and Card.parse("3C") not in r.deck + r.cards
    assert codes(r.revealed) == "10C 3C 4D"
    assert sorted(peaje.all_cards(s)[0]) == sorted(parse_cards("6H 10C 3C 4D 2H QS"))
    # the card of position 2 has to be earned again, against the 10♣
    events = play(s, A("redonda"))
    assert only(events, "reveal")[0]["reference"] == "10C"
    assert on_route(s) == "6H 10C 2H" and s.phase == "toll"


def test_a_miss_on_position_1_stays_there() -> None:
    """RULES.md: «A miss on position 1 stays on position 1, with the initial card as
    reference.»"""
    s = pos("3D 9S", difficulty="media")
    play(s, A("mayor"), CONFIRM_MISS)
    r = s.routes[0]
    assert r.pos == 1 and on_route(s) == "6H" and r.misses == 1
    assert question(s) == "mayor_menor" and peaje.view(s, 0)["reference"] == "6H"
    assert deck(s) == "9S" and codes(r.revealed) == "3D"


def test_cards_never_return_to_the_deck() -> None:
    """«Las cartas no se devuelven al mazo al fallar.» RULES.md: «Cards never return to the
    deck».  Ni la carta del fallo ni la de la casilla a la que se vuelve."""
    s = pos("2S 8C", "6H 10C", difficulty="media")
    play(s, A("redonda"), CONFIRM_MISS)  # 2♠ picuda: fallo; se quita el 10♣
    assert deck(s) == "8C"
    assert s.routes[0].misses == 1 and on_route(s) == "6H"


def test_a_miss_waits_for_confirmation() -> None:
    """RULES.md, un fallo paso a paso: «reveal → the miss is shown → confirm the miss».
    «Al aparecer un fallo, continúa con el control correspondiente.» Hasta confirmarlo la
    ruta no se mueve y solo se puede confirmar."""
    s = pos("2S", "6H 10C", difficulty="media")
    events = play(s, A("redonda"))
    assert kinds(events) == ["reveal", "miss"]
    assert only(events, "reveal")[0] | {"t": "x"} == {
        "t": "x", "player": 0, "question": "redonda_picuda", "reference": "10C", "card": "2S",
        "answer": "redonda", "right": ["picuda"], "pos": 2, "hit": False,
    }  # fmt: skip
    assert s.phase == "miss" and on_route(s) == "6H 10C"
    assert peaje.legal_moves(s, 0) == [CONFIRM_MISS]
    e = refused(s, A("redonda"), "wrong_step")
    assert e.params == {"step": "miss"} and "confirmar el fallo" in words(e)
    events = play(s, CONFIRM_MISS)
    assert kinds(events) == ["miss_confirmed", "back"]
    assert s.phase == "answer" and on_route(s) == "6H" and question(s) == "mayor_menor"


# --- tolls -----------------------------------------------------------------------------


def test_crossing_a_toll_forward_stops_the_game() -> None:
    """«Al atravesar un peaje en cualquier dirección debes cumplir la penalización segura
    que el grupo haya acordado.» RULES.md: «Crossing a PEAJE in either direction stops the
    game until the toll is confirmed as paid. Tolls use no cards.»"""
    s = pos("3C 9D", "6H 10C", difficulty="media")
    events = play(s, A("redonda"))
    assert kinds(events) == ["reveal", "hit", "toll"]
    assert s.phase == "toll" and s.toll == {"direction": "forward"}
    assert peaje.legal_moves(s, 0) == [CONFIRM_TOLL]
    e = refused(s, A("roja"), "wrong_step")
    assert e.params == {"step": "toll"} and "confirmar el peaje" in words(e)
    refused(s, CONFIRM_MISS, "wrong_step")
    left = deck(s)
    events = play(s, CONFIRM_TOLL)
    assert kinds(events) == ["toll_paid"] and events[0]["direction"] == "forward"
    assert deck(s) == left == "9D"  # a toll uses no cards
    assert s.routes[0].tolls == 1 and s.phase == "answer" and question(s) == "roja_negra"


def test_crossing_a_toll_back_stops_the_game_too() -> None:
    """«El peaje cuenta en ambas direcciones y no consume cartas.»"""
    s = pos("5C 9D", "6H 10C 3C", tolls=1, difficulty="media")
    play(s, A("roja"), CONFIRM_MISS)  # 5♣ es negra
    assert s.phase == "toll" and s.toll == {"direction": "back"}
    assert peaje.legal_moves(s, 0) == [CONFIRM_TOLL]
    refused(s, A("redonda"), "wrong_step")
    play(s, CONFIRM_TOLL)
    assert s.routes[0].tolls == 2 and deck(s) == "9D"
    assert s.phase == "answer" and question(s) == "redonda_picuda"


def test_a_miss_that_does_not_cross_a_toll_pays_nothing() -> None:
    """Solo se paga al cruzar: un fallo en la casilla 2 de media vuelve a la 1 sin peaje."""
    s = pos("9D 5D", "6H 10C", difficulty="media")
    events = play(s, A("redonda"), CONFIRM_MISS)
    assert "toll" not in kinds(events) and s.phase == "answer" and s.routes[0].tolls == 0


@pytest.mark.parametrize(
    ("difficulty", "cards", "crossing"),
    [
        ("facil", "6H 10C", True),  # 2 roja o negra → 1: cruza el peaje
        ("facil", "6H 10C 9D", False),  # 3 el palo → 2: no hay peaje entre 2 y 3
        ("media", "6H 10C 3C 9D", False),  # 4 → 3
        ("dificil", "6H 10C 3C 9D", True),  # 4 → 3: el segundo peaje
        ("dificil", "6H 10C 3C", True),  # 3 → 2: el primero
    ],
)
def test_going_back_pays_exactly_the_toll_it_crosses(
    difficulty: str, cards: str, crossing: bool
) -> None:
    """RULES.md: «if going back crosses a toll, confirm the toll → the earlier question is
    asked again.»"""
    s = pos("QC 2S", cards, difficulty=difficulty)
    wrong = {"roja_negra": "roja", "palo": "corazones"}[question(s)]  # 2♠: negra, picas
    events = play(s, A(wrong), CONFIRM_MISS)
    assert ("toll" in kinds(events)) is crossing
    if crossing:
        assert s.toll == {"direction": "back"}
        play(s, CONFIRM_TOLL)
    assert s.phase == "answer" and s.routes[0].pos == len(cards.split()) - 1


def test_the_toll_text_is_agreed_before_the_game() -> None:
    """RULES.md: «The toll's meaning is agreed and typed in before the game (free text, with
    safe suggestions: un punto, un vaso de agua, una pregunta, un reto breve); the app never
    suggests alcohol.»"""
    assert peaje.TOLL_SUGGESTIONS == ("un punto", "un vaso de agua", "una pregunta",
                                      "un reto breve")  # fmt: skip
    for text in peaje.TOLL_SUGGESTIONS:
        assert peaje.parse_config({"toll": text}).toll == text
    assert peaje.parse_config({"toll": "  contar un chiste  "}).toll == "contar un chiste"
    assert peaje.parse_config({}).toll == "un punto"
    for word in ("chupito", "alcohol", "cerveza", "beber", "trago"):
        assert word not in " ".join(peaje.TOLL_SUGGESTIONS)


# --- the end ---------------------------------------------------------------------------


def test_the_last_right_answer_wins() -> None:
    """«La partida acaba al acertar la última pregunta.» RULES.md: «Win: the last question
    answered right.»"""
    s = pos("KS", "6H 10C 3C 9D", difficulty="media")
    events = play(s, A("picas"))
    assert kinds(events) == ["reveal", "hit", "end"]
    assert s.routes[0].done and s.phase == "over"
    assert peaje.outcome(s) == {"winner": 0, "reason": "route", "misses": [0], "tolls": [0],
                                "used": [4]}  # fmt: skip
    assert peaje.actors(s) == [] and peaje.legal_moves(s, 0) == []


def test_revealing_from_an_empty_deck_ends_the_game() -> None:
    """«Si intentas revelar y no hay cartas, la partida termina sin completar la ruta.»
    RULES.md: «Loss: a reveal is asked for with an empty deck ("mazo agotado").»"""
    s = pos("", "6H 10C", difficulty="media")
    events = play(s, A("redonda"))
    assert kinds(events) == ["deck_empty", "end"]
    assert s.result is not None
    assert s.result["winner"] is None and s.result["reason"] == "deck"
    assert not s.routes[0].done and on_route(s) == "6H 10C"


def test_no_second_deck() -> None:
    """«No aparece una segunda baraja automáticamente.» — al agotarse el mazo no se baraja
    nada: la partida termina y no entra ninguna carta nueva."""
    s = pos("", "6H", removed="2C 3C")
    play(s, A("mayor"))
    assert s.phase == "over" and s.routes[0].deck == []
    assert sorted(peaje.all_cards(s)[0]) == sorted(parse_cards("6H 2C 3C"))
    refused(s, A("mayor"), "game_over")


def test_the_last_card_is_played_normally() -> None:
    """El mazo se acaba al pedir una carta que no hay, no al sacar la última: con una sola
    carta, se responde y se juega; la partida termina en la siguiente petición."""
    s = pos("9C", "6H")
    events = play(s, A("mayor"), CONFIRM_TOLL)
    assert kinds(events) == ["reveal", "hit", "toll", "toll_paid"] and s.result is None
    events = play(s, A("negra"))
    assert kinds(events) == ["deck_empty", "end"]


def test_cooperativo_loses_at_the_sixth_miss() -> None:
    """«La partida acaba […] al sexto fallo en cooperativo.» RULES.md: «Cooperative also
    loses at the sixth miss.»"""
    s = pos("3D 2C 2D", misses=4, variant="cooperativo", players=["Ana", "Bea"])
    play(s, A("mayor"))  # 3♦ < 6♥: quinto fallo
    play(s, CONFIRM_MISS)
    assert s.result is None and s.routes[0].misses == 5
    events = play(s, A("mayor"))  # 2♣: sexto fallo
    assert kinds(events) == ["reveal", "miss"] and s.routes[0].misses == 6
    events = play(s, CONFIRM_MISS)
    assert kinds(events) == ["miss_confirmed", "end"]
    assert s.result is not None
    assert s.result["winner"] is None and s.result["reason"] == "misses"


def test_the_view_counts_the_misses_the_group_has_left() -> None:
    """The page shows «Fallos que os quedan» from the view (it does not know the six)."""
    s = pos("3D 2C 2D", misses=4, variant="cooperativo", players=["Ana", "Bea"])
    assert peaje.view(s, 0)["misses_left"] == 2
    play(s, A("mayor"), CONFIRM_MISS)
    assert peaje.view(s, 0)["misses_left"] == 1
    play(s, A("mayor"), CONFIRM_MISS)
    assert peaje.view(s, None)["misses_left"] == 0
    assert peaje.view(pos("3D", misses=4), 0)["misses_left"] is None


@pytest.mark.parametrize("variant", ["solitario", "rapidos", "patata"])
def test_six_misses_only_lose_in_cooperativo(variant: str) -> None:
    """El límite de seis fallos es solo del cooperativo: en las demás variantes se puede
    fallar mientras aguante el mazo."""
    players = [""] if variant == "solitario" else ["", ""]
    s = group(route("2C 3C", misses=5), route("4C", misses=0), variant=variant, players=players)
    if variant != "rapidos":
        s.routes.pop()
    play(s, A("mayor"), CONFIRM_MISS)
    assert s.result is None and s.routes[0].misses == 6


# --- the variants ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "low", "high"),
    [("solitario", 1, 1), ("dos", 2, 2), ("rapidos", 2, 4), ("cooperativo", 2, 8),
     ("patata", 2, 12)],
)  # fmt: skip
def test_players_per_variant(variant: str, low: int, high: int) -> None:
    """RULES.md: solitario «one player»; dos jugadores: dos papeles; turnos rápidos «2 to 4
    players»; cooperativo «2 to 8 players»; La patata «2 to 12 participants»."""
    for n in (low, high):
        assert len(peaje.parse_config({"variant": variant, "players": n}).names) == n
    for n in (low - 1, high + 1, 0):
        with pytest.raises(IllegalMove) as info:
            peaje.parse_config({"variant": variant, "players": [""] * n})
        assert info.value.code == "bad_config"


def test_solitario_the_app_checks_each_answer() -> None:
    """«En solitario, la web comprueba la predicción.» — responder descubre la carta y la
    juzga a la vez; no hay que revelar ni marcar."""
    s = pos("10C")
    assert s.phase == "answer"
    refused(s, REVEAL, "wrong_step")
    refused(s, HIT, "wrong_step")
    events = play(s, A("mayor"))
    assert kinds(events) == ["reveal", "hit", "toll"]
    assert only(events, "reveal")[0]["hit"] is True


def test_dos_jugadores_reveal_then_mark() -> None:
    """«En dos jugadores con validación verbal, una persona responde antes de que la otra
    revele y marque acierto o fallo.» La respuesta se dice en voz alta: la app no la pide."""
    s = pos("10C 3C", variant="dos", players=["Ana", "Luis"], difficulty="media")
    assert s.phase == "reveal" and peaje.legal_moves(s, 0) == [REVEAL]
    refused(s, A("mayor"), "wrong_step")
    refused(s, HIT, "wrong_step")
    events = play(s, REVEAL)
    assert kinds(events) == ["reveal"]
    assert events[0]["card"] == "10C" and events[0]["answer"] is None
    assert events[0]["right"] == ["mayor"]  # the app may show what the card was
    assert s.phase == "mark" and peaje.legal_moves(s, 0) == [HIT, MISS]
    refused(s, REVEAL, "wrong_step")
    events = play(s, HIT)
    assert kinds(events) == ["mark", "hit"]
    assert on_route(s) == "6H 10C" and s.phase == "reveal"


def test_dos_jugadores_the_mark_counts_even_against_the_card() -> None:
    """RULES.md: «the other presses reveal and marks acierto or fallo, which the app records
    as given (the app may show what the card was, but the mark counts).»"""
    # a tie marked as a hit: the 6♦ goes on position 1
    s = pos("6D", variant="dos", players=["Ana", "Luis"], difficulty="media")
    play(s, REVEAL)
    assert s.last is not None and s.last["right"] == []
    play(s, HIT)
    assert on_route(s) == "6H 6D" and s.routes[0].misses == 0 and s.last["hit"] is True
    # a card that fits any answer marked as a miss: counts as a miss
    s = pos("10C", "6H 3C", variant="dos", players=["Ana", "Luis"], difficulty="facil")
    play(s, REVEAL)
    events = play(s, MISS)
    assert kinds(events) == ["mark", "miss"] and s.routes[0].misses == 1
    play(s, CONFIRM_MISS, CONFIRM_TOLL)
    assert on_route(s) == "6H" and s.phase == "reveal"


def test_dos_jugadores_last_mark_wins() -> None:
    """En dos jugadores también se gana al marcar como acertada la última pregunta."""
    s = pos("2H", "6H 10C 9D", variant="dos", players=["Ana", "Luis"])
    play(s, REVEAL, HIT)
    assert s.result is not None and s.result["reason"] == "route"


def rapid(*routes: dict[str, Any], current: int = 0, difficulty: str = "media") -> peaje.State:
    names = ["Ana", "Bea", "Carlos", "Dani"][: len(routes)]
    return group(*routes, current=current, variant="rapidos", players=names,
                 difficulty=difficulty)  # fmt: skip


def test_rapidos_each_player_has_an_own_deck() -> None:
    """«Turnos rápidos: Cada persona juega su propia partida, con sus cartas, posición,
    fallos y peajes.»"""
    s = peaje.new(peaje.parse_config({"variant": "rapidos", "players": 3}), seed=5)
    assert len(s.routes) == 3
    for cards in peaje.all_cards(s):
        assert sorted(cards) == sorted(full_deck())
    assert len({codes(r.deck) for r in s.routes}) == 3
    assert len({id(r.deck) for r in s.routes}) == 3


def test_rapidos_the_app_checks_and_a_hit_keeps_the_turn() -> None:
    """«La web verifica la respuesta al pulsar una opción. Mientras aciertas, sigues con tu
    ruta.» — también después de cruzar un peaje."""
    s = rapid(route("9D 3C 10C"), route("4S"))
    play(s, A("mayor"))
    assert s.current == 0 and s.phase == "answer"
    play(s, A("redonda"))
    assert s.current == 0 and s.phase == "toll"
    play(s, CONFIRM_TOLL)
    assert s.current == 0 and s.phase == "answer" and question(s) == "roja_negra"
    assert s.routes[0].tolls == 1 and s.routes[1].tolls == 0
    assert deck(s, 1) == "4S"


def test_rapidos_a_miss_saves_the_game_and_passes_the_turn() -> None:
    """«Al fallar, tu estado queda guardado —incluida la carta revelada— y el turno pasa a
    la otra persona. Cuando vuelva tu turno, retomarás exactamente esa partida.»"""
    s = rapid(route("2S QH", "6H 10C"), route("3H 2D 9H AC", "KD"))
    events = play(s, A("redonda"), CONFIRM_MISS)  # 2♠ es picuda
    assert only(events, "turn") == [{"t": "turn", "player": 1}]
    assert s.current == 1 and peaje.view(s, 0)["reference"] == "KD"
    saved = peaje.dump(s)["routes"][0]
    last = saved.pop("last")
    assert saved == {"deck": "Q♥", "cards": "6♥", "misses": 1, "tolls": 0,
                     "revealed": "10♣ 2♠", "out": False, "done": False}  # fmt: skip
    assert last["card"] == "2S" and last["hit"] is False  # the revealed card is kept too
    saved["last"] = last
    # Bea plays her own game: a hit keeps her turn, a miss sends it back
    play(s, A("menor"))  # 3♥ < K♦
    assert s.current == 1 and on_route(s, 1) == "KD 3H"
    play(s, A("redonda"))  # 2♦ picuda: fallo
    assert s.routes[1].misses == 1
    play(s, CONFIRM_MISS)
    assert s.current == 0
    assert peaje.dump(s)["routes"][0] == saved  # Ana's game, exactly as she left it
    assert question(s) == "mayor_menor" and peaje.view(s, 0)["reference"] == "6H"
    events = play(s, A("mayor"))
    assert only(events, "reveal")[0]["card"] == "QH"  # her own next card
    assert deck(s, 1) == "9H AC"  # Bea's deck untouched


def test_rapidos_a_miss_across_a_toll_pays_before_passing() -> None:
    """En turnos rápidos cada uno paga sus propios peajes: si el fallo cruza un peaje hacia
    atrás, quien ha fallado lo confirma y luego pasa el turno."""
    s = rapid(route("4C", "6H 10C 3C", tolls=1), route("9H"))
    events = play(s, A("roja"), CONFIRM_MISS)
    assert kinds(events)[-1] == "toll" and s.current == 0
    events = play(s, CONFIRM_TOLL)
    assert kinds(events) == ["toll_paid", "turn"] and s.current == 1
    assert s.routes[0].tolls == 2 and s.routes[1].tolls == 0


def test_rapidos_the_first_to_finish_wins() -> None:
    """RULES.md: «The first to finish the route wins».  Bea acaba su ruta: gana, aunque Ana
    iba por delante."""
    s = rapid(route("2C", "6H 10C 3C 9D"), route("KS", "6D 10H 3H 9C"), current=1)
    events = play(s, A("picas"))
    assert kinds(events)[-1] == "end"
    assert s.result is not None and s.result["winner"] == 1 and s.result["reason"] == "route"
    refused(s, A("picas"), "game_over")


def test_rapidos_a_player_whose_deck_runs_out_is_out() -> None:
    """RULES.md: «a player whose deck runs out is out» — y el turno ya no vuelve a él."""
    s = rapid(route("", "6H"), route("2S 3S 4S"), route("5S 7S", "10D"))
    events = play(s, A("mayor"))
    assert kinds(events) == ["deck_empty", "turn"]
    assert s.routes[0].out and s.result is None and s.current == 1
    play(s, A("mayor"), CONFIRM_MISS)  # 2♠ < 6♥: pasa a Carlos
    assert s.current == 2
    play(s, A("mayor"), CONFIRM_MISS)  # 5♠ < 10♦: Ana está fuera, vuelve Bea
    assert s.current == 1


def test_rapidos_all_out_nobody_wins() -> None:
    """RULES.md: «if all are out, nobody wins.»"""
    s = rapid(route("", "6H", out=True), route("", "6D"), current=1)
    events = play(s, A("mayor"))
    assert kinds(events) == ["deck_empty", "end"]
    assert s.result is not None
    assert s.result["winner"] is None and s.result["reason"] == "all_out"
    assert s.routes[1].out


def test_cooperativo_one_route_answering_in_turn() -> None:
    """RULES.md: «Cooperativo: 2 to 8 players share one route and one deck, answering in
    turn (one answer each)» — acierte o falle, el turno pasa."""
    s = peaje.new(peaje.parse_config({"variant": "cooperativo", "players": 8}), seed=1)
    assert len(s.routes) == 1
    s = pos("10C 3C 5D", variant="cooperativo", players=["Ana", "Bea", "Carlos"],
            difficulty="media")  # fmt: skip
    events = play(s, A("mayor"))
    assert only(events, "turn") == [{"t": "turn", "player": 1}]
    play(s, A("redonda"))  # Bea acierta y hay peaje: se paga, y luego le toca a Carlos
    assert s.phase == "toll" and s.current == 1
    play(s, CONFIRM_TOLL)
    assert s.current == 2 and question(s) == "roja_negra"
    play(s, A("negra"), CONFIRM_MISS, CONFIRM_TOLL)  # 5♦ roja: fallo de Carlos
    assert s.current == 0 and s.routes[0].misses == 1 and question(s) == "redonda_picuda"


def test_patata_answers_in_turn_by_number() -> None:
    """RULES.md: «La patata: 2 to 12 participants, numbered 1..N by the group; one shared
    route, answers in turn by number».  Tras el último número vuelve el 1."""
    s = pos("2C 3C 4C", variant="patata", players=3, difficulty="media")
    assert len(s.routes) == 1
    turns = []
    for _ in range(3):
        play(s, A("mayor"), CONFIRM_MISS)
        turns.append(s.current)
    assert turns == [1, 2, 0]


@pytest.mark.parametrize("n", [2, 5, 12])
@pytest.mark.parametrize("rng", [0, 1, 77, 2**63 + 5])
def test_patata_the_app_draws_who_pays(n: int, rng: int) -> None:
    """RULES.md: «when a toll is to be paid, the app draws the number of the participant who
    pays it.» — un número de 1 a N, sacado del generador de la partida (reproducible)."""
    s = group(route("10C"), rng=rng, variant="patata", players=n)
    events = play(s, A("mayor"))
    expected = Rng(rng).below(n) + 1
    assert only(events, "toll") == [{"t": "toll", "direction": "forward", "payer": expected}]
    assert s.toll == {"direction": "forward", "payer": expected}
    events = play(s, CONFIRM_TOLL)
    assert events[0]["payer"] == expected


def test_patata_draws_for_a_toll_crossed_back_too() -> None:
    """El peaje se sortea también al cruzarlo hacia atrás; con muchas partidas salen todos
    los números y ninguno fuera de 1..N."""
    payers = set()
    for rng in range(300):
        s = group(route("5C", "6H 10C", tolls=1), rng=rng, variant="patata", players=4)
        play(s, A("roja"), CONFIRM_MISS)
        assert s.toll is not None and s.toll["direction"] == "back"
        payers.add(s.toll["payer"])
    assert payers == {1, 2, 3, 4}


def test_no_payer_outside_la_patata() -> None:
    """Fuera de La patata no se sortea quién paga."""
    s = pos("10C", variant="cooperativo", players=3)
    play(s, A("mayor"))
    assert s.toll == {"direction": "forward"}


# --- the seed's three situations -------------------------------------------------------


def test_situation_1_a_hit() -> None:
    """«La referencia es 6♥. Dices mayor y sale 10♣: avanzas.»"""
    s = peaje.load({"deck": "6D 10C", "cards": ["6H"],
                    "config": {"variant": "solitario", "difficulty": "media"}})  # fmt: skip
    assert peaje.view(s, 0)["reference"] == "6H"
    events = play(s, A("mayor"))
    assert only(events, "reveal")[0]["card"] == "10C"
    assert kinds(events) == ["reveal", "hit"]
    assert s.routes[0].pos == 2 and on_route(s) == "6H 10C"


def test_situation_1_a_tie() -> None:
    """«Si hubiera salido 6♦, sería fallo, porque el palo no rompe el empate.»"""
    s = peaje.load({"deck": "6D", "cards": ["6H"],
                    "config": {"variant": "solitario", "difficulty": "media"}})  # fmt: skip
    events = play(s, A("mayor"))
    assert only(events, "reveal")[0]["card"] == "6D"
    assert kinds(events) == ["reveal", "miss"]


def test_situation_1_a_miss_on_the_first_position() -> None:
    """«Si fallas en la primera posición, continúas allí con la referencia inicial; la carta
    revelada se retira del mazo.»"""
    s = peaje.load({"deck": "10C 6D", "cards": ["6H"],
                    "config": {"variant": "solitario", "difficulty": "media"}})  # fmt: skip
    play(s, A("mayor"), CONFIRM_MISS)
    r = s.routes[0]
    assert r.pos == 1 and on_route(s) == "6H" and peaje.view(s, 0)["reference"] == "6H"
    assert Card.parse("6D") not in r.deck and deck(s) == "10C"
    events = play(s, A("mayor"))
    assert only(events, "reveal")[0]["card"] == "10C" and kinds(events)[-1] == "hit"


def test_situation_2_a_step_back_across_the_toll() -> None:
    """«En dificultad media, llegas a roja o negra tras confirmar el peaje central. Si
    fallas, confirmas el fallo, cruzas ese peaje hacia atrás y debes confirmarlo otra vez.
    Después vuelves a redonda o picuda. El peaje cuenta en ambas direcciones y no consume
    cartas.»"""
    s = pos("10C 3C JS 8D", difficulty="media")
    play(s, A("mayor"), A("redonda"))
    assert s.phase == "toll"
    play(s, CONFIRM_TOLL)  # el peaje central, hacia delante
    assert question(s) == "roja_negra" and s.routes[0].tolls == 1
    events = play(s, A("roja"))  # sale J♠: fallo
    assert kinds(events) == ["reveal", "miss"] and s.phase == "miss"
    events = play(s, CONFIRM_MISS)  # confirmas el fallo…
    assert kinds(events) == ["miss_confirmed", "back", "toll"]
    assert s.phase == "toll" and s.toll == {"direction": "back"}  # …cruzas el peaje hacia atrás
    events = play(s, CONFIRM_TOLL)  # …y lo confirmas otra vez
    assert kinds(events) == ["toll_paid"] and s.routes[0].tolls == 2
    assert s.phase == "answer" and question(s) == "redonda_picuda"  # vuelves a redonda o picuda
    assert on_route(s) == "6H 10C"
    assert deck(s) == "8D" and len(s.routes[0].revealed) == 3  # los peajes no gastan cartas


def test_situation_3_the_deck_runs_out() -> None:
    """«Las cartas no se devuelven al mazo al fallar. Repetir posiciones puede consumir las
    51 cartas que quedan después de la referencia inicial. Si intentas revelar y no hay
    cartas, la partida termina sin completar la ruta. No aparece una segunda baraja
    automáticamente.»"""
    s = peaje.new(peaje.parse_config({"difficulty": "dificil"}), seed=2024)
    r = s.routes[0]
    assert len(r.deck) == 51
    while r.deck:  # always the wrong answer (a tie is wrong for both)
        if s.phase == "answer":
            q, ref, nxt = question(s), r.cards[-1], r.deck[-1]
            wrong = [a for a in peaje.QUESTIONS[q] if a not in peaje.right(q, ref, nxt)]
            play(s, A(wrong[0]))
        else:
            play(s, peaje.legal_moves(s, 0)[0])
    while s.phase != "answer":
        play(s, peaje.legal_moves(s, 0)[0])
    assert r.misses == 51 and len(r.revealed) == 51
    events = play(s, peaje.legal_moves(s, 0)[0])
    assert kinds(events) == ["deck_empty", "end"]
    assert s.result is not None and s.result["reason"] == "deck" and s.result["used"] == [51]
    assert not r.done and r.deck == []
    assert sorted(peaje.all_cards(s)[0]) == sorted(full_deck())


# --- illegal moves ---------------------------------------------------------------------


def at_toll() -> peaje.State:
    s = pos("10C 9D")
    play(s, A("mayor"))
    return s


def at_miss() -> peaje.State:
    s = pos("2C 9D")
    play(s, A("mayor"))
    return s


def dos_at(phase: str) -> peaje.State:
    s = pos("9D 10C", variant="dos", players=2)
    if phase == "mark":
        play(s, REVEAL)
    return s


def over() -> peaje.State:
    s = pos("KS", "6H 10C 9D")
    play(s, A("picas"))
    return s


@pytest.mark.parametrize(
    ("make", "move", "code"),
    [
        (lambda: pos("10C"), REVEAL, "wrong_step"),
        (lambda: pos("10C"), HIT, "wrong_step"),
        (lambda: pos("10C"), CONFIRM_MISS, "wrong_step"),
        (lambda: pos("10C"), CONFIRM_TOLL, "wrong_step"),
        (lambda: pos("10C"), A("roja"), "bad_answer"),
        (lambda: pos("10C"), A(""), "bad_answer"),
        (at_toll, A("roja"), "wrong_step"),
        (at_toll, CONFIRM_MISS, "wrong_step"),
        (at_toll, REVEAL, "wrong_step"),
        (at_miss, A("mayor"), "wrong_step"),
        (at_miss, CONFIRM_TOLL, "wrong_step"),
        (at_miss, MISS, "wrong_step"),
        (lambda: dos_at("reveal"), A("mayor"), "wrong_step"),
        (lambda: dos_at("reveal"), MISS, "wrong_step"),
        (lambda: dos_at("mark"), REVEAL, "wrong_step"),
        (lambda: dos_at("mark"), A("mayor"), "wrong_step"),
        (over, A("picas"), "game_over"),
        (over, REVEAL, "game_over"),
        (over, CONFIRM_TOLL, "game_over"),
    ],
)
def test_illegal_moves_change_nothing(make: Any, move: peaje.Move, code: str) -> None:
    """Un paso que no toca, una respuesta que no es de esta pregunta o una jugada con la
    partida acabada se rechazan con un código estable y no cambian nada."""
    s = make()
    e = refused(s, move, code)
    assert str(e)  # a sentence for players
    assert move not in peaje.legal_moves(s, 0)


def test_only_seat_0_plays() -> None:
    """Se juega en un solo dispositivo: el único asiento es el 0."""
    s = pos("10C", variant="cooperativo", players=3)
    refused(s, A("mayor"), "not_your_turn", seat=1)
    assert peaje.legal_moves(s, 1) == [] and peaje.actors(s) == [0]


def test_wrong_step_names_the_step() -> None:
    """El mensaje dice qué toca hacer. La regla da un código (el paso que toca); el
    catálogo lo dice en el idioma de quien juega."""
    at_reveal = refused(dos_at("reveal"), A("mayor"), "wrong_step")
    at_mark = refused(dos_at("mark"), REVEAL, "wrong_step")
    assert at_reveal.params == {"step": "reveal"} and at_mark.params == {"step": "mark"}
    assert "revelar la carta" in words(at_reveal)
    assert "marcar acierto o fallo" in words(at_mark)
    assert words(at_reveal, "en") == "Not now: first you need to reveal the card."
    assert "right or wrong" in words(at_mark, "en")


def test_a_bad_option_is_named_in_the_players_language() -> None:
    with pytest.raises(IllegalMove) as info:
        peaje.parse_config({"toll": ""})
    assert info.value.params == {"field": "toll"}
    assert words(info.value) == "Opción no válida: El peaje."
    assert words(info.value, "en") == "Invalid option: The toll."


# --- options and moves as data ---------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        {"difficulty": "extrema"},
        {"difficulty": "fácil"},
        {"variant": "duelo"},
        {"toll": ""},
        {"toll": "   "},
        {"toll": 3},
        {"toll": "x" * 81},
        {"style": "neón"},
        {"players": "Ana"},
        {"players": [1, 2]},
        {"players": True},
        {"jugadores": 2},
        {"variant": "dos", "players": 3},
        {"variant": "rapidos", "players": 5},
        {"variant": "cooperativo", "players": 9},
        {"variant": "patata", "players": 13},
        {"variant": "patata", "players": 1},
        {"variant": "solitario", "players": 2},
    ],
)
def test_parse_config_refusals(data: dict[str, Any]) -> None:
    """Opciones que no existen o que no encajan con la variante: se rechazan con
    ``bad_config`` y un motivo."""
    with pytest.raises(IllegalMove) as info:
        peaje.parse_config(data)
    assert info.value.code == "bad_config" and str(info.value)


def test_parse_config_defaults_and_round_trip() -> None:
    """RULES.md, opciones: «Players (names optional), variant, difficulty, card style (at
    least: clásico, cuatro colores, alto contraste), the toll's meaning.»"""
    c = peaje.parse_config({})
    assert (c.variant, c.difficulty, c.players, c.toll, c.style) == (
        "solitario", "facil", ("",), "un punto", "clasico")  # fmt: skip
    assert set(peaje.STYLES) >= {"clasico", "cuatro_colores", "alto_contraste"}
    data = {"variant": "patata", "difficulty": "dificil", "players": ["Ana", "", "Luis"],
            "toll": "una pregunta", "style": "alto_contraste", "phones": 0}  # fmt: skip
    assert peaje.config_json(peaje.parse_config(data)) == data


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({}, "bad_move"),
        ({"type": 3}, "bad_move"),
        ({"type": "answer"}, "bad_move"),
        ({"type": "answer", "choice": 1}, "bad_move"),
        ({"type": "answer", "choice": "mayor", "x": 1}, "bad_move"),
        ({"type": "mark"}, "bad_move"),
        ({"type": "mark", "hit": "yes"}, "bad_move"),
        ({"type": "reveal", "card": "AS"}, "bad_move"),
        ({"type": "confirm_toll", "paid": True}, "bad_move"),
        ({"type": "draw"}, "unknown_move"),
    ],
)
def test_parse_move_refusals(data: dict[str, Any], code: str) -> None:
    """Un mensaje mal formado se rechaza con un error claro."""
    with pytest.raises(IllegalMove) as info:
        peaje.parse_move(data)
    assert info.value.code == code


def test_moves_round_trip() -> None:
    """Una jugada es un dato: su JSON se lee y da la misma jugada."""
    moves: list[peaje.Move] = [A("mayor"), A("treboles"), REVEAL, HIT, MISS, CONFIRM_MISS,
                               CONFIRM_TOLL]  # fmt: skip
    for m in moves:
        assert peaje.parse_move(json.loads(json.dumps(m.to_json()))) == m
    assert [str(m) for m in moves] == ["answer/mayor", "answer/treboles", "reveal", "mark/hit",
                                       "mark/miss", "confirm_miss", "confirm_toll"]  # fmt: skip


def test_dump_load_round_trip() -> None:
    """Una posición guardada se carga igual y sigue igual (también el sorteo de La
    patata)."""
    s = peaje.new(peaje.parse_config({"variant": "patata", "players": 5,
                                      "difficulty": "dificil"}), seed=9)  # fmt: skip
    play(s, peaje.legal_moves(s, 0)[0])
    data = copy.deepcopy(peaje.dump(s))
    t = peaje.load(json.loads(json.dumps(data)))
    assert peaje.dump(t) == data
    for _ in range(40):
        if s.result is not None:
            break
        m = peaje.legal_moves(s, 0)[0]
        assert play(s, m) == play(t, m)
    assert peaje.dump(s) == peaje.dump(t)


def test_load_refuses_what_is_not_a_position() -> None:
    """A position that does not read is refused with a code and the field, not a crash."""
    cases: list[tuple[dict[str, Any], str]] = [
        ({"routes": [{"cards": "6X"}]}, "routes[0].cards"),
        ({"deck": "10C", "cards": ["6H"], "phase": "dance"}, "phase"),
        ({"routes": [{"deck": "10C"}]}, "routes[0]"),  # its cards are missing
        ({"deck": "10C", "cards": ["6H"], "rng": "x"}, "rng"),
    ]
    for data, where in cases:
        with pytest.raises(IllegalMove) as info:
            peaje.load(data)
        assert info.value.code == "bad_position"
        assert where in str(info.value.params["field"]), (data, info.value.params)


def test_a_loaded_reveal_is_one_reveal() -> None:
    """In play the route's last reveal and the table's are the same thing; a position
    loaded in the middle of a mark keeps it so: the mark shows on both."""
    s = pos("9D 10C", variant="dos", players=2)
    play(s, REVEAL)
    t = peaje.load(json.loads(json.dumps(peaje.dump(s))))
    play(s, HIT)
    play(t, HIT)
    assert peaje.dump(t) == peaje.dump(s)
    assert t.routes[0].last is not None and t.routes[0].last["hit"] is True


def test_the_view_says_which_route_is_in_play() -> None:
    s = group(route("9D"), route("2C", "KS"), current=1, variant="rapidos", players=2)
    assert peaje.view(s, 0)["playing"] == 1
    assert peaje.view(s, 0)["reference"] == "KS"
    c = pos("10C", variant="cooperativo", players=3)
    c.current = 2
    assert peaje.view(c, 0)["playing"] == 0


# --- the odds --------------------------------------------------------------------------


def fractions(o: dict[str, Any]) -> dict[str, Fraction]:
    return {a: Fraction(v["fraction"]) for a, v in o.items()}


def test_odds_reference_6_at_the_start() -> None:
    """RULES.md, ayuda: «An optional odds panel shows, from the cards not yet seen, how many
    cards would be higher, lower or equal to the reference, and the chances».  Con un 6 al
    empezar: 32 mayores, 16 menores y 3 iguales, de 51."""
    o = odds_of("6H")
    assert {a: (v["count"], v["total"]) for a, v in o.items()} == {
        "mayor": (32, 51), "menor": (16, 51), "tie": (3, 51)}  # fmt: skip
    assert fractions(o) == {"mayor": Fraction(32, 51), "menor": Fraction(16, 51),
                            "tie": Fraction(1, 17)}  # fmt: skip
    assert [o[a]["fraction"] for a in ("mayor", "menor", "tie")] == ["32/51", "16/51", "1/17"]
    assert [o[a]["percent"] for a in ("mayor", "menor", "tie")] == [62.7, 31.4, 5.9]
    assert sum(fractions(o).values()) == 1


def test_odds_count_only_unseen_cards() -> None:
    """Las cartas ya vistas no cuentan: con 10♣ K♦ 8♠ 3♥ fuera, quedan 29 mayores, 15
    menores y 3 iguales de 47."""
    o = odds_of("6H", seen="10C KD 8S 3H")
    assert [(o[a]["count"], o[a]["total"]) for a in ("mayor", "menor", "tie")] == [
        (29, 47), (15, 47), (3, 47)]  # fmt: skip
    assert sum(fractions(o).values()) == 1


def test_odds_cards_on_the_route_are_seen() -> None:
    """Las cartas que están en la ruta están a la vista: no pueden salir. Con 6♥ y 10♣ en la
    ruta (referencia 10♣) quedan 50: 16 mayores, 31 menores, 3 dieces."""
    o = odds_of("6H 10C")
    assert [(o[a]["count"], o[a]["total"]) for a in ("mayor", "menor", "tie")] == [
        (16, 50), (31, 50), (3, 50)]  # fmt: skip
    # the same, however the position was written (no ``revealed`` given)
    bare = peaje.Route(deck=[], cards=parse_cards("6H 10C"))
    assert peaje.odds(bare, "mayor_menor") == o


@pytest.mark.parametrize(
    ("reference", "mayor", "menor"), [("AS", 0, 48), ("2D", 48, 0), ("8C", 24, 24)]
)
def test_odds_extreme_references(reference: str, mayor: int, menor: int) -> None:
    """Con un as casi todo es menor; con un 2 casi todo es mayor; con un 8, mitad y
    mitad."""
    o = odds_of(reference)
    assert (o["mayor"]["count"], o["menor"]["count"], o["tie"]["count"]) == (mayor, menor, 3)
    assert sum(fractions(o).values()) == 1


@pytest.mark.parametrize(
    ("q", "counts"),
    [
        ("redonda_picuda", {"redonda": 25, "picuda": 26}),
        ("roja_negra", {"roja": 25, "negra": 26}),
        ("palo", {"corazones": 12, "diamantes": 13, "treboles": 13, "picas": 13}),
    ],
)
def test_odds_for_the_other_questions(q: str, counts: dict[str, int]) -> None:
    """RULES.md: «likewise suit/colour counts for the other questions.» Con el 6♥ a la
    vista, queda un corazón (y una roja, y una redonda) menos."""
    o = odds_of("6H", q)
    assert {a: v["count"] for a, v in o.items()} == counts
    assert "tie" not in o
    assert sum(fractions(o).values()) == 1
    assert all(v["total"] == 51 for v in o.values())


def test_odds_in_the_view_come_from_unseen_cards() -> None:
    """El panel de la vista calcula con las cartas no vistas, no con el orden del mazo: dos
    mazos con las mismas cartas en otro orden dan el mismo panel."""
    a = pos("10C 3D KS", difficulty="media")
    b = pos("KS 3D 10C", difficulty="media")
    va, vb = peaje.view(a, 0), peaje.view(b, 0)
    assert va["odds"] == vb["odds"] == odds_of("6H")
    assert va == vb


def test_the_view_hides_the_deck_order() -> None:
    """«No mirar»: la vista no enseña la siguiente carta ni el orden del mazo."""
    s = pos("10C 3D KS 9H", difficulty="media")
    text = json.dumps(peaje.view(s, 0))
    for code in ("10C", "3D", "KS", "9H"):
        assert f'"{code}"' not in text
    assert peaje.view(s, 0)["routes"][0]["left"] == 4


def test_the_setup_form_fills_a_blank_toll_in_the_pages_language() -> None:
    """A toll left blank is the first suggestion, in the words the page offered it in
    (``toll_default``); «un punto» if the form says nothing."""
    from starlette.datastructures import FormData

    english = FormData([("toll", "  "), ("toll_default", "a point"), ("count", "1")])
    assert peaje.parse_config(peaje.read_form(english)).toll == "a point"
    assert peaje.parse_config(peaje.read_form(FormData([("toll", "")]))).toll == "un punto"
    typed = FormData([("toll", " un chiste "), ("toll_default", "a point")])
    assert peaje.parse_config(peaje.read_form(typed)).toll == "un chiste"
    names = FormData([("variant", "dos"), ("count", "2"), ("player", "Ana")])
    assert peaje.parse_config(peaje.read_form(names)).players == ("Ana", "")
