"""The best Rummy play from a rack and a table: an exact solver under Tapete's rules.

:func:`best_play` returns the play that places the most points from the rack, then the
most tiles, then (best effort, see below) changes the fewest table sets. A joker placed
from the rack counts the number it stands for (in a run, its place; in a group, the
group's number) — the rule of the initial meld applied to every play. Table tiles score
nothing: they were already down.

>>> from tapete.tiles import tiles, fmt
>>> s = best_play(tiles("10R 10A 10N 2O"), [], melded=False)
>>> [fmt(list(x)) for x in s.layout], s.points, s.tiles
(['10R 10A 10N'], 30, 3)
>>> best_meld(tiles("9R 9A 9N 1O")) is None  # 27 < 30
True
>>> s = best_play(tiles("7A 7N"), [tuple(tiles("4R 5R 6R 7R"))], melded=True)
>>> sorted(fmt(list(x)) for x in s.layout), s.changed_sets
(['4R 5R 6R', '7R 7A 7N'], 1)

**How.** Dynamic programming over the numbers 1…13 (after van Rijn, Takes & Vis, 2015):
the state after a number is, per colour, how many runs are open with one, two, or three
or more tiles (and how many jokers are left); at each number the tiles of that number
go to runs (continuing open runs first: two runs of a colour that meet can always be
merged) or to groups (at most three groups a number, checked by counting). A forward
sweep keeps, per number, only the states no other state beats in both points and
freedom (fewer open obligations, more open runs able to take a tile), looked up in
per-colour tables of the kept states. A first sweep that keeps only the best
:data:`BEAM` states a number finds a good play fast; its value is the floor of the exact
sweep, which drops every state that can no longer beat it (also inside a number, the
colours' choices tried best first). The sweep is exact; ``deadline`` turns it into an
anytime search that returns the best legal play found so far (``Solution.exact``
False).

**Jokers that score the same anywhere** (a table joker scores nothing; a rack joker under
an objective that counts it the same at any number) are all counted as one kind, go
only where a set needs one — never starting a run (but J 12 13), and one that ends a run
of three or more only if a tile follows it — and those left over are added afterwards to
any set that can take them (:func:`_sink`). That keeps the sweep small without changing
the best value: such a joker can always be moved to the end of another set.

**Rule 5 (jokers on the table).** Each table joker either keeps standing for one of the
faces it stood for (it is then a fixed "virtual" tile of that face) or is retrieved, and
then a real tile of what it stood for must be on the table at the end (forced from the
rack when the table has none). The solver tries every combination of these cases, the
cheap ones first, and keeps the best; every answer is checked by
:func:`tapete.games.rummy.check` before it is returned.

**Fewest sets changed** is the third criterion, searched greedily: the rack alone first,
then table sets kept unchanged one by one (at most :data:`TRIALS`, and
:data:`TRIAL_WORK` candidate states in all, so the same answer on any machine) while the
same tiles still go down for the same value; long runs are cut back into the table's runs
where they can be. It is not proven minimal.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from tapete.games.rummy import MELD_POINTS, analyze, check, joker_meanings, load
from tapete.tiles import is_joker, make

Layout = tuple[tuple[int, ...], ...]
_K: Final = 256
"""Objective scale: points × 256 + tiles (never 256 tiles)."""
BEAM: Final = 24
"""States a number the quick first sweep keeps (its answer bounds the exact sweep)."""
TRIALS: Final = 6
"""Table sets the search for fewer changes tries to keep one by one (most succeed early)."""
TRIAL_WORK: Final = 6_000
"""Candidate states all those trials may make together (work, not time: the same answer on
any machine)."""
_SH: Final = 7
_MASK: Final = 127


@dataclass(frozen=True, slots=True)
class Solution:
    layout: Layout
    """The whole table after the play, each set in an order :func:`analyze` accepts."""
    placed: list[int] = field(default_factory=list)
    points: int = 0
    tiles: int = 0
    changed_sets: int = 0
    exact: bool = True
    """False when the deadline cut the search (the play is legal, maybe not the best)."""


class _Timeout(Exception):
    pass


# --- objectives ------------------------------------------------------------------------

Weights = tuple[tuple[int, ...], tuple[int, ...]]
"""(value of a numbered rack tile at number n, value of a rack joker used at number n)."""

POINTS: Final[Weights] = (
    tuple(n * _K + 1 for n in range(14)),
    tuple(n * _K + 1 for n in range(14)),
)
"""Most points (a joker counts the number it stands for), then most tiles."""
TILES: Final[Weights] = (tuple(1 for _ in range(14)), tuple(1 for _ in range(14)))
"""Most tiles (rummikub-solver's ``TILE_COUNT``)."""
VALUE0: Final[Weights] = (tuple(range(14)), tuple(0 for _ in range(14)))
"""Most points with a joker worth 0 (rummikub-solver's ``TOTAL_VALUE``)."""


# --- run states ------------------------------------------------------------------------
# A colour's code: a1 + 5*a2 + 25*a3 — open runs of length 1, 2 and 3+ (at most 4 in all).


def _next_table() -> dict[tuple[int, int], int]:
    out: dict[tuple[int, int], int] = {}
    for a1, a2, a3 in itertools.product(range(5), repeat=3):
        if a1 + a2 + a3 > 4:
            continue
        for k in range(5):
            forced = a1 + a2
            if k < forced:
                continue
            cont3 = min(k - forced, a3)
            new = max(0, k - forced - a3)
            n1, n2, n3 = new, a1, a2 + cont3
            if n1 + n2 + n3 <= 4:
                out[a1 + 5 * a2 + 25 * a3, k] = n1 + 5 * n2 + 25 * n3
    return out


_NEXT: Final = _next_table()


def _dominance() -> list[list[bool]]:
    """``DOM[b][a]``: a colour in state b can do whatever it could in state a."""
    dom = [[False] * 125 for _ in range(125)]
    for b in range(125):
        b1, b2, b3 = b % 5, b // 5 % 5, b // 25
        for a in range(125):
            a1, a2, a3 = a % 5, a // 5 % 5, a // 25
            dom[b][a] = b1 <= a1 and b1 + b2 <= a1 + a2 and b1 + b2 + b3 >= a1 + a2 + a3
    return dom


_DOM: Final = _dominance()
_BELOW: Final = [
    [a for a in range(125) if a % 5 + a // 5 % 5 + a // 25 <= 4 and _DOM[b][a]] for b in range(125)
]
"""``_BELOW[b]``: the colour states that state b dominates."""


def _joker_below(sinks: bool) -> list[list[int]]:
    """``[ka * 4 + kb]``: the (table, rack) jokers left, as ``a * 4 + b``, that (ka, kb)
    jokers left can do whatever they could (with ``sinks``, a table joker left over costs
    nothing: any joker left is worth having; else table jokers must all be used)."""
    out = []
    for ka, kb in itertools.product(range(4), repeat=2):
        out.append(
            [
                a * 4 + b
                for a, b in itertools.product(range(4), repeat=2)
                if (kb >= b if sinks else ka <= a) and ka + kb >= a + b
            ]
        )
    return out


_JOKERS_BELOW: Final = {True: _joker_below(True), False: _joker_below(False)}


def _groups_ok(y: tuple[int, ...], pg: tuple[int, ...], jg: int) -> bool:
    """Can real tiles ``y`` (per colour), pinned jokers ``pg`` (per colour) and ``jg`` free
    jokers make groups? g groups need: at most g of a colour, 2 real tiles each, 3–4 tiles."""
    sy, sp = sum(y), sum(pg)
    if sy == 0 and sp == 0:
        return jg == 0
    for g in range(1, 4):
        if (
            all(y[c] + pg[c] <= g for c in range(4))
            and sy >= 2 * g
            and 3 * g <= sy + sp + jg <= 4 * g
        ):
            return True
    return False


@lru_cache(maxsize=4096)
def _group_split(
    y: tuple[int, ...], pg: tuple[int, ...], jg: int
) -> tuple[tuple[tuple[int, ...], int], ...] | None:
    """Groups as (per colour: 0 none, 1 real, 2 pinned joker; free jokers)."""
    if not any(y) and not any(pg):
        return () if jg == 0 else None
    c0 = next(c for c in range(4) if y[c] or pg[c])
    choices = [[0] + ([1] if y[c] else []) + ([2] if pg[c] else []) for c in range(4)]
    for combo in itertools.product(*choices):
        if combo[c0] == 0:
            continue
        real = sum(1 for v in combo if v == 1)
        size = sum(1 for v in combo if v)
        for f in range(jg + 1):
            if 3 <= size + f <= 4 and real >= 2:
                y2 = tuple(y[c] - (combo[c] == 1) for c in range(4))
                p2 = tuple(pg[c] - (combo[c] == 2) for c in range(4))
                rest = _group_split(y2, p2, jg - f)
                if rest is not None:
                    return ((combo, f), *rest)
    return None


def _lazy_next(code: int, r: int, j: int, start: bool) -> int | None:
    """The next state of a colour whose runs take ``r`` real tiles and ``j`` jokers when a
    joker only goes where a run needs it: jokers continue the runs that must go on first,
    then longer runs — such a run must then go on (a joker at the end of a run of three or
    more can always be moved to another set) — and start a run only at 11 (J 12 13)
    when ``start``; real tiles continue what is left, the longer runs first, then start
    runs. None when that leaves a short run unfinished or a joker unplaced."""
    a1, a2, a3 = code % 5, code // 5 % 5, code // 25
    forced = a1 + a2
    jf = min(j, forced)
    if r < forced - jf:
        return None
    jl = min(j - jf, a3)
    jn = j - jf - jl
    if jn > (1 if start else 0):
        return None
    rest = r - (forced - jf)
    rl = min(rest, a3 - jl)
    n1, n2, n3 = rest - rl + jn, a1 + jl, a2 + rl
    if n1 + n2 + n3 > 4:
        return None
    return n1 + 5 * n2 + 25 * n3


@lru_cache(maxsize=65536)
def _colour_options(
    code: int,
    m: int,
    o: int,
    pr: int,
    yc: int,
    javail: int,
    jmax: int,
    nxt: int,
    lazy: bool = False,
    start: bool = False,
) -> tuple[tuple[int, int, int, int], ...]:
    """A colour's choices at a number: ``m`` tiles that must go down, ``o`` that may,
    ``pr`` fixed jokers for its runs, ``yc`` tiles to groups, up to ``jmax`` free jokers
    for its runs (``javail`` left in all); ``nxt`` tiles of the colour at the next number
    (-1 after 13); ``lazy`` and ``start`` as in :func:`_lazy_next`. Returns (jokers,
    optional tiles used, next state, tiles to runs), the best for each (jokers, next
    state)."""
    best: dict[tuple[int, int], tuple[int, int]] = {}
    for x in range(max(0, m - yc), m + o - yc + 1):
        dx = x + yc - m
        for jc in range(jmax + 1):
            k = x + pr
            nx = _lazy_next(code, k, jc, start) if lazy else _NEXT.get((code, k + jc))
            if nx is None:
                continue
            a1, a2, a3 = nx % 5, nx // 5 % 5, nx // 25
            if nxt < 0:
                if a1 + a2:
                    continue
                nx = 0
            else:
                cap = nxt + javail - jc
                if a1 + a2 > cap:
                    continue
                nx = a1 + 5 * a2 + 25 * min(a3, cap - a1 - a2)
            old = best.get((jc, nx))
            if old is None or dx > old[0]:
                best[jc, nx] = (dx, x)
    return tuple((jc, dx, nx, x) for (jc, nx), (dx, x) in best.items())


@lru_cache(maxsize=8192)
def _configs(
    row: tuple[int, ...], prow: tuple[int, ...], jg: int
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """The (tiles to groups, pinned jokers to groups) splits of a number that make groups
    with ``jg`` free jokers."""
    out = []
    for y in itertools.product(*(range(k + 1) for k in row)):
        for pg in itertools.product(*(range(k + 1) for k in prow)):
            if _groups_ok(y, pg, jg):
                out.append((y, pg))
    return tuple(out)


# --- the problem -----------------------------------------------------------------------


@dataclass(slots=True)
class _Problem:
    must: list[list[int]]
    """[number][colour]: real tiles that must be placed (table tiles, forced rack tiles)."""
    opt: list[list[int]]
    """[number][colour]: rack tiles that may be placed."""
    pins: list[list[list[int]]]
    """[number][colour]: table jokers fixed to stand for that face."""
    free_table: list[int]
    """Table jokers free to stand for anything (they must stay on the table)."""
    rack_jokers: list[int]
    bonus: int = 0
    """Objective value of the forced rack tiles."""
    forced: list[int] = field(default_factory=list)
    """Forced rack tiles (to back retrieved jokers)."""
    origins: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    """What each table joker stood for at the start of the turn."""
    kept: list[tuple[int, ...]] = field(default_factory=list)
    """Table sets left as they are (outside the problem; its layouts come after them)."""


@dataclass(slots=True)
class _Result:
    value: int
    layout: list[tuple[int, ...]]


_Step = tuple[
    int, tuple[int, ...], tuple[int, ...], int, int, int, int, int, int, int, int, int, int
]
"""(previous key index, y, pg, jg, x per colour (4), jokers per colour (4), table jokers
used)."""


def _sweep(
    p: _Problem,
    weights: Weights,
    lb: int | None,
    deadline: float | None,
    sinks: bool = True,
    beam: int = 0,
    cache: dict[bool, dict[int, list[list[list[tuple[int, int, int, int]]]]]] | None = None,
    budget: list[int] | None = None,
) -> _Result | None:
    """The best layout of ``p`` worth more than ``lb`` (any, when lb is None).

    ``budget``: how many candidate states the sweep may still make (shared, counted
    down); past it the sweep stops as at the ``deadline`` (both raise :class:`_Timeout`).

    With ``sinks``, the free table jokers need not be used by the sweep: one left over
    is added afterwards where any set can take a joker (it scores nothing either way), so
    more jokers left is simply more freedom. When no set can take it, the sweep is redone
    with the table jokers required."""
    wt, wj = weights
    must, opt, pins = p.must, p.opt, p.pins
    jt0, jr0 = len(p.free_table), len(p.rack_jokers)
    j0 = jt0 + jr0
    avail = [[0] * 4 for _ in range(15)]
    npin = [[0] * 4 for _ in range(15)]
    for n in range(1, 14):
        for c in range(4):
            npin[n][c] = len(pins[n][c])
            avail[n][c] = must[n][c] + opt[n][c] + npin[n][c]
    near = [[False] * 4 for _ in range(15)]
    if j0:
        for n in range(1, 14):
            for c in range(4):
                near[n][c] = any(avail[m][c] for m in range(max(1, n - 2), min(13, n + 2) + 1))
    rem = [0] * 15
    for n in range(13, 0, -1):
        rem[n] = rem[n + 1] + sum(opt[n]) * wt[n]
    # When a joker left over scores the same wherever it goes (a table joker scores nothing;
    # a rack joker the same at any number for some objectives), the sweep only puts jokers
    # where a set needs them and adds the others afterwards where any set can take them.
    # Every joker then ends on the table and scores the same: the sweep counts them as one
    # kind, worth nothing, and adds what the rack's are worth at the end.
    lazy = sinks and (not p.rack_jokers or len(set(wj[1:14])) == 1)
    extra = 0
    jokers_t, jokers_r = list(p.free_table), list(p.rack_jokers)
    if lazy:
        extra = jr0 * wj[13]
        jt0, jr0 = j0, 0
        jokers_t, jokers_r = jokers_t + jokers_r, []
        wj = tuple(0 for _ in wj)
    top_joker = max(wj)
    floor0 = lb if lb is not None else -1
    floor = floor0 - extra

    tab_cache = {} if cache is None else cache.setdefault(lazy, {})

    def table_of(
        n: int, c: int, code: int, ja: int, ys: range, pgs: range
    ) -> list[list[list[tuple[int, int, int, int]]]]:
        """Colour c's choices at number n by tiles and pinned jokers sent to groups:
        (jokers, value, next state bits, tiles to runs), the best first."""
        key = ((n * 4 + c) * 128 + code) * 8 + ja
        r = tab_cache.get(key)
        if r is not None:
            return r
        jmax = ja if near[n][c] else 0
        if lazy:  # a joker goes on a run, it starts none (but J 12 13)
            jmax = min(jmax, code % 5 + code // 5 % 5 + code // 25 + (n == 11))
        nxt = avail[n + 1][c] if n < 13 else -1
        w, sh = wt[n], _SH * c
        m, o, pins_n = must[n][c], opt[n][c], npin[n][c]
        r = []
        for yc in ys:
            row_r = []
            for pc in pgs:
                found = _colour_options(code, m, o, pins_n - pc, yc, ja, jmax, nxt, lazy, n == 11)
                opts = [(jc, dx * w, nx << sh, x) for jc, dx, nx, x in found]
                opts.sort(key=lambda o: -o[1])  # best first: the loops stop at the bound
                row_r.append(opts)
            r.append(row_r)
        tab_cache[key] = r
        return r

    jokers_below = _JOKERS_BELOW[sinks]
    # frontier: key (state, jt, jr) -> acc; steps for reconstruction
    keys: list[list[tuple[int, int, int]]] = [[(0, jt0, jr0)]]
    accs: list[list[int]] = [[0]]
    steps: list[list[_Step]] = [[]]
    for n in range(1, 14):
        if deadline is not None and time.perf_counter() > deadline:
            raise _Timeout
        row = tuple(must[n][c] + opt[n][c] for c in range(4))
        prow = tuple(npin[n])
        ys = [range(row[c] + 1) for c in range(4)]
        pgs = [range(prow[c] + 1) for c in range(4)]
        kbase = [(n * 4 + c) * 128 for c in range(4)]
        cand: dict[int, int] = {}  # state key -> best value
        how: dict[int, _Step] = {}  # state key -> the choices that reach it
        for idx, (state, jt, jr) in enumerate(keys[-1]):
            acc = accs[-1][idx]
            if acc + rem[n] + jr * top_joker <= floor:
                continue
            if deadline is not None and idx & 31 == 31 and time.perf_counter() > deadline:
                raise _Timeout
            codes = (
                state & _MASK,
                state >> _SH & _MASK,
                state >> 2 * _SH & _MASK,
                state >> 3 * _SH,
            )
            jav = jt + jr
            base = jt << 28 | jr << 30
            need = floor - acc - rem[n + 1] - jr * top_joker
            for jg in range(min(2, jav) + 1):
                ja = jav - jg
                t0 = tab_cache.get((kbase[0] + codes[0]) * 8 + ja) or table_of(
                    n, 0, codes[0], ja, ys[0], pgs[0]
                )
                t1 = tab_cache.get((kbase[1] + codes[1]) * 8 + ja) or table_of(
                    n, 1, codes[1], ja, ys[1], pgs[1]
                )
                t2 = tab_cache.get((kbase[2] + codes[2]) * 8 + ja) or table_of(
                    n, 2, codes[2], ja, ys[2], pgs[2]
                )
                t3 = tab_cache.get((kbase[3] + codes[3]) * 8 + ja) or table_of(
                    n, 3, codes[3], ja, ys[3], pgs[3]
                )
                per = (t0, t1, t2, t3)
                for y, pg in _configs(row, prow, jg):
                    o0 = per[0][y[0]][pg[0]]
                    if not o0:
                        continue
                    o1 = per[1][y[1]][pg[1]]
                    if not o1:
                        continue
                    o2 = per[2][y[2]][pg[2]]
                    if not o2:
                        continue
                    o3 = per[3][y[3]][pg[3]]
                    if not o3:
                        continue
                    # a choice worth no more than ``need`` cannot beat the floor
                    m3 = o3[0][1]
                    m23 = o2[0][1] + m3
                    m123 = o1[0][1] + m23
                    for j_0, v_0, s_0, x_0 in o0:
                        if v_0 + m123 <= need:
                            break
                        for j_1, v_1, s_1, x_1 in o1:
                            v01 = v_0 + v_1
                            if v01 + m23 <= need:
                                break
                            j01 = j_0 + j_1
                            if j01 > ja:
                                continue
                            for j_2, v_2, s_2, x_2 in o2:
                                v012 = v01 + v_2
                                if v012 + m3 <= need:
                                    break
                                j012 = j01 + j_2
                                if j012 > ja:
                                    continue
                                for j_3, v_3, s_3, x_3 in o3:
                                    if v012 + v_3 <= need:
                                        break
                                    jj = j012 + j_3
                                    if jj > ja:
                                        continue
                                    jj += jg
                                    val = acc + v012 + v_3
                                    ns = s_0 | s_1 | s_2 | s_3
                                    if not jj:
                                        key = ns | base
                                        old = cand.get(key)
                                        if old is None or val > old:
                                            cand[key] = val
                                            how[key] = (idx, y, pg, jg, x_0, x_1, x_2, x_3,
                                                        j_0, j_1, j_2, j_3, 0)  # fmt: skip
                                        continue
                                    for t in range(max(0, jj - jr), min(jj, jt) + 1):
                                        key = ns | (jt - t) << 28 | (jr - jj + t) << 30
                                        v = val + (jj - t) * wj[n]
                                        old = cand.get(key)
                                        if old is None or v > old:
                                            cand[key] = v
                                            how[key] = (idx, y, pg, jg, x_0, x_1, x_2, x_3,
                                                        j_0, j_1, j_2, j_3, t)  # fmt: skip
        if budget is not None:
            budget[0] -= len(cand)
            if budget[0] < 0:
                raise _Timeout
        # keep what no other state beats in points and freedom
        items = sorted(cand.items(), key=lambda kv: -kv[1])
        nkeys: list[tuple[int, int, int]] = []
        naccs: list[int] = []
        nsteps: list[_Step] = []
        # below[c][code]: the kept states (as bits) whose colour c can do whatever
        # ``code`` can; below_j likewise for the jokers left
        below = [[0] * 125 for _ in range(4)]
        below0, below1, below2, below3 = below
        below_j = [0] * 16
        for key, v in items:
            if beam and len(nkeys) >= beam:
                break
            ns, a, b = key & 0xFFFFFFF, key >> 28 & 3, key >> 30
            c0, c1 = ns & _MASK, ns >> _SH & _MASK
            c2, c3 = ns >> 2 * _SH & _MASK, ns >> 3 * _SH
            if below_j[a * 4 + b] & below0[c0] & below1[c1] & below2[c2] & below3[c3]:
                continue
            bit = 1 << len(nkeys)
            for c, code in ((0, c0), (1, c1), (2, c2), (3, c3)):
                bc = below[c]
                for x in _BELOW[code]:
                    bc[x] |= bit
            for x in jokers_below[a * 4 + b]:
                below_j[x] |= bit
            nkeys.append((ns, a, b))
            naccs.append(v)
            nsteps.append(how[key])
        keys.append(nkeys)
        accs.append(naccs)
        steps.append(nsteps)
        if not nkeys:
            return None
    best_i = -1
    best_v = -1
    for i, (state, jt, _jr) in enumerate(keys[-1]):
        v = accs[-1][i] + extra
        if state == 0 and (sinks or jt == 0) and (best_i < 0 or v > best_v):
            best_i, best_v = i, v
    if best_i < 0 or best_v <= floor0:
        return None
    path: list[_Step] = []
    i = best_i
    for n in range(13, 0, -1):
        step = steps[n][i]
        path.append(step)
        i = step[0]
    path.reverse()
    layout = _build(p, path, jokers_t, jokers_r, lazy)
    _key, left_t, left_r = keys[-1][best_i]
    if left_t or (lazy and left_r):
        used = {t for s in layout for t in s}
        spares = [j for j in p.free_table if j not in used]
        if lazy:
            spares += [j for j in p.rack_jokers if j not in used]
        for j in spares:
            placed = _sink(layout, j, p.origins.get(j, []))
            if placed is None:
                return _sweep(p, weights, lb, deadline, False, beam, cache, budget)
            layout = placed
    return _Result(best_v + p.bonus, layout)


def _sink(
    layout: list[tuple[int, ...]], joker: int, faces: list[tuple[int, int]]
) -> list[tuple[int, ...]] | None:
    """``layout`` with ``joker`` added to a set that can take it — where it stands for one
    of ``faces`` (what it stood for) if it can, else for the highest number it can."""
    options: list[tuple[int, int, int, tuple[int, ...]]] = []
    for i, s in enumerate(layout):
        info = analyze(s)
        if not info.valid:
            continue
        tries = [(*s, joker), (joker, *s)] if info.kind == "run" else [(*s, joker)]
        for cand in tries:
            ci = analyze(cand)
            if ci.valid:
                meant = [m for k, m in ci.meanings.items() if cand[k] == joker]
                keeps = any(set(m) & set(faces) for m in meant)
                options.append((0 if keeps else 1, -min(meant[0])[1], i, cand))
    if not options:
        return None
    _rank, _high, i, cand = min(options)
    return [*layout[:i], cand, *layout[i + 1 :]]


_Run = tuple[list[int], bool]
"""An open run and whether it must go on although it has three tiles (it ends with a
joker that only a next tile justifies: see :func:`_lazy_next`)."""


def _extend(open_runs: list[_Run], pieces: list[int], done: list[tuple[int, ...]]) -> list[_Run]:
    """A number's pieces for a colour's runs: the short runs first, then the longer ones,
    then new runs (as :data:`_NEXT` counts them)."""
    order = sorted((r for r, _g in open_runs), key=len)
    nxt: list[_Run] = []
    for r in order:
        if pieces:
            r.append(pieces.pop(0))
            nxt.append((r, False))
        else:
            assert len(r) >= 3
            done.append(tuple(r))
    nxt.extend(([t], False) for t in pieces)
    return nxt


def _extend_lazy(
    open_runs: list[_Run], reals: list[int], jokers: list[int], done: list[tuple[int, ...]]
) -> list[_Run]:
    """Like :func:`_extend`, placing the jokers as :func:`_lazy_next` counts them."""
    forced = [r for r, gap in open_runs if gap or len(r) < 3]
    longer = [r for r, gap in open_runs if not gap and len(r) >= 3]
    nxt: list[_Run] = []
    for r in forced:
        r.append(jokers.pop() if jokers else reals.pop())
        nxt.append((r, False))
    for r in longer:
        if jokers:
            r.append(jokers.pop())
            nxt.append((r, True))
        elif reals:
            r.append(reals.pop())
            nxt.append((r, False))
        else:
            done.append(tuple(r))
    nxt.extend(([t], False) for t in reals + jokers)
    return nxt


def _build(
    p: _Problem, path: list[_Step], jokers_t: list[int], jokers_r: list[int], lazy: bool
) -> list[tuple[int, ...]]:
    """The sets the sweep's choices make (``jokers_t`` and ``jokers_r``: the jokers the
    sweep counted as table jokers and as rack jokers; ``lazy``: jokers placed as
    :func:`_lazy_next` counts them)."""
    free_t = list(jokers_t)
    free_r = list(jokers_r)
    done: list[tuple[int, ...]] = []
    runs: list[list[_Run]] = [[] for _ in range(4)]
    for n, (_i, y, pg, jg, *xjs, t) in enumerate(path, start=1):
        xs, js = xjs[:4], xjs[4:]
        jj = sum(js) + jg
        ids = [free_t.pop() for _ in range(t)] + [free_r.pop() for _ in range(jj - t)]
        # groups
        pinned_g = [p.pins[n][c][: pg[c]] for c in range(4)]
        split = _group_split(y, pg, jg)
        assert split is not None
        left_p = [list(x) for x in pinned_g]
        for combo, f in split:
            g: list[int] = []
            for c in range(4):
                if combo[c] == 1:
                    g.append(make(c, n))
                elif combo[c] == 2:
                    g.append(left_p[c].pop())
            g.extend(ids.pop() for _ in range(f))
            done.append(tuple(g))
        # runs
        for c in range(4):
            reals = [make(c, n)] * xs[c] + p.pins[n][c][pg[c] :]
            jokers = [ids.pop() for _ in range(js[c])]
            if lazy:
                runs[c] = _extend_lazy(runs[c], reals, jokers, done)
            else:
                runs[c] = _extend(runs[c], reals + jokers, done)
    for c in range(4):
        for r, _gap in runs[c]:
            done.append(tuple(r))
    return done


# --- building problems -----------------------------------------------------------------


def _empty() -> list[list[int]]:
    return [[0] * 4 for _ in range(15)]


def _meanings(table: list[tuple[int, ...]]) -> list[tuple[int, list[tuple[int, int]]]]:
    out = []
    for s in table:
        info = analyze(s)
        for i, m in info.meanings.items():
            out.append((s[i], sorted(m)))
    return out


def _placeable(p: _Problem) -> None:
    """Drop rack tiles that no set could hold (keeps the sweep's bound tight)."""
    jokers = len(p.free_table) + len(p.rack_jokers) + 0
    av = [[p.must[n][c] + p.opt[n][c] + len(p.pins[n][c]) for c in range(4)] for n in range(15)]
    for n in range(1, 14):
        colours = sum(1 for c in range(4) if av[n][c])
        for c in range(4):
            if not p.opt[n][c]:
                continue
            if colours >= 3 or (colours >= 2 and jokers >= 1):
                continue
            ok = False
            for s in range(max(1, n - 2), min(n, 11) + 1):
                if sum(1 for m in range(s, s + 3) if not av[m][c]) <= jokers:
                    ok = True
                    break
            if not ok:
                p.opt[n][c] = 0


def _value(placed: list[int], layout: list[tuple[int, ...]], weights: Weights) -> int:
    """Objective value of a layout (rack jokers at what they stand for)."""
    wt, wj = weights
    rack_jokers = Counter(t for t in placed if is_joker(t))
    v = sum(wt[t % 13 + 1] for t in placed if not is_joker(t))
    for s in layout:
        for i, m in analyze(s).meanings.items():
            if rack_jokers[s[i]]:
                v += wj[min(m)[1]]
    return v


class _Solver:
    def __init__(
        self,
        rack: list[int],
        table: list[tuple[int, ...]],
        weights: Weights,
        deadline: float | None,
        rule5: bool = True,
        budget: int | None = None,
    ) -> None:
        self.rack = list(rack)
        self.budget = None if budget is None else [budget]
        self.table = [tuple(s) for s in table]
        self.weights = weights
        self.deadline = deadline
        self.rule5 = rule5
        self.exact = True
        self.state = load({"racks": [self.rack, []], "table": self.table, "melded": [True, True]})
        self.set_meanings = [_meanings([s]) for s in self.table]
        self.origins = {j: m for ms in self.set_meanings for j, m in ms}

    def loose_meanings(self, keep: frozenset[int]) -> list[tuple[int, list[tuple[int, int]]]]:
        """What each joker of the sets not kept stood for."""
        return [m for i, ms in enumerate(self.set_meanings) if i not in keep for m in ms]

    # a problem with some sets kept as they are
    def problem(
        self, keep: frozenset[int], case: tuple[tuple[str, tuple[int, int]], ...] | None
    ) -> _Problem | None:
        must, opt = _empty(), _empty()
        pins: list[list[list[int]]] = [[[] for _ in range(4)] for _ in range(15)]
        free_table: list[int] = []
        rack_jokers: list[int] = []
        table_real: Counter[tuple[int, int]] = Counter()
        loose = [s for i, s in enumerate(self.table) if i not in keep]
        for s in loose:
            for t in s:
                if is_joker(t):
                    free_table.append(t)
                else:
                    must[t % 13 + 1][t // 13] += 1
        for s in self.table:
            for t in s:
                if not is_joker(t):
                    table_real[t // 13, t % 13 + 1] += 1
        for t in self.rack:
            if is_joker(t):
                rack_jokers.append(t)
            else:
                opt[t % 13 + 1][t // 13] += 1
        bonus = 0
        forced: list[int] = []
        if case is not None:
            loose_jokers = [j for j, _m in self.loose_meanings(keep)]
            need: Counter[tuple[int, int]] = Counter()
            for j, (kind, (c, n)) in zip(loose_jokers, case, strict=True):
                if kind == "A":
                    free_table.remove(j)
                    pins[n][c].append(j)
                else:
                    need[c, n] += 1
            for (c, n), k in need.items():
                short = k - table_real[c, n]
                if short > 0:
                    if opt[n][c] < short:
                        return None
                    opt[n][c] -= short
                    must[n][c] += short
                    bonus += short * self.weights[0][n]
                    forced += [make(c, n)] * short
        p = _Problem(must, opt, pins, free_table, rack_jokers, bonus, forced)
        p.origins = self.origins
        p.kept = [s for i, s in enumerate(self.table) if i in keep]
        _placeable(p)
        return p

    def cases(self, keep: frozenset[int]) -> list[tuple[tuple[str, tuple[int, int]], ...]]:
        per_joker = []
        for _j, faces in self.loose_meanings(keep):
            per_joker.append([("A", f) for f in faces] + [("B", f) for f in faces])
        combos = list(itertools.product(*per_joker))
        # pinned (cheap) first, then those with retrieved jokers
        combos.sort(key=lambda cs: sum(k == "B" for k, _ in cs))
        return combos

    def sweep(self, p: _Problem, lb: int | None, cap: int | None = None) -> _Result | None:
        """The best layout of ``p`` worth more than ``lb`` (``cap``: no layout is worth
        more, when known)."""
        floor = None if lb is None else lb - p.bonus
        try:
            # a quick sweep keeping few states finds a good play, whose value bounds the
            # exact sweep
            cache: dict[bool, dict[int, list[list[list[tuple[int, int, int, int]]]]]] = {}
            quick = _sweep(p, self.weights, floor, self.deadline, beam=BEAM, cache=cache,
                           budget=self.budget)  # fmt: skip
            if quick is not None and cap is not None and quick.value >= cap:
                r: _Result | None = quick
            else:
                if quick is not None:
                    floor = quick.value - p.bonus
                r = _sweep(p, self.weights, floor, self.deadline, cache=cache, budget=self.budget)
                if r is None:
                    r = quick
        except _Timeout:
            self.exact = False
            return None
        if r is not None:
            r.layout = p.kept + r.layout
        return r

    def solve_case(
        self, keep: frozenset[int], case: dict[int, tuple[str, tuple[int, int]]], lb: int
    ) -> _Result | None:
        """Like :meth:`solve`, with each loose table joker in the given rule-5 case."""
        cs = tuple(case[j] for j, _m in self.loose_meanings(keep))
        p = self.problem(keep, cs if cs else None)
        if p is None:
            return None
        r = self.sweep(p, lb, lb + 1)
        if r is not None and self.legal(r.layout):
            return r
        return None

    def legal(self, layout: list[tuple[int, ...]]) -> bool:
        return bool(check(self.state, 0, layout)["ok"])

    def solve(self, keep: frozenset[int], lb: int | None) -> _Result | None:
        """The best legal layout keeping the sets ``keep``, worth more than ``lb``."""
        best: _Result | None = None
        floor = lb
        relaxed = self.problem(keep, None)
        if relaxed is None:
            return None
        has_jokers = bool(relaxed.free_table)
        if not self.rule5 or not has_jokers:
            return self.sweep(relaxed, floor)
        # cheap cases first (jokers keep their meaning), for a bound
        combos = self.cases(keep)
        for cs in combos:
            if any(k == "B" for k, _ in cs):
                break
            p = self.problem(keep, cs)
            if p is None:
                continue
            r = self.sweep(p, floor)
            if r is not None and self.legal(r.layout):
                best, floor = r, r.value
            if self.deadline is not None and time.perf_counter() > self.deadline:
                self.exact = False
                return best
        # the relaxation (every table joker free): if its best is legal, it is the best
        r = self.sweep(relaxed, floor)
        if r is None:
            return best
        if self.legal(r.layout):
            return r
        for cs in combos:
            if not any(k == "B" for k, _ in cs):
                continue
            p = self.problem(keep, cs)
            if p is None:
                continue
            r = self.sweep(p, floor)
            if r is not None and self.legal(r.layout):
                best, floor = r, r.value
        return best


def _solution(
    solver: _Solver, result: _Result, rack: list[int], table: list[tuple[int, ...]]
) -> Solution | None:
    layout = [tuple(s) for s in result.layout if s]
    placed = _placed(layout, table)
    if not placed:
        return None
    state = load({"racks": [list(rack), []], "table": table, "melded": [True, True]})
    if not check(state, 0, layout)["ok"]:  # pragma: no cover - a bug, never an answer
        raise AssertionError(f"illegal layout {layout}")
    points = _value(placed, layout, POINTS) // _K
    changed = sum((Counter(table) - Counter(layout)).values())
    return Solution(
        layout=tuple(layout),
        placed=placed,
        points=points,
        tiles=len(placed),
        changed_sets=changed,
        exact=solver.exact,
    )


def _placed(layout: list[tuple[int, ...]], table: list[tuple[int, ...]]) -> list[int]:
    after = Counter(t for s in layout for t in s)
    return sorted((after - Counter(t for s in table for t in s)).elements())


def _order(table: list[tuple[int, ...]], rack: list[int]) -> list[int]:
    """Table sets, those farthest from the rack's tiles first (the likeliest to stay)."""
    faces = {(t // 13, t % 13 + 1) for t in rack if not is_joker(t)}
    numbers = {n for _c, n in faces}

    def distance(s: tuple[int, ...]) -> int:
        best = 99
        for t in s:
            if is_joker(t):
                continue
            c, n = t // 13, t % 13 + 1
            if n in numbers:
                best = min(best, 0)
            for fc, fn in faces:
                if fc == c:
                    best = min(best, abs(fn - n))
        return best

    return sorted(range(len(table)), key=lambda i: -distance(table[i]))


def best_play(
    rack: list[int],
    table: list[tuple[int, ...]],
    melded: bool,
    *,
    deadline: float | None = None,
    weights: Weights = POINTS,
    rule5: bool = True,
    fewest_changes: bool = True,
) -> Solution | None:
    """The best legal play, or None when no tile can be placed.

    ``deadline`` is a :func:`time.perf_counter` value. ``weights`` and ``rule5`` exist for
    the benchmark (other objectives; jokers free as in other solvers): a play found with
    ``rule5=False`` may break rule 5 and is not checked.
    """
    table = [tuple(s) for s in table]
    if not melded:
        return _meld(rack, table, deadline, weights)
    solver = _Solver(rack, table, weights, deadline, rule5)
    result = solver.solve(frozenset(), None)
    if result is None:
        return None
    if not rule5:
        layout = tuple(tuple(s) for s in result.layout)
        placed = _placed(list(layout), table)
        if not placed:
            return None
        points = _value(placed, list(layout), POINTS) // _K
        changed = sum((Counter(table) - Counter(layout)).values())
        return Solution(layout, placed, points, len(placed), changed, solver.exact)
    target = result.value
    exact = solver.exact
    if fewest_changes and table and exact:
        result = _fewer_changes(solver, table, rack, result, target)
    solver.exact = exact
    return _solution(solver, result, rack, table)


def _fewer_changes(
    solver: _Solver, table: list[tuple[int, ...]], rack: list[int], result: _Result, target: int
) -> _Result:
    """Keep more table sets unchanged while the best value stays reachable (greedy): first
    every set (the rack alone), then, one by one, up to :data:`TRIALS` of the sets the play
    changed, farthest from the rack's tiles first. Each trial keeps the table's jokers in
    the rule-5 case of the best play found and places the same tiles (one sweep, where
    every state that leaves a tile out is cut at once)."""
    everything = frozenset(range(len(table)))
    solver = _Solver(
        _placed(result.layout, table), table, solver.weights, solver.deadline, budget=TRIAL_WORK
    )
    r = solver.solve_case(everything, {}, target - 1)
    if r is not None:
        return r
    result.layout = _split_runs(result.layout, table)
    keep = _present(table, result.layout)
    rank = {i: k for k, i in enumerate(_order(table, rack))}
    for tried, i in enumerate(sorted(everything - keep, key=lambda i: rank[i])):
        if i in keep:
            continue
        if tried >= TRIALS or not solver.exact:
            break  # enough tried, or the work allowed (or the time) is spent
        r = solver.solve_case(keep | {i}, _case_of(table, result.layout), target - 1)
        if r is not None:
            r.layout = _split_runs(r.layout, table)
            keep, result = _present(table, r.layout) | keep | {i}, r
    return result


def _case_of(
    table: list[tuple[int, ...]], layout: list[tuple[int, ...]]
) -> dict[int, tuple[str, tuple[int, int]]]:
    """For each table joker: ("A", face) if it still stands for a face it stood for,
    else ("B", face) with a real tile of that face on the table backing it."""
    end = joker_meanings(layout)
    real = Counter((t // 13, t % 13 + 1) for s in layout for t in s if not is_joker(t))
    out: dict[int, tuple[str, tuple[int, int]]] = {}
    for j, faces in _meanings(table):
        common = sorted(set(faces) & end.get(j, frozenset()))
        if common:
            out[j] = ("A", common[0])
            continue
        for f in faces:
            if real[f] > 0:
                real[f] -= 1
                out[j] = ("B", f)
                break
        else:
            out[j] = ("B", faces[0])
    return out


def _present(table: list[tuple[int, ...]], layout: list[tuple[int, ...]]) -> frozenset[int]:
    """The table sets (by index) that the layout has unchanged."""
    left = Counter(layout)
    out = set()
    for i, s in enumerate(table):
        if left[s] > 0:
            left[s] -= 1
            out.add(i)
    return frozenset(out)


def _split_runs(
    layout: list[tuple[int, ...]], table: list[tuple[int, ...]]
) -> list[tuple[int, ...]]:
    """Cut runs of the layout where that gives back table runs unchanged."""
    originals = Counter(s for s in table if len(s) >= 3)
    for s in layout:
        if originals[s] > 0:
            originals[s] -= 1
    out: list[tuple[int, ...]] = []
    for s in layout:
        if len(s) < 6 or analyze(s).kind != "run":
            out.append(s)
            continue
        n = len(s)
        best: list[tuple[int, list[int]] | None] = [None] * (n + 1)
        best[0] = (0, [])
        for i in range(n):
            bi = best[i]
            if bi is None:
                continue
            for j in range(i + 3, n + 1):
                score = bi[0] + (1 if originals[s[i:j]] > 0 else 0)
                bj = best[j]
                if bj is None or score > bj[0]:
                    best[j] = (score, [*bi[1], j])
        done = best[n]
        if done is None or done[0] == 0:
            out.append(s)
            continue
        start = 0
        for j in done[1]:
            piece = s[start:j]
            if originals[piece] > 0:
                originals[piece] -= 1
            out.append(piece)
            start = j
    return out


def _meld(
    rack: list[int], table: list[tuple[int, ...]], deadline: float | None, weights: Weights
) -> Solution | None:
    solver = _Solver(rack, [], weights, deadline)
    result = solver.solve(frozenset(), None)
    if result is None:
        return None
    layout = [tuple(s) for s in result.layout]
    placed = sorted(t for s in layout for t in s)
    points = _value(placed, layout, POINTS) // _K
    if points < MELD_POINTS:
        return None
    full = [*table, *layout]
    state = load({"racks": [list(rack), []], "table": table, "melded": [False, False]})
    if not check(state, 0, full)["ok"]:  # pragma: no cover - a bug, never an answer
        raise AssertionError(f"illegal meld {layout}")
    return Solution(tuple(full), placed, points, len(placed), 0, solver.exact)


def best_meld(rack: list[int], *, deadline: float | None = None) -> Solution | None:
    """The best initial meld (30 points or more) from the rack alone, or None."""
    return _meld(rack, [], deadline, POINTS)


__all__ = ["POINTS", "TILES", "VALUE0", "Solution", "Weights", "best_meld", "best_play"]
