"""The speed-ups ``tapete serve`` takes by default — our lean WebSocket implementation, the
collector's policy, the SQLite move writer on the event loop — are each one flag away from
the libraries' stock behaviour (``--ws``, ``--gc-policy off``, ``--sqlite-writer thread``,
or their environment variables), and a uvicorn or websockets they were not tested on is
never trusted silently."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.sync.client import connect

from tapete import cli
from tapete.server.socket import wsimpl
from tests.servers import free_port, wait_until_up

ROOT = Path(__file__).resolve().parents[2]
STOCK = {"TAPETE_WS": "websockets", "TAPETE_GC_POLICY": "off", "TAPETE_SQLITE_WRITER": "thread"}


def test_an_untested_uvicorn_is_not_trusted_with_the_lean_sockets(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert wsimpl.untested() is None  # (what is installed is what was tested)
    assert cli.websocket("websockets-sansio") == (
        wsimpl.LeanSansIOProtocol,
        wsimpl.direct_writer,
    )
    monkeypatch.setattr(uvicorn, "__version__", "0.99.1")
    assert wsimpl.untested() == "uvicorn 0.99.1 is not within the tested 0.55–0.56"
    assert cli.websocket("websockets-sansio") == ("websockets", None)
    assert "se usa websockets" in capsys.readouterr().err
    assert cli.websocket("wsproto") == ("wsproto", None)
    # uvicorn's own HTTP protocol goes with its own sockets; ours with the lean ones
    assert cli.lean_http(False) == "auto"
    assert cli.lean_http(True) is wsimpl.LeanHttpToolsProtocol


def test_the_pins_are_the_tested_versions() -> None:
    """pyproject.toml pins uvicorn and websockets to wsimpl.TESTED, with an upper bound."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pins = {
        d.split(">=")[0].split("[")[0]: d.split("]")[-1].removeprefix(d.split(">=")[0])
        for d in project["project"]["dependencies"]
    }

    def version(v: tuple[int, int]) -> str:
        return f"{v[0]}" if v[0] and not v[1] else f"{v[0]}.{v[1]}"

    for name, (low, high) in wsimpl.TESTED.items():
        assert pins.get(name) == f">={version(low)},<{version(high)}", (name, pins.get(name))
    assert ",<" in pins["starlette"]


class Serve:
    """``tapete serve`` in a process of its own, with ``env`` and ``flags``."""

    def __init__(self, tmp: Path, env: dict[str, str], flags: list[str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp / f"serve-{self.port}.log"
        command = [sys.executable, "-m", "tapete.cli", "serve", "--port", str(self.port)]
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                [*command, "--db", str(tmp / f"{self.port}.db"), "--bot-pace", "0", *flags],
                cwd=ROOT,
                env={**os.environ, **env, "PYTHONUNBUFFERED": "1"},
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        assert wait_until_up(self.url, self.proc), self.log.read_text()

    def settings(self, want: dict[str, Any], seconds: float = 10.0) -> dict[str, Any]:
        """The operator's ``/salud`` settings, once they are ``want`` (the collector's
        policy begins once the games are back)."""
        deadline = time.monotonic() + seconds
        while True:
            got: dict[str, Any] = httpx.get(self.url + "/salud").json()["settings"]
            if all(got.get(k) == v for k, v in want.items()) or time.monotonic() > deadline:
                return got
            time.sleep(0.05)

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=15)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    made: list[Serve] = []

    def start(env: dict[str, str], flags: list[str]) -> Serve:
        made.append(Serve(tmp_path, env, flags))
        return made[-1]

    yield start
    for s in made:
        s.close()


def plays_a_move(base: str) -> None:
    """A practice game of La guerra, its first turn played over the socket, kept."""
    with httpx.Client(base_url=base) as http:
        http.get("/")
        made = http.post("/api/guerra/nueva", json={"config": {}})
        assert made.status_code == 201, made.text
        game = made.json()["id"]
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
        with connect(
            base.replace("http", "ws") + "/ws", additional_headers={"cookie": cookie}
        ) as ws:
            ws.send(json.dumps({"type": "join", "game": game}))
            assert json.loads(ws.recv())["type"] == "joined"
            ws.send(json.dumps({"type": "move", "version": 0, "move": {"type": "turn"}}))
            assert json.loads(ws.recv())["type"] == "update"
        kept = http.get(f"/api/partidas/{game}").json()
        assert kept["version"] >= 1


DEFAULTS = {"ws": "websockets-sansio", "wsimpl_loaded": True, "gc_policy": True}


@pytest.mark.processes
def test_the_default_serve_is_tuned_and_plays(serve: Any) -> None:
    hall = serve({k: "" for k in STOCK}, [])
    settings = hall.settings({**DEFAULTS, "move_writer": "loop"})
    assert settings == {**DEFAULTS, "move_writer": "loop"}
    plays_a_move(hall.url)


@pytest.mark.processes
@pytest.mark.parametrize("how", ["flags", "environment"])
def test_every_speed_up_is_one_flag_away(serve: Any, how: str) -> None:
    flags = ["--ws", "websockets", "--gc-policy", "off", "--sqlite-writer", "thread"]
    hall = serve(STOCK, []) if how == "environment" else serve({}, flags)
    stock = {"ws": "websockets", "wsimpl_loaded": False, "gc_policy": False}
    assert hall.settings({**stock, "move_writer": "thread"}, 1.0) == {
        **stock,
        "move_writer": "thread",
    }
    plays_a_move(hall.url)
