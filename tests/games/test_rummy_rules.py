"""Rummy de fichas: one test per rule sentence of the seed (``seeds/001_…``) and of RULES.md.

Every test starts from an explicit position (``rummy.load``). Tiles are written by face:
``"10R"`` rojo, ``"7A"`` azul, ``"3N"`` negro, ``"13O"`` naranja, jokers ``"J1"``/``"J2"``.
In a position the pool's next tile drawn is its LAST code: ``"pool": "5N 6N"`` gives the 6
negro first. A play is the whole table as it should stand after the turn, each set in the
order laid down. RULES.md is written in English; its sentences are quoted here in Spanish,
marked «RULES.md».
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

import pytest

from tapete.games import rummy
from tapete.games.protocol import Event, IllegalMove
from tapete.games.rummy import Draw, Next, Pass, Play, Timeout
from tapete.i18n import translations
from tapete.rng import Rng
from tapete.tiles import JOKERS, fmt, full_set, points, text, tile, tiles

# --- helpers ---------------------------------------------------------------------------


def pos(
    *racks: str,
    table: tuple[str, ...] | list[str] = (),
    pool: str = "",
    melded: list[bool] | None = None,
    turn: int = 0,
    hands: int = 1,
    **fields: Any,
) -> rummy.State:
    """A position: racks and table sets as text; the pool's next tile is its LAST code.
    Nobody has melded unless ``melded`` says so."""
    data: dict[str, Any] = {
        "racks": list(racks), "table": list(table), "pool": pool, "turn": turn,
        "melded": melded if melded is not None else [False] * len(racks),
        "config": {"hands": hands}, **fields,
    }  # fmt: skip
    return rummy.load(data)


def lay(*sets: str) -> Play:
    """``lay("4R 5R 6R", "7R 7A 7N")``: the whole table after the turn."""
    return Play(tuple(tuple(tiles(s)) for s in sets))


def play(state: rummy.State, seat: int, *sets: str) -> list[Event]:
    return rummy.apply(state, seat, lay(*sets))


def refused(state: rummy.State, seat: int, move: Any, code: str) -> IllegalMove:
    """``move`` raises IllegalMove with ``code`` and leaves the position exactly as it was."""
    before = copy.deepcopy(rummy.dump(state))
    with pytest.raises(IllegalMove) as info:
        rummy.apply(state, seat, move)
    assert info.value.code == code
    assert not str(info.value).startswith("error."), "a message a player understands"
    assert rummy.dump(state) == before
    return info.value


def racks(state: rummy.State) -> list[str]:
    return [fmt(sorted(r)) for r in state.racks]


def table(state: rummy.State) -> list[str]:
    return [fmt(list(s)) for s in state.table]


def info(text: str) -> rummy.SetInfo:
    return rummy.analyze(tiles(text))


es = translations("es", "rummy").gettext


def why(i: rummy.SetInfo, lang: str = "es") -> str:
    """Why a set is not valid, in the player's words (as a refusal of it says)."""
    return rummy.SPEC.describe(IllegalMove("invalid_set", reason=rummy.reason(i)), lang)


def name(t: int, lang: str = "es") -> str:
    """A tile's name: «7 azul», "blue 7"."""
    return rummy.names.tile_name(text(t), translations(lang, "rummy").gettext)


def faces(*codes: str) -> frozenset[tuple[int, int]]:
    """``faces("5N", "5O")``: what a joker may stand for, as (colour, number) pairs."""
    return frozenset((tile(c) // 13, tile(c) % 13 + 1) for c in codes)


def kinds(events: list[Event]) -> list[str]:
    return [e["t"] for e in events]


def next_hand(state: rummy.State) -> list[Event]:
    """Every seat has seen the end of the hand (``next``, in seat order)."""
    events: list[Event] = []
    for seat in list(rummy.actors(state)):
        events += rummy.apply(state, seat, Next())
    return events


def pass_round(state: rummy.State) -> list[Event]:
    """Every seat passes once, from the seat to play."""
    events: list[Event] = []
    for _ in range(len(state.racks)):
        events += rummy.apply(state, state.turn, Pass())
    return events


# --- tiles and the deal ----------------------------------------------------------------


def test_106_tiles_four_colours_two_of_each_and_two_jokers() -> None:
    """RULES.md: «106 fichas: números del 1 al 13 en cuatro colores (rojo, azul, negro,
    naranja), dos de cada, más 2 comodines.»"""
    bag = full_set()
    assert len(bag) == 106
    count = Counter(bag)
    assert all(count[t] == 2 for t in range(52))
    assert count[JOKERS[0]] == count[JOKERS[1]] == 1
    assert {name(t).split()[1] for t in range(52)} == {"rojo", "azul", "negro", "naranja"}
    assert sorted({t % 13 + 1 for t in range(52)}) == list(range(1, 14))


def test_tile_codes() -> None:
    """Las fichas se escriben por su cara: número e inicial del color; J1/J2 los comodines."""
    assert fmt(tiles("10R 7A 3N 13O J1 J2")) == "10R 7A 3N 13O J1 J2"
    assert fmt(tiles("10r, 1a jk2")) == "10R 1A J2"
    assert name(tile("7A")) == "7 azul" and name(tile("J1")) == "comodín"
    assert name(tile("7A"), "en") == "blue 7" and name(tile("J1"), "en") == "joker"
    for bad in ("14R", "0A", "7X", "R", "J3", ""):
        with pytest.raises(ValueError):
            tile(bad)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_new_deals_14_each_and_the_rest_is_the_pool(players: int) -> None:
    """RULES.md: «Cada jugador roba 14. El resto es el pozo.»"""
    config = rummy.parse_config({"players": players})
    for seed in range(20):
        s = rummy.new(config, seed)
        assert [len(r) for r in s.racks] == [14] * players
        assert len(s.pool) == 106 - 14 * players
        assert s.table == [] and s.melded == [False] * players
        assert Counter(rummy.all_tiles(s)) == Counter(full_set())
        assert s.hand == 1 and s.scores == [0] * players and s.result is None


def test_new_replays_from_its_seed() -> None:
    """DESIGN.md: «Con (opciones, semilla, jugadas) una partida se reproduce exactamente.»"""
    config = rummy.parse_config({"players": 3, "hands": 3})
    assert rummy.dump(rummy.new(config, 42)) == rummy.dump(rummy.new(config, 42))
    assert rummy.dump(rummy.new(config, 42))["racks"] != rummy.dump(rummy.new(config, 43))["racks"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_first_hand_starter_is_drawn_from_the_seed(players: int) -> None:
    """«En la primera mano se sortea quién empieza.»"""
    config = rummy.parse_config({"players": players, "hands": 5})
    starters = set()
    for seed in range(60):
        s = rummy.new(config, seed)
        assert s.starter == Rng.from_seed(seed).below(players)
        assert s.turn == s.starter and rummy.actors(s) == [s.starter]
        starters.add(s.starter)
    assert starters == set(range(players))


# --- sets: groups ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"), [("7R 7A 7N", 21), ("7N 7R 7A 7O", 28), ("1O 1R 1A", 3)]
)
def test_group_of_3_or_4_same_number_different_colours(text: str, value: int) -> None:
    """«Grupo: 3 o 4 piezas del mismo número y de colores distintos, como 7 rojo, 7 azul y
    7 negro.»"""
    i = info(text)
    assert i.valid and i.kind == "group" and i.value == value and i.meanings == {}


def test_group_with_a_repeated_colour_is_refused() -> None:
    """«… y de colores distintos»: dos 7 rojos no forman grupo."""
    i = info("7R 7A 7R")
    assert not i.valid and i.code == "group_repeated_colour"
    assert why(i) == "El grupo de 7 tiene dos 7 rojo: los colores no se repiten."
    assert why(i, "en") == "The group of 7s has two red 7s: colours can't repeat."


def test_group_of_5_is_refused() -> None:
    """«Grupo: 3 o 4 piezas»: con un comodín de más serían 5."""
    i = info("7R 7A 7N 7O J1")
    assert not i.valid and i.code == "group_too_long" and "4 como mucho" in why(i)
    assert why(i, "en") == "The group of 7s has 5 tiles: 4 at most."


@pytest.mark.parametrize("text", ["7R 7A", "4R 5R", "J1 5R", "7R"])
def test_fewer_than_3_tiles_is_no_set(text: str) -> None:
    """«3 o 4 piezas», «al menos 3 números seguidos»: dos fichas no son combinación."""
    i = info(text)
    assert not i.valid and i.code == "too_short"


def test_group_joker_stands_for_a_missing_colour() -> None:
    """«… en un grupo, [el comodín] representa un color que falte.»"""
    i = info("7R J1 7A")
    assert i.valid and i.kind == "group" and i.value == 21
    assert i.meanings == {1: faces("7N", "7O")}
    two = info("7R 7A J1 J2")
    assert two.valid and two.kind == "group" and two.value == 28
    assert two.meanings == {2: faces("7N", "7O"), 3: faces("7N", "7O")}
    full = info("7R 7A 7N J2")
    assert full.valid and full.meanings == {3: faces("7O")}


# --- sets: runs ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("3O 4O 5O 6O", 18),
        ("1R 2R 3R", 6),
        ("11A 12A 13A", 36),
        ("1N 2N 3N 4N 5N 6N 7N 8N 9N 10N 11N 12N 13N", 91),
    ],
)
def test_run_of_3_or_more_consecutive_same_colour(text: str, value: int) -> None:
    """«Escalera: al menos 3 números seguidos del mismo color, como 3, 4, 5 y 6 naranja.»"""
    i = info(text)
    assert i.valid and i.kind == "run" and i.value == value


