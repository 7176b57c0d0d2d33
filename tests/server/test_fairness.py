"""A provably fair shuffle: the commitment is on the table from the first view, the seed is
never said before the end, and once the game is over the revealed text hashes to the
commitment and the deal shown is the one the seed gives."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from starlette.testclient import TestClient


def _play_out(room: Any) -> None:
    """Play the game in memory to its end, each actor's first legal move."""
    for _ in range(20_000):
        if room.game.outcome(room.state) is not None:
            return
        seat = room.game.actors(room.state)[0]
        room.game.apply(room.state, seat, room.game.legal_moves(room.state, seat)[0])
    raise AssertionError("the game did not end")


def test_the_commitment_is_shown_from_the_start_and_checks_at_the_end(
    client: TestClient, h: Any
) -> None:
    game = h.new_game(client, players=2, length="corta")
    room = h.room(client, game)
    seed = room.record.seed
    page = client.get(f"/partida/{game}").text
    before = client.get(f"/api/partidas/{game}/justa").json()
    assert before["over"] is False and "seed" not in before and "salt" not in before
    assert before["commitment"][:16] in page  # (on the table from its first view)
    assert str(seed) not in client.get(f"/partida/{game}/justa").text
    assert str(seed) not in page
    _play_out(room)
    after = client.get(f"/api/partidas/{game}/justa").json()
    assert after["over"] is True and after["seed"] == seed
    assert after["commitment"] == before["commitment"]
    digest = hashlib.sha256(after["preimage"].encode()).hexdigest()
    assert digest == after["commitment"]
    assert after["preimage"] == f"{game}:{seed}:{after['salt']}"
    fresh = room.game.dump(room.game.new(room.config, seed))
    assert after["deal"] == json.loads(json.dumps(fresh))
    shown = client.get(f"/partida/{game}/justa").text
    assert str(seed) in shown and after["commitment"] in shown


def test_no_such_game(client: TestClient) -> None:
    assert client.get("/api/partidas/nope/justa").status_code == 404
    assert client.get("/partida/nope/justa").status_code == 404
