"""Tapete's Rummy solver against rummikub-solver (den Hertog & Hulshof ILP, via cvxpy).

Seeded positions: mid-game (a table of 20–60 tiles built from valid sets, some with a
joker; a rack of 10–20 tiles drawn from the rest, some with a joker) and opening racks
(14–18 tiles, table empty). Run with the benchmark venv, which has rummikub-solver:

    /work/benchenv/bin/python bench/rummy_solver.py [--positions 200] [--openings 100]

Both solvers answer the same questions on the same positions:

* ``tiles`` — most tiles placed (their ``TILE_COUNT``; ours ``weights=TILES``),
* ``value`` — most points placed, a joker worth 0 (their ``TOTAL_VALUE``; ours
  ``weights=VALUE0``),

with the jokers free (``rule5=False``): rummikub-solver has no joker-retrieval rule, so
ours is asked the same relaxed question. Openings compare whether a 30-point meld exists
(theirs: ``INITIAL``; ours: :func:`best_meld`). Every position where the optima differ is
printed with the reason found. Then ours is timed on Tapete's own question: the legal
best play (points with jokers at what they stand for, then tiles, then fewest sets
changed), each answer checked by the engine.
"""

from __future__ import annotations

import argparse
import itertools
import platform
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tapete.bots import rummy_solver as ours
from tapete.games.rummy import analyze
from tapete.tiles import fmt

Set = tuple[int, ...]


# --- positions ---------------------------------------------------------------------------


def make_position(seed: int) -> tuple[list[int], list[Set]]:
    """A seeded mid-game position: (rack, table)."""
    rng = random.Random(seed)
    target = rng.randint(20, 60)
    table_jokers = rng.choice([0, 0, 1, 2])
    pool = [t for t in range(52) for _ in range(2)]
    jokers = [52, 53]
    table: list[Set] = []
    size = 0
    for _ in range(3000):
        if size >= target:
            break
        if rng.random() < 0.55:
            c, length = rng.randrange(4), rng.randint(3, 6)
            start = rng.randint(1, 14 - length)
            want = [c * 13 + start - 1 + k for k in range(length)]
        else:
            n = rng.randint(1, 13)
            want = [c * 13 + n - 1 for c in sorted(rng.sample(range(4), rng.choice([3, 3, 4])))]
        if any(pool.count(t) < want.count(t) for t in set(want)):
            continue
        s = list(want)
        if table_jokers and rng.random() < 0.4:
            s[rng.randrange(len(s))] = jokers.pop()
            table_jokers -= 1
        for t in s:
            if t < 52:
                pool.remove(t)
        assert analyze(s).valid, s
        table.append(tuple(s))
        size += len(s)
    rng.shuffle(pool)
    rack_size = rng.randint(10, 20)
    rack_jokers = min(len(jokers), rng.choice([0, 0, 1]))
    rack = jokers[:rack_jokers] + pool[: rack_size - rack_jokers]
    return sorted(rack), table


def make_opening(seed: int) -> list[int]:
    rng = random.Random(10_000 + seed)
    bag = [t for t in range(52) for _ in range(2)] + [52, 53]
    rng.shuffle(bag)
    return sorted(bag[: rng.randint(14, 18)])


# --- rummikub-solver ---------------------------------------------------------------------


class Theirs:
    def __init__(self) -> None:
        from rummikub_solver import RuleSet, SolverMode

        self.rs = RuleSet()
        self.mode = SolverMode
        self.backend = str(self.rs.backend)

    @staticmethod
    def conv(t: int) -> int:
        return 53 if t >= 52 else t + 1

    def solve(
        self, rack: list[int], table: list[Set], mode: str
    ) -> tuple[list[int], list[Set]] | None:
        g = self.rs.new_game()
        if table:
            g.add_table(*[self.conv(t) for s in table for t in s])
        g.add_rack(*[self.conv(t) for t in rack])
        g.initial = mode == "initial"
        m = {"tiles": self.mode.TILE_COUNT, "value": self.mode.TOTAL_VALUE,
             "initial": self.mode.INITIAL}[mode]  # fmt: skip
        sol = self.rs.solve(g, m)
        if sol is None:
            return None
        back = {self.conv(t): t for t in range(53)}
        tiles = [back[int(t)] for t in sol.tiles]
        sets = [tuple(back[int(t)] for t in s) for s in sol.sets]
        return tiles, sets