def test_run_of_mixed_colours_is_refused() -> None:
    """«… del mismo color»."""
    i = info("3O 4R 5O")
    assert not i.valid and i.code == "run_colours" and "un solo color" in why(i)
    assert why(i, "en") == "«orange 3, red 4, orange 5»: a run is all one colour."


def test_run_with_a_gap_names_the_missing_number() -> None:
    """«al menos 3 números seguidos»: el mensaje dice qué número falta."""
    i = info("4R 5R 7R")
    assert not i.valid and i.code == "run_gap"
    assert why(i).startswith("La escalera roja 4-5-7 no es válida: falta el 6")
    assert "falta el 10" in why(info("8A 9A 11A 12A"))
    assert "falta el 3" in why(info("1N J1 4N"))  # the joker stands for the 2
    assert why(i, "en") == "The red run 4-5-7 isn't valid: the 6 is missing."
    crowded = info("4R J1 5R")  # numbers in order, but a joker too many between them
    assert crowded.code == "run_crowded" and "sobran fichas" in why(crowded)


def test_run_one_only_first() -> None:
    """«El 1 solo puede ir al principio.»"""
    assert info("1R 2R 3R").valid
    i = info("J1 1R 2R")
    assert not i.valid and i.code == "run_low" and "antes del 1" in why(i)
    assert why(i, "en") == "The red run J-1-2 isn't valid: nothing comes before the 1."


@pytest.mark.parametrize("text", ["12R 13R 1R", "13R 1R 2R", "11R 12R 13R 1R"])
def test_run_nothing_after_13_no_wrap(text: str) -> None:
    """«… después del 13 no puede ir el 1.»"""
    i = info(text)
    assert not i.valid and i.kind == "run"


def test_run_joker_after_13_is_refused() -> None:
    """RULES.md: «el 13 solo al final, sin dar la vuelta»: un comodín tras el 13 valdría 14."""
    i = info("12R 13R J1")
    assert not i.valid and i.code == "run_high" and "después del 13" in why(i)
    assert why(i, "en") == "The red run 12-13-J isn't valid: nothing comes after the 13."


def test_run_descending_order_is_refused() -> None:
    """RULES.md: «escalera: 3 o más números consecutivos de un color, en orden»."""
    i = info("7R 6R 5R")
    assert not i.valid and i.code == "run_order" and "de menor a mayor" in why(i)
    assert why(i, "en") == "The red run 7-6-5 is out of order: lowest to highest."
    assert info("5R 7R 6R").code == "run_order"


def test_run_repeating_a_number_is_refused() -> None:
    """«números seguidos»: un número repetido no sigue al anterior."""
    i = info("5R 5R 6R")
    assert not i.valid and i.code == "run_repeat"
    assert why(i) == "La escalera roja 5-5-6 repite un número."
    assert why(i, "en") == "The red run 5-5-6 repeats a number."


def test_neither_group_nor_run() -> None:
    """Ni grupo (números distintos) ni escalera (colores distintos)."""
    i = info("5R 5A 6N")
    assert not i.valid and "ni un grupo ni una escalera" in why(i)
    assert why(i, "en") == "«red 5, blue 5, black 6» is neither a group nor a run."


def test_run_joker_is_worth_its_place() -> None:
    """«En una escalera, el comodín vale el número de su posición.»"""
    i = info("4A J1 6A")
    assert i.valid and i.kind == "run" and i.value == 15 and i.meanings == {1: faces("5A")}
    j = info("J2 5A 6A")
    assert j.valid and j.value == 15 and j.meanings == {0: faces("4A")}
    k = info("11O 12O J1")
    assert k.valid and k.value == 36 and k.meanings == {2: faces("13O")}


@pytest.mark.parametrize(
    ("text", "meant", "value"),
    [
        ("J1 J2 5R", ("3R", "4R"), 12),
        ("5R J1 J2", ("6R", "7R"), 18),
        ("J1 5R J2", ("4R", "6R"), 15),
    ],
)
def test_one_numbered_tile_and_two_jokers_is_a_run_read_in_order(
    text: str, meant: tuple[str, str], value: int
) -> None:
    """«Si una combinación tiene solo 1 pieza numérica y 2 comodines, cuenta como escalera.»
    RULES.md: «(leída en el orden en que se coloca)»."""
    i = info(text)
    assert i.valid and i.kind == "run" and i.value == value
    where = [k for k, t in enumerate(tiles(text)) if t in JOKERS]
    assert i.meanings == {where[0]: faces(meant[0]), where[1]: faces(meant[1])}


def test_one_numbered_tile_and_two_jokers_past_the_ends_is_refused() -> None:
    """Leída como escalera, tampoco puede pasar del 1 ni del 13."""
    assert info("J1 J2 1R").code == "run_low"
    assert info("J1 1R J2").code == "run_low"
    assert info("13O J1 J2").code == "run_high"


def test_jokers_alone_are_no_set() -> None:
    """Una combinación necesita al menos una ficha con número (y nunca un error interno)."""
    i = info("J1 J2 J1")
    assert (
        not i.valid and why(i) == "«comodín, comodín, comodín» no es ni un grupo ni una escalera."
    )
    s = pos("J1 J2 5R", "1A")
    move = rummy.parse_move({"type": "play", "table": [["J1", "J2", "J1"]]})
    refused(s, 0, move, "invalid_set")


@pytest.mark.parametrize(
    ("text", "value"),
    [("10R 10A 10N", 30), ("10R J1 10N", 30), ("J1 9R 10R", 27), ("9R 10R J1", 30)],
)
def test_set_value_is_the_numbers_its_tiles_stand_for(text: str, value: int) -> None:
    """RULES.md: «El valor de una combinación es la suma de los números que representan sus
    fichas.»"""
    assert info(text).value == value


# --- a turn: play or draw --------------------------------------------------------------


def test_draw_one_tile_from_the_pool() -> None:
    """«En cada turno, juega al menos 1 pieza de tu atril o roba 1 del pozo.»"""
    s = pos("10R 10A 10N 2O", "1R 2R", table=["4R 5R 6R 7R"], pool="5N 6N")
    assert rummy.legal_moves(s, 0) == [Draw()] and rummy.legal_moves(s, 1) == []
    events = rummy.apply(s, 0, Draw())
    assert events == [{"t": "draw", "seat": 0, "secret": ["6N"]}]
    assert racks(s)[0] == fmt(sorted(tiles("10R 10A 10N 2O 6N")))
    assert fmt(s.pool) == "5N" and s.turn == 1 and table(s) == ["4R 5R 6R 7R"]
    assert s.log[-1] == {"t": "draw", "seat": 0}, "the face drawn stays secret"


def test_pass_refused_while_the_pool_has_tiles() -> None:
    """«Cuando el pozo se agota, pasas si no puedes o no quieres jugar» — antes, no."""
    s = pos("10R 10A 10N 2O", "1R 2R", pool="5N")
    refused(s, 0, Pass(), "must_draw")


