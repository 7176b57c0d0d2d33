"""The replay of a finished game: every step is the table a seat saw after that move (the
game's own view, rebuilt here from the rules), with what the table hid shown; only those
who sat at it may open it, and only once it is over."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient

from tapete.registry import REGISTRY

OTHER = "f" * 24


def _me(client: TestClient) -> tuple[Any, str]:
    hall = client.app.state.hall  # type: ignore[attr-defined]
    me = hall.guests.read(client.cookies.get("tapete_guest"))
    assert client.portal is not None and me is not None
    client.portal.call(hall.store.ensure_guest, me)
    client.portal.call(hall.store.ensure_guest, OTHER)
    return hall, str(me)


def _playout(kind: str, seed: int, limit: int | None = None) -> tuple[Any, list[Any]]:
    """A game of ``kind`` played by each actor's first legal move: its end state and log."""
    spec = REGISTRY[kind].game
    config = spec.parse_config({})
    state = spec.rules.new(config, seed)
    log: list[tuple[int, dict[str, Any]]] = []
    while spec.rules.outcome(state) is None and (limit is None or len(log) < limit):
        seat = spec.rules.actors(state)[0]
        move = spec.rules.legal_moves(state, seat)[0]
        spec.rules.apply(state, seat, move)
        log.append((seat, spec.move_json(move)))
    assert len(log) < 5_000
    return state, log


def _stored(client: TestClient, kind: str, seed: int, me: str, limit: int | None = None) -> str:
    """The playout stored as a game between ``me`` (seat 0) and another player."""
    hall = client.app.state.hall  # type: ignore[attr-defined]
    spec = REGISTRY[kind].game
    n = spec.rules.seats(spec.parse_config({}))
    seats = [{"kind": "human", "guest": me, "name": "Ana"}] + [
        {"kind": "human", "guest": OTHER, "name": f"Bea {i}"} for i in range(1, n)
    ]
    assert client.portal is not None
    record = client.portal.call(hall.store.create_game, kind, {}, seed, seats, me)
    state, log = _playout(kind, seed, limit)
    for i, (seat, move) in enumerate(log, 1):
        end = spec.rules.outcome(state) if i == len(log) else None
        client.portal.call(hall.store.append_move, record.id, i, seat, move, end)
    return str(record.id)


@pytest.mark.parametrize("kind", sorted(REGISTRY))
def test_each_step_is_the_view_after_that_move_with_the_hidden_shown(
    client: TestClient, kind: str
) -> None:
    _, me = _me(client)
    game = _stored(client, kind, 11, me)
    r = client.get(f"/api/partidas/{game}/repeticion")
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["seat"] == 0 and data["kind"] == kind
    assert data["seats"][0]["name"] == "Ana"
    spec = REGISTRY[kind].game
    state = spec.rules.new(spec.parse_config({}), 11)
    _, log = _playout(kind, 11)
    assert len(data["steps"]) == len(log) + 1
    assert data["steps"][0]["move"] is None
    for k, step in enumerate(data["steps"]):
        if k:
            seat, move = log[k - 1]
            spec.rules.apply(state, seat, spec.parse_move(move))
            assert (step["n"], step["seat"], step["move"]) == (k, seat, move)
        want = json.loads(json.dumps(spec.rules.view(state, 0)))
        assert step["view"]["legal"] == []  # (watched, not played)
        assert {x: v for x, v in step["view"].items() if x not in ("legal", "revealed")} == {
            x: v for x, v in want.items() if x != "legal"
        }
        assert spec.reveal is not None
        assert step["view"]["revealed"] == json.loads(json.dumps(spec.reveal(state)))
    assert data["steps"][-1]["view"]["result"] is not None


def test_the_hands_the_table_hid_are_in_the_replay(client: TestClient) -> None:
    """One Card: seat 0's view never holds seat 1's hand; the replay's ``revealed`` does,
    card for card, at every step."""
    _, me = _me(client)
    game = _stored(client, "onecard", 5, me)
    steps = client.get(f"/api/partidas/{game}/repeticion").json()["steps"]
    spec = REGISTRY["onecard"].game
    first = spec.rules.new(spec.parse_config({}), 5)
    theirs = sorted(spec.rules.view(first, 1)["hand"])
    assert sorted(steps[0]["view"]["revealed"]["hands"][1]) == theirs
    assert steps[0]["view"]["hand"] != steps[0]["view"]["revealed"]["hands"][1]


def test_seen_from_another_seat(client: TestClient) -> None:
    _, me = _me(client)
    game = _stored(client, "rummy", 3, me)
    data = client.get(f"/api/partidas/{game}/repeticion?asiento=1").json()
    assert data["seat"] == 1
    spec = REGISTRY["rummy"].game
    state = spec.rules.new(spec.parse_config({}), 3)
    assert data["steps"][0]["view"]["rack"] == spec.rules.view(state, 1)["rack"]
    assert data["seats"][1]["you"] is False  # (another's seat: named, never «Tú»)
    page = client.get(f"/partida/{game}/repeticion?asiento=1")
    assert page.status_code == 200
    assert 'id="replaybar"' in page.text and 'data-seat="1"' in page.text
    assert "replaying" in page.text


@pytest.mark.parametrize("asked", ["2", "-1", "x", "99"])
def test_a_seat_the_game_does_not_have(client: TestClient, asked: str) -> None:
    _, me = _me(client)
    game = _stored(client, "guerra", 3, me)
    r = client.get(f"/api/partidas/{game}/repeticion?asiento={asked}")
    assert r.status_code == 400 and r.json()["error"] == "bad_seat"
    assert r.json()["message"]


def test_a_game_still_being_played_has_no_replay_yet(client: TestClient) -> None:
    _, me = _me(client)
    game = _stored(client, "onecard", 5, me, limit=6)
    r = client.get(f"/api/partidas/{game}/repeticion")
    assert r.status_code == 409 and r.json()["error"] == "not_over"
    assert "hands" not in r.text and "revealed" not in r.text
    page = client.get(f"/partida/{game}/repeticion", follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == f"/partida/{game}"


def test_only_those_who_sat_at_it(client: TestClient) -> None:
    _me(client)
    game = _stored(client, "guerra", 3, OTHER)  # (a game of two others)
    r = client.get(f"/api/partidas/{game}/repeticion")
    assert r.status_code == 404 and r.json()["error"] == "not_your_game"
    assert client.get(f"/partida/{game}/repeticion").status_code == 404
    assert client.get("/api/partidas/nope/repeticion").status_code == 404


def test_english(client: TestClient) -> None:
    _, me = _me(client)
    game = _stored(client, "onecard", 5, me, limit=6)
    r = client.get(f"/api/partidas/{game}/repeticion", headers={"accept-language": "en"})
    assert r.status_code == 409 and "still" in r.json()["message"].lower()
