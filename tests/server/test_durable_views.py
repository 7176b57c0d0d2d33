"""Over HTTP and the socket, nothing is shown before it is durable: while a move is being
written, ``GET /api/partidas/{id}`` and a ``sync`` from another socket show the game as the
log has it — never the new state under the old version."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from starlette.testclient import TestClient

from tapete.rooms import Settings
from tapete.server.app import create_app


def consistent(version: int, view: dict[str, Any]) -> bool:
    """La guerra, the player's first card turned: version 0 has 26 each, version 1 25 for us."""
    return (version, tuple(view["counts"])) in {(0, (26, 26)), (1, (25, 26))}


def test_readers_never_see_a_move_before_it_is_written(db_url: str) -> None:
    with TestClient(create_app(db_url, Settings(bot_delay=30.0))) as c:
        c.get("/")
        game_id = c.post("/api/guerra/nueva", json={"config": {}}).json()["id"]
        store = c.app.state.hall.store  # type: ignore[attr-defined]
        started, gate = threading.Event(), threading.Event()
        real = store.append_move

        async def append_move(*args: Any, **kwargs: Any) -> None:
            started.set()
            await asyncio.to_thread(gate.wait, 10)
            await real(*args, **kwargs)

        store.append_move = append_move
        seen: dict[str, tuple[int, dict[str, Any]]] = {}
        with c.websocket_connect("/ws") as mover, c.websocket_connect("/ws") as watcher:
            for ws in (mover, watcher):
                ws.send_json({"type": "join", "game": game_id, "version": None})
                assert ws.receive_json()["version"] == 0
            mover.send_json({"type": "move", "version": 0, "move": {"type": "turn"}})
            assert started.wait(10)

            def api() -> None:
                body = c.get(f"/api/partidas/{game_id}").json()
                seen["api"] = (body["version"], body["view"])

            def sync() -> None:
                watcher.send_json({"type": "sync"})
                while (msg := watcher.receive_json())["type"] != "sync":
                    pass
                seen["sync"] = (msg["version"], msg["view"])

            readers = [threading.Thread(target=api), threading.Thread(target=sync)]
            for t in readers:
                t.start()
            for t in readers:
                t.join(0.5)  # give them the chance to read the room mid-write
            gate.set()
            for t in readers:
                t.join(10)
            assert mover.receive_json()["version"] == 1
        assert set(seen) == {"api", "sync"}
        for version, view in seen.values():
            assert consistent(version, view), (version, view["counts"])
