"""The bots' decision time on fixed positions, for comparing two versions of the code back
to back: the positions are written once (``--write``), then each version times every level's
``choose`` on each of them, several rounds, in CPU time (the machine is shared).

    .venv/bin/python bench/rummy_decisions.py --write /tmp/positions.json
    PYTHONPATH=/path/to/other/checkout .venv/bin/python bench/rummy_decisions.py /tmp/positions.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from tapete.bots import rummy as bots
from tapete.games import rummy


def write(path: str, count: int) -> None:
    """Positions met in seeded 2-player hands between normal bots, one every few turns."""
    out: list[dict[str, object]] = []
    seed = 0
    while len(out) < count:
        state = rummy.new(rummy.parse_config({"players": 2}), seed)
        turn = 0
        while rummy.outcome(state) is None and len(out) < count:
            seat = state.turn
            if turn % 5 == 2:
                out.append(rummy.dump(state))
            choice = bots.choose(rummy.view(state, seat), "normal")
            assert choice is not None
            rummy.apply(state, seat, rummy.parse_move(choice[0]))
            turn += 1
        seed += 1
    with open(path, "w") as f:
        json.dump(out, f)


def run(path: str, rounds: int) -> None:
    with open(path) as f:
        positions = json.load(f)
    views = []
    for p in positions:
        state = rummy.load(p)
        views.append(rummy.view(state, state.turn))
    print(f"code: {rummy.__file__}")
    for level in ("principiante", "normal", "experto"):
        totals = []
        for _ in range(rounds):
            t0 = time.process_time()
            for v in views:
                bots.choose(v, level)
            totals.append(time.process_time() - t0)
        per = statistics.median(totals) / len(views) * 1000
        print(f"{level:13} {len(views)} decisions, median of {rounds} rounds: {per:.2f} ms each")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("positions")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    if args.write:
        write(args.positions, args.count)
    else:
        run(args.positions, args.rounds)


if __name__ == "__main__":
    main()
