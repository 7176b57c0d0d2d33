"""Every game's engine as a room drives it: seeded random playouts through the public
protocol, each move going through its wire codec (``to_json`` then ``parse_move``, as the
room logs and replays it), and every seat's view built after each move.

Run from the project root, or against another checkout of Tapete (to compare two versions
in one run, back to back, on the same machine)::

    python bench/engines.py [--repo PATH] [--seconds S] [--repeats R]

For each game it prints moves per second (the median of ``repeats`` rounds of ``seconds``
each) and the number of moves played, over the same seeds. The API used is the module-level
one both the codecs before and after the derived codecs have: ``parse_config``, ``new``,
``actors``, ``legal_moves``, ``apply``, ``outcome``, ``view``, ``parse_move`` and a move's
``to_json``. Results go in ``bench/RESULTS.md``; a timing is never a test.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import random
import statistics
import sys
import time
from typing import Any

GAMES = ("guerra", "onecard", "rummy", "peaje")
MAX_MOVES = 2_000
"""A playout stops here (random Rummy play draws and passes for a long time)."""


def playout(game: Any, config: Any, seed: int, views: bool) -> int:
    """One seeded random game; returns the moves played."""
    pick = random.Random(seed)
    state = game.new(config, seed)
    seats = list(range(game.seats(config)))
    moves = 0
    while game.outcome(state) is None and moves < MAX_MOVES:
        actors = game.actors(state)
        if not actors:
            break
        seat = pick.choice(actors)
        legal = game.legal_moves(state, seat)
        if not legal:
            break
        move = game.parse_move(legal[pick.randrange(len(legal))].to_json())
        game.apply(state, seat, move)
        moves += 1
        if views:
            for s in seats:
                game.view(state, s)
            game.view(state, None)
    return moves


def rate(game: Any, config: Any, seconds: float, views: bool) -> tuple[float, int]:
    """Moves per second over games with seeds 0, 1, 2, … for ``seconds``."""
    moves = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        moves += playout(game, config, games, views)
        games += 1
    return moves / (time.perf_counter() - start), games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", help="a checkout of Tapete to measure (default: this one)")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.repo:
        sys.path.insert(0, args.repo)
        for name in [m for m in sys.modules if m == "tapete" or m.startswith("tapete.")]:
            del sys.modules[name]
    out: dict[str, Any] = {"repo": args.repo or ".", "python": platform.python_version()}
    for name in GAMES:
        game = importlib.import_module(f"tapete.games.{name}")
        config = game.parse_config({})
        for views in (False, True):
            rates = [rate(game, config, args.seconds, views)[0] for _ in range(args.repeats)]
            key = f"{name}{' + views' if views else ''}"
            out[key] = round(statistics.median(rates))
            if not args.json:
                rounds = ", ".join(f"{r:,.0f}" for r in rates)
                print(f"{key:18} {out[key]:>9,} moves/s  (rounds: {rounds})")
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
