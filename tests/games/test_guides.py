"""The guided first games (``GameSpec.guided``): what the table says at each step, from
explicit positions, in both languages; and each game's scripted deal, which loads and starts
at its first lesson."""

from __future__ import annotations

from typing import Any

import pytest

from tapete.games.protocol import GameSpec
from tapete.registry import REGISTRY
from tapete.rooms.guide import words

GUIDED = [k for k, e in REGISTRY.items() if e.game.guided is not None]


def spec(kind: str) -> GameSpec[Any, Any, Any]:
    found = REGISTRY[kind].game
    assert found.guided is not None
    return found


def says(kind: str, position: dict[str, Any], lang: str = "es", seat: int = 0) -> str:
    return said(kind, spec(kind).rules.load(position), lang, seat)


def said(kind: str, state: Any, lang: str = "es", seat: int = 0) -> str:
    game = spec(kind)
    assert game.guided is not None
    found = words(game, game.guided.step(state, seat), lang)
    assert found is not None
    return str(found["text"])


@pytest.mark.parametrize("kind", GUIDED)
def test_each_guided_deal_loads_and_starts_at_its_first_lesson(kind: str) -> None:
    game = spec(kind)
    assert game.guided is not None
    state = game.rules.load(game.guided.position)
    assert 0 in game.rules.actors(state)  # (the player starts)
    for lang in ("es", "en"):
        said = words(game, game.guided.step(state, 0), lang)
        assert said is not None and "{" not in said["text"], said
    level = game.guided.level
    bots = REGISTRY[kind].bots
    assert level is None or (bots is not None and bots.level(level) is not None)


def test_every_game_with_bots_has_a_guided_first_game() -> None:
    assert {k for k, e in REGISTRY.items() if e.bots is not None} <= set(GUIDED)


# One Card


def onecard(hands: list[str], discard: str, **more: Any) -> dict[str, Any]:
    return {"game": "onecard", "hands": hands, "discard": discard, "stock": "2C 3C 4C", **more}


def test_one_card_what_fits_on_the_top_card() -> None:
    assert says("onecard", onecard(["9H 5H KS", "8C 2D QH"], "5C")) == (
        "Sobre el cinco de tréboles puedes echar una carta de tréboles o un cinco: son las "
        "resaltadas. Toca una."
    )
    assert says("onecard", onecard(["9H 5H KS", "8C 2D QH"], "5C"), "en") == (
        "On the five of clubs you can play a card of clubs or a five: they are the highlighted "
        "ones. Tap one."
    )


def test_one_card_a_seven_that_fits_chooses_the_suit() -> None:
    assert "Tu 7 sirve" in says("onecard", onecard(["7C 5H KS", "8C 2D QH"], "5C"))
    # a 7 that does not fit is no lesson about the 7 (RULES.md: it must match too)
    assert "Tu 7" not in says("onecard", onecard(["7D 5H KS", "8C 2D QH"], "5C"))


def test_one_card_after_a_seven_the_suit_asked_for() -> None:
    position = onecard(["9H 5S KS", "8C 2D QH"], "7C", suit="H")
    assert says("onecard", position) == (
        "Con un 7 han pedido corazones: echa una carta de corazones u otro 7."
    )


def test_one_card_nothing_fits_draw() -> None:
    assert says("onecard", onecard(["9H 4H KS", "8C 2D QH"], "5C")) == (
        "Ninguna de tus cartas sirve sobre el cinco de tréboles: pulsa «Robar»."
    )


def test_one_card_an_attack() -> None:
    position = onecard(["9H KH 5S", "8C 2D QH"], "KC", attack=2)
    assert says("onecard", position).startswith("Te atacan con +2:")


def test_one_card_two_cards_call_first() -> None:
    assert says("onecard", onecard(["9C 4H", "8C 2D QH"], "5C")).startswith(
        "Te quedan dos cartas: pulsa «¡One Card!»"
    )
    # called already: what fits
    called = onecard(["9C 4H", "8C 2D QH"], "5C", called=[True, False])
    assert says("onecard", called).startswith("Sobre el cinco de tréboles")


