"""What a player wears (the shop's card back, frame, tile style, their avatar) sits with them
in their own practice games against bots, as it does among friends: seat 0 carries it."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from tapete.cosmetics import DEFAULTS
from tapete.registry import REGISTRY


def _dressed(client: TestClient) -> None:
    """The cat avatar and the «Azulejo» back, bought with the day's coins and worn."""
    assert client.post("/api/cuenta/perfil", json={"avatar": "gato"}).status_code == 200
    assert client.post("/api/monedas/diario").status_code == 200
    assert client.post("/api/tienda/comprar", json={"item": "azulejo"}).status_code == 200
    assert client.post("/api/tienda/equipar", json={"item": "azulejo"}).status_code == 200
    assert client.get("/api/cuenta").json()["equipped"]["back"] == "azulejo"


@pytest.mark.parametrize("kind", [k for k, e in REGISTRY.items() if e.bots is not None])
def test_a_practice_games_own_seat_wears_what_the_player_wears(
    client: TestClient, kind: str
) -> None:
    _dressed(client)
    made = client.post(f"/api/{kind}/nueva", json={"config": {}})
    assert made.status_code == 201, made.text
    game = client.get(f"/api/partidas/{made.json()['id']}").json()
    me, *bots = game["seats"]
    assert me["you"] and me["worn"] == {**DEFAULTS, "back": "azulejo", "avatar": "gato"}
    assert all("worn" not in b for b in bots)  # (bots wear nothing of the shop)


def test_a_player_who_bought_nothing_wears_the_defaults(client: TestClient) -> None:
    made = client.post("/api/guerra/nueva", json={"config": {}})
    seats = client.get(f"/api/partidas/{made.json()['id']}").json()["seats"]
    assert seats[0]["worn"] == DEFAULTS
