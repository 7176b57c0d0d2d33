"""The socket's limits: a bounded queue out (4008), a rate of messages in (``too_fast``),
sockets per guest and per address (4029), and odd frames (too deep, binary, lone
surrogates, a send that fails) refused or closed without a traceback. Counts, not timings."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocket, WebSocketDisconnect

from tapete.rooms import Settings, Table
from tapete.server.app import create_app
from tapete.server.edge.limits import Limits
from tapete.server.socket import Conn, Sockets
from tapete.server.socket.conn import CLOSE_TOO_SLOW, Here
from tapete.server.state import Hall
from tapete.store import default_url

PING = {"type": "websocket.receive", "text": '{"type": "ping"}'}


class FakeTable(Table):
    """A table that only hears who leaves it."""

    def __init__(self) -> None:
        self.left: list[int] = []

    def unsubscribe(self, conn: int) -> None:
        self.left.append(conn)


def stays(conn: Conn, what: str) -> None:
    """What a connection is told when what it follows moved: nothing moves here."""


async def test_a_queue_past_its_cap_closes_the_connection_and_leaves_the_room() -> None:
    conn = Conn("g", "es", Limits(socket_queue_messages=5, socket_queue_bytes=10_000), stays)
    table = FakeTable()
    conn.table = Here(table, 7)
    for i in range(5):
        conn.send({"type": "pong", "ref": i})
    assert len(conn.out) == 5 and conn.closed is None
    for i in range(100):  # a client that never reads
        conn.send({"type": "pong", "ref": i})
    assert conn.closed is not None and conn.closed[0] == CLOSE_TOO_SLOW and conn.closed[1]
    assert len(conn.out) == 0 and conn.queued_bytes == 0  # its queue dropped
    assert table.left == [7] and conn.table is None  # the table unsubscribed it


async def test_the_byte_cap_counts_too() -> None:
    conn = Conn("g", "es", Limits(socket_queue_messages=1000, socket_queue_bytes=500), stays)
    for _ in range(100):
        conn.send({"type": "pong", "ref": "x" * 100})
        assert conn.queued_bytes <= 500
    assert conn.closed is not None and conn.closed[0] == CLOSE_TOO_SLOW


class Peer:
    """The client end of a socket at the ASGI level: ``frames`` are what it sends (then it
    waits to be closed), ``sent`` what the server sent it; ``send`` may hang or fail."""

    def __init__(self, frames: list[dict[str, Any]], on_send: str = "ok") -> None:
        self.frames = [{"type": "websocket.connect"}, *frames]
        self.sent: list[MutableMapping[str, Any]] = []
        self.on_send = on_send
        self.closed = asyncio.Event()

    async def receive(self) -> dict[str, Any]:
        if self.frames:
            return self.frames.pop(0)
        await self.closed.wait()
        return {"type": "websocket.disconnect", "code": 1000}

    async def send(self, message: MutableMapping[str, Any]) -> None:
        self.sent.append(message)
        if message["type"] == "websocket.close":
            self.closed.set()
        elif message["type"] == "websocket.send":
            if self.on_send == "hang":  # a client that never reads
                await asyncio.Event().wait()
            if self.on_send == "fail":  # a send that fails (but the socket could close)
                raise RuntimeError("cannot send")
            if self.on_send == "gone":  # the transport broke: the peer is gone
                self.closed.set()
                raise OSError("the peer went away")

    def socket(self) -> WebSocket:
        scope = {
            "type": "websocket",
            "path": "/ws",
            "query_string": b"",
            "headers": [],
            "client": ("1.2.3.4", 5),
        }
        return WebSocket(scope, self.receive, self.send)

    def closes(self) -> list[int]:
        return [m.get("code", 1000) for m in self.sent if m["type"] == "websocket.close"]


def hall(tmp_path: Path, **limits: Any) -> Hall:
    return Hall(default_url(tmp_path / "x.db"), Settings(), Limits(**limits))


async def test_a_client_that_never_reads_is_closed_with_4008(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    sockets = Sockets(hall(tmp_path, socket_queue_messages=5))
    peer = Peer([PING] * 20, on_send="hang")
    await asyncio.wait_for(sockets.endpoint(peer.socket()), 5)
    assert peer.closes() == [CLOSE_TOO_SLOW]
    sends = [m for m in peer.sent if m["type"] == "websocket.send"]
    assert len(sends) <= 1  # (the one stuck); the rest were dropped, not queued for ever
    assert sockets.live == {}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_send_that_fails_closes_the_socket(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    sockets = Sockets(hall(tmp_path))
    peer = Peer([PING, PING, PING], on_send="fail")
    await asyncio.wait_for(sockets.endpoint(peer.socket()), 5)
    assert peer.closes() == [1011]
    assert len([m for m in peer.sent if m["type"] == "websocket.send"]) == 1
    assert sockets.live == {}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_peer_gone_mid_send_ends_the_connection_quietly(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    sockets = Sockets(hall(tmp_path))
    peer = Peer([PING, PING, PING], on_send="gone")
    await asyncio.wait_for(sockets.endpoint(peer.socket()), 5)
    assert len([m for m in peer.sent if m["type"] == "websocket.send"]) == 1
    assert sockets.live == {}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_messages_past_the_rate_are_too_fast(db_url: str) -> None:
    app = create_app(db_url, limits=Limits(socket_rate=0.001, socket_burst=3))
    with TestClient(app) as c, c.websocket_connect("/ws") as ws:
        for ref in range(5):
            ws.send_json({"type": "ping", "ref": ref})
        replies = [ws.receive_json() for _ in range(5)]
    assert [r["type"] for r in replies[:3]] == ["pong"] * 3
    assert [r.get("code") for r in replies[3:]] == ["too_fast"] * 2
    assert replies[3]["message"] == "Demasiados mensajes seguidos; espera un momento."


def test_one_sync_at_a_time(client: TestClient, h: Any) -> None:
    """A ``sync`` asked while the last one's reply still waits in the queue is too_fast."""
    game_id = h.new_game(client)
    room = h.room(client, game_id)
    sockets: Sockets = client.app.state.sockets  # type: ignore[attr-defined]

    async def twice() -> list[dict[str, Any]]:
        conn = Conn(None, "es", sockets.hall.limits, stays)
        conn.table = Here(room, 0)
        for _ in range(2):
            await sockets.router.handle(conn, '{"type": "sync"}')
        return [item for item in conn.out]  # type: ignore[misc]

    out = client.portal.call(twice)  # type: ignore[union-attr]
    assert len(out) == 2
    assert '"type":"sync"' in out[0][0] and '"code":"too_fast"' in out[1][0]


