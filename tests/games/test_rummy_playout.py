"""Rummy de fichas: seeded random playouts through the public protocol, checking invariants.

Matches of 2, 3 and 4 players over 1, 3 and 5 hands, played by a simple in-test player that
sees only its own ``view``: it lays new groups and runs from its rack (greedy, with jokers
to complete pairs, respecting the 30-point initial meld), then adds rack tiles to the ends
of table sets and retrieves table jokers with the tile they stand for; otherwise it draws,
or passes with the pool empty, sometimes through the clock (``Timeout``). Every play it
builds is legal by construction, so ``check`` must accept it. Before some turns it proposes
an illegal move (a random set, a table tile taken back, a tile it does not hold, nothing
new, a move out of turn, a pass with tiles in the pool …): ``apply`` must refuse it with the
first error ``check`` reports and leave ``dump`` unchanged.

After every move:

- the 106 tiles are all there, as a multiset: each numbered face exactly twice, each joker
  once (``rummy.all_tiles``); every table set is valid; while a hand goes on no rack is empty;
- at the end of a hand, the deltas follow RULES.md exactly (recomputed here from the racks),
  sum to zero when an empty rack won, and the match scores are the sum of the hands; the next
  hand is dealt to the next starter; the match ends after 1, 3 or 5 hands and the highest
  total wins;
- every seat's ``view`` shows its own rack, sorted, and nothing of the hidden tiles: dealing
  the other racks and the pool afresh (same sizes; a mere permutation of the pool included)
  leaves that view unchanged, and likewise for the spectator; the log carries no drawn tile.

Some matches are dumped mid-game, loaded through JSON and played on with the same moves to
the same end.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections import Counter
from typing import Any

import pytest

from tapete.games import rummy
from tapete.games.protocol import Event, IllegalMove
from tapete.games.rummy import Draw, Pass, Play, Timeout
from tapete.rng import Rng
from tapete.tiles import JOKERS, full_set, points, text, tile, tiles

MATCHES = 18
"""Two of each (players, hands): 2, 3, 4 players × 1, 3, 5 hands (about 4 s of CPU, its
share of `make test`'s six minutes)."""
HAND_CAP = 1_500
"""Moves in one hand; the pool runs out after at most 78 draws, then passes end it."""
PROBE = 0.08
"""The share of turns before which an illegal move is tried."""
VIEW_EVERY = 3
"""One match in this many gets the hidden-tile view checks after every move; the others
every ``VIEW_SAMPLE`` moves."""
VIEW_SAMPLE = 25
DUMP_EVERY = 8

FULL = Counter(full_set())

Layout = list[tuple[int, ...]]


# --- the player ------------------------------------------------------------------------


def consecutive_chains(nums: list[int]) -> list[list[int]]:
    chains: list[list[int]] = []
    for n in nums:
        if chains and n == chains[-1][-1] + 1:
            chains[-1].append(n)
        else:
            chains.append([n])
    return chains


def find_sets(rack: list[int], r: random.Random) -> list[tuple[int, ...]]:
    """Disjoint sets from the rack: runs and groups (in a random order), then jokers to
    complete pairs."""
    left = Counter(rack)
    out: list[tuple[int, ...]] = []

    def take(s: tuple[int, ...]) -> None:
        out.append(s)
        left.subtract(Counter(s))

    def runs() -> None:
        for c in range(4):
            nums = sorted({t % 13 + 1 for t in left if t < 52 and t // 13 == c and left[t] > 0})
            for chain in consecutive_chains(nums):
                if len(chain) >= 3:
                    take(tuple(c * 13 + n - 1 for n in chain))

    def groups() -> None:
        for n in range(1, 14):
            cols = [c for c in range(4) if left[c * 13 + n - 1] > 0]
            if len(cols) >= 3:
                r.shuffle(cols)
                take(tuple(c * 13 + n - 1 for c in cols))

    for step in r.sample([runs, groups], 2):
        step()
    for j in JOKERS:
        if left[j] <= 0:
            continue
        pairs: list[tuple[int, ...]] = []
        for n in range(1, 14):
            cols = [c for c in range(4) if left[c * 13 + n - 1] > 0]
            if len(cols) >= 2:
                pairs.append((cols[0] * 13 + n - 1, j, cols[1] * 13 + n - 1))
        for c in range(4):
            for n in range(1, 13):
                a, b = c * 13 + n - 1, c * 13 + n
                if left[a] > 0 and left[b] > 0:
                    pairs.append((a, b, j) if n + 1 < 13 else (j, a, b))
            for n in range(1, 12):
                a, b = c * 13 + n - 1, c * 13 + n + 1
                if left[a] > 0 and left[b] > 0:
                    pairs.append((a, j, b))
        others = [x for x in JOKERS if x != j and left[x] > 0]
        singles = [t for t in left if t < 52 and left[t] > 0]
        if others and singles and r.random() < 0.3:
            t = r.choice(singles)
            pairs.append((t, j, others[0]) if t % 13 + 1 <= 11 else (j, others[0], t))
        if pairs:
            take(r.choice(pairs))
    return out


def plain(s: tuple[int, ...]) -> bool:
    return max(s) < 52


def is_group(s: tuple[int, ...]) -> bool:
    """A joker-free valid set is a group when its first two tiles share a number."""
    return s[0] % 13 == s[1] % 13


def fit(s: tuple[int, ...], t: int) -> tuple[int, ...] | None:
    """``s`` with the numbered tile ``t`` at one of its ends, if that is still a set
    (``s`` joker-free and valid)."""
    n, c = t % 13 + 1, t // 13
    if is_group(s):
        ok = len(s) < 4 and s[0] % 13 == t % 13 and all(x // 13 != c for x in s)
        return (*s, t) if ok else None
    if s[0] // 13 != c:
        return None
    if n == s[-1] % 13 + 2:
        return (*s, t)
    if n == s[0] % 13:
        return (t, *s)
    return None


def extend(layout: Layout, rack: Counter[int], r: random.Random) -> None:
    """Add rack tiles to the ends of joker-free table sets, and a rack joker to the end of a
    run or to a group of 3."""
    order = sorted(rack.elements())
    r.shuffle(order)
    spots = list(range(len(layout)))
    r.shuffle(spots)
    for t in order:
        if rack[t] <= 0:
            continue
        for i in spots:
            s = layout[i]
            if t in JOKERS:
                cand: tuple[int, ...] | None = (*s, t) if len(s) < 4 or not is_group(s) else None
                if cand is None or not plain(s) or not rummy.analyze(cand).valid:
                    continue
            else:
                cand = fit(s, t) if plain(s) else None
                if cand is None:
                    continue
            layout[i] = cand
            rack[t] -= 1
            break


def spares(layout: Layout) -> dict[int, list[int]]:
    """The tiles that can leave their set and leave a set behind, by face: an end of a
    joker-free run of 4 or more, or any tile of a joker-free group of 4."""
    out: dict[int, list[int]] = {}
    for i, s in enumerate(layout):
        if len(s) < 4 or not plain(s):
            continue
        for face in s if is_group(s) else (s[0], s[-1]):
            out.setdefault(face, []).append(i)
    return out


def without(s: tuple[int, ...], face: int) -> tuple[int, ...]:
    k = s.index(face)
    return s[:k] + s[k + 1 :]


def rearrange(layout: Layout, rack: Counter[int], r: random.Random) -> None:
    """Place rack tiles by moving table tiles: a group of the rack tile and two tiles spared
    by two other sets; or a run split in two around a copy of one of its numbers."""
    order = [t for t in sorted(rack.elements()) if t < 52]
    r.shuffle(order)
    for t in order:
        if rack[t] <= 0:
            continue
        n, c = t % 13 + 1, t // 13
        free = spares(layout)
        found: list[tuple[int, int]] = []
        for c2 in range(4):
            face = c2 * 13 + n - 1
            if c2 == c:
                continue
            where = [i for i in free.get(face, []) if all(i != j for j, _ in found)]
            if where and len(found) < 2:
                found.append((where[0], face))
        if len(found) == 2:
            for i, face in found:
                layout[i] = without(layout[i], face)
            layout.append((t, found[0][1], found[1][1]))
            rack[t] -= 1
            continue
        for i, s in enumerate(layout):  # a split: lo..n and n..hi, the rack tile the second n
            if plain(s) and not is_group(s) and s[0] // 13 == c:
                lo, hi = s[0] % 13 + 1, s[-1] % 13 + 1
                if lo + 2 <= n <= hi - 2:
                    layout[i] = s[: n - lo + 1]
                    layout.append((t, *s[n - lo + 1 :]))
                    rack[t] -= 1
                    break


def retrieve(layout: Layout, rack: Counter[int], r: random.Random) -> bool:
    """Swap a table joker for the tile it stands for, and put the joker at an end of a set."""
    spots = [(i, k) for i, s in enumerate(layout) for k, t in enumerate(s) if t in JOKERS]
    r.shuffle(spots)
    for i, k in spots:
        s = layout[i]
        meaning = rummy.analyze(s).meanings[k]
        face = next((c * 13 + n - 1 for c, n in sorted(meaning) if rack[c * 13 + n - 1] > 0), None)
        if face is None:
            continue
        joker = s[k]
        swapped = (*s[:k], face, *s[k + 1 :])
        trial = [*layout[:i], swapped, *layout[i + 1 :]]
        order = list(range(len(trial)))
        r.shuffle(order)
        for j in order:
            for cand in ((*trial[j], joker), (joker, *trial[j])):
                if rummy.analyze(cand).valid:
                    trial[j] = cand
                    layout[:] = trial
                    rack[face] -= 1
                    return True
    return False


def choose(state: rummy.State, seat: int, r: random.Random, stats: Counter[str]) -> Any:
    """The player's move, from its view only."""
    v = rummy.view(state, seat)
    rack = tiles(" ".join(v["rack"]))
    table: Layout = [tuple(tiles(" ".join(s))) for s in v["table"]]
    melded = v["melded"][seat]
    new_sets = find_sets(rack, r)
    left = Counter(rack)
    for s in new_sets:
        left.subtract(Counter(s))
    layout = table + new_sets
    if not melded:
        if new_sets and sum(rummy.analyze(s).value for s in new_sets) >= rummy.MELD_POINTS:
            stats["meld"] += 1
            return legal_play(state, seat, layout, r)
    else:
        retrieved = r.random() < 0.7 and retrieve(layout, left, r)
        if r.random() < 0.8:
            extend(layout, left, r)
        if r.random() < 0.6:
            rearrange(layout, left, r)
            extend(layout, left, r)
        if new_sets or retrieved or +left != Counter(rack):
            stats["retrieve"] += retrieved
            return legal_play(state, seat, layout, r)
    moves = [rummy.parse_move(m) for m in v["legal"]]
    assert moves == rummy.legal_moves(state, seat) and len(moves) == 1
    return Timeout() if r.random() < 0.15 else moves[0]


def legal_play(state: rummy.State, seat: int, layout: Layout, r: random.Random) -> Play:
    if len(layout) > 1 and r.random() < 0.5:
        layout = layout[1:] + layout[:1]  # the order of sets on the table does not matter
    report = rummy.check(state, seat, layout)
    assert report["ok"], (report["errors"], rummy.dump(state), layout)
    return Play(tuple(layout))


# --- illegal moves ---------------------------------------------------------------------


def probe(state: rummy.State, r: random.Random, stats: Counter[str]) -> None:
    """Propose an illegal move; it must be refused with the state unchanged."""
    seat = state.turn
    n = len(state.racks)
    rack = state.racks[seat]
    table: Layout = list(state.table)
    kind = r.randrange(7)
    move: Any
    if kind == 0 and len(rack) >= 3:  # a random set from the rack
        move = Play(tuple([*table, tuple(r.sample(rack, min(len(rack), r.choice((3, 3, 4)))))]))
    elif kind == 1 and table:  # a table tile taken back
        i = r.randrange(len(table))
        k = r.randrange(len(table[i]))
        cut = table[i][:k] + table[i][k + 1 :]
        move = Play(
            tuple([*table[:i], cut, *table[i + 1 :]] if cut else table[:i] + table[i + 1 :])
        )
    elif kind == 2:  # a tile the player does not hold, at the end of a set of its own
        missing = [t for t in range(54) if t not in rack]
        move = Play(tuple([*table, (r.choice(missing), *r.sample(rack, min(2, len(rack))))]))
    elif kind == 3:  # nothing new
        move = Play(tuple(r.sample(table, len(table))))
    elif kind == 4:  # out of turn
        other = (seat + r.randrange(1, n)) % n
        move = r.choice([Draw(), Pass(), Timeout(), Play(tuple(table))])
        refused(state, other, move, "not_your_turn")
        stats["probe"] += 1
        return
    else:  # the wrong one of draw and pass
        move = Pass() if state.pool else Draw()
    if isinstance(move, Play):
        report = rummy.check(state, seat, list(move.table))
        if report["ok"]:
            return  # a random layout that happens to be legal: not a probe
        code = report["errors"][0]["code"]
    else:
        code = "must_draw" if state.pool else "pool_empty"
    refused(state, seat, move, code)
    stats["probe"] += 1


def refused(state: rummy.State, seat: int, move: Any, code: str) -> None:
    before = copy.deepcopy(rummy.dump(state))
    with pytest.raises(IllegalMove) as info:
        rummy.apply(state, seat, move)
    assert info.value.code == code
    assert rummy.dump(state) == before


# --- checks ----------------------------------------------------------------------------


def check_state(state: rummy.State, table_changed: bool = True) -> None:
    assert Counter(rummy.all_tiles(state)) == FULL, "a tile lost or duplicated"
    if table_changed:
        for s in state.table:
            assert rummy.analyze(s).valid, s
    n = len(state.racks)
    assert 0 <= state.turn < n and 0 <= state.passes <= n
    if state.result is None and state.waiting:  # between hands: the end stays in view
        assert rummy.actors(state) == state.waiting == sorted(set(state.waiting))
        assert state.last_hand is not None and state.last_hand["hand"] == state.hand
    elif state.result is None:
        assert all(state.racks), "an empty rack and the hand goes on"
        assert rummy.actors(state) == [state.turn]
        assert state.passes == 0 or not state.pool
    else:
        assert rummy.actors(state) == []


def expected_delta(racks: list[list[int]], blocked: bool) -> tuple[list[int], list[int]]:
    """RULES.md, «Fin de una mano», computed here on its own."""
    totals = [sum(points(t) for t in r) for r in racks]
    if not blocked:
        (winner,) = [s for s, r in enumerate(racks) if not r]
        delta = [-x for x in totals]
        delta[winner] = sum(totals)
        return delta, [winner]
    low = min(totals)
    winners = [s for s, x in enumerate(totals) if x == low]
    pot = sum(x - low for x in totals)
    return [pot // len(winners) if x == low else low - x for x in totals], winners


def check_hand_end(
    e: Event, before: list[list[int]], placed: Counter[int], seat: int, move: Any
) -> None:
    """The hand's racks are the racks before the move, less what the mover placed; the
    deltas follow the rule."""
    racks = [tiles(x) for x in e["racks"]]
    for s, rack in enumerate(racks):
        expected = Counter(before[s]) - (placed if s == seat else Counter())
        assert Counter(rack) == expected
    delta, winners = expected_delta(racks, e["blocked"])
    assert e["delta"] == delta and e["winners"] == winners
    if not e["blocked"]:
        assert isinstance(move, Play) and not racks[seat]
        assert sum(delta) == 0
    else:
        assert isinstance(move, (Pass, Timeout))
        assert -len(winners) < sum(delta) <= 0


def check_views(state: rummy.State, r: random.Random) -> None:
    n = len(state.racks)
    for seat in [*range(n), None]:
        v = rummy.view(state, seat)
        if seat is not None:
            assert v["rack"] == [text(t) for t in sorted(state.racks[seat])]
        assert v["counts"] == [len(x) for x in state.racks] and v["pool"] == len(state.pool)
        assert all("secret" not in entry for entry in v["log"])
        hidden_seats = [s for s in range(n) if s != seat]
        hidden = [t for s in hidden_seats for t in state.racks[s]] + state.pool
        r.shuffle(hidden)
        racks = [list(x) for x in state.racks]
        at = 0
        for s in hidden_seats:
            racks[s] = hidden[at : at + len(racks[s])]
            at += len(racks[s])
        other = dataclasses.replace(state, racks=racks, pool=hidden[at:])
        assert rummy.view(other, seat) == v, "a view changes with hidden tiles"
    pool_only = dataclasses.replace(state, pool=r.sample(state.pool, len(state.pool)))
    for seat in [*range(n), None]:
        assert rummy.view(pool_only, seat) == rummy.view(state, seat)


# --- the playout -----------------------------------------------------------------------


def play_match(index: int, stats: Counter[str]) -> None:
    r = random.Random(index)
    players = (2, 3, 4)[index % 3]
    hands = (1, 3, 5)[(index // 3) % 3]
    seed = 1_000 + index
    state = rummy.new(rummy.parse_config({"players": players, "hands": hands}), seed)
    assert state.starter == Rng.from_seed(seed).below(players)
    check_state(state)
    twin: rummy.State | None = None
    dump_at = r.randrange(20, 200) if index % DUMP_EVERY == 0 else -1
    views_always = index % VIEW_EVERY == 0
    starter, scores = state.starter, [0] * players
    moves = in_hand = 0
    while state.result is None:
        if moves == dump_at:
            twin = rummy.load(json.loads(json.dumps(rummy.dump(state))))
            assert rummy.dump(twin) == rummy.dump(state)
        seat = state.turn
        if r.random() < PROBE:
            probe(state, r, stats)
        move = choose(state, seat, r, stats)
        before = [list(x) for x in state.racks]
        placed: Counter[int] = Counter()
        if isinstance(move, Play):
            placed = Counter(t for x in move.table for t in x) - Counter(
                t for x in state.table for t in x
            )
        events = rummy.apply(state, seat, move)
        if twin is not None:
            assert rummy.apply(twin, seat, move) == events
        moves += 1
        in_hand += 1
        assert in_hand <= HAND_CAP, "a hand that does not end"
        check_state(state, table_changed=isinstance(move, Play))
        while state.waiting:  # every seat says it has seen the hand's end, in any order
            if r.random() < 0.2:
                refused(state, state.waiting[0], rummy.Draw(), "hand_over")
            who = r.choice(state.waiting)
            nxt = rummy.Next() if r.random() < 0.8 else rummy.Timeout()
            more = rummy.apply(state, who, nxt)
            if twin is not None:
                assert rummy.apply(twin, who, nxt) == more
            assert more[0] == {"t": "ready", "seat": who}
            check_state(state, table_changed=False)
            events += more
        for e in events:
            assert e["t"] in ("play", "draw", "pass", "hand_end", "ready", "hand_start", "end")
            if e["t"] == "draw":
                assert e["seat"] == seat and len(e["secret"]) == 1
            if e["t"] == "hand_end":
                check_hand_end(e, before, placed, seat, move)
                scores = [a + b for a, b in zip(scores, e["delta"], strict=True)]
                assert e["scores"] == scores == state.scores
                stats["blocked" if e["blocked"] else "out"] += 1
                in_hand = 0
            if e["t"] == "hand_start":
                starter = (starter + 1) % players
                assert e["starter"] == starter == state.turn
                assert [len(x) for x in state.racks] == [14] * players and not state.table
        if views_always or moves % VIEW_SAMPLE == 0:
            check_views(state, r)
    result = rummy.outcome(state)
    assert result is not None and result["hands"] == hands == state.hand
    assert result["scores"] == scores
    assert result["winners"] == [s for s in range(players) if scores[s] == max(scores)]
    if twin is not None:
        assert rummy.dump(twin) == rummy.dump(state)
        stats["replayed"] += 1
    stats[f"hands{hands}"] += 1
    stats["moves"] += moves


@pytest.mark.slow  # (long random playouts)
def test_random_playouts_keep_every_invariant() -> None:
    stats: Counter[str] = Counter()
    for index in range(MATCHES):
        play_match(index, stats)
    # the playouts reach every part of the rules they are meant to exercise
    assert stats["out"] > 0 and stats["blocked"] > 0, stats
    assert stats["meld"] > 0 and stats["retrieve"] > 0 and stats["probe"] > 50, stats
    assert stats["hands1"] and stats["hands3"] and stats["hands5"] and stats["replayed"], stats


def test_tile_faces_are_the_ones_the_player_reads() -> None:
    """The in-test player reads views through the tile codec: every face round-trips."""
    assert [tile(text(t)) for t in range(54)] == list(range(54))
