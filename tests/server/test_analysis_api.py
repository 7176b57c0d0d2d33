"""«Análisis» over HTTP (``GET /api/partidas/{id}/analisis``): made in the background when
first asked for (202 with its progress), then the coach's words on each move of the
viewer's seat in their language and the costliest marked; refused for a game still played,
one the viewer did not sit at, and a game with no coach."""

from __future__ import annotations

import time
from typing import Any

from starlette.testclient import TestClient

from tapete.games import rummy
from tests.rooms.test_analysis import MOVES, POSITION
from tests.server.browsers import browser, hall
from tests.server.browsers import guest as me


def game(client: TestClient, moves: list[tuple[int, dict[str, Any]]]) -> str:
    """A Rummy game of ``POSITION`` with the viewer at seat 0 and ``moves`` played."""
    assert client.portal is not None
    store = hall(client).store
    seats = [
        {"kind": "human", "guest": me(client), "name": "Ana"},
        {"kind": "bot", "level": "normal", "name": "Bot"},
    ]
    record = client.portal.call(
        lambda: store.create_game("rummy", {}, 1, seats, me(client), position=POSITION)
    )
    state = rummy.load(POSITION)
    for n, (seat, move) in enumerate(moves, start=1):
        rummy.apply(state, seat, rummy.parse_move(move))
        outcome = rummy.outcome(state)
        client.portal.call(store.append_move, record.id, n, seat, move, outcome)
    return str(record.id)


def ready(client: TestClient, url: str) -> Any:
    deadline = time.monotonic() + 60
    while True:
        r = client.get(url)
        if r.status_code == 200 or time.monotonic() > deadline:
            return r
        assert r.status_code == 202 and r.json()["state"] == "computing"
        time.sleep(0.05)


def test_the_analysis_is_made_then_said_in_each_language(client: TestClient) -> None:
    url = f"/api/partidas/{game(client, MOVES)}/analisis"
    first = client.get(url)
    assert first.status_code == 202
    assert first.json() == {"state": "computing", "done": 0, "of": 3}
    r = ready(client, url)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["state"] == "ready" and body["seat"] == 0 and body["unit"] == "points"
    assert [m["words"] for m in body["moves"]] == [
        "Podías colocar 4 fichas y colocaste 0.",
        "Podías colocar 4 fichas y colocaste 1.",
        "Podías colocar 3 fichas y colocaste 0.",
    ]
    assert body["costliest"] == [1, 3, 5]
    client.get("/", params={"lang": "en"})
    english = client.get(url).json()
    assert english["moves"][1]["words"] == "You could have put down 4 tiles and put down 1."
    other_seat = ready(client, url + "?asiento=1").json()  # (the other seat, as in replays)
    assert [m["words"] for m in other_seat["moves"]] == ["The best play there was."] * 2


def test_refusals(client: TestClient) -> None:
    playing = game(client, MOVES[:2])
    r = client.get(f"/api/partidas/{playing}/analisis")
    assert r.status_code == 409 and r.json()["error"] == "not_over"
    done = game(client, MOVES)
    stranger = browser(client)
    r = stranger.get(f"/api/partidas/{done}/analisis")
    assert r.status_code == 404 and r.json()["error"] == "not_your_game"
    assert client.get("/api/partidas/nope/analisis").status_code == 404
    r = client.get(f"/api/partidas/{done}/analisis?asiento=7")
    assert r.status_code == 400 and r.json()["error"] == "bad_seat"
