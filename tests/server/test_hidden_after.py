"""One rule for what a finished game's table hid (every hand, the order of the deck): its
replay and the deal on its fair-deck page are for those who sat at it. Someone who only
watched the game (a friend's game is open to watchers) and a stranger get neither; the
commitment, public from the first view, stays theirs to see."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from tapete.registry import REGISTRY
from tests.server.test_account import browser

SEED = 987_654_321_987
"""A seed no page would show by chance."""


def _finished_room_game(client: TestClient, me: str, other: str) -> str:
    """A game of La guerra among friends (a private room's: anyone may watch it), played
    to its end by each actor's first legal move, ``me`` in seat 0 and ``other`` in seat 1."""
    hall = client.app.state.hall  # type: ignore[attr-defined]
    spec = REGISTRY["guerra"].game
    seats = [
        {"kind": "human", "guest": me, "name": "Ana"},
        {"kind": "human", "guest": other, "name": "Bea"},
    ]
    assert client.portal is not None
    for guest in (me, other):
        client.portal.call(hall.store.ensure_guest, guest)
    record = client.portal.call(
        hall.store.create_game, "guerra", {}, SEED, seats, me, None, "room-of-friends"
    )
    state = spec.rules.new(spec.parse_config({}), SEED)
    log: list[tuple[int, dict[str, Any]]] = []
    while spec.rules.outcome(state) is None:
        seat = spec.rules.actors(state)[0]
        move = spec.rules.legal_moves(state, seat)[0]
        spec.rules.apply(state, seat, move)
        log.append((seat, spec.move_json(move)))
    for n, (seat, move) in enumerate(log, 1):
        end = spec.rules.outcome(state) if n == len(log) else None
        client.portal.call(hall.store.append_move, record.id, n, seat, move, end)
    return str(record.id)


def _guest(client: TestClient) -> str:
    hall = client.app.state.hall  # type: ignore[attr-defined]
    guest = hall.guests.read(client.cookies.get("tapete_guest"))
    assert guest is not None
    return str(guest)


@pytest.fixture
def game(client: TestClient) -> tuple[str, TestClient, TestClient, TestClient]:
    """The finished game, and three browsers: a player who sat at it, one who watched it
    (joined its socket without a seat), and a stranger."""
    player, watcher, stranger = client, browser(client), browser(client)
    game = _finished_room_game(client, _guest(player), "b" * 24)
    with watcher.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "game": game})
        joined = ws.receive_json()
        assert joined["type"] == "joined" and joined["seat"] is None  # (watching it)
    return game, player, watcher, stranger


def test_the_player_sees_the_replay_and_the_deal(
    game: tuple[str, TestClient, TestClient, TestClient],
) -> None:
    game_id, player, _, _ = game
    assert player.get(f"/api/partidas/{game_id}/repeticion").status_code == 200
    assert player.get(f"/partida/{game_id}/repeticion").status_code == 200
    fair = player.get(f"/api/partidas/{game_id}/justa").json()
    assert fair["over"] is True and fair["seed"] == SEED and fair["deal"]
    assert str(SEED) in player.get(f"/partida/{game_id}/justa").text


@pytest.mark.parametrize("who", ["watcher", "stranger"])
def test_one_who_did_not_sit_at_it_gets_neither_the_replay_nor_the_deal(
    game: tuple[str, TestClient, TestClient, TestClient], who: str
) -> None:
    game_id, player, watcher, stranger = game
    them = watcher if who == "watcher" else stranger
    r = them.get(f"/api/partidas/{game_id}/repeticion")
    assert r.status_code == 404 and r.json()["error"] == "not_your_game"
    assert them.get(f"/partida/{game_id}/repeticion").status_code == 404
    mine = player.get(f"/api/partidas/{game_id}/justa").json()
    r = them.get(f"/api/partidas/{game_id}/justa")
    assert r.status_code == 200
    fair = r.json()
    assert fair["commitment"] == mine["commitment"] and fair["over"] is True
    assert not {"seed", "salt", "preimage", "deal", "redo"} & set(fair)
    page = them.get(f"/partida/{game_id}/justa")
    assert page.status_code == 200 and mine["commitment"] in page.text
    for secret in (str(SEED), mine["salt"], mine["preimage"]):
        assert secret not in page.text and secret not in r.text