def test_pass_when_the_pool_is_empty() -> None:
    """«Cuando el pozo se agota, pasas si no puedes o no quieres jugar.»"""
    s = pos("10R 2O", "1R 2R", "3A")
    assert rummy.legal_moves(s, 0) == [Pass()]
    refused(s, 0, Draw(), "pool_empty")
    assert rummy.apply(s, 0, Pass()) == [{"t": "pass", "seat": 0}]
    assert s.turn == 1 and s.passes == 1 and s.result is None


def test_play_at_least_one_tile_ends_the_turn() -> None:
    """«… juega al menos 1 pieza de tu atril»: jugar termina el turno, sin robar."""
    s = pos("10R 10A 10N 2O", "1R 2R", pool="5N 6N")
    events = play(s, 0, "10R 10A 10N")
    assert events == [
        {"t": "play", "seat": 0, "tiles": ["10R", "10A", "10N"], "points": 30, "meld": 30}
    ]
    assert racks(s) == ["2O", "1R 2R"] and fmt(s.pool) == "5N 6N" and s.turn == 1


def test_turns_go_round_the_table() -> None:
    """El turno pasa al jugador siguiente, y del último al primero."""
    s = pos("1R", "2R", "3R", pool="5N 6N 7N 8N", turn=1)
    for seat in (1, 2, 0, 1):
        assert rummy.actors(s) == [seat]
        rummy.apply(s, seat, Draw())
    assert s.turn == 2 and s.pool == []


# --- the five checks of a play ---------------------------------------------------------


def test_check_1_every_set_valid() -> None:
    """RULES.md: «1. todas las combinaciones son válidas»."""
    s = pos("4R 5R 7R 8R 1A", "1R", table=["10A 11A 12A"], melded=[True, False], pool="3N")
    e = refused(s, 0, lay("10A 11A 12A", "4R 5R 7R"), "invalid_set")
    assert rummy.SPEC.describe(e, "es").startswith(
        "La escalera roja 4-5-7 no es válida: falta el 6"
    )
    refused(s, 0, lay("10A 11A 12A 1A"), "invalid_set")


def test_check_2_every_table_tile_stays() -> None:
    """RULES.md: «2. toda ficha que estaba en la mesa al empezar el turno sigue en ella».
    «… no puede faltar ninguna pieza de las que ya estaban en la mesa; tampoco puedes
    devolverlas al atril.»"""
    s = pos("8R 9R", "1R", table=["4R 5R 6R 7R"], melded=[True, False], pool="3N")
    e = refused(s, 0, lay("4R 5R 6R"), "table_tile_missing")
    assert "7 rojo" in rummy.SPEC.describe(e, "es")
    e = refused(s, 0, lay("5R 6R 7R 8R 9R"), "table_tile_missing")
    assert "4 rojo" in rummy.SPEC.describe(e, "es")


def test_check_3_new_tiles_come_from_the_rack() -> None:
    """RULES.md: «3. las fichas nuevas salen del atril del jugador»."""
    s = pos("8R 9R", "1R", table=["4R 5R 6R 7R"], melded=[True, False], pool="3N")
    e = refused(s, 0, lay("4R 5R 6R 7R 8R 9R 10R"), "not_in_rack")
    assert rummy.SPEC.describe(e, "es") == "No tienes el 10 rojo en tu atril."
    refused(s, 0, lay("4R 5R 6R 7R 8R 9R J1"), "not_in_rack")
    refused(s, 0, lay("4R 5R 6R 7R", "1R 2R 3R"), "not_in_rack")  # seat 1's tile
    refused(s, 0, lay("4R 5R 6R 7R 8R", "8R 9R 10R"), "not_in_rack")  # one 8 rojo, used twice


def test_check_3_at_least_one_new_tile() -> None:
    """RULES.md: «3. … (al menos una)»: reordenar la mesa sin poner nada no es jugar."""
    s = pos("1A", "1R", table=["4R 5R 6R 7R", "8R 9R 10R"], melded=[True, False], pool="3N")
    refused(s, 0, lay("8R 9R 10R", "4R 5R 6R 7R"), "no_new_tile")
    e = refused(s, 0, lay("4R 5R 6R", "7R 8R 9R 10R"), "no_new_tile")
    assert "al menos una ficha" in rummy.SPEC.describe(e, "es")


def test_adding_to_a_table_set_after_the_meld() -> None:
    """«Después de la bajada inicial puedes […] añadir tus piezas.»"""
    s = pos("8R 3R 1A", "1R", table=["4R 5R 6R 7R", "8A 9A 10A"], melded=[True, False])
    events = play(s, 0, "3R 4R 5R 6R 7R 8R", "8A 9A 10A")
    assert events[0]["tiles"] == ["3R", "8R"] and "meld" not in events[0]
    assert table(s) == ["3R 4R 5R 6R 7R 8R", "8A 9A 10A"] and racks(s)[0] == "1A"


def test_split_join_and_move_after_the_meld() -> None:
    """«Después de la bajada inicial puedes separar, unir y mover las combinaciones de la
    mesa y añadir tus piezas. Al terminar el turno, todas las combinaciones deben ser
    válidas.»"""
    s = pos(
        "5R 9R 7O 1A", "1R",
        table=["3R 4R 5R 6R 7R 8R", "1O 2O 3O", "4O 5O 6O"], melded=[True, False],
    )  # fmt: skip
    # split the red run in two, give the second part a 5 and a 9; join the orange runs
    play(s, 0, "3R 4R 5R", "5R 6R 7R 8R 9R", "1O 2O 3O 4O 5O 6O 7O")
    assert table(s) == ["3R 4R 5R", "5R 6R 7R 8R 9R", "1O 2O 3O 4O 5O 6O 7O"]
    assert racks(s)[0] == "1A"


def test_a_split_that_leaves_an_invalid_set_is_refused() -> None:
    """«Al terminar el turno, todas las combinaciones deben ser válidas.»"""
    s = pos("7A 7N", "1R", table=["4R 5R 6R 7R"], melded=[True, False])
    refused(s, 0, lay("4R 5R", "6R 7R 7A 7N"), "invalid_set")
    refused(s, 0, lay("4R 5R 6R", "7R 7A", "7N"), "invalid_set")


def test_initial_meld_of_30_points() -> None:
    """«Bajada inicial: en tu primera jugada solo puedes formar combinaciones nuevas con
    piezas de tu atril, que sumen al menos 30 puntos.»"""
    s = pos("3A 4A 5A 6A 4R 4N 4O 1R", "1N", pool="3N")
    events = play(s, 0, "3A 4A 5A 6A", "4R 4N 4O")
    assert events[0]["meld"] == 30 and s.melded == [True, False]
    assert racks(s)[0] == "1R"


def test_initial_meld_of_29_points_is_refused() -> None:
    """«… que sumen al menos 30 puntos»: 29 no bastan."""
    s = pos("2A 3A 4A 5A 5R 5N 5O 1R", "1N", pool="3N")
    e = refused(s, 0, lay("2A 3A 4A 5A", "5R 5N 5O"), "meld_short")
    assert rummy.SPEC.describe(e, "es") == "Tu bajada suma 29: hacen falta 30 o más."
    assert rummy.check(s, 0, lay("2A 3A 4A 5A", "5R 5N 5O").table)["meld_points"] == 29


def test_initial_meld_joker_counts_the_number_it_represents() -> None:
    """«… (el comodín cuenta como el número que representa)»."""
    s = pos("9R 10R J1 1A", "1N", pool="3N")
    refused(s, 0, lay("J1 9R 10R"), "meld_short")  # 8 + 9 + 10 = 27
    events = play(s, 0, "9R 10R J1")  # 9 + 10 + 11 = 30
    assert events[0]["meld"] == 30
    g = pos("10R 10A J1 1A", "1N", pool="3N")
    assert play(g, 0, "10R 10A J1")[0]["meld"] == 30


def test_initial_meld_may_not_touch_the_table() -> None:
    """«… en ese turno no puedes tocar la mesa.» RULES.md: «4. … las combinaciones que ya
    están se quedan como estaban»."""
    s = pos("7R 10R 10A 10N 7A 7N", "1N", table=["4R 5R 6R"], pool="3N")
    e = refused(s, 0, lay("4R 5R 6R 7R", "10R 10A 10N"), "meld_touch")
    assert "bajada inicial" in rummy.SPEC.describe(e, "es")
    # the existing sets may come in any order; new sets from the rack only
    play(s, 0, "10R 10A 10N", "4R 5R 6R")
    assert table(s) == ["10R 10A 10N", "4R 5R 6R"]


