"""The browser tests' own servers (servers.py): ready when they listen, and a server that
cannot start fails the test with what it said, at once."""

from __future__ import annotations

import urllib.request
from pathlib import Path

import pytest
from servers import serve


def test_a_server_answers_once_ready_and_is_gone_after(tmp_path: Path) -> None:
    with serve(tmp_path, []) as url, urllib.request.urlopen(f"{url}/salud", timeout=5) as r:
        assert r.status == 200
    assert "Uvicorn running on" in (tmp_path / "server.log").read_text()
    with pytest.raises(OSError):
        urllib.request.urlopen(f"{url}/salud", timeout=5)


def test_a_server_that_cannot_start_fails_with_its_output(tmp_path: Path) -> None:
    failed = pytest.raises(pytest.fail.Exception, match=r"exited with 2[^$]*--no-such-flag")
    with failed, serve(tmp_path, ["--no-such-flag"]):
        pass
