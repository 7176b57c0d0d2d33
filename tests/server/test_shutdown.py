"""A stop (SIGTERM) ends ``tapete serve`` within a few seconds, with code 0, whatever it was
doing: games open with bots thinking, a socket in a game and one in a private room, a code's
mail being sent to a mail server that never answers, and a request whose body never comes
(uvicorn waits for it up to ``--shutdown-seconds``, then cancels it). Each part of the hall
ends within the deadline. Stopped several times over, to catch what only sometimes hangs."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.servers import free_port, wait_until_up

ROUNDS = 3
GRACE = 2.0
"""``--shutdown-seconds`` of these servers."""
WITHIN = 2 * GRACE + 4.0
"""A stop takes at most the grace for the requests, the grace for the hall's parts, and a
margin for the process to end."""


@pytest.fixture
def silent_smtp() -> Iterator[str]:
    """A mail server that accepts connections and never says a word."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                held.append(listener.accept()[0])
            except OSError:
                return

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"smtp://127.0.0.1:{listener.getsockname()[1]}"
    listener.close()
    for conn in held:
        conn.close()
    thread.join(5)


def busy_hall(held: contextlib.ExitStack, base: str, port: int) -> socket.socket:
    """Games with bots thinking, two sockets, a mail on its way, a request half sent: what a
    stop must end (``held`` holds them open)."""
    client = held.enter_context(httpx.Client(base_url=base, timeout=10))
    client.get("/")
    cookie = {"Cookie": f"tapete_guest={client.cookies['tapete_guest']}"}
    body = {"config": {"players": 4}, "level": "dificil"}
    game = client.post("/api/onecard/nueva", json=body).json()["id"]
    client.post("/api/rummy/nueva", json={"config": {"players": 4}, "level": "experto"})
    room = client.post("/api/salas", json={"game": "onecard", "options": {}}).json()["code"]
    assert client.post("/api/cuenta/correo", json={"email": "a@example.com"}).status_code == 202
    url = f"ws://127.0.0.1:{port}/ws"
    playing: ClientConnection = held.enter_context(connect(url, additional_headers=cookie))
    playing.send(json.dumps({"type": "join", "game": game}))
    joined = json.loads(playing.recv(timeout=10))
    if 0 in joined["view"]["actors"]:  # our move: then the bots think
        move = joined["view"]["legal"][0]
        playing.send(json.dumps({"type": "move", "version": joined["version"], "move": move}))
    lobby: ClientConnection = held.enter_context(connect(url, additional_headers=cookie))
    lobby.send(json.dumps({"type": "enter", "room": room}))
    assert json.loads(lobby.recv(timeout=10))["type"] == "lobby"
    half = held.enter_context(socket.create_connection(("127.0.0.1", port)))  # (no body)
    half.sendall(
        b"POST /api/cuenta/perfil HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 1000\r\n\r\n{"name": '
    )
    return half


@pytest.mark.processes
def test_sigterm_ends_the_server_within_seconds_with_code_0(
    tmp_path: Path, silent_smtp: str
) -> None:
    env = {**os.environ, "TAPETE_SMTP_URL": silent_smtp}
    for n in range(ROUNDS):
        port, log = free_port(), tmp_path / f"serve{n}.log"
        command = ["serve", "--port", str(port), "--db", str(tmp_path / "hall.db"),
                   "--shutdown-seconds", str(GRACE)]  # fmt: skip
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "tapete.cli", *command], stdout=out, stderr=out, env=env
            )
        try:
            with contextlib.ExitStack() as held:
                base = f"http://127.0.0.1:{port}"
                assert wait_until_up(base, proc), log.read_text()
                half = busy_hall(held, base, port)
                time.sleep(0.3)  # (the bots are thinking, the mail waits for its greeting)
                t0 = time.monotonic()
                proc.send_signal(signal.SIGTERM)
                code = proc.wait(WITHIN + 5)
                took = time.monotonic() - t0
                half.settimeout(5)
                answer = half.recv(4096)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        lines = log.read_text().splitlines()
        assert code == 0, lines[-20:]
        assert took < WITHIN, (took, lines[-20:])
        events = [json.loads(line) for line in lines if line.startswith("{")]
        assert not [e for e in events if e["level"] in ("error", "critical")], lines[-20:]
        said = [e["msg"] for e in events]
        assert "Application shutdown complete." in said
        assert answer.startswith(b"HTTP/1.1 503"), answer  # (cut short: come back later)
        assert [m for m in said if "cut short after" in m]
        assert not [m for m in said if m.startswith("stopping:") and "left behind" in m]


async def test_a_part_that_does_not_end_is_left_behind_and_the_next_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The hall's parts stop in turn within one deadline: one that hangs (even one that
    swallows its cancellation) is left behind with a warning, and the next is still asked."""
    import asyncio

    from tapete.server.state import STEP_SECONDS, Stopping

    stopping = Stopping(0.1)
    hangs = asyncio.Event()

    async def stubborn() -> None:
        while not hangs.is_set():
            try:
                await hangs.wait()
            except asyncio.CancelledError:
                continue

    loop = asyncio.get_running_loop()
    t0 = loop.time()
    assert await stopping.step("a stubborn part", stubborn()) is False
    assert loop.time() - t0 < 0.1 + STEP_SECONDS + 0.2
    ended: list[str] = []

    async def quick() -> None:
        ended.append("quick")

    assert await stopping.step("the next part", quick()) is True and ended == ["quick"]
    assert [r for r in caplog.records if "a stubborn part did not end" in r.getMessage()]
    hangs.set()  # (let the stubborn one go, for the test's loop to close)
    await asyncio.sleep(0)
