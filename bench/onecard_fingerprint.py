"""A fingerprint of the One Card engine: SHA-256 over what it does in seeded random games.

Run from the project root (``--tree`` points at another checkout's root to fingerprint it)::

    python bench/onecard_fingerprint.py [--games N] [--tree PATH]

Every game is a seeded random playout with every combination of players and house rules in
turn: at each step a random seat among ``actors`` makes a random legal move, or (one time in
twelve) a running clock runs out (``clock_move``). After every move three hashes take in:

* ``dump``: ``json.dumps(dump(state), sort_keys=True)`` (the position format);
* ``events``: the events ``apply`` returned;
* ``views``: ``view(state, seat)`` for every seat and for a spectator, without the fields
  views gained since (``ADDED``), so the hash before and after an engine change compare.

The same figures before and after a change mean the engine plays exactly as before. Not a
test (it takes a few seconds); run it before and after touching ``tapete/games/onecard/``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ADDED_VIEW: frozenset[str] = frozenset({"named"})
"""Top-level view fields added after the first fingerprint (left out of ``views``)."""
ADDED_LOG: frozenset[str] = frozenset({"reverse", "you"})
"""Fields of the view's log entries added after the first fingerprint."""
HOUSE = ("two_attack", "jokers", "king_again", "three_blocks", "no_special_finish")


def _old_view(view: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in view.items() if k not in ADDED_VIEW}
    out["log"] = [{k: v for k, v in e.items() if k not in ADDED_LOG} for e in view["log"]]
    return out


def fingerprint(games: int) -> dict[str, Any]:
    from tapete.games import onecard

    dumps, events, views = hashlib.sha256(), hashlib.sha256(), hashlib.sha256()
    moves = 0
    for g in range(games):
        rules = {name: bool(g >> i & 1) for i, name in enumerate(HOUSE)}
        config = onecard.parse_config({"players": 2 + g % 3, "penalty": 1 + g % 5, **rules})
        rng = random.Random(g)
        state = onecard.new(config, g)
        n = len(state.hands)
        steps = 0
        while state.result is None and steps < 3000:
            clocks = onecard.clocks(state)
            if clocks and rng.random() < 1 / 12:
                kind, seat, _ = rng.choice(clocks)
                move = onecard.clock_move(kind, seat)
            else:
                seat = rng.choice(onecard.actors(state))
                move = rng.choice(onecard.legal_moves(state, seat))
            got = onecard.apply(state, seat, move)
            steps += 1
            events.update(json.dumps(got, sort_keys=True).encode())
            dumps.update(json.dumps(onecard.dump(state), sort_keys=True).encode())
            for who in [*range(n), None]:
                v = _old_view(onecard.view(state, who))
                views.update(json.dumps(v, sort_keys=True).encode())
        moves += steps
    return {
        "games": games,
        "moves": moves,
        "dump": dumps.hexdigest(),
        "events": events.hexdigest(),
        "views": views.hexdigest(),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1200)
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.tree.resolve()))
    start = time.perf_counter()
    found = fingerprint(args.games)
    found["seconds"] = round(time.perf_counter() - start, 1)
    found["tree"] = str(args.tree)
    print(json.dumps(found, indent=2))


if __name__ == "__main__":
    main()
