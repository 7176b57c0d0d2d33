"""Benchmark of the One Card engine against OpenSpiel's crazy_eights and RLCard's UNO.

Run from the project root with the benchmark venv (it has ``open-spiel`` and ``rlcard``;
the project venv must not)::

    /work/benchenv/bin/python bench/onecard_engine.py [--seconds S] [--repeats R] [--slice T]

What is timed, every engine driven from Python with a seeded ``random.Random`` choosing
uniformly among the legal actions, whole games one after another until the budget runs out:

* *ours*: ``new`` / ``legal_moves(state, state.turn)`` / ``apply`` through the public
  protocol; every applied move counts. (a) bare, (b) also building
  ``view(state, state.turn)`` after each move;
* *OpenSpiel* ``crazy_eights`` (default options but ``players``): ``legal_actions`` /
  ``apply_action``; chance outcomes sampled with ``rng.choices`` over
  ``chance_outcomes()``; only decisions (non-chance actions) count, the time includes
  everything in the loop;
* *RLCard* UNO, the bare ``UnoGame`` loop (not ``env.run``): ``init_game`` /
  ``get_legal_actions`` / ``step`` / ``is_over``; every step counts (its ``step`` also
  builds the next player's state dict: that is part of the game, not of an env).

Each engine and player count gets the same wall-clock budget per round (``--seconds``),
spent in short slices taken in turn by every engine, so that other jobs on the machine slow
them all alike; the round is repeated ``--repeats`` times and the figure is the median of
the rounds. The load average is printed before and after, and the rates per CPU second of
this process are printed too: on a shared machine they are the steadier comparison.
Results are recorded in ``bench/RESULTS.md``; a timing is never a test.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tapete.games import onecard

OPENSPIEL_TARGET = 1.5
"""Issue 26: One Card's engine at 1.5× OpenSpiel's decisions per second (1.2× before)."""
MOVE_CAP = 100_000
"""A game longer than this is abandoned (never seen; a guard against an endless loop)."""


def ours(players: int, views: bool) -> Callable[[float, int], tuple[int, int]]:
    config = onecard.parse_config({"players": players})
    new, legal_moves, apply, view = onecard.new, onecard.legal_moves, onecard.apply, onecard.view

    def run(budget: float, seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        moves = games = 0
        end = time.perf_counter() + budget
        while time.perf_counter() < end:
            state = new(config, seed + games)
            games += 1
            n = 0
            while state.result is None and n < MOVE_CAP:
                seat = state.turn
                apply(state, seat, rng.choice(legal_moves(state, seat)))
                n += 1
                if views:
                    view(state, state.turn)
            moves += n
        return moves, games

    return run


def openspiel(players: int) -> Callable[[float, int], tuple[int, int]]:
    import pyspiel

    game = pyspiel.load_game("crazy_eights", {"players": players})

    def run(budget: float, seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        decisions = games = 0
        end = time.perf_counter() + budget
        while time.perf_counter() < end:
            state = game.new_initial_state()
            games += 1
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(actions, probs)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    decisions += 1
        return decisions, games

    return run


def rlcard_uno(players: int) -> Callable[[float, int], tuple[int, int]]:
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    def run(budget: float, seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        steps = games = 0
        end = time.perf_counter() + budget
        while time.perf_counter() < end:
            game = UnoGame(num_players=players)
            game.np_random = np.random.RandomState(seed + games)
            game.init_game()
            games += 1
            while not game.is_over():
                game.step(rng.choice(game.get_legal_actions()))
                steps += 1
        return steps, games

    return run


def check_uno_players() -> str:
    """Does ``UnoGame(num_players=N)`` really deal N hands and rotate over N seats?"""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    out = []
    for n in (2, 3, 4):
        game = UnoGame(num_players=n)
        game.np_random = np.random.RandomState(0)
        game.init_game()
        hands = len(game.players)
        seen = {game.get_player_id()}
        rng = random.Random(0)
        while not game.is_over():
            game.step(rng.choice(game.get_legal_actions()))
            seen.add(game.get_player_id())
        out.append(f"num_players={n}: {hands} hands, seats seen {sorted(seen)}")
    return "; ".join(out)


def machine() -> str:
    return (
        f"{platform.platform()} ({platform.machine()}), cpus: {os.cpu_count()}, "
        f"{platform.python_implementation()} {sys.version.split()[0]}"
    )


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="budget per engine and run")
    parser.add_argument("--repeats", type=int, default=3, help="rounds; the median is kept")
    parser.add_argument(
        "--slice", type=float, default=0.5, help="the budget is spent in slices this long"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    print("One Card engine benchmark")
    print(f"machine: {machine()}")
    engine = "compiled (mypyc, setup.py)" if onecard.COMPILED else "from its source (not compiled)"
    print(f"Tapete's One Card rules: {engine}")
    print(f"load average before: {load()}")
    print(f"RLCard players check: {check_uno_players()}")
    print(
        f"budget: {args.seconds:g} s per engine and round, in slices of ~{args.slice:g} s "
        f"taken in turn by every engine; {args.repeats} rounds, median kept"
    )

    benches: list[tuple[str, int, Callable[[float, int], tuple[int, int]]]] = []
    for players in (2, 4):
        benches += [
            ("ours", players, ours(players, views=False)),
            ("ours+view", players, ours(players, views=True)),
            ("openspiel", players, openspiel(players)),
            ("rlcard", players, rlcard_uno(players)),
        ]
    for _, _, run in benches:  # warm up (imports, caches)
        run(0.05, 0)

    keys = [(k, p) for k, p, _ in benches]
    rates: dict[tuple[str, int], list[float]] = {k: [] for k in keys}
    cpu_rates: dict[tuple[str, int], list[float]] = {k: [] for k in keys}
    games: dict[tuple[str, int], int] = dict.fromkeys(keys, 0)
    slices = max(1, round(args.seconds / args.slice))
    for rnd in range(args.repeats):
        count = dict.fromkeys(keys, 0)
        wall = dict.fromkeys(keys, 0.0)
        cpu = dict.fromkeys(keys, 0.0)
        for k in range(slices):  # round-robin: a load spike hits every engine alike
            for key, players, run in benches:
                seed = args.seed + rnd * 1_000_000 + k * 10_000
                start, cpu_start = time.perf_counter(), time.process_time()
                n, played = run(args.seconds / slices, seed)
                wall[key, players] += time.perf_counter() - start
                cpu[key, players] += time.process_time() - cpu_start
                count[key, players] += n
                games[key, players] += played
        for key, players in keys:
            n, w, c = count[key, players], wall[key, players], cpu[key, players]
            rates[key, players].append(n / w)
            cpu_rates[key, players].append(n / c)
            print(
                f"  round {rnd + 1} {key:<10} {players}p {n:>9} in {w:5.2f} s "
                f"(cpu {c:5.2f} s) {n / w:>9.0f}/s, {n / c:>9.0f}/cpu-s",
                flush=True,
            )
    print(f"load average after: {load()}")

    med = {k: statistics.median(v) for k, v in rates.items()}
    cpu_med = {k: statistics.median(v) for k, v in cpu_rates.items()}
    unit = {"ours": "moves/s", "ours+view": "moves/s", "openspiel": "decisions/s",
            "rlcard": "steps/s"}  # fmt: skip
    label = {
        "ours": "Tapete One Card (bare)",
        "ours+view": "Tapete One Card + view",
        "openspiel": "OpenSpiel crazy_eights",
        "rlcard": "RLCard UNO (UnoGame)",
    }
    print()
    print("| engine | players | median rate (wall) | unit | runs (wall, /s) | per CPU-s | games |")
    print("|---|---:|---:|---|---|---:|---:|")
    for key, players in keys:
        runs = ", ".join(f"{x:,.0f}" for x in rates[key, players])
        print(
            f"| {label[key]} | {players} | {med[key, players]:,.0f} | {unit[key]} | {runs} "
            f"| {cpu_med[key, players]:,.0f} | {games[key, players]} |"
        )
    print()
    print(
        "| players | ours/OpenSpiel | ours/RLCard | ours+view/OpenSpiel | ours+view/RLCard "
        "| ours/OpenSpiel (CPU) | ours/RLCard (CPU) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    verdict = []
    for players in (2, 4):
        o, v = med["ours", players], med["ours+view", players]
        s, r = med["openspiel", players], med["rlcard", players]
        co, cs, cr = (cpu_med[k, players] for k in ("ours", "openspiel", "rlcard"))
        print(
            f"| {players} | {o / s:.2f}× | {o / r:.2f}× | {v / s:.2f}× | {v / r:.2f}× "
            f"| {co / cs:.2f}× | {co / cr:.2f}× |"
        )
        verdict.append(
            f"{players}p: ours/OpenSpiel {o / s:.2f}× (target ≥ {OPENSPIEL_TARGET}×: "
            f"{'met' if o / s >= OPENSPIEL_TARGET else 'MISSED'}), "
            f"ours/RLCard {o / r:.2f}× (target ≥ 3×: "
            f"{'met' if o / r >= 3 else 'MISSED'})"
        )
        for other in ("openspiel", "rlcard"):
            each = zip(rates["ours", players], rates[other, players], strict=True)
            each_cpu = zip(cpu_rates["ours", players], cpu_rates[other, players], strict=True)
            verdict.append(
                f"    round by round, ours/{other}: wall "
                + ", ".join(f"{a / b:.2f}×" for a, b in each)
                + "; per CPU-s "
                + ", ".join(f"{a / b:.2f}×" for a, b in each_cpu)
            )
    print()
    for line in verdict:
        print(line)


if __name__ == "__main__":
    main()
