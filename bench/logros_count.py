"""What counting a finished game's logros costs (tapete/rooms/logros.py), without the store:
the game replayed from its log (the engine's ``new`` and ``apply``, every move's events
kept) and every logro of the game and of the hall evaluated for one seat — the CPU a room's
process spends when a game ends, besides two reads and one transaction.

    .venv/bin/python bench/logros_count.py [--games 200]

Games are played first by the games' bots (seeded; El Peaje by its first legal answer);
only the counting is timed. Prints, per game, the median and p99 milliseconds a count and
the moves a game."""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tapete.games.protocol import Finished
from tapete.logros import HALL
from tapete.registry import REGISTRY

CONFIGS: dict[str, dict[str, Any]] = {
    "guerra": {"players": 2, "length": "corta"},
    "onecard": {"players": 2},
    "rummy": {"players": 2, "hands": 1},
    "peaje": {"variant": "solitario", "difficulty": "media"},
}


def play(kind: str, seed: int) -> tuple[Any, list[tuple[int, dict[str, Any]]]]:
    """A whole game by the bots (El Peaje: the first legal answer); its config and log."""
    entry = REGISTRY[kind]
    rules = entry.game.rules
    config = entry.game.parse_config(CONFIGS[kind])
    state = rules.new(config, seed)
    log: list[tuple[int, dict[str, Any]]] = []
    rng = random.Random(seed)
    for _ in range(5000):
        if rules.outcome(state) is not None:
            return config, log
        seat = rules.actors(state)[0]
        view = rules.view(state, seat)
        move: dict[str, Any]
        if entry.bots is not None:
            choice = entry.bots.choose(view, entry.bots.default)
            move = choice[0] if choice is not None else view["legal"][0]
        else:
            move = rng.choice(view["legal"])
        rules.apply(state, seat, entry.game.parse_move(move))
        log.append((seat, move))
    raise RuntimeError(f"{kind} {seed} did not end")


def count(kind: str, config: Any, seed: int, log: list[tuple[int, dict[str, Any]]]) -> int:
    """What ``Logros.count_game`` does for one seat, without the store."""
    spec = REGISTRY[kind].game
    state = spec.rules.new(config, seed)
    moves = []
    for seat, move in log:
        events = spec.rules.apply(state, seat, spec.parse_move(move))
        moves.append((seat, move, list(events)))
    outcome = spec.rules.outcome(state)
    assert outcome is not None
    facts = Finished(config, outcome, 0, 0 in spec.winners(outcome), moves, (None, "normal"))
    return sum(logro.count(facts) for logro in (*spec.logros, *HALL))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    args = ap.parse_args()
    print(f"{platform.python_implementation()} {platform.python_version()}, "
          f"{platform.machine()}, {args.games} games a game")  # fmt: skip
    for kind in CONFIGS:
        games = [(seed, *play(kind, seed)) for seed in range(args.games)]
        times = []
        for seed, config, log in games:
            t0 = time.perf_counter()
            count(kind, config, seed, log)
            times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        moves = statistics.median(len(log) for _, _, log in games)
        print(f"{kind:8} median {statistics.median(times):6.2f} ms, "
              f"p99 {times[int(len(times) * 0.99) - 1]:6.2f} ms, max {times[-1]:6.2f} ms; "
              f"{moves:.0f} moves a game (median)")  # fmt: skip


if __name__ == "__main__":
    main()
