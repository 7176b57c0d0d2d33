"""The Rummy solver: exact against a brute force, legal always, and the seed's examples.

The brute force enumerates, for tiny positions, every subset of the rack, every way to
cut the table's tiles plus that subset into sets and every order of each set, asks the
engine's :func:`check` which layouts are legal, and keeps the best (points, tiles).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from functools import cache

import pytest

from tapete.bots.rummy_solver import POINTS, TILES, VALUE0, Solution, best_meld, best_play
from tapete.games import rummy
from tapete.games.rummy import analyze
from tapete.tiles import fmt, tiles

Set = tuple[int, ...]


def t(s: str) -> list[int]:
    return tiles(s)


def sets(*s: str) -> list[Set]:
    return [tuple(tiles(x)) for x in s]


def shown(sol: Solution) -> list[str]:
    return sorted(fmt(list(s)) for s in sol.layout)


def legal(rack: list[int], table: list[Set], melded: bool, layout: tuple[Set, ...]) -> bool:
    state = rummy.load({"racks": [rack, []], "table": table, "melded": [melded, True]})
    return bool(rummy.check(state, 0, list(layout))["ok"])


# --- brute force -------------------------------------------------------------------------


@cache
def forms(block: tuple[int, ...]) -> tuple[Set, ...]:
    """Every valid order of a multiset of tiles that means something different: a group
    in one order; a run at each place it may start, jokers in every order in the gaps."""
    real = sorted(x for x in block if x < 52)
    jokers = [x for x in block if x >= 52]
    out: set[Set] = set()
    if len(real) >= 2 and len({x % 13 for x in real}) == 1:
        if analyze(block).valid:
            out.add(tuple(real + jokers))
        return tuple(out)
    if not real or len({x // 13 for x in real}) > 1 or len({x for x in real}) < len(real):
        return ()
    n = len(block)
    lo, hi = real[0] % 13, real[-1] % 13
    for start in range(max(0, hi - n + 1), min(lo, 13 - n) + 1):
        slots = [start + i for i in range(n)]
        if any(x % 13 not in slots for x in real):
            continue
        holes = [i for i, v in enumerate(slots) if all(x % 13 != v for x in real)]
        for perm in set(itertools.permutations(jokers)):
            form = [real[0] // 13 * 13 + v for v in slots]
            for i, j in zip(holes, perm, strict=True):
                form[i] = j
            if analyze(form).valid:
                out.add(tuple(form))
    return tuple(sorted(out))


def partitions(ts: tuple[int, ...]) -> list[list[tuple[int, ...]]]:
    """Every way to cut the multiset ``ts`` (sorted) into blocks that can be sets."""
    if not ts:
        return [[]]
    first, rest = ts[0], ts[1:]
    out: list[list[tuple[int, ...]]] = []
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    for k in range(2, min(len(rest), 5) + 1):
        for idx in itertools.combinations(range(len(rest)), k):
            block = tuple(sorted((first, *(rest[i] for i in idx))))
            left = tuple(x for i, x in enumerate(rest) if i not in idx)
            if (block, left) in seen or not forms(block):
                continue
            seen.add((block, left))
            out.extend([block, *p] for p in partitions(left))
    return out


def points(placed: list[int], layout: tuple[Set, ...]) -> int:
    rack_jokers = Counter(x for x in placed if x >= 52)
    total = sum(x % 13 + 1 for x in placed if x < 52)
    for s in layout:
        for i, m in analyze(s).meanings.items():
            if rack_jokers[s[i]]:
                total += min(m)[1]
    return total


def brute(rack: list[int], table: list[Set], melded: bool) -> tuple[int, int]:
    """Best (points, tiles) of a legal play; (0, 0) when there is none."""
    best = (0, 0)
    table_tiles = [x for s in table for x in s]
    for k in range(1, len(rack) + 1):
        for chosen in set(itertools.combinations(sorted(rack), k)):
            pool = tuple(sorted((table_tiles if melded else []) + list(chosen)))
            for blocks in partitions(pool):
                for layout in itertools.product(*(forms(b) for b in blocks)):
                    full = layout if melded else (*table, *layout)
                    score = (points(list(chosen), full), k)
                    if score > best and legal(rack, table, melded, full):
                        best = score
    return best


def tiny(seed: int) -> tuple[list[int], list[Set]]:
    """One or two small sets (maybe a joker in one) and a rack of 2–4 tiles near them."""
    rng = random.Random(seed)
    table: list[Set] = []
    used: Counter[int] = Counter()
    joker_left = [52, 53]
    for _ in range(rng.choice([1, 1, 2])):
        if rng.random() < 0.5:
            c, start = rng.randrange(4), rng.randint(1, 10)
            s = [c * 13 + start - 1 + i for i in range(3)]
        else:
            n = rng.randrange(13)
            s = [c * 13 + n for c in sorted(rng.sample(range(4), 3))]
        if rng.random() < 0.35 and joker_left:
            s[rng.randrange(3)] = joker_left.pop()
        if any(used[x] >= 2 for x in s if x < 52):
            continue
        used.update(x for x in s if x < 52)
        table.append(tuple(s))
    numbers = {x % 13 for s in table for x in s if x < 52}
    near = [
        c * 13 + n
        for c in range(4)
        for n in range(13)
        if any(abs(n - m) <= 2 for m in numbers) and used[c * 13 + n] < 2
    ]
    rack = rng.sample(near, rng.randint(2, 4))
    if joker_left and rng.random() < 0.25:
        rack.append(joker_left.pop())
    return sorted(rack), table


@pytest.mark.parametrize("seed", range(120))
def test_exact_against_brute_force(seed: int) -> None:
    rack, table = tiny(seed)
    expected = brute(rack, table, melded=True)
    got = best_play(rack, table, True)
    assert ((got.points, got.tiles) if got else (0, 0)) == expected, (fmt(rack), table)
    if got is not None:
        assert legal(rack, table, True, got.layout)


def brute_free(rack: list[int], table: list[Set], by_value: bool) -> int:
    """Most tiles (or most points, a joker worth 0) placed when any valid sets will do (no
    rule 5): the question rummikub-solver answers, which the benchmark asks both."""
    best = 0
    table_tiles = [x for s in table for x in s]
    for k in range(1, len(rack) + 1):
        for chosen in set(itertools.combinations(sorted(rack), k)):
            score = sum(x % 13 + 1 for x in chosen if x < 52) if by_value else k
            if score <= best:
                continue
            pool = tuple(sorted(table_tiles + list(chosen)))
            if any(all(forms(b) for b in blocks) for blocks in partitions(pool)):
                best = score
    return best


@pytest.mark.parametrize("seed", range(120))
def test_other_objectives_exact_against_brute_force(seed: int) -> None:
    # these count every joker the same wherever it goes: the solver then places jokers
    # only where a set needs one and adds the others where any set can take them
    rack, table = tiny(seed)
    for weights, by_value in ((TILES, False), (VALUE0, True)):
        got = best_play(rack, table, True, weights=weights, rule5=False, fewest_changes=False)
        score = 0
        if got is not None:
            assert all(analyze(s).valid for s in got.layout)
            assert Counter(x for s in got.layout for x in s) == Counter(
                [x for s in table for x in s] + got.placed
            )
            score = sum(x % 13 + 1 for x in got.placed if x < 52) if by_value else got.tiles
        assert score == brute_free(rack, table, by_value), (fmt(rack), table, by_value)


@pytest.mark.parametrize("seed", range(40))
def test_meld_exact_against_brute_force(seed: int) -> None:
    rng = random.Random(1000 + seed)
    bag = [x for x in range(52) for _ in range(2)] + [52, 53]
    rack = sorted(rng.sample(bag, 7))
    pts, n = brute(rack, [], melded=False)
    got = best_meld(rack)
    if pts < 30:
        assert got is None
    else:
        assert got is not None and (got.points, got.tiles) == (pts, n)


# --- always legal ------------------------------------------------------------------------


def midgame(seed: int) -> tuple[list[int], list[Set]]:
    rng = random.Random(seed)
    pool = [x for x in range(52) for _ in range(2)]
    jokers = [52, 53]
    table: list[Set] = []
    while sum(map(len, table)) < rng.randint(12, 30):
        if rng.random() < 0.5:
            c, length = rng.randrange(4), rng.randint(3, 5)
            s = [c * 13 + rng.randint(0, 13 - length) + i for i in range(length)]
            s = [s[0] + i for i in range(length)]
        else:
            n = rng.randrange(13)
            s = [c * 13 + n for c in sorted(rng.sample(range(4), rng.choice([3, 4])))]
        if any(pool.count(x) < s.count(x) for x in s):
            continue
        for x in s:
            pool.remove(x)
        if jokers and rng.random() < 0.3:
            pool.append(s[1])
            s[1] = jokers.pop()
        table.append(tuple(s))
    rng.shuffle(pool)
    rack = pool[: rng.randint(6, 12)] + jokers[: rng.choice([0, 1])]
    return sorted(rack), table


@pytest.mark.parametrize("seed", range(40))
def test_every_answer_is_legal_and_applies(seed: int) -> None:
    rack, table = midgame(seed)
    got = best_play(rack, table, True)
    free = best_play(rack, table, True, rule5=False, fewest_changes=False)
    if got is None:
        return  # (rule 5 may forbid what the relaxation finds)
    assert free is not None and (free.points, free.tiles) >= (got.points, got.tiles)
    state = rummy.load({"racks": [rack, t("1R")], "table": table, "melded": [True, True]})
    rummy.apply(state, 0, rummy.Play(got.layout))
    assert sorted(x for s in state.table for x in s) == sorted(
        [x for s in table for x in s] + got.placed
    )
    assert got.changed_sets == sum((Counter(table) - Counter(got.layout)).values())
    assert got.points == points(got.placed, got.layout)


def test_the_best_never_loses_to_a_simple_play() -> None:
    # the solver never does worse than just adding the rack's own sets
    for seed in range(10):
        rack, table = midgame(seed)
        alone = best_meld(rack)
        got = best_play(rack, table, True)
        if alone is not None:
            assert got is not None and got.points >= alone.points


# --- the seed's examples and the meld ----------------------------------------------------


def test_the_30_point_meld() -> None:
    sol = best_meld(t("10R 10A 10N 2O"))
    assert sol is not None and shown(sol) == ["10R 10A 10N"] and sol.points == 30


def test_29_is_not_enough_30_is() -> None:
    assert best_meld(t("2R 3R 4R 2A 3A 4A 5A 6A 1N")) is None  # 9 + 20 = 29
    sol = best_meld(t("2R 3R 4R 2A 3A 4A 5A 6A 7A 1N"))  # 9 + 27 = 36
    assert sol is not None and sol.points == 36


def test_a_meld_counts_its_jokers_at_what_they_stand_for() -> None:
    sol = best_meld(t("J1 10A 10N"))
    assert sol is not None and sol.points == 30
    sol = best_meld(t("J1 J2 9O"))  # one number and two jokers is a run: 9 10 11
    assert sol is not None and sol.points == 30 and sol.layout[0][0] == t("9O")[0]
    sol = best_meld(t("J1 J2 13O"))  # 11 12 13 = 36 (a group would be 39: not ours)
    assert sol is not None and sol.points == 36


def test_before_the_meld_the_table_is_untouched() -> None:
    table = sets("4R 5R 6R")
    sol = best_play(t("7R 8A 8N 8O"), table, melded=False)
    assert sol is None  # 24 points, and 7R may not go on the table yet
    sol = best_play(t("7R 10A 10N 10O"), table, melded=False)
    assert sol is not None and shown(sol) == ["10A 10N 10O", "4R 5R 6R"]


def test_taking_the_7_from_the_end_of_a_run() -> None:
    sol = best_play(t("7A 7N"), sets("4R 5R 6R 7R"), melded=True)
    assert sol is not None
    assert shown(sol) == ["4R 5R 6R", "7R 7A 7N"]
    assert (sol.points, sol.tiles, sol.changed_sets) == (14, 2, 1)


def test_retrieving_a_joker() -> None:
    # the 5R takes the joker's place; the joker makes a group with 7A 7N
    sol = best_play(t("5R 7A 7N"), sets("4R J1 6R"), melded=True)
    assert sol is not None
    assert (sol.points, sol.tiles) == (19, 3)
    assert any(Counter(s) == Counter(t("J1 7A 7N")) for s in sol.layout)
    # without a 5R to leave in its place, the joker stays
    assert best_play(t("7A 7N"), sets("4R J1 6R"), melded=True) is None


def test_a_group_joker_may_leave_for_any_missing_colour() -> None:
    # J1 stood for 8N or 8O; the 8O from the rack backs it, and it goes to a run
    sol = best_play(t("8O 5A 6A"), sets("8R 8A J1"), melded=True)
    assert sol is not None and (sol.points, sol.tiles) == (19, 3)


def test_rack_jokers_count_what_they_stand_for() -> None:
    sol = best_play(t("J1"), sets("10R 11R 12R"), melded=True)
    assert sol is not None and sol.points == 13  # on top: 13, not 9 below
    assert shown(sol) == ["10R 11R 12R J1"]


def test_fewest_sets_changed() -> None:
    # 5R fits on the run's end: nothing else moves
    table = sets("2R 3R 4R", "9A 9N 9O", "6R 7R 8R")
    sol = best_play(t("5R"), table, melded=True)
    assert sol is not None and sol.tiles == 1 and sol.changed_sets == 1


def test_the_search_for_fewer_changes_stops_when_its_work_is_spent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # with no work allowed the tie-break tries nothing, and the play is still the best
    # and legal; with work, it keeps more of the table
    from tapete.bots import rummy_solver

    rack, table = midgame(3)
    full = best_play(rack, table, True)
    monkeypatch.setattr(rummy_solver, "TRIAL_WORK", 0)
    none = best_play(rack, table, True)
    assert full is not None and none is not None
    assert (none.points, none.tiles) == (full.points, full.tiles)
    assert none.exact and legal(rack, table, True, none.layout)
    assert none.changed_sets > full.changed_sets


def test_weights_for_other_objectives() -> None:
    rack, table = t("11R 12R 13R 13A 13N"), list[Set]()
    by_points = best_play(rack, table, True, weights=POINTS)
    assert by_points is not None and by_points.points == 39


def test_a_table_joker_may_fill_the_gap_of_a_long_run() -> None:
    # 9O takes the joker's place in the group; the joker becomes the 9A of 3A…8A J 10A
    sol = best_play(t("9O 10A"), sets("3A 4A 5A 6A 7A 8A", "9R 9N J1"), melded=True)
    assert sol is not None and (sol.points, sol.tiles) == (19, 2)
    for weights in (TILES, VALUE0):
        free = best_play(t("9O 10A"), sets("3A 4A 5A 6A 7A 8A", "9R 9N J1"), True,
                         weights=weights, rule5=False)  # fmt: skip
        assert free is not None and free.tiles == 2
