"""The shop over HTTP: buy with the daily coins and wear; every refusal (unknown item, not
enough coins, bought already, not owned) changes nothing."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from tapete.accounts import DAILY
from tapete.cosmetics import ITEMS


def account(client: TestClient) -> dict[str, Any]:
    body: dict[str, Any] = client.get("/api/cuenta").json()
    return body


def test_the_shop_lists_every_slot_with_the_free_items_owned_and_worn(client: TestClient) -> None:
    shop = client.get("/api/tienda").json()
    assert [s["slot"] for s in shop["slots"]] == ["back", "felt", "tiles", "frame"]
    items = {i["key"]: i for s in shop["slots"] for i in s["items"]}
    assert set(items) == set(ITEMS)
    assert items["clasico"] == {
        "key": "clasico",
        "name": "Clásico",
        "price": 0,
        "owned": True,
        "equipped": True,
    }
    assert items["dorado"]["owned"] is False and items["dorado"]["price"] == 200


def test_buy_then_wear_with_the_days_coins(client: TestClient) -> None:
    assert client.post("/api/monedas/diario").status_code == 200  # DAILY[0] coins
    cheap = min((i for i in ITEMS.values() if i.price), key=lambda i: i.price)
    assert cheap.price <= DAILY[0] + 30  # (the cheapest is within a day or two)
    poor = client.post("/api/tienda/comprar", json={"item": "oro"})
    assert poor.status_code == 409 and poor.json()["error"] == "not_enough_coins"
    assert poor.json()["missing"] == ITEMS["oro"].price - DAILY[0]
    assert "Te faltan" in poor.json()["message"]
    assert account(client)["coins"] == DAILY[0]
    not_owned = client.post("/api/tienda/equipar", json={"item": "azulejo"})
    assert not_owned.status_code == 409 and not_owned.json()["error"] == "not_owned"
    rich(client, 3)  # (three more days of claims, through the store)
    coins = account(client)["coins"]
    assert coins >= ITEMS["azulejo"].price
    bought = client.post("/api/tienda/comprar", json={"item": "azulejo"})
    assert bought.status_code == 200, bought.text
    assert bought.json() == {"coins": coins - ITEMS["azulejo"].price, "owned": ["azulejo"]}
    again = client.post("/api/tienda/comprar", json={"item": "azulejo"})
    assert again.status_code == 409 and again.json()["error"] == "owned_already"
    assert account(client)["coins"] == coins - ITEMS["azulejo"].price
    worn = client.post("/api/tienda/equipar", json={"item": "azulejo"})
    assert worn.status_code == 200 and worn.json()["equipped"]["back"] == "azulejo"
    assert account(client)["equipped"]["back"] == "azulejo"
    back = client.post("/api/tienda/equipar", json={"item": "clasico"})  # free: always owned
    assert back.status_code == 200 and back.json()["equipped"]["back"] == "clasico"


def test_unknown_items_and_bad_bodies_are_refused(client: TestClient) -> None:
    for body in ({"item": "dragon"}, {"item": 3}, {}):
        for url in ("/api/tienda/comprar", "/api/tienda/equipar"):
            r = client.post(url, json=body)
            assert r.status_code == 404 and r.json()["error"] == "unknown_item", (url, body)
    assert account(client)["coins"] == 0


def test_the_shop_page(client: TestClient) -> None:
    page = client.get("/tienda")
    assert page.status_code == 200
    for key in ITEMS:
        assert f'data-item="{key}"' in page.text
    assert "Comprar Dorado por 200 monedas" in page.text


def rich(client: TestClient, days: int) -> None:
    """``days`` of daily coins for the client's guest, claimed through the store."""
    from datetime import UTC, datetime, timedelta

    hall = client.app.state.hall  # type: ignore[attr-defined]
    guest = hall.guests.read(client.cookies.get("tapete_guest"))
    assert client.portal is not None and guest is not None
    client.portal.call(hall.store.ensure_guest, guest)
    start = datetime.now(UTC)
    for day in range(1, days + 1):
        client.portal.call(hall.store.accounts.claim_daily, guest, start + timedelta(days=day))