def test_sockets_per_guest_past_the_limit_are_closed_with_4029(db_url: str) -> None:
    with TestClient(create_app(db_url, limits=Limits(sockets_per_guest=2))) as c:
        c.get("/")
        with c.websocket_connect("/ws") as a, c.websocket_connect("/ws") as b:
            for ws in (a, b):
                ws.send_json({"type": "ping", "ref": 1})
                assert ws.receive_json()["type"] == "pong"
            with c.websocket_connect("/ws") as extra, pytest.raises(WebSocketDisconnect) as closed:
                extra.receive_json()
            assert closed.value.code == 4029
        other = TestClient(c.app)  # another guest: its own count
        other.get("/")
        with other.websocket_connect("/ws") as ws:
            ws.send_json({"type": "ping", "ref": 2})
            assert ws.receive_json()["type"] == "pong"


def test_sockets_per_address_past_the_limit_are_closed_with_4029(db_url: str) -> None:
    app = create_app(db_url, limits=Limits(sockets_per_address=1))
    with TestClient(app) as c, c.websocket_connect("/ws") as ws:
        ws.send_json({"type": "ping", "ref": 1})
        assert ws.receive_json()["type"] == "pong"
        with c.websocket_connect("/ws") as extra, pytest.raises(WebSocketDisconnect) as closed:
            extra.receive_json()
        assert closed.value.code == 4029


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ("[" * 1000 + "]" * 1000, "bad_message"),
        ('{"type": "ping", "ref": ' + "[" * 17 + "]" * 17 + "}", "bad_message"),
        ('{"type": "move", "move": ' + "[" * 3000 + "]" * 3000 + "}", "bad_message"),
        ('{"type":"ping","ref":"\\ud800"}', "bad_json"),
        ('{"type":"ping","ref":{"\\udfff": 1}}', "bad_json"),
    ],
)
def test_too_deep_or_not_unicode_is_refused(
    client: TestClient, payload: str, code: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The decoder refuses what nests deeper than any message may, or carries a lone
    surrogate (no answer could carry it back), before anyone handles it."""
    with client.websocket_connect("/ws") as ws:
        ws.send_text(payload)
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["code"] == code
        ws.send_text('{"type":"ping","ref":"\\ud83d\\ude00"}')  # a pair is a character
        assert ws.receive_json() == {"type": "pong", "ref": "😀"}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_field_no_message_has_is_ignored_however_deep(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.send_text('{"type": "ping", "ref": 5, "extra": ' + "[" * 15 + "]" * 15 + "}")
        assert ws.receive_json() == {"type": "pong", "ref": 5}


def test_a_binary_frame_gets_an_error(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.send_bytes(b'{"type": "ping"}')
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["code"] == "bad_message"
        ws.send_json({"type": "ping", "ref": 3})
        assert ws.receive_json() == {"type": "pong", "ref": 3}


def test_a_client_going_away_mid_game_logs_nothing(
    client: TestClient, h: Any, caplog: pytest.LogCaptureFixture
) -> None:
    game_id = h.new_game(client)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "game": game_id, "version": None})
        ws.receive_json()
        ws.send_json({"type": "move", "version": 0, "move": {"type": "turn"}})
    # gone without reading the updates
    client.get("/salud")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert "Exception in ASGI application" not in caplog.text
