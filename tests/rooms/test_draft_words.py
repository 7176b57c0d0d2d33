"""The room words a draft's report in the player's language: every problem of the table in
the making (why a set is not valid, which rule the turn breaks) reaches the page as a
sentence, written once by the game's catalog (``SPEC.messages``, ``sets.MESSAGES`` and the
names of tiles), so the page holds no copy of them."""

from __future__ import annotations

from typing import Any

import pytest

from tapete.games.rummy.sets import MESSAGES as SET_MESSAGES
from tapete.registry import REGISTRY
from tests.lives import Lives

G0 = "guest-zero-000"
UNMELDED = {"racks": ["10R 10A 10N 2O", "1R 2R 3R"], "pool": "5N 6N 7N", "table": ["4R 5R 6R"],
            "melded": [False, True]}  # fmt: skip
MELDED = {"racks": ["9A 10A 3R 1N", "1R"], "pool": "5N", "table": ["J1 4R 5R 6R"],
          "melded": [True, False]}  # fmt: skip

# one set for each reason a set is not valid, and how it reads in Spanish and in English
SETS: dict[str, tuple[list[str], str, str]] = {
    "too_short": (
        ["10R", "10A"],
        "«10 rojo, 10 azul»: una combinación necesita 3 fichas o más.",
        "«red 10, blue 10»: a set needs 3 or more tiles.",
    ),
    "mixed": (
        ["5R", "6A", "6N"],
        "«5 rojo, 6 azul, 6 negro» no es ni un grupo ni una escalera.",
        "«red 5, blue 6, black 6» is neither a group nor a run.",
    ),
    "group_too_long": (
        ["5R", "5A", "5N", "5O", "J1"],
        "El grupo de 5 tiene 5 fichas: 4 como mucho.",
        "The group of 5s has 5 tiles: 4 at most.",
    ),
    "group_repeated_colour": (
        ["5R", "5R", "5A"],
        "El grupo de 5 tiene dos 5 rojo: los colores no se repiten.",
        "The group of 5s has two red 5s: colours can't repeat.",
    ),
    "run_colours": (
        ["4R", "5A", "6N"],
        "«4 rojo, 5 azul, 6 negro»: una escalera es de un solo color.",
        "«red 4, blue 5, black 6»: a run is all one colour.",
    ),
    "run_gap": (
        ["4R", "5R", "7R"],
        "La escalera roja 4-5-7 no es válida: falta el 6.",
        "The red run 4-5-7 isn't valid: the 6 is missing.",
    ),
    "run_crowded": (
        ["4A", "J1", "5A"],
        "La escalera azul 4-J-5 no es válida: sobran fichas entre los números.",
        "The blue run 4-J-5 isn't valid: too many tiles between the numbers.",
    ),
    "run_repeat": (
        ["4N", "4N", "5N"],
        "La escalera negra 4-4-5 repite un número.",
        "The black run 4-4-5 repeats a number.",
    ),
    "run_order": (
        ["5O", "4O", "6O"],
        "La escalera naranja 5-4-6 no va en orden: de menor a mayor.",
        "The orange run 5-4-6 is out of order: lowest to highest.",
    ),
    "run_low": (
        ["J1", "1R", "2R"],
        "La escalera roja J-1-2 no es válida: antes del 1 no va nada.",
        "The red run J-1-2 isn't valid: nothing comes before the 1.",
    ),
    "run_high": (
        ["12O", "13O", "J1"],
        "La escalera naranja 12-13-J no es válida: después del 13 no va nada.",
        "The orange run 12-13-J isn't valid: nothing comes after the 13.",
    ),
}

# drafts that break each rule of a turn, and the sentences of their errors
ERRORS: list[tuple[dict[str, Any], list[list[str]], list[tuple[str, str, str]]]] = [
    (UNMELDED, [], [
        ("table_tile_missing",
         "Falta en la mesa el 4 rojo: lo que estaba no puede volver al atril.",
         "The red 4 is missing from the table: tiles that were there can't go back to a rack."),
        ("meld_touch",
         "Antes de tu bajada inicial no puedes tocar la mesa: solo combinaciones nuevas de tu "
         "atril.",
         "Until your initial meld you can't touch the table: only new sets from your rack."),
    ]),
    (UNMELDED, [["4R", "5R", "6R"]], [
        ("no_new_tile", "Tienes que poner al menos una ficha de tu atril.",
         "You must lay down at least one tile from your rack."),
    ]),
    (UNMELDED, [["4R", "5R", "6R"], ["10R", "10A"]], [
        ("invalid_set", "«10 rojo, 10 azul»: una combinación necesita 3 fichas o más.",
         "«red 10, blue 10»: a set needs 3 or more tiles."),
        ("meld_short", "Tu bajada suma 0: hacen falta 30 o más.",
         "Your meld is worth 0: you need 30 or more."),
    ]),
    (UNMELDED, [["4R", "5R", "6R"], ["5N", "6N", "7N"]], [
        ("not_in_rack", "No tienes el 5 negro en tu atril.",
         "You don't have the black 5 on your rack."),
    ]),
    (MELDED, [["4R", "5R", "6R"], ["J1", "9A", "10A"]], [
        ("joker_unbacked", "Para retirar el comodín hace falta dejar en la mesa el 3 rojo.",
         "To take the joker you must leave the red 3 on the table."),
    ]),
]  # fmt: skip


def test_every_reason_a_set_may_have_is_here() -> None:
    assert set(SETS) == set(SET_MESSAGES)


def test_every_rule_a_draft_may_break_is_here() -> None:
    spec = REGISTRY["rummy"].game
    codes = {code for _, _, errors in ERRORS for code, _, _ in errors}
    drafting = {"invalid_set", "table_tile_missing", "not_in_rack", "no_new_tile",
                "meld_touch", "meld_short", "joker_unbacked"}  # fmt: skip
    assert codes == drafting and drafting <= set(spec.messages)


@pytest.mark.parametrize("lang", ["es", "en"])
async def test_each_set_says_why_it_is_not_valid(lives: Lives, lang: str) -> None:
    live = lives()
    room = await live.tables.create("rummy", {}, G0, position=UNMELDED)
    draft = [["4R", "5R", "6R"]] + [tiles for tiles, _, _ in SETS.values()]
    report = room.check_draft(G0, draft, lang)["report"]
    sets = report["sets"]
    assert sets[0]["valid"] and sets[0]["why"] is None
    for (code, (_, es, en)), info in zip(SETS.items(), sets[1:], strict=True):
        assert info["reason"]["code"] == code
        assert info["why"] == (es if lang == "es" else en), code
    worded = [e["message"] for e in report["errors"] if e["code"] == "invalid_set"]
    assert worded == [es if lang == "es" else en for _, es, en in SETS.values()]


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize(("position", "draft", "errors"), ERRORS)
async def test_each_broken_rule_is_a_sentence(
    lives: Lives,
    lang: str,
    position: dict[str, Any],
    draft: list[list[str]],
    errors: list[tuple[str, str, str]],
) -> None:
    live = lives()
    room = await live.tables.create("rummy", {}, G0, position=position)
    report = room.check_draft(G0, draft, lang)["report"]
    assert [(e["code"], e["message"]) for e in report["errors"]] == [
        (code, es if lang == "es" else en) for code, es, en in errors
    ]
