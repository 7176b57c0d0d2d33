"""A client's broken frame is the client's fault: a text frame that is not UTF-8 closes that
socket with 1007 (invalid data) and is no ERROR in the server's log (no traceback); the
server goes on serving the others."""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect

from tests.servers import free_port, wait_until_up

pytestmark = pytest.mark.processes  # (it starts tapete serve)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    port, log = free_port(), tmp_path / "serve.log"
    with log.open("wb") as out:
        command = ["serve", "--port", str(port), "--db", str(tmp_path / "x.db")]
        proc = subprocess.Popen(
            [sys.executable, "-m", "tapete.cli", *command], stdout=subprocess.DEVNULL, stderr=out
        )
    try:
        assert wait_until_up(f"http://127.0.0.1:{port}", proc)
        yield port, log
    finally:
        proc.terminate()
        proc.wait(10)


def _frame(opcode: int, payload: bytes) -> bytes:
    """A client's frame (masked, as a client's must be), with its FIN bit set."""
    mask = os.urandom(4)
    assert len(payload) < 126
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes((0x80 | opcode, 0x80 | len(payload))) + mask + body


def _open_raw(port: int) -> socket.socket:
    raw = socket.create_connection(("127.0.0.1", port), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        "GET /ws HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
    ]
    raw.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += raw.recv(4096)
    assert head.startswith(b"HTTP/1.1 101"), head
    return raw


def _close_code(raw: socket.socket) -> int:
    """The code of the close frame the server sends (its first frame)."""
    data = b""
    while len(data) < 4:
        chunk = raw.recv(4096)
        assert chunk, "the server closed without a close frame"
        data += chunk
    assert data[0] == 0x88, data  # FIN + close
    return int.from_bytes(data[2:4], "big")


def test_a_text_frame_that_is_not_utf8_closes_that_socket_with_1007_and_logs_no_error(
    served: tuple[int, Path],
) -> None:
    port, log = served
    for payload in (b"\xff\xfe", b'{"type": "ping", "ref": "\xc3"}', b"\xed\xa0\x80"):
        with _open_raw(port) as raw:
            raw.sendall(_frame(0x1, payload))
            assert _close_code(raw) == 1007
    with connect(f"ws://127.0.0.1:{port}/ws") as ws:  # the server serves on
        ws.send(json.dumps({"type": "ping", "ref": 1}))
        assert json.loads(ws.recv(timeout=5)) == {"type": "pong", "ref": 1}
    events = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    assert not [e for e in events if e["level"] in ("error", "critical") or "exc" in e]
