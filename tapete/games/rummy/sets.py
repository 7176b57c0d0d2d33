"""Groups and runs: is a set valid, what is it worth, and what does each joker stand for.

Why a set is not valid is a code and its parameters (tile codes, numbers, a colour's
code); :data:`MESSAGES` gives each its Spanish message id, and the page and the refusals
name the parameters in the player's language (:mod:`tapete.games.rummy.names`).

>>> analyze(tiles("10R 10A 10N")).value
30
>>> i = analyze(tiles("4R 5R 7R")); i.code, reason(i)
('run_gap', {'code': 'run_gap', 'params': {'run_colour': 'R', 'shown': '4-5-7', 'n': 6}})
>>> sorted(analyze(tiles("J1 5A 6A")).meanings[0])
[(1, 4)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from tapete.i18n import N_
from tapete.tiles import COLOURS, text, tiles

Meaning = frozenset[tuple[int, int]]
"""What a joker may stand for: (colour, number) pairs. A run's joker stands for exactly
one; a group's for its number in any colour missing from the group."""

MESSAGES: Final = {
    "too_short": N_("«{set}»: una combinación necesita 3 fichas o más."),
    "mixed": N_("«{set}» no es ni un grupo ni una escalera."),
    "group_too_long": N_("El grupo de {n} tiene {count} fichas: 4 como mucho."),
    "group_repeated_colour": N_(
        "El grupo de {n} tiene dos {n} {colour}: los colores no se repiten."
    ),
    "run_colours": N_("«{set}»: una escalera es de un solo color."),
    "run_gap": N_("La escalera {run_colour} {shown} no es válida: falta el {n}."),
    "run_crowded": N_(
        "La escalera {run_colour} {shown} no es válida: sobran fichas entre los números."
    ),
    "run_repeat": N_("La escalera {run_colour} {shown} repite un número."),
    "run_order": N_("La escalera {run_colour} {shown} no va en orden: de menor a mayor."),
    "run_low": N_("La escalera {run_colour} {shown} no es válida: antes del 1 no va nada."),
    "run_high": N_("La escalera {run_colour} {shown} no es válida: después del 13 no va nada."),
}
"""Why a set is not valid: code → Spanish message id."""


@dataclass(frozen=True, slots=True)
class SetInfo:
    valid: bool
    kind: str = ""
    """``"group"`` or ``"run"`` (when it could be read as one)."""
    value: int = 0
    code: str = ""
    """Why it is not valid: a stable code (a key of :data:`MESSAGES`)."""
    params: dict[str, Any] = field(default_factory=dict)
    """The code's parameters, as the engine has them (``set``: the tiles; ``colour`` and
    ``run_colour``: a colour's index); :func:`reason` writes them as codes."""
    meanings: dict[int, Meaning] = field(default_factory=dict)
    """By position in the set: what the joker there stands for."""


def reason(info: SetInfo) -> dict[str, Any] | None:
    """Why a set is not valid, for the wire: ``{"code", "params"}`` with tile codes and
    colour codes; None for a valid set."""
    if info.valid:
        return None
    params = dict(info.params)
    if "set" in params:
        params["set"] = [text(t) for t in params["set"]]
    for key in ("colour", "run_colour"):
        if key in params:
            params[key] = COLOURS[params[key]]
    return {"code": info.code, "params": params}


def _bad(kind: str, code: str, **params: Any) -> SetInfo:
    return SetInfo(valid=False, kind=kind, code=code, params=params)


def _shown(ts: list[int] | tuple[int, ...]) -> str:
    return "-".join(str(t % 13 + 1) if t < 52 else "J" for t in ts)


def analyze(ts: list[int] | tuple[int, ...]) -> SetInfo:
    """Check one set as laid down (its order matters for runs)."""
    n = len(ts)
    numbered = [t for t in ts if t < 52]
    if n < 3:
        return _bad("", "too_short", set=tuple(ts))
    if not numbered:
        return _bad("", "mixed", set=tuple(ts))
    if len(numbered) >= 2 and len({t % 13 for t in numbered}) == 1:
        return _group(ts, numbered)
    return _run(ts, numbered)


def _group(ts: list[int] | tuple[int, ...], numbered: list[int]) -> SetInfo:
    num = numbered[0] % 13 + 1
    if len(ts) > 4:
        return _bad("group", "group_too_long", n=num, count=len(ts))
    colours = [t // 13 for t in numbered]
    for c in set(colours):
        if colours.count(c) > 1:
            return _bad("group", "group_repeated_colour", n=num, colour=c)
    missing = frozenset((c, num) for c in range(4) if c not in colours)
    meanings = {i: missing for i, t in enumerate(ts) if t >= 52}
    return SetInfo(valid=True, kind="group", value=num * len(ts), meanings=meanings)


def _run(ts: list[int] | tuple[int, ...], numbered: list[int]) -> SetInfo:
    colours = {t // 13 for t in numbered}
    if len(colours) > 1:
        if len({t % 13 for t in numbered}) < len(numbered):
            return _bad("", "mixed", set=tuple(ts))
        return _bad("run", "run_colours", set=tuple(ts))
    colour = numbered[0] // 13
    bases = {t % 13 + 1 - i for i, t in enumerate(ts) if t < 52}
    if len(bases) > 1:
        values = [t % 13 + 1 for t in numbered]
        if values == sorted(values) and len(set(values)) == len(values):
            gap = _first_gap(ts)
            if gap:
                return _bad("run", "run_gap", run_colour=colour, shown=_shown(ts), n=gap)
            return _bad("run", "run_crowded", run_colour=colour, shown=_shown(ts))
        if len(set(values)) < len(values):
            return _bad("run", "run_repeat", run_colour=colour, shown=_shown(ts))
        return _bad("run", "run_order", run_colour=colour, shown=_shown(ts))
    base = bases.pop()
    top = base + len(ts) - 1
    if base < 1:
        return _bad("run", "run_low", run_colour=colour, shown=_shown(ts))
    if top > 13:
        return _bad("run", "run_high", run_colour=colour, shown=_shown(ts))
    meanings = {i: frozenset({(colour, base + i)}) for i, t in enumerate(ts) if t >= 52}
    value = sum(range(base, top + 1))
    return SetInfo(valid=True, kind="run", value=value, meanings=meanings)


def _first_gap(ts: list[int] | tuple[int, ...]) -> int | None:
    """The first number missing between consecutive numbered tiles (jokers fill a place)."""
    prev: tuple[int, int] | None = None
    for i, t in enumerate(ts):
        if t >= 52:
            continue
        n = t % 13 + 1
        if prev is not None and n - prev[1] > i - prev[0]:
            return prev[1] + (i - prev[0])
        prev = (i, n)
    return None


def tidy(ts: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """The set in the order a player means it: a group as laid; otherwise the numbered
    tiles from lowest to highest, the jokers where they were put (what the page does to a
    draft's set after each change).

    >>> text_of = lambda ts: " ".join(text(t) for t in ts)
    >>> text_of(tidy(tiles("6R J1 4R"))), text_of(tidy(tiles("7A 7R 7N")))
    ('4R J1 6R', '7A 7R 7N')
    """
    numbered = [t for t in ts if t < 52]
    if len(numbered) >= 2 and len({t % 13 for t in numbered}) == 1:
        return tuple(ts)
    order = iter(sorted(numbered, key=lambda t: t % 13))
    return tuple(t if t >= 52 else next(order) for t in ts)


__all__ = ["MESSAGES", "Meaning", "SetInfo", "analyze", "reason", "tidy", "tiles"]
