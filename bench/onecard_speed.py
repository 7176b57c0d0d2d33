"""The One Card engine's own speed, one checkout against another, back to back.

Run from the project root::

    python bench/onecard_speed.py --trees OLD NEW [--rounds R] [--seconds S]

Each round runs every tree once, in turn, each in a fresh process (``--one TREE``), so a
load spike on the shared machine hits both alike; the figure is the median of the rounds.
What is timed (the hot paths of the engine and of the difícil bot):

* ``playout Np``: ``new`` / ``legal_moves(state, state.turn)`` / ``apply`` with a seeded
  random choice, whole games, moves per second (2 and 4 players);
* ``view 4p``: the same, also building ``view(state, state.turn)`` after every move;
* ``difícil``: ``choose(view, "dificil")`` on 60 heads-up views from seeded games (its
  search deals the unseen cards, ``load``\\ s positions and plays them out with the engine),
  decisions per second;
* ``codec``: ``parse_move(m.to_json())`` of every legal move of 2,000 positions, moves per
  second; ``dump/load``: ``load(dump(state))`` of the same positions, per second.

Figures are per CPU second of the benchmark's process (``time.process_time``), the median
of the rounds; a timing is never a test.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def _rate(run: Any, seconds: float) -> float:
    """Work done per CPU second of this process (on a shared machine the steadier figure:
    other jobs take wall time, not this process's CPU time), over ``seconds`` of CPU."""
    count = 0
    start = time.process_time()
    end = start + seconds
    while time.process_time() < end:
        count += run()
    return count / (time.process_time() - start)


def one(tree: Path, seconds: float) -> dict[str, float]:
    sys.path.insert(0, str(tree.resolve()))
    from tapete.bots import onecard as bots
    from tapete.games import onecard

    out: dict[str, float] = {}

    def playouts(players: int, views: bool) -> Any:
        config = onecard.parse_config({"players": players})
        seeds = iter(range(10**9))

        def run() -> int:
            seed = next(seeds)
            rng = random.Random(seed)
            state = onecard.new(config, seed)
            n = 0
            while state.result is None and n < 5000:
                seat = state.turn
                onecard.apply(state, seat, rng.choice(onecard.legal_moves(state, seat)))
                n += 1
                if views:
                    onecard.view(state, state.turn)
            return n

        return run

    for players in (2, 4):
        out[f"playout {players}p"] = _rate(playouts(players, False), seconds)
    out["view 4p"] = _rate(playouts(4, True), seconds)

    # positions: every 7th state of seeded 3-player games
    states: list[Any] = []
    config = onecard.parse_config({"players": 3, "jokers": True, "two_attack": True})
    seed = 0
    while len(states) < 2000:
        rng = random.Random(seed)
        state = onecard.new(config, seed)
        k = 0
        while state.result is None and len(states) < 2000:
            seat = state.turn
            onecard.apply(state, seat, rng.choice(onecard.legal_moves(state, seat)))
            k += 1
            if k % 7 == 0:
                states.append(onecard.load(onecard.dump(state)))
        seed += 1
    legal = [m for s in states for m in onecard.legal_moves(s, s.turn)]

    def codec() -> int:
        for m in legal:
            onecard.parse_move(m.to_json())
        return len(legal)

    def positions() -> int:
        for s in states:
            onecard.load(onecard.dump(s))
        return len(states)

    out["codec"] = _rate(codec, seconds)
    out["dump/load"] = _rate(positions, seconds)

    # difícil's decisions on heads-up views
    views: list[Any] = []
    config = onecard.parse_config({"players": 2})
    seed = 0
    while len(views) < 60:
        rng = random.Random(seed)
        state = onecard.new(config, seed)
        k = 0
        while state.result is None and len(views) < 60:
            seat = state.turn
            moves = onecard.legal_moves(state, seat)
            if k % 5 == 2 and sum(type(m) is onecard.Play for m in moves) > 1:
                views.append(onecard.view(state, seat))
            onecard.apply(state, seat, rng.choice(moves))
            k += 1
        seed += 1

    def decide() -> int:
        for v in views:
            bots.choose(v, "dificil")
        return len(views)

    out["difícil"] = _rate(decide, seconds)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--trees", type=Path, nargs="+")
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.one, args.seconds)))
        return
    trees: list[Path] = args.trees or [Path(__file__).resolve().parent.parent]
    runs: dict[Path, list[dict[str, float]]] = {t: [] for t in trees}
    print(f"load average before: {os.getloadavg()}")
    for r in range(args.rounds):
        for tree in trees:
            got = subprocess.run(
                [sys.executable, __file__, "--one", str(tree), "--seconds", str(args.seconds)],
                check=True, capture_output=True, text=True,
            ).stdout  # fmt: skip
            runs[tree].append(json.loads(got))
            print(f"round {r + 1} {tree}: {got.strip()}", flush=True)
    print(f"load average after: {os.getloadavg()}")
    keys = list(runs[trees[0]][0])
    print()
    print("| what | " + " | ".join(str(t) for t in trees) + " |")
    print("|---|" + "---:|" * len(trees))
    for k in keys:
        cells = [f"{statistics.median(x[k] for x in runs[t]):,.0f}" for t in trees]
        print(f"| {k} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
