"""Every refusal of every game reads as a sentence in both languages: its parameters (a
card, a tile, a set of tiles, a colour, a step) named in words, never left as the code the
rules raised nor as a ``{placeholder}``.

The codes come from the registry (each game's ``messages`` and the shared ones); the values
tried for each parameter are below, by game, and a parameter with none is a failure (a new
refusal names its parameter here)."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from typing import Any

import pytest

from tapete.games import onecard, peaje
from tapete.games.protocol import GameSpec, IllegalMove
from tapete.games.rummy import SET_MESSAGES
from tapete.i18n import LANGS
from tapete.i18n.errors import COMMON
from tapete.registry import REGISTRY
from tapete.tiles import full_set, text


def _placeholders(msgid: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(msgid) if name]


def _combinations(msgid: str, values: dict[str, list[Any]]) -> Iterator[dict[str, Any]]:
    """Each value of each placeholder of ``msgid`` at least once (the others at their
    first value)."""
    names = _placeholders(msgid)
    missing = [n for n in names if n not in values]
    assert not missing, f"{msgid!r}: no values to try for {missing}"
    first = {n: values[n][0] for n in names}
    yield first
    for n in names:
        for v in values[n][1:]:
            yield {**first, n: v}


TILES = sorted({text(t) for t in full_set()})
"""Every tile's code: ``1R`` … ``13O``, ``J1``, ``J2``."""
SETS = [["8N", "9N", "J1"], ["7A", "7R", "7O"], ["J2", "12R", "13R"], ["5O"]]
CARDS = [r + s for r in onecard.RANK_CODES for s in onecard.SUIT_CODES] + list(onecard.JOKER_CODES)
SET_PARAMS: dict[str, list[Any]] = {
    "set": SETS,
    "n": [6],
    "count": [5],
    "colour": list("RANO"),
    "run_colour": list("RANO"),
    "shown": ["4-5-7"],
}
"""What a set's reason carries (:func:`tapete.games.rummy.sets.reason`)."""


def _reasons() -> Iterator[dict[str, Any]]:
    for code, msgid in SET_MESSAGES.items():
        for params in _combinations(msgid, SET_PARAMS):
            yield {"code": code, "params": params}


SHARED: dict[str, list[Any]] = {
    "field": ["card"],
    "detail": ["seat"],
    "type": ["dance"],
    "got": [3],
    "current": [5],
    "player": ["Ana"],
}
VALUES: dict[str, dict[str, list[Any]]] = {
    "rummy": {
        "tile": TILES,
        "tiles": [["5N", "5O"], ["J1"], *[[t] for t in TILES]],
        "set": SETS,
        "reason": list(_reasons()),
        "points": [21],
        "needed": [30],
    },
    "onecard": {
        "card": CARDS,
        "suit": [*onecard.SUIT_CODES, "*"],
        "rank": [*onecard.RANK_CODES, "JK"],
        "attacker": ["K", "A", "2", "JK"],
        "attack": [3],
    },
    "peaje": {"step": list(peaje.STEPS)},
    "guerra": {},
}
"""The values each game's refusals carry, by parameter (the rules' codes)."""

RAW_CODES = {
    "rummy": (re.compile(r"\b(?:1[0-3]|[1-9])[RANO]\b|\bJ[12]\b"), LANGS),
    "onecard": (re.compile(r"\b(?:10|[2-9JQKA])[HDCS]\b|\bJK[12]?\b"), LANGS),
    "peaje": (re.compile(r"\b(?:answer|reveal|mark|miss|toll|over)\b"), ("es",)),
    "guerra": (re.compile(r"(?!)"), ()),
}
"""A piece (or a step) as the rules write it, which no sentence may show: where (a step's
code is an English word)."""


def _cases() -> Iterator[Any]:
    for key, found in REGISTRY.items():
        values = {**SHARED, **VALUES[key]}
        messages = {**COMMON, **found.game.messages}
        for code, msgid in messages.items():
            yield pytest.param(found.game, code, msgid, values, id=f"{key}-{code}")


@pytest.mark.parametrize(("spec", "code", "msgid", "values"), list(_cases()))
def test_every_refusal_reads_in_words_in_both_languages(
    spec: GameSpec[Any, Any, Any], code: str, msgid: str, values: dict[str, list[Any]]
) -> None:
    raw, where = RAW_CODES[spec.key]
    for params in _combinations(msgid, values):
        for lang in LANGS:
            words = spec.describe(IllegalMove(code, **params), lang)
            assert "{" not in words and "}" not in words, (lang, params, words)
            assert "?" not in words.replace("¿", "") or msgid.rstrip().endswith("?"), words
            shown = lang in where and raw.search(words)
            assert not shown, f"{lang}: {words!r} shows a code ({params})"


def _rummy(lang: str, code: str, **params: Any) -> str:
    return REGISTRY["rummy"].game.describe(IllegalMove(code, **params), lang)


def test_rummy_names_a_sets_tiles_in_spanish_as_in_english() -> None:
    why = {"code": "too_short", "params": {"set": ["9N", "J1"]}}
    assert _rummy("es", "invalid_set", reason=why) == (
        "«9 negro, comodín»: una combinación necesita 3 fichas o más."
    )
    assert _rummy("en", "invalid_set", reason=why) == (
        "«black 9, joker»: a set needs 3 or more tiles."
    )


@pytest.mark.parametrize(
    ("code", "es", "en"),
    [
        ("9N", "9 negro", "black 9"),
        ("10R", "10 rojo", "red 10"),
        ("1A", "1 azul", "blue 1"),
        ("13O", "13 naranja", "orange 13"),
        ("J2", "comodín", "joker"),
    ],
)
def test_every_colour_and_the_joker_in_a_set_are_words(code: str, es: str, en: str) -> None:
    why = {"code": "mixed", "params": {"set": ["5A", code]}}
    assert f"«5 azul, {es}»" in _rummy("es", "invalid_set", reason=why)
    assert f"blue 5, {en}" in _rummy("en", "invalid_set", reason=why)
