"""Structured logs: one JSON object a line, request ids, quiet sockets."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient
from websockets.sync.client import connect

from tapete.server.ops.logs import REQUEST_ID, JsonFormatter, QuietSockets
from tests.servers import free_port, wait_until_up


def test_a_record_is_one_json_line_with_its_request_id() -> None:
    record = logging.makeLogRecord(
        {
            "name": "tapete.x",
            "levelno": 30,
            "levelname": "WARNING",
            "msg": "hola %s",
            "args": ("ñ",),
        }
    )
    record.__dict__["game"] = "guerra"
    token = REQUEST_ID.set("abc123")
    try:
        line = JsonFormatter().format(record)
    finally:
        REQUEST_ID.reset(token)
    assert "\n" not in line
    out = json.loads(line)
    assert out["msg"] == "hola ñ" and out["level"] == "warning" and out["logger"] == "tapete.x"
    assert out["rid"] == "abc123" and out["game"] == "guerra" and out["t"].endswith("+00:00")


def test_socket_chatter_is_dropped_and_the_rest_kept() -> None:
    quiet = QuietSockets()

    def rec(name: str, level: int, msg: str) -> logging.LogRecord:
        return logging.makeLogRecord({"name": name, "levelno": level, "msg": msg})

    assert not quiet.filter(rec("uvicorn.error", logging.INFO, "connection open"))
    assert not quiet.filter(rec("uvicorn.error", logging.INFO, '%s - "WebSocket %s" [accepted]'))
    assert quiet.filter(rec("uvicorn.error", logging.WARNING, "connection closed"))
    assert quiet.filter(rec("tapete.rooms", logging.INFO, "connection open"))


def test_each_request_gets_an_id_and_a_sane_given_one_is_kept(client: TestClient) -> None:
    a, b = client.get("/salud"), client.get("/salud")
    assert (
        len(a.headers["x-request-id"]) == 16
        and a.headers["x-request-id"] != b.headers["x-request-id"]
    )
    given = client.get("/salud", headers={"x-request-id": "proxy-42"})
    assert given.headers["x-request-id"] == "proxy-42"
    odd = client.get("/salud", headers={"x-request-id": "no spaces\tplease"})
    assert odd.headers["x-request-id"] != "no spaces\tplease"


@pytest.mark.processes
def test_the_server_logs_json_lines_and_nothing_for_sockets_coming_and_going(
    tmp_path: Path,
) -> None:
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tapete.cli",
                "serve",
                "--port",
                str(port),
                "--db",
                str(tmp_path / "x.db"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=out,
        )
    try:
        base = f"http://127.0.0.1:{port}"
        assert wait_until_up(base, proc)
        started = len(log.read_text().splitlines())
        for _ in range(5):  # sockets that open and go away: normal, not news
            with connect(f"ws://127.0.0.1:{port}/ws") as ws:
                ws.send('{"type": "ping"}')
                ws.recv()
        r = httpx.get(base + "/no-such-page", headers={"x-request-id": "probe-1"})
        assert r.status_code == 404
        time.sleep(0.3)
    finally:
        proc.terminate()
        proc.wait(10)
    lines = log.read_text().splitlines()
    events = [json.loads(line) for line in lines]  # every line is one JSON object
    assert any(e["msg"].startswith("resumed") for e in events)
    during = events[started:]
    assert not [e for e in during if "WebSocket" in e["msg"] or "connection" in e["msg"]]
    assert [e for e in during if e.get("rid") == "probe-1" and "404" in e["msg"]]
    assert not [e for e in events if e["level"] in ("error", "critical")]