def test_initial_meld_may_not_take_a_table_tile() -> None:
    """«… solo puedes formar combinaciones nuevas con piezas de tu atril»: el 7 rojo de la
    mesa no sirve todavía."""
    s = pos("7A 7N 10R 10A 10N", "1N", table=["4R 5R 6R 7R"], pool="3N")
    refused(s, 0, lay("4R 5R 6R", "7R 7A 7N", "10R 10A 10N"), "meld_touch")


def test_after_the_meld_any_play_counts() -> None:
    """La bajada de 30 es solo la primera jugada: después basta una ficha."""
    s = pos("3R 1A", "1N", table=["4R 5R 6R"], melded=[True, False], pool="3N")
    events = play(s, 0, "3R 4R 5R 6R")
    assert events[0]["points"] == 3 and "meld" not in events[0]


def test_meld_is_per_player() -> None:
    """Cada jugador hace su propia bajada: la del otro no le vale."""
    s = pos("1N", "4R 5R 6R 1A", melded=[True, False], turn=1, pool="3N")
    refused(s, 1, lay("4R 5R 6R"), "meld_short")


# --- jokers ----------------------------------------------------------------------------


def test_retrieve_a_run_joker_with_the_tile_from_the_rack() -> None:
    """«Para retirar un comodín de la mesa, debe quedar en la mesa la pieza que representa:
    en una escalera, la del mismo color y número.» «Esa pieza puede salir de tu atril…»"""
    s = pos("5R 1N", "1R", table=["4R J1 6R", "8A 9A 10A"], melded=[True, False])
    play(s, 0, "4R 5R 6R", "8A 9A 10A J1")
    assert table(s) == ["4R 5R 6R", "8A 9A 10A J1"] and racks(s)[0] == "1N"


def test_retrieve_a_run_joker_unbacked_is_refused() -> None:
    """«… debe quedar en la mesa la pieza que representa» — si no, el comodín no sale."""
    s = pos("9A 10A 3R 1N", "1R", table=["J1 4R 5R 6R"], melded=[True, False])
    e = refused(s, 0, lay("4R 5R 6R", "J1 9A 10A"), "joker_unbacked")
    assert (
        rummy.SPEC.describe(e, "es")
        == "Para retirar el comodín hace falta dejar en la mesa el 3 rojo."
    )
    report = rummy.check(s, 0, lay("4R 5R 6R", "J1 9A 10A").table)
    assert [x["code"] for x in report["errors"]] == ["joker_unbacked"]
    play(s, 0, "3R 4R 5R 6R", "J1 9A 10A")
    assert racks(s)[0] == "1N"


@pytest.mark.parametrize("backing", ["5N", "5O"])
def test_retrieve_a_group_joker_with_any_missing_colour(backing: str) -> None:
    """«… en un grupo, cualquiera de los colores que falten.»"""
    s = pos(f"{backing} 9O 10O 1R", "1A", table=["5R 5A J1"], melded=[True, False])
    play(s, 0, f"5R 5A {backing}", "9O 10O J1")
    assert table(s) == [f"5R 5A {backing}", "9O 10O J1"]


def test_retrieve_a_group_joker_unbacked_is_refused() -> None:
    """«… en un grupo, cualquiera de los colores que falten»: un 5 rojo (un color que ya
    estaba en el grupo) no sirve."""
    s = pos(
        "5R 3R 4R 9N 10N 1O", "1A",
        table=["5R 5A J1", "6R 7R 8R", "2A 3A 4A"], melded=[True, False],
    )  # fmt: skip
    e = refused(s, 0, lay("3R 4R 5R", "5R 6R 7R 8R", "2A 3A 4A 5A", "J1 9N 10N"), "joker_unbacked")
    assert (
        rummy.SPEC.describe(e, "es")
        == "Para retirar el comodín hace falta dejar en la mesa el 5 negro o el 5 naranja."
    )


def test_retrieve_two_jokers_each_backed() -> None:
    """RULES.md: «… una ficha real por cada comodín retirado (un emparejamiento)»."""
    s = pos("5R 7A 11N 12N 1O", "1A", table=["4R J1 6R", "J2 8A 9A"], melded=[True, False])
    play(s, 0, "4R 5R 6R", "7A 8A 9A", "J1 J2 11N 12N")
    assert racks(s)[0] == "1O"
    assert rummy.joker_meanings(s.table) == {tile("J1"): faces("9N"), tile("J2"): faces("10N")}


def test_retrieve_two_jokers_one_unbacked_is_refused() -> None:
    """RULES.md: «Por cada comodín retirado tiene que haber en la mesa una ficha real de lo que
    representaba» — el mensaje nombra la que falta."""
    s = pos("5R 10A 11N 12N 1O", "1A", table=["4R J1 6R", "J2 8A 9A"], melded=[True, False])
    e = refused(s, 0, lay("4R 5R 6R", "8A 9A 10A", "J1 J2 11N 12N"), "joker_unbacked")
    assert "el 7 azul" in rummy.SPEC.describe(e, "es")


def test_two_jokers_of_one_group_need_two_tiles() -> None:
    """RULES.md: «… una ficha real por cada comodín retirado»: dos comodines del mismo grupo
    necesitan los dos colores que faltaban."""
    s = pos("5N 9R 1A", "1N", table=["5R 5A J1 J2"], melded=[True, False])
    refused(s, 0, lay("5R 5A 5N", "J1 J2 9R"), "joker_unbacked")
    t = pos("5N 5O 9R 1A", "1N", table=["5R 5A J1 J2"], melded=[True, False])
    play(t, 0, "5R 5A 5N 5O", "J1 J2 9R")
    assert racks(t)[0] == "1A"


def test_backing_tile_from_another_table_set() -> None:
    """«Esa pieza puede salir de tu atril o de otra combinación de la mesa.»"""
    s = pos("9N 10N 1A", "1R", table=["4R J1 6R", "5R 5A 5N 5O"], melded=[True, False])
    play(s, 0, "4R 5R 6R", "5A 5N 5O", "J1 9N 10N")
    assert table(s) == ["4R 5R 6R", "5A 5N 5O", "J1 9N 10N"] and racks(s)[0] == "1A"


def test_a_joker_moved_without_changing_what_it_stands_for_is_not_retrieved() -> None:
    """RULES.md: «5. un comodín […] que acaba el turno representando otra cosa cuenta como
    retirado» — si sigue representando lo mismo, no hace falta la ficha."""
    run = pos("7R 1A", "1N", table=["J1 5R 6R", "1R 2R 3R"], melded=[True, False])
    play(run, 0, "1R 2R 3R J1 5R 6R 7R")  # the joker is still the 4 rojo
    group = pos("5N 1A", "1N", table=["5R 5A J1"], melded=[True, False])
    play(group, 0, "5R 5A 5N J1")  # still the 5 naranja, missing at the start
    moved = pos("9N 1A", "1R", table=["5R 5A 5O J1", "6N 7N 8N"], melded=[True, False])
    play(moved, 0, "5R 5A 5O", "J1 6N 7N 8N 9N")  # from the group to a run: still 5 negro
    assert table(moved) == ["5R 5A 5O", "J1 6N 7N 8N 9N"]


def test_a_group_joker_that_changes_number_is_retrieved() -> None:
    """RULES.md: «… en un grupo: otro número, o ya no uno de los colores que faltaban»."""
    s = pos("10N 1A", "1R", table=["5R 5A 5O J1", "7N 8N 9N"], melded=[True, False])
    e = refused(s, 0, lay("5R 5A 5O", "J1 7N 8N 9N 10N"), "joker_unbacked")  # now the 6 negro
    assert "el 5 negro" in rummy.SPEC.describe(e, "es")


def test_a_retrieved_joker_may_not_go_back_to_the_rack() -> None:
    """«El comodín retirado no puede volver a tu atril: debes usarlo en una combinación de la
    mesa en ese mismo turno.»"""
    s = pos("5R 1A", "1R", table=["4R J1 6R"], melded=[True, False])
    e = refused(s, 0, lay("4R 5R 6R"), "table_tile_missing")
    assert "el comodín" in rummy.SPEC.describe(e, "es")


