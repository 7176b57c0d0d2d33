"""Benchmark of the La guerra engine: whole seeded games through the public protocol.

Run from the project root::

    python bench/guerra.py [--games N] [--seed S] [--players P] [--length corta|media|final]

Three runs over the same games:

1. *engine*: ``new`` / ``actors`` / ``legal_moves`` / ``apply`` until the game ends, the
   seat that turns chosen at random (seeded) among the seats the table waits for;
2. *engine + views*: the same, and after every move ``view`` built for every seat and
   for a spectator (what a room does before broadcasting);
3. *engine + dump/load*: the same, and after every move the position written and read
   back (``load(dump(state))``, the position codec of docs/positions.md).

It prints games per second, moves per second and microseconds per move, and the
machine. Results are recorded in ``bench/RESULTS.md``; a timing is never a test.

``--fingerprint`` measures nothing: it plays ``--games`` seeded games (2,000 by default)
cycling through every combination of the options (144), and prints SHA-256 digests of
``json.dumps(dump(state))`` after every move, of ``view`` for every seat and a spectator
after every move, and of every event. A refactoring of the engine must leave them as they
were::

    python bench/guerra.py --fingerprint
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from tapete.games import guerra


def play(config: guerra.Config, seed: int, views: bool, dumps: bool = False) -> int:
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
        if dumps:
            guerra.load(guerra.dump(state))
    return moves


COMBINATIONS: list[dict[str, Any]] = [
    dict(zip(("players", "length", "down", "ace_low", "sums", "order"), values, strict=True))
    for values in itertools.product(
        (2, 3, 4),
        ("corta", "media", "final"),
        (3, 1),
        (False, True),
        (False, True),
        ("random", "fixed"),
    )
]
"""Every combination of the options, in a fixed order (144)."""


def fingerprint(games: int, first_seed: int) -> dict[str, str]:
    """SHA-256 of every dump, every view (each seat and a spectator) and every event of
    ``games`` seeded games, game ``i`` with the options ``COMBINATIONS[i % 144]``."""
    digests = {"dump": hashlib.sha256(), "view": hashlib.sha256(), "events": hashlib.sha256()}
    moves = 0

    def record(state: guerra.State, viewers: list[int | None]) -> None:
        digests["dump"].update(json.dumps(guerra.dump(state)).encode())
        for viewer in viewers:
            digests["view"].update(json.dumps(guerra.view(state, viewer)).encode())

    for i in range(games):
        seed = first_seed + i
        config = guerra.parse_config(COMBINATIONS[i % len(COMBINATIONS)])
        viewers: list[int | None] = [*range(guerra.seats(config)), None]
        choose = random.Random(seed)
        state = guerra.new(config, seed)
        record(state, viewers)
        while guerra.outcome(state) is None:
            seat = choose.choice(guerra.actors(state))
            events = guerra.apply(state, seat, guerra.legal_moves(state, seat)[0])
            digests["events"].update(json.dumps(events).encode())
            record(state, viewers)
            moves += 1
    return {"games": str(games), "moves": str(moves)} | {
        k: d.hexdigest() for k, d in digests.items()
    }


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
    parser.add_argument("--fingerprint", action="store_true", help="print digests, no timings")
    args = parser.parse_args(argv)
    if args.fingerprint:
        games = args.games if "--games" in (argv or sys.argv) else 2000
        start = time.perf_counter()
        for key, value in fingerprint(games, args.seed).items():
            print(f"{key:<7} {value}")
        print(f"({time.perf_counter() - start:.1f} s)")
        return
    config = guerra.parse_config({"players": args.players, "length": args.length})

    print("La guerra engine benchmark")
    print(f"machine: {platform.platform()} ({platform.machine()}), cpus: {os.cpu_count()}")
    print(f"python:  {platform.python_implementation()} {sys.version.split()[0]}")
    print(f"options: {guerra.config_json(config)}; seeds {args.seed}..{args.seed + args.games - 1}")
    play(config, args.seed, views=True)  # warm up
    measure("engine", args.games, lambda s: play(config, s, views=False), args.seed)
    measure("engine + views", args.games, lambda s: play(config, s, views=True), args.seed)
    measure(
        "engine + dump/load",
        args.games,
        lambda s: play(config, s, views=False, dumps=True),
        args.seed,
    )


if __name__ == "__main__":
    main()
