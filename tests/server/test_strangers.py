"""Safe with strangers over HTTP (tapete/server/account/strangers.py) and the operator's
command: block and report someone you played with (named by the game and seat, never by
id), choose your public name from the lists, and `tapete moderation`."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from tapete.cli import main
from tapete.public_names import PublicName, drawn
from tests.server.browsers import browser as other_browser
from tests.server.browsers import guest as me
from tests.server.browsers import hall


def shared_game(client: TestClient, other: TestClient) -> str:
    """A One Card game the two browsers' guests played, and a bot: its id."""
    assert client.portal is not None
    store = hall(client).store
    seats = [
        {"kind": "human", "guest": me(client)},
        {"kind": "human", "guest": me(other)},
        {"kind": "bot", "level": "normal"},
    ]
    for s in seats[:2]:
        client.portal.call(store.ensure_guest, s["guest"])
    record = client.portal.call(store.create_game, "onecard", {"players": 3}, 1, seats, me(client))
    return str(record.id)


def test_block_someone_you_played_with_and_let_them_back(client: TestClient) -> None:
    other = other_browser(client)
    game = shared_game(client, other)
    r = client.post("/api/jugadores/bloquear", json={"game_id": game, "seat": 1})
    assert r.status_code == 201
    again = client.post("/api/jugadores/bloquear", json={"game_id": game, "seat": 1})
    assert again.status_code == 200  # nothing changes
    listed = client.get("/api/jugadores/bloqueados").json()
    assert listed == {"blocked": [{"index": 0, "name": drawn(me(other)).words("es")}]}
    assert client.portal is not None
    avoided = client.portal.call(hall(client).store.players.avoided, me(other))
    assert avoided == {me(client)}  # they are never matched again, either way
    assert client.delete("/api/jugadores/bloqueados/0").status_code == 204
    gone = client.delete("/api/jugadores/bloqueados/0")
    assert gone.status_code == 404 and gone.json()["error"] == "not_blocked"
    assert client.get("/api/jugadores/bloqueados").json() == {"blocked": []}


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"seat": 0}, 400, "not_yourself"),
        ({"seat": 2}, 400, "a_bot"),
        ({"seat": 3}, 404, "no_such_seat"),
        ({"seat": "1"}, 400, "bad_message"),
        ({"game_id": "nada", "seat": 1}, 404, "no_such_seat"),
    ],
)
def test_what_cannot_be_blocked_or_reported(
    client: TestClient, body: dict[str, Any], status: int, code: str
) -> None:
    other = other_browser(client)
    game = shared_game(client, other)
    tries: list[tuple[str, dict[str, Any]]] = [
        ("/api/jugadores/bloquear", {}),
        ("/api/jugadores/denunciar", {"reason": "otro"}),
    ]
    for url, extra in tries:
        r = client.post(url, json={"game_id": game, **body, **extra})
        assert r.status_code == status and r.json()["error"] == code, (url, r.text)
    assert client.get("/api/jugadores/bloqueados").json() == {"blocked": []}


def test_only_the_players_of_a_game_may_act_on_it(client: TestClient) -> None:
    other = other_browser(client)
    game = shared_game(client, other)
    stranger = other_browser(client)
    r = stranger.post("/api/jugadores/bloquear", json={"game_id": game, "seat": 0})
    assert r.status_code == 403 and r.json()["error"] == "not_your_table"


def test_report_once_a_game_and_the_operator_bans(
    client: TestClient, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    other = other_browser(client)
    game = shared_game(client, other)
    bad = client.post("/api/jugadores/denunciar", json={"game_id": game, "seat": 1, "reason": "x"})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_reason"
    body = {"game_id": game, "seat": 1, "reason": "insultos"}
    assert client.post("/api/jugadores/denunciar", json=body).status_code == 201
    twice = client.post("/api/jugadores/denunciar", json={**body, "reason": "trampas"})
    assert twice.status_code == 409 and twice.json()["error"] == "already_reported"
    capsys.readouterr()
    assert main(["moderation", "reports", "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert me(other) in out and "insultos" in out and game in out
    assert main(["moderation", "ban", me(other), "--db", db_url]) == 0
    refused = other.post("/api/jugar", json={"game": "onecard", "players": 2})
    assert refused.status_code == 403 and refused.json()["error"] == "banned"
    assert main(["moderation", "reports", "--db", db_url]) == 0
    assert "no hay denuncias abiertas" in capsys.readouterr().out
    assert main(["moderation", "unban", me(other), "--db", db_url]) == 0
    assert main(["moderation", "unban", me(other), "--db", db_url]) == 1  # nothing to change
    assert other.post("/api/jugar", json={"game": "onecard", "players": 2}).status_code == 202


def test_choose_the_name_strangers_see(client: TestClient) -> None:
    r = client.post("/api/jugadores/nombre", json={"name": "lince-leal"})
    assert r.status_code == 200 and r.json() == {"name": "Lince Leal", "key": "lince-leal"}
    for bad in ("María", "lince-malvado", 7, ["lince", "leal"]):
        refused = client.post("/api/jugadores/nombre", json={"name": bad})
        assert refused.status_code == 400 and refused.json()["error"] == "bad_public_name"
    assert client.portal is not None
    names = client.portal.call(hall(client).store.players.public_names, [me(client)])
    assert names == {me(client): "lince-leal"}  # the refusals changed nothing
    back = client.post("/api/jugadores/nombre", json={"name": None})
    assert back.json() == {"name": drawn(me(client)).words("es"), "key": drawn(me(client)).key}
    assert PublicName("lince", "leal").words("en") == "Loyal Lynx"


def test_a_banned_guest_plays_with_no_friend_either(client: TestClient, db_url: str) -> None:
    friend = other_browser(client)
    made = friend.post("/api/salas", json={"game": "guerra", "options": {}, "name": "Ana"})
    assert made.status_code == 201
    code = made.json()["code"]
    assert client.portal is not None
    store = hall(client).store
    client.portal.call(store.ensure_guest, me(client))
    assert main(["moderation", "ban", me(client), "--db", db_url]) == 0
    joined = client.post(f"/api/salas/{code}/unirse", json={"name": "Eve"})
    assert joined.status_code == 403 and joined.json()["error"] == "banned"
    mine = client.post("/api/salas", json={"game": "guerra", "options": {}, "name": "Eve"})
    assert mine.status_code == 403 and mine.json()["error"] == "banned"
    assert client.post("/api/guerra/nueva", json={"config": {}}).status_code == 201  # bots
