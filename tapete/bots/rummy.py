"""Rummy bots at the seed's three levels: ``principiante``, ``normal``, ``experto``.

A bot reads only its seat's ``view`` (:func:`tapete.games.rummy.view`) and answers with a
move — ``{"type": "play", "table": [...]}`` or the draw/pass of ``view["legal"]`` — and a
"thinking" delay of 0.8–2 s for the room to wait (at the end of a hand it says ``next`` at
once: the next hand waits only for the people at the table). The same view and level give
the same answer (the delay comes from a generator seeded with stable fields of the view).

* **principiante** makes new sets from its rack (its initial meld is the best one, or it
  draws); once down, it also adds tiles to the ends of the table's runs and to groups of
  three. It never moves a tile already on the table.
* **normal** plays like principiante, then places what is left one tile at a time, each
  time rearranging only the sets around that tile (greedy, not the best play).
* **experto** plays the solver's best play (:mod:`tapete.bots.rummy_solver`), and holds
  its jokers back while the hand is young: when the best play without them still places
  something, the pool is not low, it would not go out and every opponent has more than
  six tiles. Its initial meld also leaves the jokers on the rack when it can.

>>> from tapete.games import rummy
>>> s = rummy.load({"racks": ["10R 10A 10N 2O", "1R 2R"], "pool": "5N 6N"})
>>> move, delay = choose(rummy.view(s, 0), "normal")
>>> move, 0.8 <= delay <= 2.0
({'type': 'play', 'table': [['10R', '10A', '10N']]}, True)
>>> choose(rummy.view(s, 1), "experto") is None  # not its turn
True
"""

from __future__ import annotations

import random
import time
import zlib
from collections import Counter
from typing import Any, Final

from tapete.bots import BotSpec, Level
from tapete.bots.rummy_solver import Solution, best_meld, best_play
from tapete.games import rummy
from tapete.games.rummy import analyze
from tapete.i18n import N_
from tapete.tiles import is_joker, points, text, tile

JSON = dict[str, Any]
Choice = tuple[JSON, float]
Set = tuple[int, ...]

LEVELS: Final = ("principiante", "normal", "experto")
_ALIASES: Final = {"beginner": "principiante", "easy": "principiante", "expert": "experto",
                   "hard": "experto"}  # fmt: skip
THINK: Final = (0.8, 2.0)
BUDGET: Final = 0.25
"""Seconds the solver may search before it answers with the best play found so far."""
HOLD_OPPONENT_TILES: Final = 6
HOLD_POOL: Final = 10


def level_name(level: str) -> str:
    """``"Experto"`` → ``"experto"``; raises ValueError on an unknown level."""
    name = _ALIASES.get(level.lower(), level.lower())
    if name not in LEVELS:
        raise ValueError(f"unknown Rummy bot level {level!r}")
    return name


def choose(view: JSON, level: str = "normal") -> Choice | None:
    """The move this seat makes now and the delay before the room applies it, or None."""
    level = level_name(level)
    legal: list[JSON] = view.get("legal") or []
    if {"type": "next"} in legal:
        return {"type": "next"}, 0.0  # the end of a hand: on to the next one at once
    if not legal or view.get("turn") != view.get("seat"):
        return None
    fallback = dict(legal[0])
    rng = _rng(view, level)
    delay = rng.uniform(*THINK)
    rack = [tile(x) for x in view.get("rack") or []]
    table = [tuple(tile(x) for x in s) for s in view.get("table") or []]
    melded = bool((view.get("melded") or [])[view["seat"]])
    layout = _decide(level, rack, table, melded, view)
    if layout is None or not _legal(rack, table, melded, layout):
        return fallback, delay
    return {"type": "play", "table": [[text(t) for t in s] for s in layout]}, delay


def _decide(
    level: str, rack: list[int], table: list[Set], melded: bool, view: JSON
) -> list[Set] | None:
    deadline = time.perf_counter() + BUDGET
    if not melded:
        meld = _meld(level, rack, view, deadline)
        return None if meld is None else [*table, *meld]
    if level == "experto":
        return _expert(rack, table, view, deadline)
    layout = _beginner(rack, table)
    if level == "normal":
        layout = _greedy(rack, table, layout, deadline)
    return None if layout == table else layout


def _legal(rack: list[int], table: list[Set], melded: bool, layout: list[Set]) -> bool:
    state = rummy.load({"racks": [rack, []], "table": table, "melded": [melded, True]})
    return bool(rummy.check(state, 0, layout)["ok"])


# --- the initial meld --------------------------------------------------------------------


def _meld(level: str, rack: list[int], view: JSON, deadline: float) -> list[Set] | None:
    if level == "experto" and _holding(view, rack):
        plain = [t for t in rack if not is_joker(t)]
        if len(plain) < len(rack):
            s = best_meld(plain, deadline=deadline)
            if s is not None:
                return list(s.layout)
    s = best_meld(rack, deadline=deadline)
    return None if s is None else list(s.layout)