def test_a_joker_from_the_rack_needs_no_backing() -> None:
    """El comodín del atril se juega donde quieras; solo el de la mesa pide su ficha."""
    s = pos("J2 9A 1R", "1N", table=["10A 11A 12A"], melded=[True, False])
    play(s, 0, "J2 9A 10A 11A 12A")
    assert table(s) == ["J2 9A 10A 11A 12A"]


# --- check: reporting on a draft -------------------------------------------------------


def test_check_reports_each_set_and_every_broken_rule_without_changing_anything() -> None:
    """DESIGN.md: «Rummy pide al servidor que compruebe un borrador» — sin aplicar nada."""
    s = pos("4R 5R 7R 10R 10A 1A", "1R", table=["8N 9N 10N"], pool="3N")
    before = copy.deepcopy(rummy.dump(s))
    report = rummy.check(s, 0, lay("8N 9N", "4R 5R 7R", "10R 10A 10N").table)
    assert report["ok"] is False
    assert [x["code"] for x in report["errors"]] == [
        "invalid_set", "invalid_set", "meld_touch"
    ]  # fmt: skip
    assert report["sets"][0] == {
        "valid": False, "kind": "", "value": 0,
        "reason": {"code": "too_short", "params": {"set": ["8N", "9N"]}}, "tidy": None,
    }  # fmt: skip
    said = [rummy.name_param("reason", x["reason"], es) for x in report["sets"][:2]]
    assert said[0] == "«8 negro, 9 negro»: una combinación necesita 3 fichas o más."
    assert said[1].startswith("La escalera roja 4-5-7 no es válida: falta")
    assert report["errors"][1]["set"] == ["4R", "5R", "7R"]
    assert report["errors"][1]["params"] == {"reason": report["sets"][1]["reason"]}
    assert report["sets"][2] == {
        "valid": True, "kind": "group", "value": 30, "reason": None, "tidy": None
    }  # fmt: skip
    assert report["meld_points"] == 0 and report["meld_enough"] is False  # 10N is the table's
    assert report["melded"] is False and report["new_tiles"] == 5
    assert rummy.dump(s) == before


def test_check_reports_the_meld_points() -> None:
    """La bajada suma los puntos de las combinaciones nuevas, y check los dice."""
    s = pos("10R 10A 10N 2O", "1R 2R", table=["4R 5R 6R 7R"], pool="5N 6N")
    report = rummy.check(s, 0, lay("4R 5R 6R 7R", "10R 10A 10N").table)
    assert report == {
        "ok": True, "errors": [], "new_tiles": 3, "meld_points": 30, "melded": False,
        "meld_needed": 30, "meld_enough": True,
        "sets": [
            {"valid": True, "kind": "run", "value": 22, "reason": None, "tidy": None},
            {"valid": True, "kind": "group", "value": 30, "reason": None, "tidy": None},
        ],
    }  # fmt: skip
    nines = pos("9R 9A 9N 2O", "1R 2R", pool="5N 6N")
    short = rummy.check(nines, 0, lay("9R 9A 9N").table)
    assert short["meld_points"] == 27 and short["meld_needed"] == 30
    assert short["meld_enough"] is False and not short["ok"]
    assert s.melded == [False, False] and racks(s)[0] == "10R 10A 10N 2O"


def test_check_lists_rack_and_table_errors_in_rule_order() -> None:
    """RULES.md: las comprobaciones 1 a 5, en ese orden; apply rechaza por la primera."""
    s = pos("1A", "1R", table=["4R 5R 6R 7R"], melded=[True, False], pool="3N")
    layout = lay("4R 5R 6R", "13O 13A 13N")
    report = rummy.check(s, 0, layout.table)
    assert [x["code"] for x in report["errors"]] == ["table_tile_missing", "not_in_rack"]
    refused(s, 0, layout, "table_tile_missing")


# --- the end of a hand -----------------------------------------------------------------


def test_empty_rack_wins_the_hand() -> None:
    """«Si alguien se queda sin piezas, los demás pierden los puntos de su atril (los números
    por su valor, el comodín 30) y quien terminó gana la suma de esos puntos.»"""
    s = pos(
        "7A 7N", "5R J1", "13O 1A", table=["4R 5R 6R 7R"], melded=[True, False, False],
        pool="2N 3N",
    )  # fmt: skip
    events = play(s, 0, "4R 5R 6R", "7R 7A 7N")
    assert kinds(events) == ["play", "hand_end", "end"]
    assert events[1] == {
        "t": "hand_end", "hand": 1, "winners": [0], "blocked": False,
        "delta": [49, -35, -14], "racks": ["", "5R J1", "13O 1A"], "scores": [49, -35, -14],
    }  # fmt: skip
    assert s.scores == [49, -35, -14] and sum(s.scores) == 0
    assert rummy.outcome(s) == {"winners": [0], "scores": [49, -35, -14], "hands": 1}
    assert rummy.actors(s) == [] and s.last_hand == {k: v for k, v in events[1].items() if k != "t"}


def test_rack_points_numbers_at_face_value_joker_30() -> None:
    """«… (los números por su valor, el comodín 30)»."""
    assert [points(t) for t in tiles("1R 7A 13O J1 J2")] == [1, 7, 13, 30, 30]
    delta, winners = rummy.hand_scores([tiles(""), tiles("J1 J2"), tiles("13O 13N 1A")], 0)
    assert delta == [87, -60, -27] and winners == [0]


def test_blocked_hand_lowest_rack_wins() -> None:
    """«Si el pozo se agota y todos pasan seguidos, gana quien tenga menos puntos en el atril;
    los demás pierden "sus puntos menos el mínimo" y el ganador se lleva la suma.»"""
    s = pos("3R 7A", "2R 13N", "9O 13A", turn=1)  # 10, 15, 22
    rummy.apply(s, 1, Pass())
    rummy.apply(s, 2, Pass())
    assert s.result is None and s.passes == 2
    events = rummy.apply(s, 0, Pass())
    assert kinds(events) == ["pass", "hand_end", "end"]
    assert events[1]["blocked"] is True and events[1]["winners"] == [0]
    assert events[1]["delta"] == [17, -5, -12]
    assert rummy.outcome(s) == {"winners": [0], "scores": [17, -5, -12], "hands": 1}


@pytest.mark.parametrize(
    ("racks_", "delta"),
    [
        (["5R", "2A 3N", "8O", "11R"], [4, 4, -3, -6]),  # pot 9, two winners: 4 each
        (["3R 4R", "7A", "12N"], [2, 2, -5]),  # pot 5, two winners: 2 each
        (["4R", "4A", "1N 3N", "9O"], [1, 1, 1, -5]),  # pot 5, three winners: 1 each
    ],
)
def test_blocked_hand_tied_minimum_share_rounded_down(racks_: list[str], delta: list[int]) -> None:
    """«… si varios empatan con el mínimo, se la reparten a partes iguales (redondeando hacia
    abajo).» RULES.md: «… y no pierden nada»."""
    s = pos(*racks_)
    events = pass_round(s)
    end = next(e for e in events if e["t"] == "hand_end")
    assert end["delta"] == delta and s.scores == delta
    low = min(sum(points(t) for t in tiles(r)) for r in racks_)
    assert end["winners"] == [i for i, r in enumerate(racks_) if sum(map(points, tiles(r))) == low]
    assert sorted(rummy.outcome(s)["winners"]) == end["winners"]  # type: ignore[index]


def test_blocked_needs_every_player_to_pass_in_a_row() -> None:
    """«… y todos pasan seguidos»: una jugada en medio vuelve a empezar la cuenta."""
    s = pos("3R 1A", "2R 13N", "7R 5O", table=["4R 5R 6R"], melded=[True, True, True])
    rummy.apply(s, 0, Pass())
    rummy.apply(s, 1, Pass())
    assert s.passes == 2
    play(s, 2, "4R 5R 6R 7R")
    assert s.passes == 0
    rummy.apply(s, 0, Pass())
    rummy.apply(s, 1, Pass())
    assert s.result is None and s.passes == 2
    events = rummy.apply(s, 2, Pass())
    assert kinds(events) == ["pass", "hand_end", "end"]
    assert events[1]["delta"] == [12, -11, -1]  # 4, 15 and 5 points