def test_one_card_one_card_left_without_calling() -> None:
    position = onecard(["9C", "8C 2D QH"], "5C", turn=1, exposed=[0])
    assert says("onecard", position).startswith("¡Te has quedado con una carta sin cantar!")


def test_one_card_the_others_turn_and_the_end() -> None:
    assert says("onecard", onecard(["9C 4H 3S", "8C 2D QH"], "5C", turn=1)).startswith(
        "Ahora juega el otro."
    )
    won = onecard(["", "8C 2D QH"], "5C", result={"winner": 0})
    assert says("onecard", won).startswith("¡Has ganado!")
    lost = onecard(["9C", ""], "5C", result={"winner": 1})
    assert says("onecard", lost).startswith("Esta vez gana el otro.")


# La guerra


def guerra(piles: list[str], **more: Any) -> dict[str, Any]:
    return {"game": "guerra", "config": {"down": 1}, "piles": piles, **more}


def test_la_guerra_the_first_duel() -> None:
    assert says("guerra", guerra(["KH 4D", "5C 9H"])).startswith("Pulsa «Dar la vuelta»")
    assert says("guerra", guerra(["KH 4D", "5C 9H"]), "en").startswith("Press “Turn over”")


def test_la_guerra_after_a_duel_won_and_one_lost() -> None:
    last = {"n": 1, "steps": [], "values": [], "why": "higher"}
    won = guerra(["4D KH 5C", "9H"], duels=1, last={**last, "winner": 0, "cards": 2})
    assert says("guerra", won) == (
        "Te llevas 2 cartas: van al fondo de tu montón. Dale la vuelta a la siguiente."
    )
    lost = guerra(["4D", "9H KH 5C"], duels=1, last={**last, "winner": 1, "cards": 2})
    assert says("guerra", lost).startswith("Esta se la lleva el otro.")


def test_la_guerra_a_war() -> None:
    from tapete.games.guerra import Turn, apply, load

    state = load(guerra(["8S 2C QH", "8D 3S 6D"]))
    apply(state, 0, Turn())
    apply(state, 1, Turn())  # the two 8s: a war
    assert said("guerra", state).startswith("¡Empate! Es la guerra")


def test_la_guerra_waiting_for_the_other_and_the_end() -> None:
    from tapete.games.guerra import Turn, apply, load

    state = load(guerra(["KH 4D", "5C 9H"]))
    apply(state, 0, Turn())  # (the other has not turned yet)
    assert said("guerra", state) == "Ahora da la vuelta el otro."
    won = guerra(["KH 4D 5C 9H", ""], result={"winner": 0, "reason": "all_cards"})
    assert says("guerra", won).startswith("¡Has ganado")


# Rummy


def rummy(racks: list[str], **more: Any) -> dict[str, Any]:
    return {"game": "rummy", "racks": racks, "pool": "1A 2A 3A 4A", **more}


def test_rummy_a_first_meld_from_the_rack() -> None:
    position = rummy(["10R 11R 12R 4A 2N", "3R 3A 5N"])
    assert says("rummy", position).endswith(
        "Con 10 rojo, 11 rojo, 12 rojo sumas 33: ponlas en «Nueva combinación» y pulsa "
        "«Terminar turno»."
    )


def test_rummy_a_first_meld_of_several_sets() -> None:
    position = rummy(["7R 8R 9R 5A 5N 5O 2N", "3R 3A 5N"])  # 24 + 15
    assert says("rummy", position) == (
        "Tu primera bajada tiene que sumar 30 puntos o más: con las escaleras y grupos de tu "
        "atril llegas a 39. Ponlos en la mesa y pulsa «Terminar turno»."
    )


