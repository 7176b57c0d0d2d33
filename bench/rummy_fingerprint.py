"""A fingerprint of Rummy's engine: SHA-256 over seeded random playouts.

Each playout is a match (2–4 players, 1, 3 or 5 hands) where the seat to play picks at
random among drawing (or passing), a clock timeout, a play a simple deterministic builder
finds on a quarter of the turns (new sets from the rack, tiles on the ends of the table's
sets) and a broken draft (refused). After every move it hashes ``dump(state)`` and
``view(state, seat)`` of every seat; every refusal's code; and the parts of ``check`` that
say what is legal (ok, the error codes, each set's validity, kind and value, the meld
points).

The hands of a match wait for every seat to confirm the summary (``next``) before the next
deal: a move here is a player's move and the confirmations that follow it, so the dumps
are those of the positions where somebody must play. The views drop the fields added for
that wait and for the page (``VIEW_ADDED``)::

    .venv/bin/python bench/rummy_fingerprint.py            # 1,000 playouts
    .venv/bin/python bench/rummy_fingerprint.py --games 300
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tapete.bots.rummy import _beginner, _rack_sets
from tapete.games import rummy
from tapete.games.protocol import IllegalMove

VIEW_ADDED = ("waiting", "meld_needed")
"""Fields a view gained after the first fingerprint (the wait between hands, the meld
threshold the page shows): not hashed, so the same hash says nothing else changed."""


def _check_part(report: dict[str, Any]) -> list[Any]:
    return [
        report["ok"],
        [e["code"] for e in report["errors"]],
        [(s["valid"], s["kind"], s["value"]) for s in report["sets"]],
        report["meld_points"],
        report["new_tiles"],
        report["melded"],
    ]


def _confirm(state: rummy.State) -> None:
    """Every seat confirms the end of a hand, if the engine waits for it."""
    while state.result is None:
        waiting = [
            s for s in rummy.actors(state) if any(
                m.to_json()["type"] == "next" for m in rummy.legal_moves(state, s)
            )
        ]  # fmt: skip
        if not waiting:
            return
        for seat in waiting:
            rummy.apply(state, seat, rummy.parse_move({"type": "next"}))


def playout(seed: int, h: Any) -> int:
    rng = random.Random(seed)
    players = 2 + seed % 3
    hands = (1, 3, 5)[seed // 3 % 3]
    state = rummy.new(rummy.parse_config({"players": players, "hands": hands}), seed)
    moves = 0
    while state.result is None:
        seat = state.turn
        rack, table = list(state.racks[seat]), [tuple(s) for s in state.table]
        options: list[Any] = [*rummy.legal_moves(state, seat), rummy.Timeout()]
        if rng.random() >= 0.25:
            layout = table
        elif state.melded[seat]:
            layout = _beginner(rack, table)
        else:
            layout = [*table, *_rack_sets(rack)[0]]
        if layout != table:
            report = rummy.check(state, seat, layout)
            h.update(json.dumps(_check_part(report)).encode())
            if report["ok"]:
                options += [rummy.Play(tuple(layout))] * 3
        if rack and rng.random() < 0.3:  # a broken draft: a tile from the rack alone
            bad = [*table, (rack[rng.randrange(len(rack))],)]
            h.update(json.dumps(_check_part(rummy.check(state, seat, bad))).encode())
            try:
                rummy.apply(state, seat, rummy.Play(tuple(bad)))
            except IllegalMove as exc:
                h.update(exc.code.encode())
        move = options[rng.randrange(len(options))]
        rummy.apply(state, seat, move)
        _confirm(state)
        moves += 1
        h.update(json.dumps(rummy.dump(state), sort_keys=True).encode())
        for s in [*range(players), None]:
            v = {k: x for k, x in rummy.view(state, s).items() if k not in VIEW_ADDED}
            h.update(json.dumps(v, sort_keys=True).encode())
    return moves


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    args = ap.parse_args()
    h = hashlib.sha256()
    t0 = time.perf_counter()
    moves = sum(playout(seed, h) for seed in range(args.games))
    print(f"{args.games} playouts, {moves} moves, {time.perf_counter() - t0:.1f} s")
    print(f"sha256 {h.hexdigest()}")


if __name__ == "__main__":
    main()