def test_timeout_pass_counts_as_a_pass() -> None:
    """RULES.md: «… (pasa si el pozo está vacío)» — también cuenta para el cierre."""
    s = pos("3R", "5R")
    rummy.apply(s, 0, Timeout())
    events = rummy.apply(s, 1, Timeout())
    assert events[0] == {"t": "pass", "seat": 1, "timeout": True}
    assert events[1]["blocked"] is True and events[1]["delta"] == [2, -2]


# --- matches of 1, 3 or 5 hands --------------------------------------------------------


def test_three_hands_next_hand_is_dealt() -> None:
    """«Si se juegan 3 o 5 manos, se suman los puntos…» «… después empieza el siguiente
    jugador en cada mano.»"""
    s = pos(
        "7A 7N", "5R J1", table=["4R 5R 6R 7R"], melded=[True, False], pool="2N 3N",
        hands=3, rng=12345,
    )  # fmt: skip
    events = play(s, 0, "4R 5R 6R", "7R 7A 7N")
    assert kinds(events) == ["play", "hand_end"]
    assert s.waiting == [0, 1] and rummy.actors(s) == [0, 1] and s.hand == 1
    events = next_hand(s)
    assert kinds(events) == ["ready", "ready", "hand_start"]
    assert events[2] == {"t": "hand_start", "hand": 2, "starter": 1}
    assert s.hand == 2 and s.starter == 1 and s.turn == 1 and rummy.actors(s) == [1]
    assert s.scores == [35, -35] and s.result is None and s.passes == 0
    assert [len(r) for r in s.racks] == [14, 14] and len(s.pool) == 78
    assert s.table == [] and s.melded == [False, False]
    assert Counter(rummy.all_tiles(s)) == Counter(full_set())
    assert s.last_hand is not None and s.last_hand["delta"] == [35, -35]


def test_next_starter_wraps_round() -> None:
    """«… después empieza el siguiente jugador en cada mano» — tras el último, el primero."""
    s = pos("3R", "5R", "7A 7N", table=["4R 5R 6R 7R"], melded=[False, False, True],
            turn=2, starter=2, hand=2, hands=3, scores=[0, 4, -4])  # fmt: skip
    play(s, 2, "4R 5R 6R", "7R 7A 7N")
    events = next_hand(s)
    assert events[-1] == {"t": "hand_start", "hand": 3, "starter": 0}
    assert s.turn == 0 and s.scores == [-3, -1, 4]


# --- between hands: every seat sees the end of the hand before the next deal ----------


def _hand_over() -> rummy.State:
    """Hand 1 of 3 just ended: seat 0 went out with the 7s; seat 1 keeps 5R J1."""
    s = pos(
        "7A 7N", "5R J1", table=["4R 5R 6R 7R"], melded=[True, False], pool="2N 3N",
        hands=3, rng=12345,
    )  # fmt: skip
    play(s, 0, "4R 5R 6R", "7R 7A 7N")
    return s


def test_after_a_hand_the_table_waits_for_every_seat() -> None:
    """Nothing is dealt until every seat has seen the hand's end: the final table and the
    racks stay as the hand ended, and each seat may only say «Siguiente mano» (``next``)."""
    s = _hand_over()
    assert s.waiting == [0, 1] and rummy.actors(s) == [0, 1]
    assert s.hand == 1 and s.result is None and s.scores == [35, -35]
    assert table(s) == ["4R 5R 6R", "7R 7A 7N"] and racks(s) == ["", "5R J1"]
    assert len(s.pool) == 2, "the next hand is not dealt yet"
    for seat in (0, 1):
        assert rummy.legal_moves(s, seat) == [Next()]
        v = rummy.view(s, seat)
        assert v["waiting"] == [0, 1] and v["legal"] == [{"type": "next"}]
        assert v["table"] == [["4R", "5R", "6R"], ["7R", "7A", "7N"]]
        assert v["last_hand"]["racks"] == ["", "5R J1"] and v["last_hand"]["delta"] == [35, -35]
    assert rummy.view(s, None)["legal"] == []


@pytest.mark.parametrize("move", [Draw(), Pass(), lay("4R 5R 6R", "7R 7A 7N", "5R J1")])
def test_between_hands_nothing_but_next(move: Any) -> None:
    """Between hands nobody draws, passes or plays."""
    s = _hand_over()
    e = refused(s, 1, move, "hand_over")
    assert rummy.SPEC.describe(e, "es") == "La mano ha terminado: pulsa «Siguiente mano»."
    assert rummy.SPEC.describe(e, "en") == "The hand is over: press “Next hand”."


def test_next_once_per_seat_and_the_last_one_deals() -> None:
    """Each seat says it once; when the last one has, the next hand is dealt, started by the
    next player (RULES.md: «after that, the next player starts each hand»)."""
    s = _hand_over()
    assert rummy.apply(s, 1, Next()) == [{"t": "ready", "seat": 1}]
    assert s.waiting == [0] and rummy.actors(s) == [0] and rummy.legal_moves(s, 1) == []
    e = refused(s, 1, Next(), "already_ready")
    assert "faltan los demás" in rummy.SPEC.describe(e, "es")
    events = rummy.apply(s, 0, Next())
    assert events == [{"t": "ready", "seat": 0}, {"t": "hand_start", "hand": 2, "starter": 1}]
    assert s.waiting == [] and s.hand == 2 and s.turn == 1 and rummy.actors(s) == [1]
    assert [len(r) for r in s.racks] == [14, 14] and s.table == [] and len(s.pool) == 78
    assert Counter(rummy.all_tiles(s)) == Counter(full_set())
    assert s.last_hand is not None and s.last_hand["hand"] == 1, "the summary stays"


def test_next_during_a_hand_is_refused() -> None:
    s = pos("10R 2O", "1R 2R", pool="5N")
    refused(s, 0, Next(), "hand_not_over")
    assert rummy.legal_moves(s, 0) == [Draw()]


def test_the_last_hand_does_not_wait() -> None:
    """After the last hand the match is over: nothing to wait for."""
    s = pos("7A 7N", "5R", table=["4R 5R 6R 7R"], melded=[True, False], hand=3, hands=3)
    play(s, 0, "4R 5R 6R", "7R 7A 7N")
    assert s.result is not None and s.waiting == [] and rummy.actors(s) == []
    assert "waiting" not in rummy.dump(s)


def test_between_hands_the_clock_says_next() -> None:
    """A clock runs for each seat yet to say it (online rooms); when it runs out, the seat is
    taken to have seen the hand's end."""
    s = _hand_over()
    assert rummy.clocks(s) == [("turn", 0, s.turns), ("turn", 1, s.turns)]
    assert rummy.apply(s, 0, Timeout()) == [{"t": "ready", "seat": 0}]
    assert rummy.clocks(s) == [("turn", 1, s.turns)]
    assert kinds(rummy.apply(s, 1, Timeout())) == ["ready", "hand_start"]
    assert rummy.clocks(s) == [("turn", 1, s.turns)]


def test_a_position_between_hands() -> None:
    """docs/positions.md: ``waiting`` lists the seats yet to see the hand's end; it is written
    only between hands."""
    s = _hand_over()
    rummy.apply(s, 1, Next())
    data = json.loads(json.dumps(rummy.dump(s)))
    assert data["waiting"] == [0] and data["racks"] == ["", "5R J1"]
    again = rummy.load(data)
    assert rummy.dump(again) == rummy.dump(s) and rummy.actors(again) == [0]
    assert rummy.apply(again, 0, Next())[-1] == {"t": "hand_start", "hand": 2, "starter": 1}
    short = rummy.load({"racks": ["", "5R"], "hand": 1, "config": {"hands": 3}, "waiting": [1]})
    assert rummy.actors(short) == [1] and rummy.legal_moves(short, 0) == []