# --- principiante: new sets from the rack, tiles on the ends ----------------------------


def _rack_sets(rack: list[int]) -> tuple[list[Set], list[int]]:
    """Greedy sets from the rack alone: the worthiest group or run first, then a joker
    completing a pair. Returns (sets, tiles left)."""
    left = Counter(t for t in rack if not is_joker(t))
    jokers = [t for t in rack if is_joker(t)]
    sets: list[Set] = []
    while True:
        best: Set | None = None
        for cand in _candidates(left):
            if best is None or (analyze(cand).value, len(cand)) > (analyze(best).value, len(best)):
                best = cand
        if best is None:
            break
        sets.append(best)
        left -= Counter(best)
    while jokers:
        pair = _pair(left)
        if pair is None:
            break
        j = jokers.pop()
        s = _with_joker(pair, j)
        sets.append(s)
        left -= Counter(pair)
    return sets, sorted(left.elements()) + jokers


def _candidates(left: Counter[int]) -> list[Set]:
    out: list[Set] = []
    for n in range(13):
        colours = [c for c in range(4) if left[c * 13 + n] > 0]
        if len(colours) >= 3:
            out.append(tuple(c * 13 + n for c in colours))
    for c in range(4):
        n = 0
        while n < 13:
            if left[c * 13 + n] > 0:
                m = n
                while m + 1 < 13 and left[c * 13 + m + 1] > 0:
                    m += 1
                if m - n + 1 >= 3:
                    out.append(tuple(c * 13 + k for k in range(n, m + 1)))
                n = m + 1
            else:
                n += 1
    return out


def _pair(left: Counter[int]) -> tuple[int, int] | None:
    """The worthiest two tiles that a joker makes a set: same number, or a run's gap."""
    have = sorted(t for t in left if left[t] > 0)
    best: tuple[int, int] | None = None
    for i, a in enumerate(have):
        for b in have[i + 1 :]:
            same_n = a % 13 == b % 13
            run = a // 13 == b // 13 and b - a <= 2
            if (same_n or run) and (best is None or a % 13 + b % 13 > sum(x % 13 for x in best)):
                best = (a, b)
    return best


def _with_joker(pair: tuple[int, int], joker: int) -> Set:
    a, b = sorted(pair)
    if a % 13 == b % 13:
        return (a, b, joker)
    if b - a == 2:
        return (a, joker, b)
    return (a, b, joker) if b % 13 < 12 else (joker, a, b)


def _beginner(rack: list[int], table: list[Set]) -> list[Set]:
    sets, left = _rack_sets(rack)
    layout = [*table, *sets]
    changed = True
    while changed:
        changed = False
        for t in list(left):
            for i, s in enumerate(layout):
                ext = _extend(s, t)
                if ext is not None:
                    layout[i] = ext
                    left.remove(t)
                    changed = True
                    break
    return layout


def _extend(s: Set, t: int) -> Set | None:
    """``s`` with ``t`` on one end (or in a group of three), if that is a valid set."""
    info = analyze(s)
    if not info.valid:
        return None
    tries = [(*s, t), (t, *s)] if info.kind == "run" else [(*s, t)]
    for cand in tries:
        if analyze(cand).valid:
            return cand
    return None


# --- normal: the rest one tile at a time, rearranging around it -------------------------


def _greedy(rack: list[int], table: list[Set], layout: list[Set], deadline: float) -> list[Set]:
    """Place what is left a tile (or two related tiles) at a time, rearranging only the
    sets around them; the worthiest first; again while something goes down."""
    placed = Counter(t for s in layout for t in s) - Counter(t for s in table for t in s)
    left = sorted((Counter(rack) - placed).elements(), key=_worth, reverse=True)
    progress = True
    while progress and left:
        progress = False
        for group in _tries(left):
            if time.perf_counter() > deadline:
                return layout
            near = {i for i, s in enumerate(layout) if any(_near(s, t) for t in group)}
            local = [layout[i] for i in sorted(near)]
            s = best_play(list(group), local, True, deadline=deadline, fewest_changes=False)
            if s is not None and s.exact:
                layout = [x for i, x in enumerate(layout) if i not in near] + list(s.layout)
                for t in s.placed:
                    left.remove(t)
                progress = True
                break
    return layout


def _worth(t: int) -> int:
    return 0 if is_joker(t) else t % 13 + 1