def test_rummy_no_first_meld_yet_draw() -> None:
    position = rummy(["1R 2R 3R 4A 9N", "3R 3A 5N"])  # a run of 6 points
    assert says("rummy", position).endswith("pulsa «Robar».")
    assert says("rummy", position).startswith("Aún no llegas a 30 puntos")


def test_rummy_melded_the_others_turn_and_the_end() -> None:
    melded = rummy(["4A 9N", "3R 3A 5N"], melded=[True, False])
    assert says("rummy", melded).startswith("Ya has bajado")
    assert says("rummy", rummy(["4A 9N", "3R 3A 5N"], turn=1)).startswith("Ahora juega el otro")


def test_rummy_meld_finder() -> None:
    from tapete.games.rummy.guide import meld
    from tapete.tiles import text, tiles

    assert [[text(t) for t in s] for s in meld(tiles("10R 11R 12R 13R 4A"))] == [
        ["10R", "11R", "12R", "13R"]
    ]
    assert meld(tiles("1R 2R 3R 5A")) == []  # 6 points: no first meld
    found = meld(tiles("9R 9A 9N 9O 1R 2R 3R 5A"))  # the most points first, each tile once
    assert [[text(t) for t in s] for s in found] == [["9R", "9A", "9N", "9O"], ["1R", "2R", "3R"]]


# El Peaje


def peaje(cards: list[str], deck: str = "", **more: Any) -> dict[str, Any]:
    config = {"variant": "solitario", "difficulty": "facil"}
    return {"game": "peaje", "config": config, "deck": deck, "cards": cards, **more}


def test_el_peaje_higher_or_lower_counted() -> None:
    assert says("peaje", peaje(["4H"], "9S")) == (
        "¿La siguiente carta será mayor o menor que el cuatro de corazones? De las 51 que "
        "quedan, 40 son mayores y 8 menores (3 iguales, que cuentan como fallo): elige la que "
        "tenga más."
    )
    assert says("peaje", peaje(["4H"], "9S"), "en").startswith(
        "Will the next card be higher or lower than the four of hearts?"
    )


def test_el_peaje_red_or_black_and_the_suit_counted() -> None:
    # facil: mayor_menor, PEAJE, roja_negra, palo — on position 2 the colour is asked
    position = peaje(["4H", "9S"], "KD", revealed="9S")
    assert says("peaje", position) == (
        "¿Roja o negra? Quedan 25 rojas (♥ ♦) y 25 negras (♣ ♠): elige la que tenga más."
    )
    suit = peaje(["4H", "9S", "KD"], "2C", revealed="9S KD")
    assert says("peaje", suit).startswith(
        "¿De qué palo? Quedan 12 de corazones, 12 de diamantes, 13 de tréboles y 12 de picas"
    )


def test_el_peaje_a_toll_a_miss_and_the_end() -> None:
    toll = peaje(["4H", "9S"], "KD", phase="toll", toll={"direction": "forward"})
    assert says("peaje", toll).startswith("¡Un peaje!")
    miss = peaje(["4H", "9S"], "KD", phase="miss")
    assert says("peaje", miss).startswith("Fallo: retrocedes una posición")
    done = {
        "game": "peaje",
        "config": {"variant": "solitario", "difficulty": "facil"},
        "routes": [{"cards": "4H 9S KD 2C 5C", "misses": 1, "done": True}],
        "phase": "over",
        "result": {"winner": 0, "reason": "route"},
    }
    assert says("peaje", done) == (
        "¡Has llegado al final de la ruta! Fallos: 1. Ya sabes jugar a El Peaje: prueba en grupo."
    )


def test_the_positions_doc_lists_each_guided_deal() -> None:
    import json
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "positions.md").read_text()
    found = dict(re.findall(r"```json guided:(\w+)\n(.*?)\n```", doc, flags=re.S))
    assert set(found) == set(GUIDED)
    for kind in GUIDED:
        guided = spec(kind).guided
        assert guided is not None
        assert json.loads(found[kind]) == guided.position, kind