def their_score(tiles: list[int], mode: str) -> int:
    if mode == "tiles":
        return len(tiles)
    return sum(t % 13 + 1 for t in tiles if t < 52)


def our_score(s: ours.Solution | None, mode: str) -> int:
    if s is None:
        return 0
    if mode == "tiles":
        return s.tiles
    return sum(t % 13 + 1 for t in s.placed if t < 52)


def arrange(ms: Set) -> Set | None:
    """An order of the multiset ``ms`` that is a valid set, if any."""
    for perm in itertools.permutations(ms):
        if analyze(perm).valid:
            return perm
    return None


def their_gaps(layout: tuple[Set, ...]) -> list[str]:
    """Sets of our layout outside rummikub-solver's set list (a joker at an end of a run of
    4+, a joker in a group of 4, a run with a joker longer than 5 that cannot be cut)."""
    out = []
    for s in layout:
        if not any(t >= 52 for t in s):
            continue
        info = analyze(s)
        if (info.kind == "group" and len(s) == 4) or (
            info.kind == "run" and len(s) >= 4 and (s[0] >= 52 or s[-1] >= 52)
        ):
            out.append(fmt(list(s)))
    return out


def table_outside(table: list[Set]) -> list[str]:
    return their_gaps(tuple(table))


# --- running -----------------------------------------------------------------------------


