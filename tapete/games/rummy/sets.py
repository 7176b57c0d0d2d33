"""Groups and runs: is a set valid, what is it worth, and what does each joker stand for.

>>> analyze(tiles("10R 10A 10N")).value
30
>>> analyze(tiles("4R 5R 7R")).reason
'La escalera roja 4-5-7 no es válida: falta el 6.'
>>> sorted(analyze(tiles("J1 5A 6A")).meanings[0])
[(1, 4)]
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tapete.tiles import COLOUR_NAMES, fmt, tiles

Meaning = frozenset[tuple[int, int]]
"""What a joker may stand for: (colour, number) pairs. A run's joker stands for exactly
one; a group's for its number in any colour missing from the group."""

RUN_COLOUR = ("roja", "azul", "negra", "naranja")


@dataclass(frozen=True, slots=True)
class SetInfo:
    valid: bool
    kind: str = ""
    """``"group"`` or ``"run"`` (when it could be read as one)."""
    value: int = 0
    code: str = ""
    """Why it is not valid: a stable code."""
    reason: str = ""
    """Why it is not valid, for the player."""
    meanings: dict[int, Meaning] = field(default_factory=dict)
    """By position in the set: what the joker there stands for."""


def _bad(kind: str, code: str, reason: str) -> SetInfo:
    return SetInfo(valid=False, kind=kind, code=code, reason=reason)


def analyze(ts: list[int] | tuple[int, ...]) -> SetInfo:
    """Check one set as laid down (its order matters for runs)."""
    n = len(ts)
    numbered = [t for t in ts if t < 52]
    if n < 3:
        return _bad("", "too_short", f"«{fmt(list(ts))}»: una combinación necesita 3 fichas o más.")
    if not numbered:
        return _bad("", "mixed", f"«{fmt(list(ts))}» no es ni un grupo ni una escalera.")
    if len(numbered) >= 2 and len({t % 13 for t in numbered}) == 1:
        return _group(ts, numbered)
    return _run(ts, numbered)


def _group(ts: list[int] | tuple[int, ...], numbered: list[int]) -> SetInfo:
    num = numbered[0] % 13 + 1
    if len(ts) > 4:
        return _bad(
            "group", "group_too_long", f"El grupo de {num} tiene {len(ts)} fichas: 4 como mucho."
        )
    colours = [t // 13 for t in numbered]
    for c in set(colours):
        if colours.count(c) > 1:
            return _bad(
                "group", "group_repeated_colour",
                f"El grupo de {num} tiene dos {num} {COLOUR_NAMES[c]}: los colores no se repiten.",
            )  # fmt: skip
    missing = frozenset((c, num) for c in range(4) if c not in colours)
    meanings = {i: missing for i, t in enumerate(ts) if t >= 52}
    return SetInfo(valid=True, kind="group", value=num * len(ts), meanings=meanings)


def _run(ts: list[int] | tuple[int, ...], numbered: list[int]) -> SetInfo:
    colours = {t // 13 for t in numbered}
    if len(colours) > 1:
        if len({t % 13 for t in numbered}) < len(numbered):
            return _bad("", "mixed", f"«{fmt(list(ts))}» no es ni un grupo ni una escalera.")
        return _bad("run", "run_colours", f"«{fmt(list(ts))}»: una escalera es de un solo color.")
    colour = numbered[0] // 13
    label = f"La escalera {RUN_COLOUR[colour]}"
    bases = {t % 13 + 1 - i for i, t in enumerate(ts) if t < 52}
    shown = "-".join(str(t % 13 + 1) if t < 52 else "J" for t in ts)
    if len(bases) > 1:
        values = [t % 13 + 1 for t in numbered]
        if values == sorted(values) and len(set(values)) == len(values):
            gap = _first_gap(ts)
            return _bad(
                "run", "run_gap", f"{label} {shown} no es válida: falta el {gap}."
                if gap else f"{label} {shown} no es válida: sobran fichas entre los números.",
            )  # fmt: skip
        if len(set(values)) < len(values):
            return _bad("run", "run_repeat", f"{label} {shown} repite un número.")
        return _bad("run", "run_order", f"{label} {shown} no va en orden: de menor a mayor.")
    base = bases.pop()
    top = base + len(ts) - 1
    if base < 1:
        return _bad("run", "run_low", f"{label} {shown} no es válida: antes del 1 no va nada.")
    if top > 13:
        return _bad("run", "run_high", f"{label} {shown} no es válida: después del 13 no va nada.")
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


def describe(ts: list[int] | tuple[int, ...]) -> str:
    info = analyze(ts)
    if info.kind == "group" and info.valid:
        return f"el grupo de {next(t % 13 + 1 for t in ts if t < 52)}"
    if info.kind == "run" and info.valid:
        c = next(t // 13 for t in ts if t < 52)
        return f"la escalera {RUN_COLOUR[c]}"
    return f"«{fmt(list(ts))}»"


__all__ = ["Meaning", "SetInfo", "analyze", "describe", "tiles"]
