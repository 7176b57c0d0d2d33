"""A guided first game through the hall: the setup page offers it (first of all to someone
who has never played the game), ``POST /<game>/guiada`` starts its scripted deal, the table's
page and the socket carry what the table says, and each move brings the next step."""

from __future__ import annotations

import re
from typing import Any

from starlette.testclient import TestClient

from tapete.registry import REGISTRY
from tests.server.browsers import browser
from tests.server.test_first_view import first_of


def start(client: TestClient, kind: str) -> str:
    r = client.post(f"/{kind}/guiada", follow_redirects=False)
    assert r.status_code == 303, r.text
    found = re.fullmatch(r"/partida/([\w-]+)", r.headers["location"])
    assert found is not None
    return found.group(1)


def test_the_setup_page_offers_the_guided_game_first_to_a_newcomer(client: TestClient) -> None:
    for kind, found in REGISTRY.items():
        page = client.get(f"/{kind}").text
        offered = f'action="/{kind}/guiada"' in page
        assert offered == (found.game.guided is not None), kind
        if offered:
            assert 'class="guided-offer first"' in page and "¿Es tu primera vez?" in page
    start(client, "onecard")
    again = client.get("/onecard").text  # (played now: a line, not the first thing)
    assert 'class="guided-offer"' in again and "¿Es tu primera vez?" not in again


def test_a_guided_one_card_game_says_what_to_do_and_follows_the_play(
    client: TestClient, h: Any
) -> None:
    game_id = start(client, "onecard")
    room = h.room(client, game_id)
    guided = REGISTRY["onecard"].game.guided
    assert guided is not None
    assert room.record.position["hands"][0].split() == guided.position["hands"][0].split()
    assert room.record.seats[0]["guided"] is True
    assert room.record.seats[1]["level"] == guided.level
    page = client.get(f"/partida/{game_id}").text
    first = first_of(page)
    assert first["guide"]["text"].startswith("Sobre el cinco de tréboles")
    assert 'id="guide"' in page and "Saltar la guía" in page
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "game": game_id, "version": None})
        joined = ws.receive_json()
        assert joined["guide"] == first["guide"]
        ws.send_json(
            {"type": "move", "version": joined["version"], "move": {"type": "play", "card": "5H"}}
        )
        for _ in range(20):
            msg = ws.receive_json()
            if msg["type"] == "guide":
                break
        else:
            raise AssertionError("no guide after the move")
        assert msg["guide"]["text"].startswith("Ahora juega el otro.")


def test_the_guide_speaks_the_players_language(client: TestClient, h: Any) -> None:
    english = browser(client, "en")
    game_id = start(english, "rummy")
    first = first_of(english.get(f"/partida/{game_id}").text)
    assert first["guide"]["text"].startswith("Your initial meld must add up to 30 points")
    assert "With red 10, red 11, red 12 you have 33" in first["guide"]["text"]


def test_a_normal_practice_game_has_no_guide(client: TestClient) -> None:
    r = client.post("/guerra/nueva", data={"players": "2"}, follow_redirects=False)
    page = client.get(r.headers["location"]).text
    assert "guide" not in first_of(page) and 'id="guide"' not in page


def test_a_game_without_a_guided_game_refuses_it(client: TestClient) -> None:
    for kind, found in REGISTRY.items():
        if found.game.guided is None:
            assert client.post(f"/{kind}/guiada", follow_redirects=False).status_code == 404
    assert client.post("/nada/guiada", follow_redirects=False).status_code == 404
