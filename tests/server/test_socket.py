"""The WebSocket gate: joining, moving, and every kind of bad input changing nothing."""

from __future__ import annotations

import gc
import json
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocket

from tapete.rooms import Settings
from tapete.server.app import create_app
from tapete.server.edge.limits import Limits
from tapete.server.socket.wsimpl import direct_writer


def join(ws: Any, game_id: str, version: int | None = None) -> dict[str, Any]:
    ws.send_json({"type": "join", "game": game_id, "version": version})
    msg: dict[str, Any] = ws.receive_json()
    return msg


def snapshot(h: Any, client: TestClient, game_id: str) -> tuple[int, str]:
    room = h.room(client, game_id)
    return room.version, json.dumps(room.game.dump(room.state), sort_keys=True)


def test_join_then_turn_broadcasts_human_then_computer(client: TestClient, h: Any) -> None:
    game_id = h.new_game(client)
    with client.websocket_connect("/ws") as ws:
        joined = join(ws, game_id)
        assert joined["type"] == "joined"
        assert joined["seat"] == 0 and joined["version"] == 0
        assert [s["name"] for s in joined["seats"]] == ["Tú", "Ordenador"]
        assert joined["view"]["legal"] == [{"type": "turn"}]
        assert joined["view"]["counts"] == [26, 26]
        ws.send_json({"type": "move", "version": 0, "move": {"type": "turn"}, "ref": 1})
        mine = ws.receive_json()
        assert mine["type"] == "update" and mine["version"] == 1 and mine["seat"] == 0
        assert mine["view"]["counts"] == [25, 26]
        bot = ws.receive_json()
        assert bot["version"] == 2 and bot["seat"] == 1
        view = bot["view"]
        if view["last"] is not None:  # the duel was decided: its two cards went to the winner
            assert view["last"]["n"] == 1 and sorted(view["counts"]) == [25, 27]
        else:  # a tie: war
            assert view["table"][-1]["war"] and view["counts"] == [25, 25]


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"type": 7}', "bad_message"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"type": "move", "version": 0, "move": {"type": "shuffle"}}', "unknown_move"),
        ('{"type": "move", "version": 0, "move": "turn"}', "bad_move"),
        ('{"type": "move", "version": 0, "move": {"type": "turn", "x": 1}}', "bad_move"),
        ('{"type": "move", "version": 5, "move": {"type": "turn"}}', "stale_version"),
        ('{"type": "move", "version": "0", "move": {"type": "turn"}}', "bad_message"),
        ('{"type": "move", "move": {"type": "turn"}}', "stale_version"),
        ("x" * 5000, "bad_message"),
    ],
)
def test_bad_input_gets_a_clear_error_and_changes_nothing(
    client: TestClient, h: Any, payload: str, code: str
) -> None:
    game_id = h.new_game(client)
    with client.websocket_connect("/ws") as ws:
        join(ws, game_id)
        before = snapshot(h, client, game_id)
        ws.send_text(payload)
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["code"] == code
        assert isinstance(reply["message"], str) and len(reply["message"]) > 5
        assert snapshot(h, client, game_id) == before
        # the connection still works afterwards
        ws.send_json({"type": "ping", "ref": 9})
        assert ws.receive_json() == {"type": "pong", "ref": 9}


def test_stale_version_error_carries_a_fresh_view(client: TestClient, h: Any) -> None:
    game_id = h.new_game(client)
    with client.websocket_connect("/ws") as ws:
        join(ws, game_id)
        ws.send_json({"type": "move", "version": 3, "move": {"type": "turn"}})
        reply = ws.receive_json()
        assert reply["code"] == "stale_version"
        assert reply["sync"]["version"] == 0
        assert reply["sync"]["view"]["counts"] == [26, 26]


def test_move_before_joining_is_refused(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "move", "version": 0, "move": {"type": "turn"}})
        assert ws.receive_json()["code"] == "not_joined"


def test_a_game_that_is_not_yours(client: TestClient, h: Any, db_url: str) -> None:
    game_id = h.new_game(client)
    before = snapshot(h, client, game_id)
    other = TestClient(client.app)
    other.get("/")  # a different guest
    assert other.cookies.get("tapete_guest") != client.cookies.get("tapete_guest")
    with other.websocket_connect("/ws") as ws:
        assert join(ws, game_id)["code"] == "not_your_game"
        assert join(ws, "nope")["code"] == "not_your_game"
        ws.send_json({"type": "move", "version": 0, "move": {"type": "turn"}})
        assert ws.receive_json()["code"] == "not_joined"
    assert other.get(f"/partida/{game_id}").status_code == 404
    assert other.get(f"/api/partidas/{game_id}").status_code == 404
    assert snapshot(h, client, game_id) == before


def test_a_socket_without_a_guest_cookie_cannot_join(client: TestClient, h: Any) -> None:
    game_id = h.new_game(client)
    anon = TestClient(client.app)
    with anon.websocket_connect("/ws") as ws:
        assert join(ws, game_id)["code"] == "not_your_game"


def test_forged_cookie_is_a_new_guest(client: TestClient, h: Any) -> None:
    game_id = h.new_game(client)
    forged = TestClient(client.app, cookies={"tapete_guest": "abc.def"})
    assert forged.get(f"/api/partidas/{game_id}").status_code == 404


