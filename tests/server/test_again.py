"""«Nueva partida» at the end of a game: the same game and options, a new deal, the same
bots; El Peaje's two players swap roles; only a player of the game may ask."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from tapete.server.app import create_app


def again(client: TestClient, game_id: str) -> Any:
    return client.post(f"/partida/{game_id}/otra", follow_redirects=False)


def test_again_starts_the_same_game_with_a_new_deal(client: TestClient, h: Any) -> None:
    r = client.post(
        "/api/onecard/nueva", json={"config": {"players": 3, "jokers": True}, "level": "dificil"}
    )
    first = r.json()["id"]
    r = again(client, first)
    assert r.status_code == 303
    second = r.headers["location"].rsplit("/", 1)[1]
    assert second != first
    old, new = h.room(client, first), h.room(client, second)
    assert new.record.kind == "onecard"
    assert new.record.config == old.record.config
    assert [s.get("level") for s in new.record.seats] == [None, "dificil", "dificil"]
    assert new.record.seed != old.record.seed


def test_in_el_peaje_for_two_the_roles_swap(client: TestClient, h: Any) -> None:
    config = {"variant": "dos", "players": ["Ana", "Luis"]}
    r = client.post("/api/peaje/nueva", json={"config": config})
    first = r.json()["id"]
    second = again(client, first).headers["location"].rsplit("/", 1)[1]
    assert h.room(client, second).record.config["players"] == ["Luis", "Ana"]


def test_only_a_player_may_ask(client: TestClient, db_url: str, h: Any) -> None:
    game_id = h.new_game(client)
    with TestClient(create_app(db_url)) as other:
        other.get("/")
        assert again(other, game_id).status_code == 404
    assert again(client, "no-such-game").status_code == 404