def test_a_friend_sees_the_card_back_the_host_wears(client: TestClient) -> None:
    from tests.server.test_rooms_api import browser, make_room, recv_until

    rich(client, 4)
    assert client.post("/api/tienda/comprar", json={"item": "azulejo"}).status_code == 200
    assert client.post("/api/tienda/equipar", json={"item": "azulejo"}).status_code == 200
    friend = browser(client)
    code = make_room(client, "onecard", config={"players": 2})["code"]
    friend.post(f"/api/salas/{code}/unirse", json={"name": "Luis"})
    with client.websocket_connect("/ws") as host, friend.websocket_connect("/ws") as luis:
        host.send_json({"type": "enter", "room": code})
        state = host.receive_json()
        luis.send_json({"type": "enter", "room": code})
        luis.receive_json()
        recv_until(host, "lobby")
        host.send_json({"type": "lobby", "action": "start", "version": state["version"]})
        game_id = recv_until(host, "lobby")["game_id"]
        luis.send_json({"type": "join", "game": game_id})
        joined = recv_until(luis, "joined")
    seats = {s["seat"]: s for s in joined["seats"]}
    assert seats[0]["worn"]["back"] == "azulejo" and seats[1]["worn"]["back"] == "clasico"
    assert seats[0]["worn"]["frame"] == "sin-marco" and "avatar" not in seats[1]["worn"]
    assert set(seats[0]["worn"]) <= {"back", "felt", "tiles", "frame", "avatar"}  # (no e-mail)
    page = friend.get(f"/sala/{code}")
    assert "cosmetics.css" in page.text  # (the table draws a seat's back with its class)


def test_the_felt_a_player_wears_is_their_own_tables(client: TestClient, h: Any) -> None:
    rich(client, 3)
    game = h.new_game(client)
    assert 'class="table-body cos-verde' in client.get(f"/partida/{game}").text
    assert client.post("/api/tienda/comprar", json={"item": "azul"}).status_code == 200
    assert client.post("/api/tienda/equipar", json={"item": "azul"}).status_code == 200
    assert 'class="table-body cos-azul' in client.get(f"/partida/{game}").text


def test_the_tiles_a_player_wears_are_on_their_own_rummy_tables(client: TestClient) -> None:
    rich(client, 3)
    r = client.post("/api/rummy/nueva", json={"config": {}})
    assert r.status_code == 201, r.text
    game = r.json()["id"]
    assert "cos-marfil" in client.get(f"/partida/{game}").text
    assert client.post("/api/tienda/comprar", json={"item": "menta"}).status_code == 200
    assert client.post("/api/tienda/equipar", json={"item": "menta"}).status_code == 200
    body = client.get(f"/partida/{game}").text
    assert 'class="table-body cos-verde cos-menta' in body


def test_the_room_shows_what_each_seated_player_wears(client: TestClient) -> None:
    """The lobby's seats carry a player's avatar and frame (read as they sit), before any
    game; a bot and an empty seat carry none."""
    from tests.server.test_rooms_api import browser, make_room, recv_until

    rich(client, 2)
    assert client.post("/api/tienda/comprar", json={"item": "bronce"}).status_code == 200
    assert client.post("/api/tienda/equipar", json={"item": "bronce"}).status_code == 200
    assert client.post("/api/cuenta/perfil", json={"avatar": "buho"}).status_code == 200
    friend = browser(client)
    code = make_room(client, "rummy", config={"players": 3})["code"]
    friend.post(f"/api/salas/{code}/unirse", json={"name": "Luis"})
    with client.websocket_connect("/ws") as host:
        host.send_json({"type": "enter", "room": code})
        state = recv_until(host, "lobby")
    seats = state["seats"]
    assert seats[0]["worn"]["frame"] == "bronce" and seats[0]["worn"]["avatar"] == "buho"
    assert seats[1]["worn"]["frame"] == "sin-marco" and "avatar" not in seats[1]["worn"]
    assert seats[2]["kind"] == "empty" and "worn" not in seats[2]
    page = friend.get(f"/sala/{code}").text
    assert 'id="avatar-buho"' in page and "cosmetics.css" in page
