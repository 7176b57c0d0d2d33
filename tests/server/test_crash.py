"""A crash loses nothing a player saw: SIGKILL the server mid-game, start it again, reconnect."""

from __future__ import annotations

import contextlib
import json
import os
import signal
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
from tests.servers import free_port, wait_until_up

pytestmark = pytest.mark.processes  # (it starts tapete serve)


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
        if wait_until_up(self.url, self.proc):
            return
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
    try:  # (a server that did not start still closes its log: no file left open)
        srv.start()
        yield srv
    finally:
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


def guest(server: Server) -> tuple[httpx.Client, dict[str, str]]:
    http = httpx.Client(base_url=server.url)
    http.get("/")
    return http, {"Cookie": f"tapete_guest={http.cookies['tapete_guest']}"}


def recv_type(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(30):
        msg: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind}")


def test_a_private_room_of_three_survives_a_sigkill_mid_game(server: Server) -> None:
    """Three friends in a One Card room; the server dies; each comes back to the same view,
    the room and its code still there, and the game goes on."""
    players = [guest(server) for _ in range(3)]
    host_http, host_headers = players[0]
    code = host_http.post(
        "/api/salas", json={"game": "onecard", "options": {"config": {"players": 3}}}
    ).json()["code"]
    for i, (http, _) in enumerate(players[1:], 1):
        r = http.post(f"/api/salas/{code}/unirse", json={"name": f"Amigo {i}"})
        assert r.status_code == 200 and r.json()["seat"] == i
    ws_url = server.url.replace("http", "ws") + "/ws"
    with connect(ws_url, additional_headers=host_headers) as ws:
        ws.send(json.dumps({"type": "enter", "room": code}))
        state = recv_type(ws, "lobby")
        ws.send(json.dumps({"type": "lobby", "action": "start", "version": state["version"]}))
        game_id = recv_type(ws, "lobby")["game_id"]
    assert game_id

    # play a few turns, each player moving when it is theirs
    views: list[dict[str, Any]] = []
    with contextlib.ExitStack() as stack:
        socks = [stack.enter_context(connect(ws_url, additional_headers=h)) for _, h in players]
        for ws in socks:
            ws.send(json.dumps({"type": "join", "game": game_id}))
            views.append(recv_type(ws, "joined")["view"])
        version = 0
        for _ in range(6):
            turn = views[0]["turn"]
            move = views[turn]["legal"][0]
            socks[turn].send(json.dumps({"type": "move", "version": version, "move": move}))
            for i, ws in enumerate(socks):
                update = recv_type(ws, "update")
                views[i], version = update["view"], update["version"]

    server.kill()  # SIGKILL mid-game
    server.start()

    with contextlib.ExitStack() as stack:
        again = [stack.enter_context(connect(ws_url, additional_headers=h)) for _, h in players]
        for i, ws in enumerate(again):
            ws.send(json.dumps({"type": "join", "game": game_id, "version": version}))
            joined = recv_type(ws, "joined")
            assert joined["seat"] == i and joined["version"] == version
            assert joined["view"] == views[i]  # exactly where they were
        # the room is there too, by its code, with the same seats
        again[0].send(json.dumps({"type": "enter", "room": code}))
        room = recv_type(again[0], "lobby")
        assert room["game_id"] == game_id
        assert [s["name"] for s in room["seats"]][1:] == ["Amigo 1", "Amigo 2"]
        turn = views[0]["turn"]
        move = views[turn]["legal"][0]
        again[turn].send(json.dumps({"type": "move", "version": version, "move": move}))
        assert recv_type(again[(turn + 1) % 3], "update")["version"] == version + 1
    for http, _ in players:
        http.close()
