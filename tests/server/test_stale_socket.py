"""Two halls on one database without Redis (a misconfiguration, or a lease lost unawares):
the hall whose copy of a game is stale refuses the move, changes nothing, and its socket
joins the game again, as the log has it — the player is never left on a dead copy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from tapete.rooms import Settings
from tapete.server.app import create_app
from tapete.store import default_url

FROZEN = Settings(bot_pace=0, bot_delay=3600)  # (the computer never answers: our moves only)


def recv(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(20):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind}")


def test_the_stale_halls_socket_joins_again_at_the_logs_version(tmp_path: Path) -> None:
    url = default_url(tmp_path / "two.db")
    with TestClient(create_app(url, FROZEN)) as one, TestClient(create_app(url, FROZEN)) as two:
        one.get("/")
        two.cookies.set("tapete_guest", one.cookies["tapete_guest"])
        game_id = one.post("/api/guerra/nueva", json={"config": {}}).json()["id"]
        with one.websocket_connect("/ws") as first, two.websocket_connect("/ws") as second:
            first.send_json({"type": "join", "game": game_id})
            second.send_json({"type": "join", "game": game_id})
            assert recv(first, "joined")["version"] == 0
            assert recv(second, "joined")["version"] == 0  # the second hall's own copy
            first.send_json({"type": "move", "version": 0, "move": {"type": "turn"}})
            assert recv(first, "update")["version"] == 1
            second.send_json({"type": "move", "version": 0, "move": {"type": "turn"}})
            assert recv(second, "error")["code"] == "busy"  # its copy was stale
            again = recv(second, "joined")  # joined again, by itself
            assert again["version"] == 1
        api = one.get(f"/api/partidas/{game_id}").json()
        assert api["version"] == 1 and again["view"] == api["view"]


def test_a_table_closed_as_it_is_joined_is_joined_again_anew(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """A table closed while a join waited for it to be durable (its lease lost, its log
    unreadable: tests/rooms/test_durable.py) shows nothing; the socket joins again."""
    from tapete.rooms import Table, TableClosed

    real, calls = Table.durable, []

    async def durable(self: Table) -> None:
        calls.append(self.id)
        if len(calls) == 1:
            raise TableClosed(self.id)
        await real(self)

    monkeypatch.setattr(Table, "durable", durable)
    with TestClient(create_app(default_url(tmp_path / "closed.db"), FROZEN)) as client:
        client.get("/")
        game_id = client.post("/api/guerra/nueva", json={"config": {}}).json()["id"]
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "game": game_id})
            joined = ws.receive_json()  # (the first frame: no error before it)
            assert joined["type"] == "joined" and joined["version"] == 0
    assert calls == [game_id, game_id]