def test_not_your_turn_while_the_computer_thinks(db_url: str) -> None:
    with TestClient(create_app(db_url, Settings(bot_delay=30.0))) as c:
        c.get("/")
        game_id = c.post("/api/guerra/nueva", json={"config": {}}).json()["id"]
        with c.websocket_connect("/ws") as ws:
            join(ws, game_id)
            ws.send_json({"type": "move", "version": 0, "move": {"type": "turn"}})
            assert ws.receive_json()["version"] == 1
            room = c.app.state.hall.live.tables._tables[game_id]  # type: ignore[attr-defined]
            before = json.dumps(room.game.dump(room.state), sort_keys=True)
            ws.send_json({"type": "move", "version": 1, "move": {"type": "turn"}})
            reply = ws.receive_json()
            assert reply["code"] == "not_your_turn"
            assert json.dumps(room.game.dump(room.state), sort_keys=True) == before


def test_after_the_end_moves_are_refused(db_url: str, h: Any) -> None:
    # 80 duels as fast as a test can send them: faster than the socket's rate lets a player
    with TestClient(create_app(db_url, limits=Limits(socket_rate=1e6, socket_burst=10**6))) as c:
        c.get("/")
        play_to_the_end(c, h)


def play_to_the_end(client: TestClient, h: Any) -> None:
    game_id = h.new_game(client, length="corta")
    with client.websocket_connect("/ws") as ws:
        view = join(ws, game_id)["view"]
        version = 0
        while view["result"] is None:
            if view["legal"]:
                ws.send_json({"type": "move", "version": version, "move": {"type": "turn"}})
            msg = ws.receive_json()
            assert msg["type"] == "update", msg
            view, version = msg["view"], msg["version"]
        assert view["result"]["duels"] <= 80
        before = snapshot(h, client, game_id)
        ws.send_json({"type": "move", "version": version, "move": {"type": "turn"}})
        assert ws.receive_json()["code"] == "game_over"
        assert snapshot(h, client, game_id) == before
    page = client.get(f"/partida/{game_id}")
    assert page.status_code == 200  # the end screen survives a reload


def test_reconnect_gets_what_it_missed(client: TestClient, h: Any) -> None:
    game_id = h.new_game(client)
    with client.websocket_connect("/ws") as ws:
        join(ws, game_id)
        version = 0
        for _ in range(3):
            ws.send_json({"type": "move", "version": version, "move": {"type": "turn"}})
            while True:
                msg = ws.receive_json()
                version = msg["version"]
                if msg["view"]["legal"]:
                    break
    with client.websocket_connect("/ws") as ws:
        again = join(ws, game_id, version=2)
        assert again["version"] == version
        assert [m["version"] for m in again["missed"]] == list(range(3, version + 1))
        fresh = join(ws, game_id)
        assert fresh["missed"] is None and fresh["version"] == version


def test_the_log_rebuilds_the_game_after_a_restart(db_url: str) -> None:
    with TestClient(create_app(db_url)) as c:
        c.get("/")
        cookie = c.cookies.get("tapete_guest")
        assert cookie is not None
        game_id = c.post("/api/guerra/nueva", json={"config": {"players": 3}}).json()["id"]
        with c.websocket_connect("/ws") as ws:
            join(ws, game_id)
            version = 0
            for _ in range(10):
                ws.send_json({"type": "move", "version": version, "move": {"type": "turn"}})
                while True:
                    msg = ws.receive_json()
                    version = msg["version"]
                    if msg["view"]["legal"] or msg["view"]["result"]:
                        break
        before = c.get(f"/api/partidas/{game_id}").json()
    with TestClient(create_app(db_url), cookies={"tapete_guest": cookie}) as c2:
        after = c2.get(f"/api/partidas/{game_id}").json()
    assert after == before
    assert after["version"] == version


def test_an_accepted_socket_forgets_its_handshake_and_keeps_what_it_read(
    db_url: str, h: Any
) -> None:
    """With the lean sockets (``tapete serve``'s default) the handshake's headers are let
    go once the socket is accepted (they would be kept for its whole life); the guest and
    the language read from them stay."""
    with TestClient(create_app(db_url, direct=direct_writer)) as client:
        client.get("/")
        forgets_its_handshake(client, h)


def test_stock_sockets_keep_their_handshake(client: TestClient, h: Any) -> None:
    """Without the lean sockets (``--ws websockets``), Starlette's objects are left as
    Starlette keeps them: nothing private of theirs is touched."""
    game_id = h.new_game(client)
    with client.websocket_connect("/ws", headers={"accept-language": "en"}) as ws:
        assert join(ws, game_id)["seat"] == 0
        sockets = open_sockets()
        assert sockets and all(s.scope["headers"] != [] for s in sockets)


def open_sockets() -> list[WebSocket]:
    """The server's sockets for ``/ws`` alive now. ``type()``, not ``isinstance()``: the
    collector's list may hold a weak proxy whose object is gone, and ``isinstance`` on it
    raises (it asks the dead object for its ``__class__``)."""
    return [
        o for o in gc.get_objects() if issubclass(type(o), WebSocket) and o.scope["path"] == "/ws"
    ]


def forgets_its_handshake(client: TestClient, h: Any) -> None:
    game_id = h.new_game(client)
    with client.websocket_connect("/ws", headers={"accept-language": "en"}) as ws:
        assert join(ws, game_id)["seat"] == 0  # the guest, from the cookie
        sockets = open_sockets()
        assert sockets and all(s.scope["headers"] == [] for s in sockets)
        assert not any("_headers" in s.__dict__ or "_cookies" in s.__dict__ for s in sockets)
        ws.send_json({"type": "move", "version": 7, "move": {"type": "turn"}})
        refused = ws.receive_json()
        assert refused["code"] == "stale_version" and "version" in refused["message"].lower()
        assert refused["message"].isascii()  # in English, as the handshake asked
