"""A stop (SIGTERM) of one process of several, as a deploy does it: the process takes
nobody new and says so on ``/salud``, plays on while the proxy notices, then hands its games
over — the next process opens each from its log at once, its clocks given back the time the
handover took — and tells its sockets to reconnect (1012); the player lands on their seat
on the next process, at the same version, once."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.cluster.conftest import RedisServer
from tests.cluster.hall import Process, started
from tests.cluster.test_processes import owner_of

DRAIN = 1.0
TURN = 30.0


@pytest.fixture
def two(tmp_path: Path, fresh_postgres: str, redis_server: RedisServer) -> Iterator[list[Process]]:
    extra = ["--drain-seconds", str(DRAIN), "--turn-seconds", str(TURN)]
    with started(tmp_path, "ab", fresh_postgres, redis_server.url, extra) as made:
        yield made


def my_turn(ws: ClientConnection) -> tuple[dict[str, Any], float]:
    """Read until it is seat 0's turn with its clock running: that message, and when."""
    while True:
        msg = json.loads(ws.recv(timeout=10))
        view = msg.get("view")
        clocks = [c for c in msg.get("clocks") or [] if c["seat"] == 0]
        if view is not None and view.get("turn") == 0 and view.get("legal") and clocks:
            return msg, time.monotonic()


def seat_clock(msg: dict[str, Any]) -> int:
    return int(next(c["ms"] for c in msg["clocks"] if c["seat"] == 0))


def test_a_stopping_process_hands_its_games_over_and_its_players_reconnect_once(
    two: list[Process], redis_server: RedisServer
) -> None:
    a, b = two
    node_b = b.node()
    http = httpx.Client(base_url=a.url)
    http.get("/")
    cookie = {"Cookie": f"tapete_guest={http.cookies['tapete_guest']}"}
    game = http.post("/api/onecard/nueva", json={"config": {"players": 2}}).json()["id"]
    unit = f"game:{game}"
    assert owner_of(redis_server, unit) == a.node()
    with connect(a.ws, additional_headers=cookie, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "join", "game": game}))
        seen, seen_at = my_turn(ws)
        version, left = seen["version"], seat_clock(seen)
        assert 0 < left <= TURN * 1000

        assert a.proc is not None
        a.proc.terminate()  # SIGTERM: a deploy stops it
        stopped_at = time.monotonic()
        deadline = stopped_at + 5
        while httpx.get(a.url + "/salud").status_code != 503:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert httpx.get(a.url + "/salud", headers={"x-real-ip": "1"}).json() == {
            "ok": True,
            "draining": True,
        }
        refused = http.post("/api/onecard/nueva", json={"config": {"players": 2}})
        assert refused.status_code == 503 and refused.json()["error"] == "restarting"
        assert refused.headers["retry-after"]
        ws.send(json.dumps({"type": "ping", "ref": 1}))  # …while its players play on
        assert json.loads(ws.recv(timeout=5)) == {"type": "pong", "ref": 1}
        assert owner_of(redis_server, unit) == a.node()

        with pytest.raises(ConnectionClosed) as closed:  # then: reconnect, somewhere else
            while True:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        closed_at = time.monotonic()
        assert closed_at - stopped_at >= DRAIN  # (it played on while the proxy noticed)
        deadline = closed_at + 2
        while owner_of(redis_server, unit) != node_b:  # taken over at once, not after a lease
            assert time.monotonic() < deadline, owner_of(redis_server, unit)
            time.sleep(0.02)

    with connect(b.ws, additional_headers=cookie, open_timeout=10) as again:
        again.send(json.dumps({"type": "join", "game": game}))
        joined = json.loads(again.recv(timeout=10))
        joined_at = time.monotonic()
    assert joined["type"] == "joined" and joined["version"] == version  # nothing lost
    resumed = seat_clock(joined)
    ran = 1000 * (joined_at - seen_at)  # the clock, had it run all along
    # its time ran on the first process while it played on, and was not set back to full…
    assert resumed <= left - 1000 * DRAIN + 250
    # …and the time the handover took was given back: never less than if it had run on
    # (less the two messages' latencies, a few ms: tests/rooms/test_clocks_handover.py
    # checks the seconds exactly)
    assert resumed >= left - ran - 50
    assert a.proc.wait(20) == 0
    http.close()
