"""Tiles, colours and sets named in the player's language (the catalog's ``rummy`` domain).

The rules write codes (``"10R"``, ``"J1"``, a colour's initial); these name them for a
sentence. Each takes the language's ``gettext``; the page receives them from here, in the
player's language (:func:`page_words`), and holds no copy::

>>> from tapete.i18n import translations
>>> es, en = translations("es", "rummy").gettext, translations("en", "rummy").gettext
>>> the_tile("10R", es), the_tile("10R", en), the_tile("J2", en)
('el 10 rojo', 'the red 10', 'the joker')
>>> tile_name("7A", es), tile_name("7A", en)
('7 azul', 'blue 7')
>>> set_text(["8N", "9N", "J1"], es), set_text(["8N", "9N", "J1"], en)
('8 negro, 9 negro, comodín', 'black 8, black 9, joker')
>>> either(["5N", "5O"], es), run_colour("N", es), colour("N", en)
('el 5 negro o el 5 naranja', 'negra', 'black')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from tapete.i18n import N_
from tapete.tiles import COLOUR_MARKS, COLOURS

Gettext = Callable[[str], str]

COLOUR: Final = {"R": N_("rojo"), "A": N_("azul"), "N": N_("negro"), "O": N_("naranja")}
"""A colour as an adjective of a tile (masculine in Spanish: «el 7 rojo»)."""
RUN_COLOUR: Final = {"R": N_("roja"), "A": N_("azul"), "N": N_("negra"), "O": N_("naranja")}
"""A colour as an adjective of a run (feminine in Spanish: «la escalera roja»)."""
TILE: Final = {"R": N_("{n} rojo"), "A": N_("{n} azul"), "N": N_("{n} negro"),
               "O": N_("{n} naranja")}  # fmt: skip
"""A tile's name: «7 azul», "blue 7"."""
THE_TILE: Final = {"R": N_("el {n} rojo"), "A": N_("el {n} azul"), "N": N_("el {n} negro"),
                   "O": N_("el {n} naranja")}  # fmt: skip
"""A tile's name in a sentence, with its article: «el 7 azul», "the blue 7"."""
JOKER: Final = N_("comodín")
THE_JOKER: Final = N_("el comodín")
NEXT_IN_SET: Final = N_("{tiles}, {tile}")
"""How a set's tiles follow one another in a sentence («8 negro, 9 negro»)."""
EITHER: Final = N_("{a} o {b}")


def _split(code: str) -> tuple[str, str]:
    """``"10R"`` → ``("10", "R")``; a joker → ``("", "1")``."""
    return ("", code[-1]) if code.startswith("J") else (code[:-1], code[-1])


def tile_name(code: str, gettext: Gettext) -> str:
    n, c = _split(code)
    return gettext(JOKER) if not n else gettext(TILE[c]).format(n=n)


def the_tile(code: str, gettext: Gettext) -> str:
    n, c = _split(code)
    return gettext(THE_JOKER) if not n else gettext(THE_TILE[c]).format(n=n)


def set_text(codes: Sequence[str], gettext: Gettext) -> str:
    """A set's tiles, each by its name, in the set's order."""
    out = ""
    for code in codes:
        word = tile_name(code, gettext)
        out = word if not out else gettext(NEXT_IN_SET).format(tiles=out, tile=word)
    return out


def either(codes: Sequence[str], gettext: Gettext) -> str:
    """One tile, or the two a group's joker may stand for: «el 5 negro o el 5 naranja»."""
    names = [the_tile(c, gettext) for c in codes]
    return names[0] if len(names) == 1 else gettext(EITHER).format(a=names[0], b=names[1])


def colour(code: str, gettext: Gettext) -> str:
    return gettext(COLOUR[code])


def run_colour(code: str, gettext: Gettext) -> str:
    return gettext(RUN_COLOUR[code])


def page_words(gettext: Gettext) -> dict[str, Any]:
    """What Rummy's page names and draws tiles with (``SPEC.page_words``), by colour code:
    a tile's name (``tile``: «{n} azul») and with its article (``the_tile``: «el {n} azul»),
    the joker's (``joker``, ``the_joker``), each colour's mark (``marks``) and the colours
    in a rack's order (``colours``). The page fills in the number: the words name no tile.

    >>> words = page_words(lambda m: m)
    >>> words["tile"]["A"], words["the_joker"], words["marks"]["R"], words["colours"]
    ('{n} azul', 'el comodín', '●', 'RANO')
    """
    return {
        "tile": {c: gettext(TILE[c]) for c in COLOURS},
        "the_tile": {c: gettext(THE_TILE[c]) for c in COLOURS},
        "joker": gettext(JOKER),
        "the_joker": gettext(THE_JOKER),
        "marks": dict(zip(COLOURS, COLOUR_MARKS, strict=True)),
        "colours": COLOURS,
    }


def colour_code(c: int) -> str:
    """A colour's index (0..3) as its code on the wire."""
    return COLOURS[c]


NAMERS: Final[dict[str, Callable[[Any, Gettext], str]]] = {
    "tile": the_tile,
    "tiles": either,
    "set": set_text,
    "colour": colour,
    "run_colour": run_colour,
}
"""How each parameter of a refusal or a set's reason is named."""
