"""A private room over HTTP and the socket, around the end of a game: the room's link shows
the end (with the rematch), «Volver a la sala» the room itself; the invite puts the seat
form first for someone not seated; a removed player is refused a seat (403 over HTTP,
``removed`` on the socket) and nothing changes, until the host lets them back."""

from __future__ import annotations

import re
from typing import Any

from starlette.testclient import TestClient

from tests.server.test_rooms_api import browser, make_room, recv_until


def hall_live(client: TestClient) -> Any:
    return client.app.state.hall.live  # type: ignore[attr-defined]


def lobby_of(client: TestClient, code: str) -> Any:
    assert client.portal is not None
    return client.portal.call(hall_live(client).read_room, code)


def start(client: TestClient, code: str) -> str:
    """The host starts the room's game; returns its id."""
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "enter", "room": code})
        state = ws.receive_json()
        ws.send_json({"type": "lobby", "action": "start", "version": state["version"]})
        game_id: str = recv_until(ws, "lobby")["game_id"]
    return game_id


def finish(client: TestClient, game_id: str) -> None:
    """La guerra's game is over: seat 0 took every card."""
    assert client.portal is not None
    room = client.portal.call(hall_live(client).read_table, game_id)
    room.state.result = {"winner": 0, "reason": "all_cards", "counts": [52, 0],
                         "duels": 1, "wars": 0, "tied": []}  # fmt: skip
    assert room.finished


def test_between_games_the_link_shows_the_end_and_the_room_is_a_click_away(
    client: TestClient,
) -> None:
    code = make_room(client, "guerra", config={"players": 2})["code"]
    friend = browser(client)
    assert friend.post(f"/api/salas/{code}/unirse", json={"name": "Luis"}).status_code == 200
    game = start(client, code)
    playing = client.get(f"/sala/{code}", params={"vista": "sala"})
    assert f'data-game="{game}"' in playing.text  # a game on: the table, whatever asked
    finish(client, game)
    for who in (client, friend):
        end = who.get(f"/sala/{code}")  # the link: the final table and its end dialog
        assert f'data-game="{game}"' in end.text and 'id="end"' in end.text
        back = re.search(r'<a[^>]*href="([^"]*)"[^>]*>Volver a la sala</a>', end.text)
        assert back is not None and back.group(1) == f"/sala/{code}?vista=sala"
        assert 'id="end-open"' in end.text  # (to open the end again once closed)
        room = who.get(back.group(1))  # the room: its seats and options
        assert room.status_code == 200 and f'data-room="{code}"' in room.text
        assert 'id="seats"' in room.text and "data-game" not in room.text
    english = client.get(f"/sala/{code}", params={"lang": "en"})
    back = re.search(r'<a[^>]*id="end-room"[^>]*>([^<]*)</a>', english.text)
    assert back is not None and back.group(1) == "Back to the room"  # (the room, not the hall)


def test_the_host_saving_options_between_games_lands_in_the_room(client: TestClient) -> None:
    code = make_room(client, "guerra", config={"players": 2})["code"]
    friend = browser(client)
    friend.post(f"/api/salas/{code}/unirse", json={"name": "Luis"})
    finish(client, start(client, code))
    form = {"players": "2", "length": "media"}
    r = client.post(f"/sala/{code}/opciones", data=form, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/sala/{code}?vista=sala"


def test_a_practice_game_ends_with_a_way_home(client: TestClient, h: Any) -> None:
    game = h.new_game(client)
    page = client.get(f"/partida/{game}")
    assert re.search(r'<a class="btn ghost" href="/">Volver al inicio</a>', page.text)
    assert "Volver a la sala" not in page.text
    assert re.search(r'<button[^>]*id="end-close"[^>]*aria-label="Ver la mesa"', page.text)
    joining = client.get("/sala/000000")  # no such room: the join form
    assert "Volver al inicio" in joining.text and "Volver a la sala" not in joining.text


def test_the_invite_asks_for_a_name_first_of_one_not_seated(client: TestClient) -> None:
    code = make_room(client, "onecard", config={"players": 3})["code"]
    friend = browser(client)
    invited = friend.get(f"/sala/{code}").text
    assert invited.index('id="sit"') < invited.index('class="invite"')
    assert invited.index('id="sit"') < invited.index('id="seats"')
    host = client.get(f"/sala/{code}").text  # seated: the room as it was
    assert host.index('class="invite"') < host.index('id="seats"') < host.index('id="sit"')


def test_a_removed_player_is_refused_a_seat_and_nothing_changes(client: TestClient) -> None:
    code = make_room(client, "onecard", config={"players": 3})["code"]
    friend = browser(client)
    assert friend.post(f"/api/salas/{code}/unirse", json={"name": "Luis"}).status_code == 200
    with client.websocket_connect("/ws") as host:
        host.send_json({"type": "enter", "room": code})
        state = host.receive_json()
        remove = {"type": "lobby", "action": "remove", "seat": 1, "version": state["version"]}
        host.send_json(remove)
        state = recv_until(host, "lobby")
        assert state["seats"][1]["kind"] == "empty" and state["removed"] == ["Luis"]
    version = lobby_of(client, code).version
    # over HTTP: 403, in the player's language
    r = friend.post(f"/api/salas/{code}/unirse", json={"name": "Luis"})
    assert r.status_code == 403 and r.json() == {
        "error": "removed",
        "message": "El anfitrión te ha quitado de esta sala.",
    }
    r = friend.post(f"/api/salas/{code}/unirse", json={"name": "Luis"}, params={"lang": "en"})
    assert r.status_code == 403 and r.json()["message"] == "The host removed you from this room."
    # on the socket: refused, and he may still watch
    with friend.websocket_connect("/ws") as ws:
        ws.send_json({"type": "enter", "room": code})
        seen = ws.receive_json()
        assert seen["type"] == "lobby" and seen["you"] is None and seen["you_removed"] is True
        assert seen["removed"] == []  # (whom the host removed: the host's to know)
        ws.send_json({"type": "lobby", "action": "take", "name": "Luis"})
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["code"] == "removed"
    lobby = lobby_of(client, code)
    assert lobby.version == version and lobby.seat_of(friend.cookies.get("tapete_guest")) is None
    page = friend.get(f"/sala/{code}")
    assert page.status_code == 200  # to watch
    # the host lets him back: he may sit
    with client.websocket_connect("/ws") as host:
        host.send_json({"type": "enter", "room": code})
        state = host.receive_json()
        host.send_json({"type": "lobby", "action": "readmit", "index": 0, "version": version})
        assert recv_until(host, "lobby")["removed"] == []
    r = friend.post(f"/api/salas/{code}/unirse", json={"name": "Luis"})
    assert r.status_code == 200 and r.json()["seat"] == 1
