"""A crash loses nothing a player saw: SIGKILL the server mid-game, start it again, reconnect."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tapete.games import guerra


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = open(db.with_suffix(".log"), "ab")  # noqa: SIM115 (closed in close())

    def close(self) -> None:
        self.kill()
        self.log.close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tapete.cli",
                "serve",
                "--port",
                str(self.port),
                "--db",
                str(self.db),
                "--log-level",
                "warning",
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/salud", timeout=0.5).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.kill()
        raise AssertionError("the server did not start: " + self.db.with_suffix(".log").read_text())

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "crash.db")
    srv.start()
    yield srv
    srv.close()


def play_turn(ws: Any, version: int) -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
    """Turn our card and read updates until it is our turn again (or the game ends)."""
    ws.send(json.dumps({"type": "move", "version": version, "move": {"type": "turn"}}))
    events: list[dict[str, Any]] = []
    while True:
        msg = json.loads(ws.recv(timeout=10))
        assert msg["type"] == "update", msg
        events += msg["events"]
        if msg["view"]["legal"] or msg["view"]["result"]:
            return msg["version"], msg["view"], events


def expected_next(db: Path, game_id: str) -> list[list[str]]:
    """What the engine says the next duel turns up, from the committed log alone."""
    con = sqlite3.connect(db)
    kind, config, seed = con.execute(
        "select kind, config, seed from games where id = ?", (game_id,)
    ).fetchone()
    moves = con.execute(
        "select seat, move from moves where game_id = ? order by n", (game_id,)
    ).fetchall()
    con.close()
    assert kind == "guerra"
    state = guerra.new(guerra.parse_config(json.loads(config)), seed)
    for seat, move in moves:
        guerra.apply(state, seat, guerra.parse_move(json.loads(move)))
    turned: list[list[str]] = []
    guerra.apply(state, 0, guerra.Turn())
    while 0 not in guerra.actors(state) and guerra.actors(state):
        for e in guerra.apply(state, guerra.actors(state)[0], guerra.Turn()):
            if e["t"] == "turn":
                turned.append(e["up"])
    return turned


def test_sigkill_mid_game_then_restart_finds_the_game_exactly(server: Server) -> None:
    http = httpx.Client(base_url=server.url)
    http.get("/")
    cookie = http.cookies["tapete_guest"]
    game_id = http.post("/api/guerra/nueva", json={"config": {"length": "final"}}).json()["id"]
    headers = {"Cookie": f"tapete_guest={cookie}"}
    ws_url = server.url.replace("http", "ws") + "/ws"

    with connect(ws_url, additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "join", "game": game_id, "version": None}))
        joined = json.loads(ws.recv(timeout=10))
        version, view = joined["version"], joined["view"]
        for _ in range(12):
            version, view, _events = play_turn(ws, version)

    prediction = expected_next(server.db, game_id)
    server.kill()  # SIGKILL: no shutdown, no flush beyond what was committed
    server.start()

    with connect(ws_url, additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "join", "game": game_id, "version": version}))
        again = json.loads(ws.recv(timeout=10))
        assert again["type"] == "joined"
        assert again["version"] == version
        assert again["view"] == view
        assert again["missed"] == []
        _, _, events = play_turn(ws, version)
    turned = [e["up"] for e in events if e["t"] == "turn" and e["seat"] != 0]
    assert turned == prediction
    http.close()


def test_a_computer_move_pending_at_the_crash_is_played_on_restart(server: Server) -> None:
    http = httpx.Client(base_url=server.url)
    http.get("/")
    game_id = http.post("/api/guerra/nueva", json={"config": {}}).json()["id"]
    server.kill()
    # the player's move was committed, the computer's was not (the crash came in between)
    con = sqlite3.connect(server.db)
    con.execute(
        "insert into moves (game_id, n, seat, move) values (?, 1, 0, ?)",
        (game_id, json.dumps({"type": "turn"})),
    )
    con.execute("update games set version = 1 where id = ?", (game_id,))
    con.commit()
    con.close()
    server.start()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        state = http.get(f"/api/partidas/{game_id}").json()
        if state["version"] >= 2:
            break
        time.sleep(0.05)
    assert state["version"] == 2
    assert state["view"]["legal"] == [{"type": "turn"}]
    http.close()
