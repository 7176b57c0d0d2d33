"""Strength and speed of the One Card bots: seeded bot-against-bot games through the engine.

Run from the project root::

    python bench/onecard_bots.py [--games N] [--seed S] [--jobs J] [--match NAME ...]

Matches (``--match``, all by default):

* ``dificil-normal``: difícil against normal, heads-up (target: difícil wins ≥ 60 %);
* ``normal-facil``: normal against fácil, heads-up (target: normal wins ≥ 60 %);
* ``dificil-3normal``: one difícil against three normals (target: difícil wins ≥ 33 %);
* ``facil-3normal``: one fácil against three normals (for comparison, not run by default).

The targets are for the game as played (standard rules, with the race below); with
``--no-race`` or ``--house`` the figures are printed without a verdict.

Seats rotate from one game to the next (game ``i`` puts the first bot at seat
``i % players``), and the engine draws who starts, so seat order does not bias the figures.

Only the engine and the bots run (no server, no clock). Time is simulated for the One Card
race: after every move, for each seat left open to a catch (one card, not called), the
delay of that seat's own answer (its call, or its winning play), every other bot's catch
delay and the 3 s window are compared, and the earliest happens (the window:
``CloseWindow``). Voluntary calls (difícil's at two cards) and turn moves apply as the bots
return them.

It prints each bot's win rate with a 95 % Wilson interval, the calls, catches and closed
windows, and how long the bots took to decide (median and maximum per level). Results are
recorded in ``bench/RESULTS.md``; a timing is never a test.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from _stats import wilson

from tapete.bots import onecard as bots
from tapete.games import onecard

MATCHES: dict[str, tuple[str, ...]] = {
    "dificil-normal": ("dificil", "normal"),
    "normal-facil": ("normal", "facil"),
    "dificil-3normal": ("dificil", "normal", "normal", "normal"),
    "facil-3normal": ("facil", "normal", "normal", "normal"),
    "maestro-dificil": ("maestro", "dificil"),
    "maestro-3dificil": ("maestro", "dificil", "dificil", "dificil"),
}
TARGETS = {"dificil-normal": 0.60, "normal-facil": 0.60, "dificil-3normal": 0.33}
DEFAULT = tuple(TARGETS)
MAX_MOVES = 5000


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    unfinished: int = 0
    moves: int = 0
    events: Counter[str] = field(default_factory=Counter)
    times: dict[str, list[float]] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.unfinished += other.unfinished
        self.moves += other.moves
        self.events.update(other.events)
        for level, ts in other.times.items():
            self.times.setdefault(level, []).extend(ts)


def ask(
    state: onecard.State, seat: int, level: str, tally: Tally
) -> tuple[dict[str, Any], float] | None:
    """The bot's answer for ``seat``, timed; checked to be one of the legal moves."""
    view = onecard.view(state, seat)
    start = time.perf_counter()
    answer = bots.choose(view, level)
    elapsed = time.perf_counter() - start
    tally.times.setdefault(level, []).append(elapsed)
    if view["turn"] == seat and sum(m["type"] == "play" for m in view["legal"]) > 1:
        tally.times.setdefault(level + " (choice of card)", []).append(elapsed)
    if answer is not None and answer[0] not in view["legal"]:
        raise AssertionError(f"{level} bot chose {answer[0]} not in {view['legal']}")
    return answer


