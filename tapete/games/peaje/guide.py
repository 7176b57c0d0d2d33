"""Numbers for El Peaje's guide pages, computed by the rules engine (never typed by hand).

The page «los cálculos de mayor o menor» works a few examples; each is a small route built
here and counted with :func:`tapete.games.peaje.game.odds`, so the guide can't drift from the
odds panel of the game.

>>> first = examples()[0]
>>> first["key"], first["total"], [(a["answer"], a["count"]) for a in first["answers"]]
('inicio-6', 51, [('mayor', 32), ('menor', 16), ('tie', 3)])
>>> first["answers"][0]["fraction"], round(first["answers"][0]["share"], 4)
('32/51', 0.6275)

The numbers are numbers: the page formats them in its reader's language (``|percent``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Final

from tapete.cards import parse_cards
from tapete.games.peaje.game import Route, odds, unseen

EXAMPLES: Final = (
    # key, question, cards on the route (initial first), cards turned and removed
    ("inicio-6", "mayor_menor", "6H", ""),
    ("vistas-6", "mayor_menor", "6H", "10C KD 8S 3H"),
    ("as", "mayor_menor", "AS", ""),
    ("dos", "mayor_menor", "2D", ""),
    ("redonda-picuda", "redonda_picuda", "6H 10C", ""),
    ("palo", "palo", "6H 10C 3C 9D", "JS"),
)
"""The worked examples of the guide, in the order the page shows them."""


def _example(key: str, q: str, on_route: str, removed: str) -> dict[str, Any]:
    cards = parse_cards(on_route)
    gone = parse_cards(removed)
    route = Route(deck=[], cards=cards, revealed=cards[1:] + gone)
    counted = odds(route, q)
    total = len(unseen(route))
    answers = []
    for answer, o in counted.items():
        raw = f"{o['count']}/{total}"
        answers.append(
            {
                "answer": answer,
                "count": o["count"],
                "raw": raw,
                "fraction": o["fraction"],
                "reduced": o["count"] > 0 and o["fraction"] != raw,
                "percent": o["percent"],
                "share": float(Fraction(o["fraction"])),
            }
        )
    most = max(a["count"] for a in answers if a["answer"] != "tie")
    return {
        "key": key,
        "question": q,
        "route": [str(c) for c in cards],
        "reference": str(cards[-1]),
        "removed": [str(c) for c in gone],
        "seen": [str(c) for c in cards + gone],
        "total": total,
        "answers": answers,
        "counts": {a["answer"]: a["count"] for a in answers},
        "best": [a["answer"] for a in answers if a["answer"] != "tie" and a["count"] == most],
        "sum": " + ".join(str(a["count"]) for a in answers) + f" = {total}",
    }


def examples() -> list[dict[str, Any]]:
    """The guide's worked examples: for each, the cards in sight, how many remain, and for
    every answer its count, its fraction (over the cards left, and reduced as the game shows
    it), its chance as a number from 0 to 1 (``share``, for the page's ``|percent``) and as
    the odds panel's rounded percentage (``percent``, the width of its bar); ``best`` lists
    the answers with most cards."""
    return [_example(*example) for example in EXAMPLES]
