"""Text that players type (names, El Peaje's toll) comes out clean: no control or bidi
characters, NFC, bounded; and a wrong option is named in the player's words, never with
Python's own text."""

from __future__ import annotations

import unicodedata

import pytest
from starlette.testclient import TestClient

from tapete.games.names import clean_text
from tapete.registry import REGISTRY
from tapete.rooms.private_room import clean_name

HOSTILE = "\x00A\x1bna\u202e\u2066 \u200f\u061c\x85\x9b Lu\u0301\x7fz\u202c"


def test_clean_text_drops_controls_and_bidi_and_normalises() -> None:
    assert clean_text(HOSTILE, 24) == "Ana Lúz"
    assert unicodedata.is_normalized("NFC", clean_text("Lu\u0301z", 24))
    assert clean_text("  a\t\n b  ", 24) == "a b"
    assert clean_text("👩\u200d👩\u200d👧", 24) == "👩\u200d👩\u200d👧"  # a joined emoji stays
    assert clean_text("x" * 50, 24) == "x" * 24
    assert clean_text("\u202e\x00", 24) == ""


def test_a_room_name_is_clean() -> None:
    assert clean_name(HOSTILE) == "Ana Lúz"
    assert clean_name("e\u0301" * 30) == "é" * 24
    assert clean_name("\u2067\u200e") is None


def test_el_peajes_player_names_and_toll_are_clean() -> None:
    codec = REGISTRY["peaje"].game.config
    config = codec.decode(
        {
            "variant": "cooperativo",
            "players": [HOSTILE, "Bea\u202e"],
            "toll": "\x1bUn\u2066 trago\x00",
        }
    )
    assert config.players == ("Ana Lúz", "Bea")
    assert config.toll == "Un trago"
    with pytest.raises(Exception):  # noqa: B017 - the codec's IllegalMove
        codec.decode({"toll": "\u202e\x00 "})


def test_names_in_the_room_page_are_isolated(client: TestClient) -> None:
    css = client.get("/static/css/tapete.css").text
    assert "unicode-bidi: isolate" in css


def test_a_wrong_option_is_named_in_the_players_words(client: TestClient) -> None:
    r = client.post("/api/peaje/nueva", json={"config": {"players": [["Ana"]]}})
    assert r.status_code == 400
    assert r.json()["message"] == "Opción no válida: Jugadores."
    r = client.post(
        "/api/peaje/nueva", json={"config": {"variant": []}}, headers={"accept-language": "en"}
    )
    assert r.status_code == 400 and r.json()["message"] == "Invalid option: Variant."


FRIENDS = {"variant": "cooperativo", "players": ["Ana", "Bea"]}


@pytest.mark.parametrize(
    "options",
    [
        {"config": FRIENDS, "clock": [1]},
        {"config": FRIENDS, "clock": {"a": 1}},
        {"config": {"players": [[1]]}},
        {"config": FRIENDS, "seats": [2]},
    ],
)
def test_a_room_with_unhashable_options_is_refused_without_python_words(
    client: TestClient, options: dict[str, object]
) -> None:
    r = client.post("/api/salas", json={"game": "peaje", "options": options})
    assert r.status_code == 400, r.text
    message = r.json()["message"]
    assert "unhashable" not in message and "type" not in message and "[" not in message
    assert message.startswith("Opción no válida")


def test_a_test_position_that_makes_no_sense_is_not_echoed(db_url: str) -> None:
    from tapete.rooms import Settings
    from tapete.server.app import create_app

    with TestClient(create_app(db_url, Settings(test_api=True))) as c:
        r = c.post("/api/guerra/nueva", json={"position": {"nonsense": [1]}})
        assert r.status_code == 400
        assert "'" not in r.json()["message"] and "nonsense" not in r.json()["message"]
