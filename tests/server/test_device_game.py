"""A game on one device passed round, through the hall: the setup form makes it
(«Con amigos en este móvil», the names), the table's page and the socket show nobody's hand
until the device is handed over («Soy Ana»), and «Nueva partida» keeps the same people."""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.testclient import TestClient

from tapete.registry import REGISTRY
from tests.server.browsers import browser, guest, hall
from tests.server.test_first_view import first_of


def make(client: TestClient, kind: str, names: list[str], **form: str) -> str:
    data = {"players": str(len(names)), "mode": "device", "name": names, **form}
    r = client.post(f"/{kind}/nueva", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    found = re.fullmatch(r"/partida/([\w-]+)", r.headers["location"])
    assert found is not None
    return found.group(1)


def test_a_device_game_shows_no_hand_before_the_hand_over(client: TestClient, h: Any) -> None:
    game_id = make(client, "onecard", ["Ana", "Leo", "Marta"], level="dificil")
    room = h.room(client, game_id)
    assert [s["kind"] for s in room.record.seats] == ["human", "local", "local"]
    assert [s.get("name") for s in room.record.seats] == ["Ana", "Leo", "Marta"]
    assert not any("level" in s for s in room.record.seats)  # (no bots: no level)
    page = client.get(f"/partida/{game_id}").text
    first = first_of(page)
    holder = room.state.turn
    assert first["seat"] is None and first["device"] is True
    assert first["handover"] == {"seat": holder, "name": ["Ana", "Leo", "Marta"][holder]}
    assert 'id="device-handover"' in page and "Estás mirando" not in page
    every = [c for s in range(3) for c in room.game.view(room.state, s)["hand"]]
    assert len(every) == 21
    for code in every:  # nobody's hand is in the page
        assert f'"{code}"' not in page, code
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "game": game_id, "version": None})
        joined = ws.receive_json()
        assert joined["seat"] is None and joined["handover"]["seat"] == holder
        assert not any(f'"{c}"' in json.dumps(joined) for c in every)
        ws.send_json({"type": "move", "version": joined["version"], "move": {"type": "draw"}})
        refused = ws.receive_json()
        assert refused["code"] == "hand_over" and refused["message"].startswith("Antes, pasa")
        ws.send_json({"type": "handover", "seat": (holder + 1) % 3})
        assert ws.receive_json()["code"] == "not_your_turn"
        ws.send_json({"type": "handover", "seat": "Ana"})
        assert ws.receive_json()["code"] == "bad_message"
        ws.send_json({"type": "handover", "seat": holder})
        shown = ws.receive_json()
        assert shown["type"] == "joined" and shown["seat"] == holder
        assert shown["view"]["hand"] == room.game.view(room.state, holder)["hand"]
        others = [c for s in range(3) if s != holder for c in room.game.view(room.state, s)["hand"]]
        assert not any(f'"{c}"' in json.dumps(shown) for c in others)


def test_someone_else_cannot_hand_a_device_game_over(client: TestClient, h: Any) -> None:
    game_id = make(client, "rummy", ["Ana", "Leo"])
    stranger = browser(client)
    assert stranger.get(f"/partida/{game_id}").status_code == 404
    with stranger.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "game": game_id, "version": None})
        assert ws.receive_json()["code"] == "not_your_game"
        ws.send_json({"type": "handover", "seat": 0})
        assert ws.receive_json()["code"] == "not_joined"


def test_a_practice_game_against_bots_is_no_device(client: TestClient, h: Any) -> None:
    r = client.post("/onecard/nueva", data={"players": "2"}, follow_redirects=False)
    game_id = r.headers["location"].rsplit("/", 1)[1]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "game": game_id, "version": None})
        joined = ws.receive_json()
        assert joined["seat"] == 0 and "device" not in joined and "handover" not in joined
        ws.send_json({"type": "handover", "seat": 0})
        refused = ws.receive_json()
        assert refused["code"] == "no_device"
        assert refused["message"] == "Esta partida no se juega en un solo móvil."


def test_names_too_long_are_refused_and_the_game_not_made(client: TestClient, h: Any) -> None:
    data = {"players": "2", "mode": "device", "name": ["Ana", "L" * 21]}
    r = client.post("/guerra/nueva", data=data, follow_redirects=False)
    assert r.status_code == 400 and 'class="error-box"' in r.text
    assert client.portal is not None
    assert client.portal.call(hall(client).store.accounts.games, guest(client)) == []


def test_a_new_game_keeps_the_same_people(client: TestClient, h: Any) -> None:
    game_id = make(client, "guerra", ["Ana", "Leo"])
    r = client.post(f"/partida/{game_id}/otra", follow_redirects=False)
    assert r.status_code == 303
    new = h.room(client, r.headers["location"].rsplit("/", 1)[1])
    assert [s.get("name") for s in new.record.seats] == ["Ana", "Leo"]
    assert new.device is not None


def test_the_setup_pages_offer_the_device(client: TestClient) -> None:
    """Each game played so offers it (El Peaje plays one phone within its own rules)."""
    for kind, found in REGISTRY.items():
        page = client.get(f"/{kind}").text
        offered = 'name="mode" value="device"' in page
        assert offered == (found.game.pass_and_play is not None), kind
        assert page.count('name="name"') == (4 if offered else 0), kind
