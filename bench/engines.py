"""Every game's engine as a room drives it: seeded random playouts through the public
protocol, each move going through its wire codec (``to_json`` then ``parse_move``, as the
room logs and replays it), and every seat's view built after each move.

Run from the project root, or against another checkout of Tapete::

    python bench/engines.py [--repo PATH] [--seconds S] [--repeats R]

For each game of the registry it prints moves per second (the median of ``repeats`` rounds
of ``seconds`` each), over the same seeds.

To compare two versions in one run, on the same machine, with whatever else it is doing
shared between them::

    python bench/engines.py --against PATH [--rounds N] [--seconds S]

runs this checkout and the one at ``PATH`` in turn, ``rounds`` times each (a process each
time, the order alternating), and prints each one's median and the ratio (this / that).
It counts the processes' CPU time (``--cpu``), not the wall clock: on a machine others
share, the time a process waits for a core is not its engine's.

The API used is the module-level one every version has had: ``parse_config``, ``new``,
``actors``, ``legal_moves``, ``apply``, ``outcome``, ``view``, ``parse_move`` and a move's
``to_json``, found through ``tapete.registry``. Results go in ``bench/RESULTS.md``; a
timing is never a test.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
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


def rate(
    game: Any, config: Any, seconds: float, views: bool, clock: Any = time.perf_counter
) -> tuple[float, int]:
    """Moves per second over games with seeds 0, 1, 2, … for ``seconds`` (of ``clock``)."""
    moves = games = 0
    start = clock()
    while clock() - start < seconds:
        moves += playout(game, config, games, views)
        games += 1
    return moves / (clock() - start), games


def compare(other: str, rounds: int, seconds: float) -> None:
    """This checkout and ``other``, ``rounds`` times each, in turn: medians and ratios."""
    trees = {"this": str(HERE), "that": str(Path(other).resolve())}
    got: dict[str, list[dict[str, Any]]] = {"this": [], "that": []}
    for r in range(rounds):
        for which in ("this", "that") if r % 2 == 0 else ("that", "this"):
            command = [sys.executable, __file__, "--json", "--repeats", "1", "--cpu"]
            command += ["--seconds", str(seconds), "--repo", trees[which]]
            run = subprocess.run(command, capture_output=True, text=True, check=True)
            got[which].append(json.loads(run.stdout))
    print(f"this: {trees['this']}\nthat: {trees['that']}")
    python = platform.python_version()
    print(f"{rounds} rounds of {seconds:g} CPU s a game, alternating; python {python}")
    print(f"{'':18} {'this':>9} {'that':>9}  this/that (moves per CPU second, medians)")
    for key in [k for k in got["this"][0] if k not in ("repo", "python")]:
        a = statistics.median(x[key] for x in got["this"])
        b = statistics.median(x[key] for x in got["that"])
        print(f"{key:18} {a:>9,.0f} {b:>9,.0f}  {a / b:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", help="a checkout of Tapete to measure (default: this one)")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--against", help="another checkout to compare this one with")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--cpu", action="store_true", help="the process's CPU time, not the wall clock"
    )
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    if args.against:
        compare(args.against, args.rounds, args.seconds)
        return
    if args.repo:
        sys.path.insert(0, args.repo)
        for name in [m for m in sys.modules if m == "tapete" or m.startswith("tapete.")]:
            del sys.modules[name]
    from tapete.registry import REGISTRY

    out: dict[str, Any] = {"repo": args.repo or ".", "python": platform.python_version()}
    for name, entry in REGISTRY.items():
        game: Any = entry.game.rules
        config = game.parse_config({})
        for views in (False, True):
            rates = [rate(game, config, args.seconds, views, clock)[0] for _ in range(args.repeats)]
            key = f"{name}{' + views' if views else ''}"
            out[key] = round(statistics.median(rates))
            if not args.json:
                rounds = ", ".join(f"{r:,.0f}" for r in rates)
                print(f"{key:18} {out[key]:>9,} moves/s  (rounds: {rounds})")
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
