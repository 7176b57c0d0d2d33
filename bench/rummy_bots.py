"""Rummy bots against each other: seeded hands through the engine alone (no server).

Each pairing plays ``--hands`` two-player hands; hand ``i`` is dealt from seed ``i`` and
the seats swap every hand, so each bot plays each deal's first seat as often. Prints,
for each pairing, the average points per hand of each bot (the hand's gain or loss, as
the rules score it) with a 95% interval, the win rate with its 95% (Wilson) interval,
blocked hands, and the time the bots took to decide.

    .venv/bin/python bench/rummy_bots.py            # 1,000 hands a pairing
    .venv/bin/python bench/rummy_bots.py --hands 50 --jobs 2
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _stats import mean_ci, wilson

from tapete.bots import rummy as bots
from tapete.games import rummy

PAIRINGS = (("experto", "normal"), ("normal", "principiante"))
MAX_TURNS = 2000


def play_hand(levels: tuple[str, str], seed: int) -> dict[str, object]:
    """One hand; ``levels[k]`` plays seat k. Returns deltas, winners and decision times."""
    state = rummy.new(rummy.Config(players=2, hands=1), seed)
    times: list[float] = []
    turns = 0
    while rummy.outcome(state) is None:
        turns += 1
        if turns > MAX_TURNS:
            raise RuntimeError(f"hand {seed} did not end")
        seat = rummy.actors(state)[0]
        t0 = time.perf_counter()
        choice = bots.choose(rummy.view(state, seat), levels[seat])
        times.append(time.perf_counter() - t0)
        assert choice is not None
        rummy.apply(state, seat, rummy.parse_move(choice[0]))
    last = state.last_hand or {}
    return {
        "delta": list(last.get("delta", [0, 0])),
        "winners": list(last.get("winners", [])),
        "blocked": bool(last.get("blocked")),
        "times": times,
        "turns": turns,
    }


def _job(args: tuple[str, str, int, int]) -> list[tuple[float, float, bool, bool, list[float]]]:
    a, b, start, stop = args
    out = []
    for i in range(start, stop):
        swap = i % 2 == 1
        levels = (b, a) if swap else (a, b)
        r = play_hand(levels, i)
        delta = r["delta"]
        winners = r["winners"]
        assert isinstance(delta, list) and isinstance(winners, list)
        ia, ib = (1, 0) if swap else (0, 1)
        win_a = ia in winners and ib not in winners
        times = r["times"]
        assert isinstance(times, list)
        out.append((float(delta[ia]), float(delta[ib]), win_a, bool(r["blocked"]), times))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    print(f"{args.hands} hands a pairing, 2 players, seats swapped every hand")
    for a, b in PAIRINGS:
        t0 = time.perf_counter()
        chunks = [(a, b, s, min(s + 25, args.hands)) for s in range(0, args.hands, 25)]
        rows: list[tuple[float, float, bool, bool, list[float]]] = []
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for part in pool.map(_job, chunks):
                rows.extend(part)
        n = len(rows)
        da = [r[0] for r in rows]
        db = [r[1] for r in rows]
        wins = sum(1 for r in rows if r[2])
        losses = sum(1 for r in rows if not r[2] and (r[1] > 0 or r[0] < 0))
        blocked = sum(1 for r in rows if r[3])
        times = sorted(t for r in rows for t in r[4])
        ma, ha = mean_ci(da)
        mb, hb = mean_ci(db)
        lo, hi = wilson(wins, n)
        print(f"\n{a} vs {b}: {n} hands in {time.perf_counter() - t0:.0f} s")
        print(f"  {a:<12} points/hand {ma:+7.1f} ± {ha:.1f}")
        print(f"  {b:<12} points/hand {mb:+7.1f} ± {hb:.1f}")
        print(f"  {a} wins {wins}/{n} = {wins / n:.1%} (95% {lo:.1%}–{hi:.1%}); "
              f"{b} wins {losses}; blocked hands {blocked}")  # fmt: skip
        if times:
            med = times[len(times) // 2] * 1000
            p90 = times[int(len(times) * 0.9)] * 1000
            print(f"  decisions: {len(times)}, median {med:.1f} ms, p90 {p90:.1f} ms, "
                  f"max {times[-1] * 1000:.0f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