def _tries(left: list[int]) -> list[tuple[int, ...]]:
    """Single tiles, then pairs of related tiles (same number, or same colour and close)."""
    singles = [(t,) for t in dict.fromkeys(left)]
    pairs = []
    for i, a in enumerate(left):
        for b in left[i + 1 :]:
            if is_joker(a) or is_joker(b) or a == b:
                continue
            if a % 13 == b % 13 or (a // 13 == b // 13 and abs(a - b) <= 2):
                pairs.append((a, b))
    pairs.sort(key=lambda p: -(_worth(p[0]) + _worth(p[1])))
    return singles + list(dict.fromkeys(pairs))


def _near(s: Set, t: int) -> bool:
    if is_joker(t):
        return True
    for u in s:
        if is_joker(u):
            continue
        if u % 13 == t % 13 or (u // 13 == t // 13 and abs(u % 13 - t % 13) <= 2):
            return True
    return False


# --- experto: the best play, jokers held back early ------------------------------------


def _holding(view: JSON, rack: list[int]) -> bool:
    """Is it early enough to keep jokers on the rack?"""
    if not any(is_joker(t) for t in rack):
        return False
    seat = view["seat"]
    others = [c for i, c in enumerate(view.get("counts") or []) if i != seat]
    return int(view.get("pool") or 0) > HOLD_POOL and all(c > HOLD_OPPONENT_TILES for c in others)


def _expert(rack: list[int], table: list[Set], view: JSON, deadline: float) -> list[Set] | None:
    full = best_play(rack, table, True, deadline=deadline)
    if full is None:
        return None
    if _holding(view, rack) and full.tiles < len(rack):
        plain = [t for t in rack if not is_joker(t)]
        held: Solution | None = best_play(plain, table, True, deadline=deadline)
        if held is not None:
            return list(held.layout)
        if all(is_joker(t) for t in full.placed):
            return None  # only jokers would go down: keep them and draw
    return list(full.layout)


# --- the coach ---------------------------------------------------------------------------

COACH_WORDS: Final = {
    "could_place": N_("Podías colocar {best} fichas y colocaste {made}."),
    "best_play": N_("La mejor jugada posible."),
}
"""What the coach says, by code (``BotSpec.coach_words``)."""
COACH_BUDGET: Final = 2.0
"""Seconds the solver may take for the coach (off the table: no one waits)."""


def coach(view: JSON, move: JSON) -> JSON | None:
    """What the exact solver would have placed from ``view`` (the seat's rack and the table
    before its turn), next to what ``move`` placed: tiles and points (a tile's number; a
    joker 30), the best play as a move, and the points left on the rack for it (``loss``).
    None when it was not the seat's turn to play (the end of a hand).

    >>> from tapete.games import rummy
    >>> s = rummy.load({"racks": ["3R 4R 5R 6R 9N 9A 9O", "1R"], "table": [],
    ...                 "melded": [True, True], "pool": "5N"})
    >>> advice = coach(rummy.view(s, 0), {"type": "draw"})
    >>> advice["code"], advice["params"], advice["loss"]
    ('could_place', {'best': 7, 'made': 0}, 45)
    """
    if view.get("turn") != view.get("seat") or move.get("type") not in ("play", "draw", "pass"):
        return None
    rack = [tile(x) for x in view.get("rack") or []]
    table = [tuple(tile(x) for x in s) for s in view.get("table") or []]
    melded = bool((view.get("melded") or [])[view["seat"]])
    before = Counter(t for s in table for t in s)
    made: list[int] = []
    if move.get("type") == "play":
        after = Counter(tile(x) for s in move.get("table") or [] for x in s)
        made = list((after - before).elements())
    found = best_play(rack, table, melded, deadline=time.perf_counter() + COACH_BUDGET)
    best = list(found.placed) if found is not None else []
    if sum(map(points, best)) < sum(map(points, made)):  # (the solver cut short: no worse)
        best = made
    best_move: JSON = (
        {"type": "play", "table": [[text(t) for t in s] for s in found.layout]}
        if found is not None and best is not made
        else dict(move)
    )
    loss = sum(map(points, best)) - sum(map(points, made))
    return {
        "best": best_move,
        "loss": loss,
        "unit": "points",
        "code": "could_place" if loss > 0 else "best_play",
        "params": {"best": len(best), "made": len(made)},
    }


def _rng(view: JSON, level: str) -> random.Random:
    key = "|".join(
        (
            level,
            str(view.get("seat")),
            str(view.get("turns")),
            str(view.get("hand")),
            " ".join(view.get("rack") or ()),
            ",".join(str(c) for c in view.get("counts") or ()),
        )
    )
    return random.Random(zlib.crc32(key.encode()))


__all__ = ["LEVELS", "THINK", "choose", "level_name"]


BOTS: Final = BotSpec(
    choose=choose,
    levels=(
        Level("principiante", N_("Principiante")),
        Level("normal", N_("Normal")),
        Level("experto", N_("Experto")),
    ),
    names=("Sofía", "Pablo", "Lucía"),
    hint="experto",
    coach=coach,
    coach_words=COACH_WORDS,
)
"""Rummy's bots, as the seed names their levels; the expert's play is the hint."""
