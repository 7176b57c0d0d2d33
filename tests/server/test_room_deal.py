"""The test API's deal for a private room (``POST /api/salas/NNNNNN/reparto``, only under
``--test-api``): the host sets the position every later game of the room is dealt from, so
that browser tests play a room's games to their end in a few moves. Refused to anyone but
the host, for a position that does not seat the room, and on a server without the flag."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from tapete.rooms.inbox import Settings
from tapete.server.app import create_app

PILES = {"piles": ["KH QH JH", "2C 3C 4C"]}
"""Three duels, each the host's."""


@pytest.fixture
def tester(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, Settings(test_api=True))) as c:
        c.get("/")
        yield c


def other(client: TestClient) -> TestClient:
    found = TestClient(client.app)
    found.portal = client.portal
    found.get("/")
    return found


def room(client: TestClient) -> str:
    r = client.post("/api/salas", json={"game": "guerra", "options": {"config": {}}})
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def start(client: TestClient, code: str) -> str:
    """A friend sits; the host starts the game: its id."""
    r = other(client).post(f"/api/salas/{code}/unirse", json={"name": "Luis"})
    assert r.status_code == 200, r.text
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "enter", "room": code})
        state = ws.receive_json()
        ws.send_json({"type": "lobby", "action": "start", "version": state["version"]})
        started = ws.receive_json()
        assert started["status"] == "playing", started
        return str(started["game_id"])


def test_the_rooms_games_are_dealt_from_the_position(tester: TestClient) -> None:
    code = room(tester)
    r = tester.post(f"/api/salas/{code}/reparto", json={"position": PILES})
    assert r.status_code == 204, r.text
    game_id = start(tester, code)
    view = tester.get(f"/api/partidas/{game_id}").json()["view"]
    assert view["counts"] == [3, 3]


def test_only_the_host_with_a_position_that_seats_the_room(tester: TestClient) -> None:
    code = room(tester)
    stranger = other(tester)
    r = stranger.post(f"/api/salas/{code}/reparto", json={"position": PILES})
    assert r.status_code == 404 and r.json()["error"] == "room_not_found"
    three = {"piles": ["KH", "2C", "3C"]}  # (the room has two seats)
    r = tester.post(f"/api/salas/{code}/reparto", json={"position": three})
    assert r.status_code == 400 and r.json()["error"] == "bad_config" and r.json()["message"]
    for bad in ({"piles": ["ZZ", "2C"]}, "KH", None):
        r = tester.post(f"/api/salas/{code}/reparto", json={"position": bad})
        assert r.status_code == 400 and r.json()["error"] == "bad_config", bad
    game_id = start(tester, code)  # nothing was set: a deal at random, the whole deck
    assert sum(tester.get(f"/api/partidas/{game_id}").json()["view"]["counts"]) == 52


def test_a_game_of_other_seats_than_the_deals_is_dealt_at_random(tester: TestClient) -> None:
    r = tester.post("/api/salas", json={"game": "guerra", "options": {"config": {"players": 3}}})
    code = r.json()["code"]
    three = {"piles": ["KH", "2C", "3C"]}
    assert tester.post(f"/api/salas/{code}/reparto", json={"position": three}).status_code == 204
    game_id = start(tester, code)  # two of its three seats taken: the whole deck, shared
    assert tester.get(f"/api/partidas/{game_id}").json()["view"]["counts"] == [26, 26]
    r = tester.post("/api/salas", json={"game": "guerra", "options": {"config": {"players": 3}}})
    code = r.json()["code"]
    assert tester.post(f"/api/salas/{code}/reparto", json={"position": PILES}).status_code == 204
    game_id = start(tester, code)  # two seats taken, as the deal says
    assert tester.get(f"/api/partidas/{game_id}").json()["view"]["counts"] == [3, 3]


def test_no_deal_without_the_test_api(client: TestClient) -> None:
    code = room(client)
    r = client.post(f"/api/salas/{code}/reparto", json={"position": PILES})
    assert r.status_code == 404
