"""A fingerprint of the El Peaje engine: SHA-256 over every position, view and event of
seeded random playouts, so a refactoring can show it changed nothing.

Run from the project root::

    python bench/peaje_fingerprint.py [--games N] [--seed S]

For each game (the variant, difficulty and player count follow from its number; names are
given to half of them), moves are chosen at random (seeded) among ``legal_moves``; after
every move three running hashes take in ``dump(state)``, ``view(state, seat)`` for seat 0
and a spectator, and the events ``apply`` returned (each as ``json.dumps(...,
sort_keys=True)``). The view hash leaves out the keys in ``NEW_VIEW_KEYS``: fields the
view gained on purpose (what the page used to compute), so the rest can be compared.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from typing import Any

from tapete.games import peaje

VARIANTS = {"solitario": (1, 1), "dos": (2, 2), "rapidos": (2, 4), "cooperativo": (2, 8),
            "patata": (2, 12)}  # fmt: skip
NEW_VIEW_KEYS: frozenset[str] = frozenset({"playing", "misses_left"})
"""Keys added to the view since the first recorded fingerprint (left out of its hash)."""


def config_for(game: int, r: random.Random) -> peaje.Config:
    variants = list(VARIANTS)
    variant = variants[game % len(variants)]
    difficulty = ("facil", "media", "dificil")[(game // len(variants)) % 3]
    low, high = VARIANTS[variant]
    n = r.randint(low, high)
    players: Any = [f"P{i}" if i % 2 else "" for i in range(n)] if game % 2 else n
    return peaje.parse_config(
        {"variant": variant, "difficulty": difficulty, "players": players, "toll": "un punto"}
    )


def _text(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, ensure_ascii=False).encode()


def _strip(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in NEW_VIEW_KEYS}


def fingerprint(games: int, seed: int) -> dict[str, Any]:
    dumps, views, events = hashlib.sha256(), hashlib.sha256(), hashlib.sha256()
    moves = 0
    for game in range(games):
        r = random.Random(seed * 1_000_003 + game)
        state = peaje.new(config_for(game, r), seed + game)
        dumps.update(_text(peaje.dump(state)))
        for seat in (0, None):
            views.update(_text(_strip(peaje.view(state, seat))))
        while peaje.outcome(state) is None:
            move = r.choice(peaje.legal_moves(state, 0))
            events.update(_text(peaje.apply(state, 0, move)))
            moves += 1
            dumps.update(_text(peaje.dump(state)))
            for seat in (0, None):
                views.update(_text(_strip(peaje.view(state, seat))))
    return {
        "games": games,
        "moves": moves,
        "dumps": dumps.hexdigest(),
        "views": views.hexdigest(),
        "events": events.hexdigest(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for key, value in fingerprint(args.games, args.seed).items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