def play(
    levels: tuple[str, ...], seed: int, config: onecard.Config, tally: Tally, race: bool = True
) -> int | None:
    """Play one game; return the winner's seat (None if it did not end)."""
    state = onecard.new(config, seed)
    n = len(levels)
    moves = 0

    def apply(seat: int, move: dict[str, Any]) -> None:
        nonlocal moves
        onecard.apply(state, seat, onecard.parse_move(move))
        moves += 1

    while state.result is None and moves < MAX_MOVES:
        if state.exposed:  # the One Card race
            target = state.exposed[0]
            best: tuple[float, int, dict[str, Any]] = (
                bots.WINDOW,
                -1,
                {"type": "close_window", "target": target},
            )
            own = ask(state, target, levels[target], tally) if race else None
            if own is not None and own[1] < best[0]:
                best = (own[1], target, own[0])
            for seat in range(n):
                if seat == target or not race:
                    continue
                answer = ask(state, seat, levels[seat], tally)
                if (
                    answer is not None
                    and answer[0] == {"type": "catch", "target": target}
                    and answer[1] < best[0]
                ):
                    best = (answer[1], seat, answer[0])
            _, seat, move = best
            tally.events[move["type"]] += 1
            apply(target if seat < 0 else seat, move)
            continue
        for seat in onecard.actors(state):  # calls made while holding two cards
            if seat != state.turn:
                answer = ask(state, seat, levels[seat], tally)
                if answer is not None:
                    if answer[0]["type"] != "call":
                        raise AssertionError(f"off-turn {answer[0]} without a window")
                    tally.events["call"] += 1
                    apply(seat, answer[0])
        turn = state.turn
        answer = ask(state, turn, levels[turn], tally)
        if answer is None:
            raise AssertionError(f"{levels[turn]} bot did not move on its turn")
        if answer[0]["type"] == "call":
            tally.events["call"] += 1
        apply(turn, answer[0])
    tally.moves += moves
    return None if state.result is None else int(state.result["winner"])


def run_chunk(match: str, seeds: list[int], house: dict[str, bool], race: bool = True) -> Tally:
    levels = MATCHES[match]
    n = len(levels)
    config = onecard.parse_config({"players": n, **house})
    tally = Tally()
    for seed in seeds:
        shift = seed % n  # the first bot sits at seat `shift`
        seating = tuple(levels[(s - shift) % n] for s in range(n))
        winner = play(seating, seed, config, tally, race)
        tally.games += 1
        if winner is None:
            tally.unfinished += 1
        elif winner == shift:
            tally.wins += 1
    return tally


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--match", action="append", choices=sorted(MATCHES))
    parser.add_argument(
        "--house",
        action="append",
        default=[],
        choices=onecard.OPTIONS,
        help="play with a house rule on (repeatable)",
    )
    parser.add_argument(
        "--no-race",
        action="store_true",
        help="nobody calls or catches after a play leaves one card (every window runs out): "
        "the strength of the play alone",
    )
    args = parser.parse_args(argv)
    race = not args.no_race
    house = {name: True for name in args.house}

    print("One Card bots benchmark")
    print(f"machine: {platform.platform()} ({platform.machine()}), cpus: {os.cpu_count()}")
    print(f"python:  {platform.python_implementation()} {sys.version.split()[0]}")
    print(
        f"games: {args.games} per match, seeds {args.seed}..{args.seed + args.games - 1}, "
        f"jobs: {args.jobs}, house rules: {sorted(house) or 'none'}"
        + ("" if race else ", no call/catch race")
    )
    for match in args.match or DEFAULT:
        seeds = list(range(args.seed, args.seed + args.games))
        chunks = [seeds[i :: args.jobs] for i in range(args.jobs)]
        start = time.perf_counter()
        total = Tally()
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                for part in pool.map(
                    run_chunk,
                    [match] * len(chunks),
                    chunks,
                    [house] * len(chunks),
                    [race] * len(chunks),
                ):
                    total.add(part)
        else:
            total.add(run_chunk(match, seeds, house, race))
        seconds = time.perf_counter() - start
        lo, hi = wilson(total.wins, total.games)
        first = MATCHES[match][0]
        rate = total.wins / max(1, total.games)
        target = TARGETS.get(match) if race and not house else None
        verdict = "" if target is None else "met" if rate >= target else "MISSED"
        print(f"\n{match}: {total.games} games in {seconds:.1f} s, {total.moves} moves")
        print(
            f"  {first} wins {total.wins}/{total.games} = {rate:.1%} "
            f"(95% Wilson {lo:.1%}–{hi:.1%})"
            + ("" if target is None else f"; target ≥ {target:.0%}: {verdict}")
            + (f"; unfinished {total.unfinished}" if total.unfinished else "")
        )
        ev = total.events
        print(f"  calls {ev['call']}, catches {ev['catch']}, windows closed {ev['close_window']}")
        for level, ts in sorted(total.times.items()):
            ms = sorted(t * 1000 for t in ts)
            print(
                f"  {level:<8} {len(ms):>8} decisions: median {statistics.median(ms):.3f} ms, "
                f"p99 {ms[int(len(ms) * 0.99)]:.3f} ms, max {ms[-1]:.2f} ms"
            )


if __name__ == "__main__":
    main()
