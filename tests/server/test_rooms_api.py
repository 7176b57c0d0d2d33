"""Private rooms over HTTP and the socket: the contract (create, the room's page, join by
code with its refusals: 404 wrong code, 409 full or started, 429 throttled), the lobby's
messages, a game played by two friends on two sockets, spectators, and each seat's frames
holding nothing another seat may not see."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from tapete.server.app import create_app


def browser(client: TestClient, lang: str = "es") -> TestClient:
    """Another browser on the same running server (a guest of its own), sharing its event
    loop (the rooms' tasks live there)."""
    other = TestClient(client.app)
    other.portal = client.portal
    other.get("/", params={"lang": lang})
    return other


@pytest.fixture
def friend(client: TestClient) -> Iterator[TestClient]:
    yield browser(client)


def make_room(client: TestClient, game: str = "onecard", **options: Any) -> dict[str, Any]:
    r = client.post("/api/salas", json={"game": game, "options": options})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def test_create_a_room_and_open_its_page(client: TestClient) -> None:
    body = make_room(client, config={"players": 3})
    code = body["code"]
    assert re.fullmatch(r"\d{6}", code) and body["url"] == f"/sala/{code}"
    page = client.get(body["url"])
    assert page.status_code == 200
    assert f'data-room="{code}"' in page.text and f"/sala/{code}/qr.svg" in page.text
    qr = client.get(f"/sala/{code}/qr.svg")
    assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in qr.content


def test_create_refuses_bad_options_and_games_without_rooms(client: TestClient) -> None:
    r = client.post("/api/salas", json={"game": "onecard", "options": {"config": {"players": 7}}})
    assert r.status_code == 400 and r.json()["error"] == "bad_config" and r.json()["message"]
    r = client.post("/api/salas", json={"game": "chess", "options": {}})
    assert r.status_code == 404
    r = client.post("/api/salas", json={"game": "peaje", "options": {}})  # solitario
    assert r.status_code == 400 and r.json()["error"] == "bad_config"
    assert "Variante" in r.json()["message"]


def test_el_peaje_rooms_have_a_seat_per_phone(client: TestClient) -> None:
    config = {"variant": "patata", "players": ["", "", "", "Abuela"]}
    made = make_room(client, "peaje", config=config)
    room = made["room"]
    assert len(room["seats"]) == 4 and room["seat_range"] == [2, 12] and room["bots"] is False
    assert room["options"]["config"]["phones"] == 4 and room["options"]["clock"] is None
    page = client.get(f"/peaje?sala={made['code']}")  # the host's options page
    assert page.status_code == 200 and 'value="solitario" disabled' in page.text
    assert '"Abuela"' in page.text  # the names typed come back


def test_join_by_code_and_every_refusal(
    client: TestClient, friend: TestClient, db_url: str
) -> None:
    code = make_room(client, "guerra", config={"players": 2})["code"]
    r = friend.post(f"/api/salas/{code}/unirse", json={"name": "Luis"})
    assert r.status_code == 200 and r.json()["seat"] == 1 and r.json()["url"] == f"/sala/{code}"
    third = browser(client, "en")
    full = third.post(f"/api/salas/{code}/unirse", json={"name": "Eve"})
    assert full.status_code == 409 and full.json() == {
        "error": "room_full",
        "message": "The room is full.",
    }
    wrong = "000000" if code != "000000" else "111111"
    missing = third.post(f"/api/salas/{wrong}/unirse", json={"name": "Eve"})
    assert missing.status_code == 404 and missing.json()["error"] == "room_not_found"
    page = third.get(f"/sala/{wrong}")
    assert page.status_code == 404 and 'name="codigo"' in page.text  # the join form
    nameless = browser(client)
    code2 = make_room(client, "guerra", config={"players": 3})["code"]
    assert nameless.post(f"/api/salas/{code2}/unirse", json={"name": " "}).status_code == 400


def test_a_started_game_refuses_newcomers_but_lets_them_watch(
    client: TestClient, friend: TestClient
) -> None:
    code = make_room(client, "guerra", config={"players": 3})["code"]
    friend.post(f"/api/salas/{code}/unirse", json={"name": "Luis"})
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "enter", "room": code})
        state = ws.receive_json()
        assert state["type"] == "lobby" and state["host"] and state["can_start"]
        ws.send_json({"type": "lobby", "action": "start", "version": state["version"]})
        started = ws.receive_json()
        assert started["type"] == "lobby" and started["status"] == "playing"
        game_id = started["game_id"]
    late = browser(client)
    r = late.post(f"/api/salas/{code}/unirse", json={"name": "Eve"})
    assert r.status_code == 409 and r.json()["error"] == "room_started"
    page = late.get(f"/sala/{code}")  # the table, to watch
    assert page.status_code == 200 and f'data-game="{game_id}"' in page.text
    with late.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "game": game_id})
        watching = ws.receive_json()
        assert watching["type"] == "joined" and watching["seat"] is None


def test_wrong_codes_are_throttled_per_guest(client: TestClient) -> None:
    guesser = browser(client)
    statuses = [
        guesser.post(f"/api/salas/{n:06d}/unirse", json={"name": "X"}).status_code
        for n in range(13)
    ]
    assert statuses[:9] == [404] * 9 and statuses[-1] == 429
    assert guesser.get("/sala/123456").status_code == 429
    # someone else, elsewhere, is not slowed down... but the same address is, past its limit
    code = make_room(client, "guerra")["code"]
    assert client.get(f"/sala/{code}").status_code == 200


def recv_until(ws: Any, kind: str, limit: int = 20) -> dict[str, Any]:
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


CARD = re.compile(r"\b(?:10|[2-9JQKA])[HDCS]\b|\bJK[12]\b")


