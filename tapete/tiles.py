"""Rummy tiles: numbers 1–13 in four colours, two of each, and two jokers (106 in all).

A tile is written by its face: the number and the colour's initial — ``R`` rojo,
``A`` azul, ``N`` negro, ``O`` naranja — or ``J1``/``J2`` for the jokers:

>>> t = tile("10R"); t, text(t), name(t)
(9, '10R', '10 rojo')
>>> [text(x) for x in tiles("1A 13O J2")]
['1A', '13O', 'J2']

As an int, a numbered tile is ``colour * 13 + number - 1`` (0..51) and the jokers are 52
and 53. The two copies of a numbered tile are the same face: a rack or a table is a list
of faces, and ``Counter`` compares them.
"""

from __future__ import annotations

from typing import Final

COLOURS: Final = "RANO"
COLOUR_NAMES: Final = ("rojo", "azul", "negro", "naranja")
COLOUR_MARKS: Final = ("●", "■", "▲", "◆")
"""A shape per colour, so colour-blind players can tell them apart."""
JOKERS: Final = (52, 53)
JOKER_POINTS: Final = 30


class TileParseError(ValueError):
    pass


def is_joker(t: int) -> bool:
    return t >= 52


def number(t: int) -> int:
    """1..13; 0 for a joker."""
    return 0 if t >= 52 else t % 13 + 1


def colour(t: int) -> int:
    """0..3; -1 for a joker."""
    return -1 if t >= 52 else t // 13


def make(c: int, n: int) -> int:
    return c * 13 + n - 1


def tile(s: str) -> int:
    u = s.strip().upper()
    if u in ("J1", "J2", "JK1", "JK2"):
        return 52 + int(u[-1]) - 1
    if len(u) < 2 or u[-1] not in COLOURS or not u[:-1].isdigit():
        raise TileParseError(f"no es una ficha: {s!r}")
    n = int(u[:-1])
    if not 1 <= n <= 13:
        raise TileParseError(f"no es una ficha: {s!r}")
    return make(COLOURS.index(u[-1]), n)


def tiles(s: str) -> list[int]:
    return [tile(x) for x in s.replace(",", " ").split()]


def text(t: int) -> str:
    if t >= 52:
        return f"J{t - 51}"
    return f"{t % 13 + 1}{COLOURS[t // 13]}"


def fmt(ts: list[int]) -> str:
    return " ".join(text(t) for t in ts)


def name(t: int) -> str:
    """Spanish: ``"7 azul"``, ``"comodín"``."""
    if t >= 52:
        return "comodín"
    return f"{t % 13 + 1} {COLOUR_NAMES[t // 13]}"


def points(t: int) -> int:
    """What a tile costs on a rack at the end of a hand: its number, a joker 30."""
    return JOKER_POINTS if t >= 52 else t % 13 + 1


def full_set() -> list[int]:
    """The 106 tiles: each of the 52 faces twice, and the two jokers."""
    return [t for t in range(52) for _ in range(2)] + list(JOKERS)