@pytest.mark.parametrize(
    ("before", "after", "winners"),
    [
        ([10, 40, -50], [46, 5, -51], [0]),
        ([0, 100, -100], [36, 65, -101], [1]),
        ([0, 71, -71], [36, 36, -72], [0, 1]),
    ],
)
def test_match_scores_add_up_and_the_highest_total_wins(
    before: list[int], after: list[int], winners: list[int]
) -> None:
    """«Si se juegan 3 o 5 manos, se suman los puntos y gana el total más alto.»"""
    s = pos("7A 7N", "5R J1", "1A", table=["4R 5R 6R 7R"], melded=[True, False, False],
            hand=3, hands=3, scores=before)  # fmt: skip
    events = play(s, 0, "4R 5R 6R", "7R 7A 7N")
    assert events[1]["delta"] == [36, -35, -1]
    assert events[-1] == {"t": "end", "winners": winners, "scores": after, "hands": 3}
    assert rummy.outcome(s) == {"winners": winners, "scores": after, "hands": 3}


def test_five_hands_fourth_hand_goes_on() -> None:
    """«5 rondas»: tras la cuarta mano se reparte la quinta."""
    s = pos("7A 7N", "5R", table=["4R 5R 6R 7R"], melded=[True, False], hand=4, hands=5,
            starter=1, scores=[3, -3])  # fmt: skip
    play(s, 0, "4R 5R 6R", "7R 7A 7N")
    events = next_hand(s)
    assert events[-1] == {"t": "hand_start", "hand": 5, "starter": 0}
    assert s.result is None and s.scores == [8, -8]


@pytest.mark.parametrize(("players", "hands"), [(2, 1), (3, 3), (2, 5), (4, 5)])
def test_match_of_1_3_or_5_hands(players: int, hands: int) -> None:
    """Opciones: «Una sola mano · 3 rondas · 5 rondas». Cada mano la empieza el siguiente;
    el total es la suma de las manos."""
    s = rummy.new(rummy.parse_config({"players": players, "hands": hands}), 7 + hands)
    first = s.starter
    ends: list[Event] = []
    starters = [s.starter]
    while s.result is None:
        events = []
        for seat in rummy.actors(s):  # nobody plays: draw, then pass; the clock says next
            events += rummy.apply(s, seat, Timeout())
        ends += [e for e in events if e["t"] == "hand_end"]
        starters += [e["starter"] for e in events if e["t"] == "hand_start"]
    assert [e["hand"] for e in ends] == list(range(1, hands + 1))
    assert starters == [(first + k) % players for k in range(hands)]
    totals = [sum(e["delta"][p] for e in ends) for p in range(players)]
    assert s.scores == totals and rummy.outcome(s)["hands"] == hands  # type: ignore[index]
    assert rummy.outcome(s)["winners"] == [p for p in range(players) if totals[p] == max(totals)]  # type: ignore[index]


# --- the clock: Timeout ----------------------------------------------------------------


def test_timeout_discards_the_draft_and_draws_one() -> None:
    """RULES.md: «Al agotarse el tiempo se descarta el borrador y el jugador roba una»."""
    s = pos("10R 10A 10N 2O", "1R 2R", table=["4R 5R 6R 7R"], pool="5N 6N")
    assert rummy.check(s, 0, lay("4R 5R 6R 7R", "10R 10A 10N").table)["ok"]  # a draft
    events = rummy.apply(s, 0, Timeout())
    assert events == [{"t": "draw", "seat": 0, "secret": ["6N"], "timeout": True}]
    assert table(s) == ["4R 5R 6R 7R"] and s.melded == [False, False]
    assert racks(s)[0] == "10R 10A 6N 10N 2O" and s.turn == 1
    assert s.log[-1] == {"t": "draw", "seat": 0, "timeout": True}


def test_timeout_with_the_pool_empty_passes() -> None:
    """RULES.md: «… (pasa si el pozo está vacío)»."""
    s = pos("10R 2O", "1R 2R")
    assert rummy.apply(s, 0, Timeout()) == [{"t": "pass", "seat": 0, "timeout": True}]
    assert s.passes == 1 and s.turn == 1 and racks(s)[0] == "10R 2O"


def test_turn_clock() -> None:
    """Un reloj por turno; al vencer, la sala aplica ``Timeout``."""
    s = pos("10R", "1R", pool="5N", turns=7)
    assert rummy.clocks(s) == [("turn", 0, 7)]
    assert rummy.clock_move("turn", 0) == Timeout()
    assert set(rummy.CLOCK_MOVES) == {"timeout"}
    with pytest.raises(ValueError):
        rummy.clock_move("window", 0)
    rummy.apply(s, 0, Draw())
    assert rummy.clocks(s) == [("turn", 1, 8)]


# --- refusals --------------------------------------------------------------------------


@pytest.mark.parametrize("move", [Draw(), Pass(), Timeout(), lay("10R 10A 10N")])
def test_not_your_turn(move: Any) -> None:
    """Solo juega quien tiene el turno."""
    s = pos("10R 10A 10N 2O", "10R 10A 10N 2R", pool="5N 6N")
    e = refused(s, 1, move, "not_your_turn")
    assert rummy.SPEC.describe(e, "es") == "No es tu turno."
    assert rummy.legal_moves(s, 1) == []


def test_game_over_refuses_every_move() -> None:
    """Terminada la partida, no se juega más."""
    s = pos("7A 7N", "5R", table=["4R 5R 6R 7R"], melded=[True, False], pool="1R")
    play(s, 0, "4R 5R 6R", "7R 7A 7N")
    assert rummy.actors(s) == [] and rummy.clocks(s) == []
    for seat in (0, 1):
        assert rummy.legal_moves(s, seat) == []
        for move in (Draw(), Pass(), Timeout(), lay("4R 5R 6R", "7R 7A 7N", "5R")):
            refused(s, seat, move, "game_over")


@pytest.mark.parametrize(
    "data",
    [
        [],
        {},
        {"type": 3},
        {"type": "play"},
        {"type": "play", "table": "4R 5R 6R"},
        {"type": "play", "table": [["4R", "5R", "6R"]], "seat": 0},
        {"type": "play", "table": [[]]},
        {"type": "play", "table": ["4R 5R 6R"]},
        {"type": "play", "table": [["4R", 5, "6R"]]},
        {"type": "play", "table": [["4R", True, "6R"]]},
        {"type": "play", "table": [["14R", "5R", "6R"]]},
        {"type": "play", "table": [["4X", "5R", "6R"]]},
        {"type": "play", "table": [["1R"] * 14]},
        {"type": "play", "table": [["1R", "2R", "3R"]] * 61},
        {"type": "draw", "n": 1},
        {"type": "pass", "table": []},
        {"type": "timeout", "seat": 1},
    ],
)
def test_parse_move_refuses_malformed_moves(data: Any) -> None:
    """DESIGN.md: «Una entrada mala recibe un error claro y no cambia nada.»"""
    with pytest.raises(IllegalMove) as e:
        rummy.parse_move(data)
    assert e.value.code == "bad_move" and not str(e.value).startswith("error.")


def test_parse_move_unknown_type() -> None:
    with pytest.raises(IllegalMove) as e:
        rummy.parse_move({"type": "discard"})
    assert e.value.code == "unknown_move"


@pytest.mark.parametrize(
    "move", [Draw(), Pass(), Timeout(), lay("4R 5R 6R", "J1 7A 8A"), lay("13O 13A J2")]
)
def test_move_json_round_trip(move: Any) -> None:
    """Una jugada es un dato con un solo códec JSON."""
    data = json.loads(json.dumps(move.to_json()))
    assert rummy.parse_move(data) == move
    assert str(lay("4R 5R 6R", "J1 7A 8A")) == "play 4R 5R 6R | J1 7A 8A"


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"players": 1},
        {"players": 5},
        {"players": "2"},
        {"players": True},
        {"hands": 2},
        {"hands": 4},
        {"hands": "3"},
        {"hands": 3.0},
        {"bots": "normal"},
    ],
)
def test_parse_config_refusals(data: Any) -> None:
    """Opciones: 2, 3 o 4 jugadores; una sola mano, 3 o 5 rondas. Nada más."""
    with pytest.raises(IllegalMove) as e:
        rummy.parse_config(data)
    assert e.value.code == "bad_config"


def test_parse_config_defaults_and_round_trip() -> None:
    """Por defecto, 2 jugadores y una sola mano."""
    assert rummy.parse_config({}) == rummy.Config(players=2, hands=1)
    for players in (2, 3, 4):
        for hands in (1, 3, 5):
            c = rummy.parse_config({"players": players, "hands": hands})
            assert rummy.parse_config(rummy.config_json(c)) == c and rummy.seats(c) == players
    with pytest.raises(IllegalMove):
        rummy.load({"racks": ["1R"]})  # one player
    with pytest.raises(IllegalMove):
        rummy.load({"racks": ["1R", "2R"], "config": {"hands": 2}})


