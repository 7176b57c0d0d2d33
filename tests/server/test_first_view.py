"""A table's page carries the table as the socket's ``joined`` would show it (drawn at once,
before the socket is open), and not a card more: the others' hands stay on the server."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from tapete.rooms import Settings
from tapete.server.app import create_app

FIRST = re.compile(r'<script type="application/json" id="tapete-first">(.*?)</script>')


def first_of(page: str) -> dict[str, Any]:
    found = FIRST.search(page)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """The hall with bots that wait: no bot may move between the page and the socket's join
    (a loaded machine once let one, and the versions differed)."""
    with TestClient(create_app(db_url, Settings(bot_delay=30.0))) as c:
        c.get("/")
        yield c


def test_the_page_carries_what_the_socket_joins_with(client: TestClient, h: Any) -> None:
    r = client.post("/api/onecard/nueva", json={"config": {"players": 3}})
    assert r.status_code == 201, r.text
    game_id = str(r.json()["id"])
    page = client.get(f"/partida/{game_id}").text
    first = first_of(page)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "game": game_id, "version": None})
        joined = ws.receive_json()
    assert joined["type"] == first["type"] == "joined"
    for key in ("seat", "seats", "version", "view", "draft", "game", "kind"):
        assert first[key] == joined[key], key
    assert "presence" not in first  # (who is connected: the socket says, once it is)
    # what the page holds of the cards: our hand, the others' counts, never their hands
    room = h.room(client, game_id)
    assert first["view"] == json.loads(json.dumps(room.game.view(room.state, 0)))
    others = [c for seat in (1, 2) for c in room.game.view(room.state, seat)["hand"]]
    assert len(others) == 14
    for code in others:
        assert f'"{code}"' not in page, code
