"""Benchmark of the La guerra engine: whole seeded games through the public protocol.

Run from the project root::

    python bench/guerra.py [--games N] [--seed S] [--players P] [--length corta|media|final]

Two runs over the same games:

1. *engine*: ``new`` / ``actors`` / ``legal_moves`` / ``apply`` until the game ends, the
   seat that turns chosen at random (seeded) among the seats the table waits for;
2. *engine + views*: the same, and after every move ``view`` built for every seat and
   for a spectator (what a room does before broadcasting).

It prints games per second, moves per second and microseconds per move, and the
machine. Results are recorded in ``bench/RESULTS.md``; a timing is never a test.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from tapete.games import guerra


def play(config: guerra.Config, seed: int, views: bool) -> int:
    """Play one game; return the number of moves."""
    choose = random.Random(seed)
    state = guerra.new(config, seed)
    seats: list[int | None] = [*range(guerra.seats(config)), None]
    moves = 0
    while guerra.outcome(state) is None:
        seat = choose.choice(guerra.actors(state))
        move = guerra.legal_moves(state, seat)[0]
        guerra.apply(state, seat, move)
        moves += 1
        if views:
            for viewer in seats:
                guerra.view(state, viewer)
    return moves


def measure(label: str, games: int, run: Callable[[int], int], first_seed: int) -> dict[str, Any]:
    start = time.perf_counter()
    moves = sum(run(first_seed + i) for i in range(games))
    seconds = time.perf_counter() - start
    figures = {
        "label": label,
        "games": games,
        "moves": moves,
        "seconds": seconds,
        "games_per_s": games / seconds,
        "moves_per_s": moves / seconds,
        "us_per_move": seconds / moves * 1e6,
    }
    print(
        f"{label:<16} {games:>6} games {moves:>9} moves {seconds:>7.2f} s   "
        f"{figures['games_per_s']:>8.1f} games/s {figures['moves_per_s']:>10.0f} moves/s "
        f"{figures['us_per_move']:>7.2f} µs/move"
    )
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--length", default="corta", choices=("corta", "media", "final"))
    args = parser.parse_args(argv)
    config = guerra.parse_config({"players": args.players, "length": args.length})

    print("La guerra engine benchmark")
    print(f"machine: {platform.platform()} ({platform.machine()}), cpus: {os.cpu_count()}")
    print(f"python:  {platform.python_implementation()} {sys.version.split()[0]}")
    print(f"options: {guerra.config_json(config)}; seeds {args.seed}..{args.seed + args.games - 1}")
    play(config, args.seed, views=True)  # warm up
    measure("engine", args.games, lambda s: play(config, s, views=False), args.seed)
    measure("engine + views", args.games, lambda s: play(config, s, views=True), args.seed)


if __name__ == "__main__":
    main()