def cards_in(frame: dict[str, Any]) -> set[str]:
    return set(CARD.findall(json.dumps(frame)))


def test_two_friends_play_one_card_and_never_see_each_others_hand(
    client: TestClient, friend: TestClient
) -> None:
    code = make_room(client, "onecard", config={"players": 2})["code"]
    friend.post(f"/api/salas/{code}/unirse", json={"name": "Luis"})
    with client.websocket_connect("/ws") as host, friend.websocket_connect("/ws") as luis:
        host.send_json({"type": "enter", "room": code})
        state = host.receive_json()
        luis.send_json({"type": "enter", "room": code})
        luis.receive_json()
        recv_until(host, "lobby")  # Luis is in the room
        host.send_json({"type": "lobby", "action": "start", "version": state["version"]})
        game_id = recv_until(host, "lobby")["game_id"]
        assert recv_until(luis, "lobby")["game_id"] == game_id
        socks = {0: host, 1: luis}
        frames: dict[int, dict[str, Any]] = {}
        for seat, ws in socks.items():
            ws.send_json({"type": "join", "game": game_id})
            frames[seat] = recv_until(ws, "joined")
            assert frames[seat]["seat"] == seat
        version = 0
        for _ in range(12):
            hands = {s: set(frames[s]["view"]["hand"]) for s in socks}
            assert hands[0] and hands[1] and not hands[0] & hands[1]
            for seat in socks:  # what a seat was sent names none of the other's cards
                assert not cards_in(frames[seat]) & hands[1 - seat], (seat, frames[seat])
            if frames[0]["view"]["result"] is not None:
                break
            turn = frames[0]["view"]["turn"]
            move = frames[turn]["view"]["legal"][0]
            socks[turn].send_json({"type": "move", "version": version, "move": move})
            for seat, ws in socks.items():
                frames[seat] = recv_until(ws, "update")
                version = frames[seat]["version"]
        assert version >= 6


def test_the_lobby_over_the_socket_refuses_what_it_should(
    client: TestClient, friend: TestClient
) -> None:
    code = make_room(client, "rummy", config={"players": 3})["code"]
    friend.post(f"/api/salas/{code}/unirse", json={"name": "Luis"})
    with friend.websocket_connect("/ws") as ws:
        ws.send_json({"type": "lobby", "action": "start", "version": 0})
        assert ws.receive_json()["code"] == "not_joined"
        ws.send_json({"type": "enter", "room": "99999x"})
        assert ws.receive_json()["code"] == "room_not_found"
        ws.send_json({"type": "enter", "room": code})
        state = ws.receive_json()
        ws.send_json({"type": "lobby", "action": "start", "version": state["version"]})
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["code"] == "not_host"
        assert refused["message"] == "Solo quien creó la sala puede hacer eso."
        ws.send_json({"type": "lobby", "action": "dance", "version": state["version"]})
        assert ws.receive_json()["code"] == "unknown_type"
        ws.send_json({"type": "lobby", "action": "leave", "version": state["version"] - 1})
        stale = ws.receive_json()
        assert stale["code"] == "stale_version" and stale["lobby"]["version"] == state["version"]


def test_a_room_survives_a_restart(db_url: str) -> None:
    with TestClient(create_app(db_url)) as c:
        c.get("/")
        code = make_room(c, "onecard", config={"players": 2})["code"]
        cookie = c.cookies.get("tapete_guest")
    with TestClient(create_app(db_url)) as again:
        again.cookies.set("tapete_guest", str(cookie))
        page = again.get(f"/sala/{code}")
        assert page.status_code == 200 and f'data-room="{code}"' in page.text


def test_the_host_changes_every_option_on_the_games_own_page(
    client: TestClient, friend: TestClient
) -> None:
    code = make_room(client, "onecard", config={"players": 2})["code"]
    page = client.get("/onecard", params={"sala": code})
    assert page.status_code == 200 and f'formaction="/sala/{code}/opciones"' in page.text
    assert friend.get("/onecard", params={"sala": code}).status_code == 404  # not the host
    form = {"players": "4", "jokers": "1", "penalty": "3"}
    assert friend.post(f"/sala/{code}/opciones", data=form).status_code == 404
    r = client.post(f"/sala/{code}/opciones", data=form, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/sala/{code}"
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "enter", "room": code})
        state = ws.receive_json()
    config = state["options"]["config"]
    assert config["players"] == 4 and config["jokers"] is True and config["penalty"] == 3
    assert len(state["seats"]) == 4 and state["options"]["clock"] == 30.0
    again = client.get("/onecard", params={"sala": code})  # the page shows what is chosen
    assert re.search(r'name="jokers" value="1" checked', again.text)
    assert re.search(r'name="players" value="4" checked', again.text)


def test_the_room_says_what_the_host_chose_in_words(client: TestClient) -> None:
    """Everyone in the room reads the options (El Peaje: the toll agreed, RULES.md)."""
    config = {"variant": "cooperativo", "players": 3, "toll": "un reto breve"}
    code = make_room(client, "peaje", config=config, clock=30.0)["code"]
    page = client.get(f"/sala/{code}")
    assert 'id="summary-toll">un reto breve<' in page.text and "Cooperativo" in page.text
    summary = client.get(f"/sala/{code}/resumen?lang=en")
    assert summary.status_code == 200
    assert "Cooperative" in summary.text and "30 s" in summary.text
    one = make_room(client, "onecard", config={"players": 2, "jokers": True})["code"]
    text = client.get(f"/sala/{one}/resumen?lang=es").text
    assert "Comodines: +5" in text and "El rey vuelve" not in text
    assert client.get("/sala/000000/resumen").status_code == 404
