"""Room codes cannot be walked, whichever way the guesses arrive: wrong codes are counted
per guest and per address by one throttle the hall holds, for the HTTP join, the room's page
and the socket's ``enter`` alike; past either limit every lookup by code from them is refused
(``throttled``) before the room is looked up, the right code included."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from tapete.server.app import create_app
from tapete.server.edge.limits import Limits
from tests.server.test_rooms_api import browser, make_room

LIMITS = Limits(wrong_codes_per_guest=4, wrong_codes_per_address=9)


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, limits=LIMITS)) as c:
        c.get("/")
        yield c


def wrong(n: int, code: str) -> str:
    """The ``n``-th of the codes that are not ``code`` (the one room of these tests)."""
    guess = f"{n:06d}"
    return guess if guess < code else f"{n + 1:06d}"


def enter(ws: Any, code: str) -> dict[str, Any]:
    ws.send_json({"type": "enter", "room": code})
    reply: dict[str, Any] = ws.receive_json()
    return reply


def lookups(client: TestClient) -> list[str]:
    """Every code the store is asked for from now on."""
    store = client.app.state.hall.store  # type: ignore[attr-defined]
    asked: list[str] = []
    room = store.room

    async def counted(code: str) -> Any:
        asked.append(code)
        return await room(code)

    store.room = counted
    return asked


def test_the_socket_refuses_a_guest_past_its_wrong_codes_even_the_right_one(
    client: TestClient,
) -> None:
    code = make_room(client, "guerra")["code"]
    guesser = browser(client)
    asked = lookups(client)
    with guesser.websocket_connect("/ws") as ws:
        for n in range(LIMITS.wrong_codes_per_guest):
            reply = enter(ws, wrong(n, code))
            assert reply["type"] == "error" and reply["code"] == "room_not_found", reply
        reply = enter(ws, code)
        assert reply["type"] == "error" and reply["code"] == "throttled"
        assert reply["message"] == "Demasiados códigos equivocados: espera unos minutos."
        for n in range(20):  # no more guesses are looked up
            assert enter(ws, wrong(100 + n, code))["code"] == "throttled"
    assert len(asked) == LIMITS.wrong_codes_per_guest
    with client.websocket_connect("/ws") as ws:  # another guest is not slowed down
        assert enter(ws, code)["type"] == "lobby"


def test_wrong_codes_over_http_throttle_the_socket_and_the_other_way_round(
    client: TestClient,
) -> None:
    code = make_room(client, "guerra")["code"]
    http_first, socket_first = browser(client), browser(client)
    for n in range(LIMITS.wrong_codes_per_guest):
        r = http_first.post(f"/api/salas/{wrong(n, code)}/unirse", json={"name": "X"})
        assert r.status_code == 404
    with http_first.websocket_connect("/ws") as ws:
        assert enter(ws, code)["code"] == "throttled"
    with socket_first.websocket_connect("/ws") as ws:
        for n in range(LIMITS.wrong_codes_per_guest):
            assert enter(ws, wrong(n, code))["code"] == "room_not_found"
    r = socket_first.post(f"/api/salas/{code}/unirse", json={"name": "X"})
    assert r.status_code == 429 and r.json()["error"] == "throttled"
    assert socket_first.get(f"/sala/{code}").status_code == 429


def test_an_address_is_throttled_whatever_guests_it_guesses_as(client: TestClient) -> None:
    code = make_room(client, "guerra")["code"]
    guessed = 0
    while guessed < LIMITS.wrong_codes_per_address:  # a new guest for every few guesses
        with browser(client).websocket_connect("/ws") as ws:
            for _ in range(min(3, LIMITS.wrong_codes_per_address - guessed)):
                assert enter(ws, wrong(guessed, code))["code"] == "room_not_found"
                guessed += 1
    with browser(client).websocket_connect("/ws") as ws:  # (a fresh guest, same address)
        assert enter(ws, code)["code"] == "throttled"
    assert browser(client).get(f"/sala/{code}").status_code == 429
