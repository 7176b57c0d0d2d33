"""The repository on SQLite and on PostgreSQL: migrations, the move log, versions."""

from __future__ import annotations

import asyncio
import secrets
from datetime import timedelta

import pytest
from starlette.testclient import TestClient

from tapete.server.app import create_app
from tapete.store import StaleWrite, Store, migrate, utcnow


async def test_games_and_their_log(any_db: str) -> None:
    migrate(any_db)
    migrate(any_db)  # running it again on start is harmless
    store = Store(any_db)
    try:
        secret = await store.secret()
        assert len(secret) > 20 and await store.secret() == secret
        rec = await store.create_game(
            "guerra", {"players": 2}, 2**61 + 5, [{"kind": "human", "guest": "g" * 24}], "g" * 24
        )
        assert rec.version == 0 and rec.status == "active" and rec.seed == 2**61 + 5
        await store.append_move(rec.id, 1, 0, {"type": "turn"}, None)
        await store.append_move(rec.id, 2, 1, {"type": "turn"}, None)
        with pytest.raises(StaleWrite):
            await store.append_move(rec.id, 2, 0, {"type": "turn"}, None)
        with pytest.raises(StaleWrite):
            await store.append_move(rec.id, 4, 0, {"type": "turn"}, None)
        assert [(m.n, m.seat) for m in await store.moves(rec.id)] == [(1, 0), (2, 1)]
        assert [g.id for g in await store.unfinished()] == [rec.id]
        recent = utcnow() - timedelta(minutes=5)  # moved a moment ago: live
        assert [g.id for g in await store.unfinished(live_since=recent)] == [rec.id]
        assert await store.unfinished(live_since=utcnow() + timedelta(minutes=5)) == []
        await store.append_move(rec.id, 3, 0, {"type": "turn"}, {"winner": 0})
        done = await store.game(rec.id)
        assert done is not None and done.status == "finished" and done.outcome == {"winner": 0}
        assert await store.unfinished() == []
        assert await store.games_of("g" * 24) == []
        assert [g.id for g in await store.games_of("g" * 24, active=False)] == [rec.id]
        assert await store.game("missing") is None
    finally:
        await store.close()


def test_the_hall_runs_on_either_database(any_db: str) -> None:
    with TestClient(create_app(any_db)) as c:
        c.get("/")
        game_id = c.post("/api/guerra/nueva", json={"config": {}}).json()["id"]
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "game": game_id})
            assert ws.receive_json()["type"] == "joined"
            ws.send_json({"type": "move", "version": 0, "move": {"type": "turn"}})
            assert ws.receive_json()["version"] == 1
            assert ws.receive_json()["version"] == 2
        cookie = c.cookies.get("tapete_guest")
        assert cookie is not None
    with TestClient(create_app(any_db), cookies={"tapete_guest": cookie}) as c2:
        assert c2.get(f"/api/partidas/{game_id}").json()["version"] == 2


async def test_a_new_guest_arriving_three_times_at_once_is_one_guest(any_db: str) -> None:
    """Three «Jugar» at once from a first visit: each makes sure the guest exists, none
    fails (an insert that does nothing if another got there first), and so do the names."""
    migrate(any_db)
    store = Store(any_db)
    try:
        for _ in range(5):
            guest = secrets.token_hex(12)
            await asyncio.gather(*(store.ensure_guest(guest) for _ in range(3)))
            await asyncio.gather(
                *(store.set_guest_name(guest, n) for n in ("Ana", "Ana", "Ana")),
                *(
                    store.create_game("guerra", {}, 1, [{"kind": "human", "guest": guest}], guest)
                    for _ in range(3)
                ),
            )
            assert await store.guest_name(guest) == "Ana"
            assert len(await store.games_of(guest)) == 3
    finally:
        await store.close()