def ms(xs: list[float]) -> str:
    xs = sorted(xs)
    if not xs:
        return "-"
    return (f"median {statistics.median(xs) * 1000:.1f} ms, p90 {xs[int(len(xs) * 0.9)] * 1000:.1f}"
            f" ms, max {xs[-1] * 1000:.1f} ms")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--openings", type=int, default=100)
    args = ap.parse_args()
    theirs = Theirs()
    print(f"Python {platform.python_version()}, {platform.machine()}, rummikub-solver backend "
          f"{theirs.backend}")  # fmt: skip
    weights = {"tiles": ours.TILES, "value": ours.VALUE0}
    t_ours: dict[str, list[float]] = {"tiles": [], "value": []}
    t_theirs: dict[str, list[float]] = {"tiles": [], "value": []}
    diffs: list[str] = []
    same = 0
    compared = 0
    full_times: list[float] = []
    rule5_changes = 0
    inexact = 0
    # warm both up
    r0, tb0 = make_position(0)
    theirs.solve(r0, tb0, "tiles")
    ours.best_play(r0, tb0, True)
    jok = Counter[str]()
    best_tiles = 0
    for i in range(args.positions):
        rack, table = make_position(i)
        jok[f"table jokers {sum(t >= 52 for s in table for t in s)}"] += 1
        jok[f"rack jokers {sum(t >= 52 for t in rack)}"] += 1
        for mode in ("tiles", "value"):
            order = [0, 1] if (i + (mode == "value")) % 2 else [1, 0]
            res_o = res_t = None
            for who in order:
                t0 = time.perf_counter()
                if who == 0:
                    res_o = ours.best_play(rack, table, True, weights=weights[mode], rule5=False,
                                           fewest_changes=False)  # fmt: skip
                    t_ours[mode].append(time.perf_counter() - t0)
                else:
                    res_t = theirs.solve(rack, table, mode)
                    t_theirs[mode].append(time.perf_counter() - t0)
            so = our_score(res_o, mode)
            st = their_score(res_t[0], mode) if res_t else 0
            if mode == "tiles":
                best_tiles = max(so, st)
            compared += 1
            if so == st:
                same += 1
                continue
            outside = table_outside(table)
            gaps = their_gaps(res_o.layout) if res_o else []
            if mode == "value" and res_t is not None and st < so and len(res_t[0]) >= best_tiles:
                why = (
                    f"their TOTAL_VALUE objective is sum(tiles ⊗ values) = tiles × 91, so it "
                    f"maximises the tile count: their play places {len(res_t[0])} tiles "
                    f"(the most), ours {res_o.tiles if res_o else 0} worth more"
                )
            elif st < so and outside and res_t is None:
                why = f"their set list cannot hold the table's {', '.join(outside)}: no answer"
            elif st < so and (gaps or outside):
                why = f"our play uses sets outside their list: {', '.join(gaps or outside)}"
            elif st > so:
                bad = [s for s in (res_t[1] if res_t else []) if arrange(s) is None]
                why = (
                    f"THEIRS HIGHER — their invalid sets: {bad}" if bad else "OURS MISSED IT (bug)"
                )
            else:
                why = "unexplained"
            diffs.append(f"position {i} {mode}: ours {so}, theirs {st} — {why}")
        # ours on our own question
        t0 = time.perf_counter()
        full = ours.best_play(rack, table, True)
        full_times.append(time.perf_counter() - t0)
        free = ours.best_play(rack, table, True, rule5=False, fewest_changes=False)
        if full is not None and not full.exact:
            inexact += 1
        best_legal = (full.points, full.tiles) if full else (0, 0)
        best_free = (free.points, free.tiles) if free else (0, 0)
        if best_legal != best_free:
            rule5_changes += 1
    kinds = ", ".join(f"{k}: {v}" for k, v in sorted(jok.items()))
    print(f"\nMid-game positions: {args.positions} ({kinds})")
    print(f"Same optimum on {same} of {compared} questions; differences: {len(diffs)}")
    for d in diffs:
        print("  " + d)
    for mode in ("tiles", "value"):
        mo, mt = statistics.median(t_ours[mode]), statistics.median(t_theirs[mode])
        print(f"{mode:>6}: ours {ms(t_ours[mode])}")
        print(f"{'':>6}  theirs {ms(t_theirs[mode])}")
        slow_o = sum(x > 0.1 for x in t_ours[mode])
        slow_t = sum(x > 0.1 for x in t_theirs[mode])
        print(f"{'':>6}  median ratio ours/theirs {mo / mt:.3f}; over 100 ms: ours {slow_o}, "
              f"theirs {slow_t}")  # fmt: skip
    slow = sum(x > 0.1 for x in full_times)
    print(f"Ours, Tapete's question (legal best play, fewest changes): {ms(full_times)}; "
          f"over 100 ms: {slow}; rule 5 lowered the optimum on {rule5_changes} positions; "
          f"deadline-cut answers {inexact}")  # fmt: skip
    # openings
    to: list[float] = []
    tt: list[float] = []
    agree = 0
    odiffs = []
    for i in range(args.openings):
        rack = make_opening(i)
        t0 = time.perf_counter()
        mo_ = ours.best_meld(rack)
        to.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        mt_ = theirs.solve(rack, [], "initial")
        tt.append(time.perf_counter() - t0)
        if (mo_ is None) == (mt_ is None):
            agree += 1
            continue
        why = ""
        if mt_ is not None and mo_ is None:
            sets = [s for s in mt_[1]]
            singles = [fmt(list(s)) for s in sets if sum(t < 52 for t in s) == 1]
            why = (
                (
                    f"theirs counts {', '.join(singles)} as a group (one number, two jokers); "
                    "our rules read it as a run"
                )
                if singles
                else "unexplained"
            )
        else:
            why = f"ours {[fmt(list(s)) for s in mo_.layout] if mo_ else None}"
        odiffs.append(f"opening {i} ({fmt(rack)}): ours {'meld' if mo_ else 'none'}, theirs "
                      f"{'meld' if mt_ else 'none'} — {why}")  # fmt: skip
    print(f"\nOpening racks: {args.openings}; a 30-point meld exists: same answer on {agree}")
    for d in odiffs:
        print("  " + d)
    print(f"meld: ours {ms(to)}")
    print(
        f"      theirs {ms(tt)}; median ratio {statistics.median(to) / statistics.median(tt):.3f}"
    )


if __name__ == "__main__":
    main()
