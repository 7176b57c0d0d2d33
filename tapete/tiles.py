"""Rummy tiles: numbers 1–13 in four colours, two of each, and two jokers (106 in all).

A tile is written by its face: the number and the colour's initial — ``R`` rojo,
``A`` azul, ``N`` negro, ``O`` naranja — or ``J1``/``J2`` for the jokers:

>>> t = tile("10R"); t, text(t)
(9, '10R')
>>> [text(x) for x in tiles("1A 13O J2")]
['1A', '13O', 'J2']
>>> Tile.from_wire("J1"), Tile.from_wire("7a").to_wire()
(Tile('J1'), '7A')

As an int, a numbered tile is ``colour * 13 + number - 1`` (0..51) and the jokers are 52
and 53. The two copies of a numbered tile are the same face: a rack or a table is a list
of faces, and ``Counter`` compares them.

On the wire a tile is its code: :class:`Tile` (an ``int``) reads and writes it, for the
codecs of moves; :class:`Tiles` is several tiles written as one string (a rack, a set, the
pool), for positions. Names of tiles for players are the game's (``tapete.games.rummy.names``),
in the catalog.
"""

from __future__ import annotations

from typing import Any, Final

COLOURS: Final = "RANO"
COLOUR_MARKS: Final = ("●", "■", "▲", "◆")
"""A shape per colour, so colour-blind players can tell them apart."""
JOKERS: Final = (52, 53)
JOKER_POINTS: Final = 30


class TileParseError(ValueError):
    pass


class Tile(int):
    """A tile as the codecs read and write it: its code on the wire, an ``int`` inside."""

    __slots__ = ()

    @classmethod
    def from_wire(cls, obj: Any) -> Tile:
        if not isinstance(obj, str):
            raise TileParseError(f"not a tile: {obj!r}")
        return cls(tile(obj))

    def to_wire(self) -> str:
        return text(self)

    def __repr__(self) -> str:
        return f"Tile({text(self)!r})"


class Tiles:
    """Several tiles as one string on the wire (``"10R 7A J1"``; a list of ints is read
    too, the engine's own form): a rack, a table set or the pool of a position."""

    __slots__ = ("tiles",)

    def __init__(self, ts: list[int]) -> None:
        self.tiles = ts

    @classmethod
    def from_wire(cls, obj: Any) -> Tiles:
        if isinstance(obj, str):
            return cls(tiles(obj))
        if isinstance(obj, list | tuple) and all(
            isinstance(t, int) and not isinstance(t, bool) and 0 <= t < 54 for t in obj
        ):
            return cls([int(t) for t in obj])
        raise TileParseError(f"not tiles: {obj!r}")

    def to_wire(self) -> str:
        return fmt(self.tiles)


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
        raise TileParseError(f"not a tile: {s!r}")
    n = int(u[:-1])
    if not 1 <= n <= 13:
        raise TileParseError(f"not a tile: {s!r}")
    return make(COLOURS.index(u[-1]), n)


def tiles(s: str) -> list[int]:
    return [tile(x) for x in s.replace(",", " ").split()]


def text(t: int) -> str:
    if t >= 52:
        return f"J{t - 51}"
    return f"{t % 13 + 1}{COLOURS[t // 13]}"


def fmt(ts: list[int]) -> str:
    return " ".join(text(t) for t in ts)


def points(t: int) -> int:
    """What a tile costs on a rack at the end of a hand: its number, a joker 30."""
    return JOKER_POINTS if t >= 52 else t % 13 + 1


def full_set() -> list[int]:
    """The 106 tiles: each of the 52 faces twice, and the two jokers."""
    return [t for t in range(52) for _ in range(2)] + list(JOKERS)
