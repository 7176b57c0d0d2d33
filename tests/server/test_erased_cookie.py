"""Deleting an account revokes every copy of its cookie: a copy taken before (another
browser's, a stolen one) is a new guest afterwards — no history, no coins, no seat in the old
games — over HTTP and on the socket, and a socket it had open can no longer act. The
revocation is kept in the database: a restarted hall still refuses it."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from tapete.server.account.guests import COOKIE
from tapete.server.app import create_app

DAILY_COINS = 20


def with_cookie(client: TestClient, token: str) -> TestClient:
    """Another browser on the same hall, holding ``token`` (a copy of a cookie)."""
    other = TestClient(client.app)
    other.portal = client.portal
    other.cookies.set(COOKIE, token)
    return other


def issued(response: Any) -> str | None:
    """The guest cookie the response sets, if it sets one."""
    for header in response.headers.get_list("set-cookie"):
        name, _, rest = header.partition("=")
        if name == COOKIE:
            return str(rest.split(";")[0])
    return None


def account(them: TestClient) -> dict[str, Any]:
    r = them.get("/api/cuenta")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def test_a_copy_of_an_erased_accounts_cookie_is_a_new_guest(client: TestClient, h: Any) -> None:
    client.post("/api/cuenta/perfil", json={"name": "Ana"})
    assert client.post("/api/monedas/diario").status_code == 200
    game = h.new_game(client, players=2, length="corta")
    copy = str(client.cookies.get(COOKIE))
    thief = with_cookie(client, copy)
    assert account(thief)["name"] == "Ana"  # (the copy is the account, before)
    with thief.websocket_connect("/ws") as ws:  # a socket the copy holds open
        ws.send_json({"type": "join", "game": game})
        joined = ws.receive_json()
        assert joined["type"] == "joined" and joined["seat"] == 0
        r = client.request("DELETE", "/api/cuenta", json={"confirm": True})
        assert r.status_code == 200
        ws.send_json({"type": "move", "version": joined["version"], "move": {"type": "turn"}})
        gone = ws.receive()
        assert gone["type"] == "websocket.close", gone  # (it can no longer act)
    assert h.room(client, game).version == joined["version"]
    stale = with_cookie(client, copy)
    me = stale.get("/api/cuenta")
    assert me.status_code == 200 and (me.json()["name"], me.json()["coins"]) == (None, 0)
    assert issued(me) not in (None, copy)  # (it was given a cookie of its own)
    assert with_cookie(client, copy).get("/api/historial").json().get("games", []) == []
    assert with_cookie(client, copy).get(f"/partida/{game}").status_code == 404
    with with_cookie(client, copy).websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "game": game})
        assert ws.receive_json()["code"] == "not_your_game"
    claim = with_cookie(client, copy).post("/api/monedas/diario")
    assert claim.status_code == 200 and claim.json()["coins"] == DAILY_COINS  # (a new guest's)


def test_the_revocation_outlives_a_restart(db_url: str) -> None:
    with TestClient(create_app(db_url)) as client:
        client.get("/")
        client.post("/api/cuenta/perfil", json={"name": "Ana"})
        copy = str(client.cookies.get(COOKIE))
        assert client.request("DELETE", "/api/cuenta", json={"confirm": True}).status_code == 200
    with TestClient(create_app(db_url)) as again:
        again.cookies.set(COOKIE, copy)
        me = again.get("/api/cuenta")
        assert me.json()["name"] is None and issued(me) not in (None, copy)


async def test_another_process_reads_the_revocation_from_the_store(
    db_url: str, monkeypatch: Any
) -> None:
    """Several processes on one database: an account deleted through one is refused by the
    other within a few seconds (it reads the revocations every
    :data:`REVOKED_REFRESH_SECONDS`)."""
    import asyncio
    from datetime import UTC, datetime

    from tapete.rooms import Settings
    from tapete.server import state
    from tapete.server.state import Hall

    monkeypatch.setattr(state, "REVOKED_REFRESH_SECONDS", 0.05)
    one, other = Hall(db_url, Settings()), Hall(db_url, Settings())
    await one.start()
    await other.start()
    reading = asyncio.create_task(other._read_revoked())  # (what a node of several runs)
    try:
        assert one.guests is not None and other.guests is not None and one.store is not None
        token = other.guests.sign("a" * 24)
        assert other.guests.read(token) == "a" * 24
        await one.store.ensure_guest("a" * 24)
        await one.store.accounts.erase("a" * 24, datetime.now(UTC))
        one.revoke("a" * 24)
        for _ in range(100):
            if other.guests.read(token) is None:
                break
            await asyncio.sleep(0.02)
        assert other.guests.read(token) is None and other.revoked("a" * 24)
    finally:
        reading.cancel()
        await asyncio.gather(reading, return_exceptions=True)
        await one.stop()
        await other.stop()