# --- positions: dump and load ----------------------------------------------------------


def test_load_defaults() -> None:
    """docs/positions.md: solo ``racks`` es obligatorio."""
    s = rummy.load({"racks": ["10R 10A", "1R"]})
    assert rummy.dump(s) == {
        "game": "rummy", "config": {"players": 2, "hands": 1},
        "racks": ["10R 10A", "1R"], "pool": "", "table": [], "melded": [False, False],
        "turn": 0, "passes": 0, "turns": 1, "hand": 1, "starter": 0, "scores": [0, 0],
        "last_hand": None, "log": [], "rng": 0, "result": None,
    }  # fmt: skip
    assert rummy.load({"racks": ["1R", "2R"], "turn": 1}).starter == 1


def test_dump_load_round_trip_and_same_future() -> None:
    """docs/positions.md: «``load(dump(state))`` es la misma partida […] y el mismo futuro»."""
    s = rummy.new(rummy.parse_config({"players": 3, "hands": 3}), 2024)
    for _ in range(40):
        rummy.apply(s, s.turn, Draw())
    copy_ = rummy.load(json.loads(json.dumps(rummy.dump(s))))
    assert rummy.dump(copy_) == rummy.dump(s)
    for seat in (0, 1, 2, None):
        assert rummy.view(copy_, seat) == rummy.view(s, seat)
    while s.hand == 1:  # both play on into hand 2: the same new deal
        for state in (s, copy_):
            for seat in rummy.actors(state):
                rummy.apply(state, seat, Timeout())
                if state.waiting:  # the end of hand 1, as a position
                    assert rummy.dump(rummy.load(rummy.dump(state))) == rummy.dump(state)
    assert rummy.dump(copy_) == rummy.dump(s)


def test_load_keeps_starter_0_when_another_seat_is_to_play() -> None:
    """El que empezó la mano (``starter``) no cambia al guardar y cargar: decide quién empieza
    la mano siguiente."""
    s = pos("3R", "7A 7N", "5R", table=["4R 5R 6R 7R"], melded=[False, True, False], turn=1,
            starter=0, hands=3)  # fmt: skip
    assert s.starter == 0
    again = rummy.load(rummy.dump(s))
    assert rummy.dump(again) == rummy.dump(s)
    play(again, 1, "4R 5R 6R", "7R 7A 7N")
    assert next_hand(again)[-1] == {"t": "hand_start", "hand": 2, "starter": 1}


def test_load_accepts_lists_of_ints() -> None:
    """Las fichas también como enteros, la forma del motor."""
    s = rummy.load({"racks": [tiles("10R J1"), tiles("1R")], "table": [tiles("4R 5R 6R")],
                    "pool": tiles("5N 6N")})  # fmt: skip
    assert rummy.dump(s)["racks"] == ["10R J1", "1R"] and rummy.dump(s)["pool"] == "5N 6N"
    assert table(s) == ["4R 5R 6R"]


# --- views -----------------------------------------------------------------------------


def test_view_shows_your_rack_and_only_counts_of_the_others() -> None:
    """DESIGN.md: «La información oculta se corta aquí y en ningún otro sitio.»"""
    s = pos("10R 2O 10N 10A", "1R 2R", table=["4R 5R 6R 7R"], pool="5N 6N")
    v0, v1, spectator = rummy.view(s, 0), rummy.view(s, 1), rummy.view(s, None)
    assert v0["rack"] == ["10R", "10A", "10N", "2O"] and v1["rack"] == ["1R", "2R"]
    assert spectator["rack"] is None and spectator["legal"] == []
    assert v0["counts"] == [4, 2] and v0["pool"] == 2 and v0["table"] == [["4R", "5R", "6R", "7R"]]
    assert v0["legal"] == [{"type": "draw"}] and v1["legal"] == []
    for v, hidden in ((v0, ["1R", "2R"]), (v1, ["10R", "10A", "2O"]), (spectator, ["1R", "10R"])):
        text = json.dumps(v)
        for code in [*hidden, "5N", "6N"]:
            assert f'"{code}"' not in text
    rummy.apply(s, 0, Draw())
    assert '"6N"' in json.dumps(rummy.view(s, 0)) and '"6N"' not in json.dumps(rummy.view(s, 1))


def test_log_keeps_the_last_12_public_events() -> None:
    """El registro de la mesa guarda los 12 últimos sucesos públicos."""
    s = pos("1R", "2R", pool=" ".join(["3N"] * 15))
    for _ in range(15):
        rummy.apply(s, s.turn, Draw())
    assert len(s.log) == 12 and all("secret" not in e for e in s.log)


# --- the seed's worked examples --------------------------------------------------------


def test_seed_example_10_10_10_is_a_30_point_meld() -> None:
    """«… las combinaciones nuevas deben sumar al menos 30 puntos, por ejemplo 10 rojo, 10 azul
    y 10 negro; todavía no puedes tocar las combinaciones de la mesa.»"""
    s = pos("10R 10A 10N 2O", "1R 2R", table=["4R 5R 6R 7R"], melded=[False, True], pool="5N 6N")
    refused(s, 0, lay("4R 5R 6R 7R", "10R 10A 10N 2O"), "invalid_set")
    events = play(s, 0, "4R 5R 6R 7R", "10R 10A 10N")
    assert events[0]["meld"] == 30 and s.melded == [True, True]
    assert table(s) == ["4R 5R 6R 7R", "10R 10A 10N"] and racks(s)[0] == "2O"


def test_seed_example_take_the_7_rojo_from_the_end_of_the_run() -> None:
    """«Después de la bajada inicial, puedes tomar el 7 rojo del final de la escalera roja 4–7
    de la mesa para formar un grupo con el 7 azul y el 7 negro, y el 4, 5 y 6 rojos siguen
    siendo válidos.»"""
    s = pos("7A 7N 2O", "1R 2R", table=["4R 5R 6R 7R"], melded=[True, False], pool="5N 6N")
    events = play(s, 0, "4R 5R 6R", "7R 7A 7N")
    assert events[0]["tiles"] == ["7A", "7N"]
    assert table(s) == ["4R 5R 6R", "7R 7A 7N"] and racks(s)[0] == "2O"
    assert all(rummy.analyze(x).valid for x in s.table)
    before = pos("7A 7N 2O", "1R 2R", table=["4R 5R 6R 7R"], pool="5N 6N")
    refused(before, 0, lay("4R 5R 6R", "7R 7A 7N"), "meld_touch")  # not before the meld


def test_seed_example_retrieving_a_joker() -> None:
    """«Para retirar un comodín de la mesa, debe quedar en la mesa la pieza que representa […]
    El comodín retirado no puede volver a tu atril: debes usarlo en una combinación de la mesa
    en ese mismo turno.»"""
    s = pos("7R 11N 12N 2O", "1R 2R", table=["4R 5R 6R J1", "8A 9A 10A"], melded=[True, False],
            pool="5N 6N")  # fmt: skip
    refused(s, 0, lay("4R 5R 6R 7R", "8A 9A 10A"), "table_tile_missing")
    refused(s, 0, lay("4R 5R 6R", "8A 9A 10A", "J1 11N 12N"), "joker_unbacked")
    play(s, 0, "4R 5R 6R 7R", "8A 9A 10A", "J1 11N 12N")
    assert table(s) == ["4R 5R 6R 7R", "8A 9A 10A", "J1 11N 12N"] and racks(s)[0] == "2O"


def test_check_says_how_each_set_reads() -> None:
    """The page shows a set as it reads: a run's numbers from lowest to highest, the jokers
    where they were put; a group as laid (``tidy``, None when the set already reads so)."""
    s = pos("4R 5R 6R J1 7A 7N 7O 1A", "1N", melded=[True, False])
    report = rummy.check(s, 0, lay("6R J1 4R", "7N 7A 7O", "5R").table)
    assert [x["tidy"] for x in report["sets"]] == [["4R", "J1", "6R"], None, None]
    assert rummy.tidy(tiles("6R 4R 5R")) == tuple(tiles("4R 5R 6R"))
