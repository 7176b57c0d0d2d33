"""«Jugar ahora» over HTTP, as its contract says (tapete/server/pages/quick.py): queue,
status, cancel, the refusals with their status codes, and two strangers at one table."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from starlette.testclient import TestClient

from tapete.rooms import Settings
from tapete.server.app import create_app
from tapete.store import utcnow
from tests.server.browsers import browser, guest, hall

WAIT = 1.0


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, Settings(bot_pace=0, quick_wait=WAIT))) as c:
        c.get("/")
        yield c


def seated(client: TestClient, timeout: float = 5.0) -> dict[str, Any]:
    """Ask as the page does until seated (the matchmaker looks a few times a second)."""
    deadline = time.monotonic() + timeout
    while True:
        body: dict[str, Any] = client.get("/api/jugar").json()
        if body["state"] == "seated" or time.monotonic() > deadline:
            return body
        time.sleep(0.05)


def test_two_strangers_land_at_one_table(client: TestClient) -> None:
    other = browser(client)
    r = client.post("/api/jugar", json={"game": "onecard", "players": 2})
    assert r.status_code == 202
    assert r.json() == {"state": "waiting", "game": "onecard", "waiting": 1, "seconds_left": WAIT}
    assert other.post("/api/jugar", json={"game": "onecard", "players": None}).status_code == 202
    mine, theirs = seated(client), seated(other)
    assert mine["state"] == "seated" and mine == theirs and mine["url"].startswith("/sala/")
    page = client.get(mine["url"])
    assert page.status_code == 200 and 'id="tapete-first"' in page.text  # the table
    assert client.get("/api/jugar").json() == mine  # asked again: the same table


def test_alone_bots_after_the_wait(client: TestClient) -> None:
    assert client.post("/api/jugar", json={"game": "guerra", "players": 3}).status_code == 202
    body = client.get("/api/jugar").json()
    assert body["state"] == "waiting" and 0 < body["seconds_left"] <= WAIT
    done = seated(client, timeout=WAIT + 5)
    assert done["state"] == "seated"
    room = hall(client).live.rooms.get(done["url"].removeprefix("/sala/"))
    assert [s["kind"] for s in room.seats] == ["human", "bot", "bot"]


def test_cancel_and_cancelling_twice(client: TestClient) -> None:
    assert client.get("/api/jugar").json() == {"state": "idle"}
    assert client.post("/api/jugar", json={"game": "rummy", "players": 4}).status_code == 202
    assert client.delete("/api/jugar").status_code == 204
    again = client.delete("/api/jugar")
    assert again.status_code == 404 and again.json()["error"] == "not_waiting"
    assert client.get("/api/jugar").json() == {"state": "idle"}


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "ajedrez", "players": 2}, 404, "unknown_game"),
        ({"players": 2}, 404, "unknown_game"),
        ({"game": "onecard", "players": 7}, 400, "bad_players"),
        ({"game": "onecard", "players": "2"}, 400, "bad_players"),
    ],
)
def test_bad_requests_are_refused_in_words(
    client: TestClient, body: dict[str, Any], status: int, code: str
) -> None:
    r = client.post("/api/jugar", json=body)
    assert r.status_code == status and r.json()["error"] == code
    assert r.json()["message"] and r.json()["message"] != code
    assert client.get("/api/jugar").json() == {"state": "idle"}


def test_a_body_that_is_not_json(client: TestClient) -> None:
    r = client.post("/api/jugar", content=b"{", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "bad_json"


def test_two_queues_at_once_are_refused(client: TestClient) -> None:
    assert client.post("/api/jugar", json={"game": "onecard", "players": 3}).status_code == 202
    r = client.post("/api/jugar", json={"game": "rummy", "players": 3})
    assert r.status_code == 409 and r.json()["error"] == "already_waiting"
    assert client.get("/api/jugar").json()["game"] == "onecard"


def test_a_banned_guest_plays_bots_only(client: TestClient) -> None:
    assert client.portal is not None
    store, me = hall(client).store, guest(client)
    client.portal.call(store.ensure_guest, me)
    assert client.portal.call(store.players.ban, me, utcnow())
    r = client.post("/api/jugar", json={"game": "onecard", "players": 2})
    assert r.status_code == 403 and r.json()["error"] == "banned"
    assert "bots" in r.json()["message"]
    assert client.post("/api/guerra/nueva", json={"config": {}}).status_code == 201


def test_the_leaving_penalty_says_how_long_in_each_language(client: TestClient) -> None:
    assert client.portal is not None
    store = hall(client).store
    me = guest(client)
    now = utcnow()
    for minutes in (30, 1):
        record = client.portal.call(store.create_game, "onecard", {"players": 2}, 1, [], me)
        client.portal.call(store.players.left, me, record.id, now - timedelta(minutes=minutes))
    r = client.post("/api/jugar", json={"game": "onecard", "players": 2})
    assert r.status_code == 429 and r.json()["error"] == "penalty"
    assert 230 <= r.json()["seconds"] <= 241
    assert "dentro de 4\u00a0min" in r.json()["message"]
    client.get("/", params={"lang": "en"})  # the same player, in English
    r = client.post("/api/jugar", json={"game": "onecard", "players": 2})
    assert r.status_code == 429 and "again in 4\u00a0min" in r.json()["message"]


def test_the_hall_says_how_many_play_and_wait_for_each_game(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import re

    from tapete.server.pages import games

    monkeypatch.setattr(games, "OPEN_TABLES_SECONDS", 0.0)  # (read afresh each time here)
    for _ in range(2):
        assert client.post("/api/guerra/nueva", json={"config": {}}).status_code == 201
    other = browser(client)
    assert other.post("/api/jugar", json={"game": "onecard", "players": 4}).status_code == 202
    third = browser(client)
    assert third.post("/api/jugar", json={"game": "rummy", "players": None}).status_code == 202
    text = client.get("/").text
    rows = re.findall(
        r'<li class="open-game" data-open-game="(\w+)">.*?<span class="open-count">([^<]*)</span>'
        r'.*?data-quick-players="(\d?)"',
        text,
        re.S,
    )
    found = {game: (" ".join(count.split()), players) for game, count, players in rows}
    assert found == {
        "guerra": ("2 partidas ahora", ""),
        "onecard": ("0 partidas ahora · 1 espera mesa de 4", "4"),  # (one click: that table)
        "peaje": ("0 partidas ahora", ""),
        "rummy": ("0 partidas ahora · 1 espera", ""),
    }
