"""A `tapete serve` of a browser test's own: started on a free port with a fresh SQLite file,
ready when uvicorn says it listens (read from its output as it comes: no polling, no sleep),
stopped and waited for at the end.

Imported by conftest.py (the session's server) and by the tests that need a server with
other flags (``tests/e2e`` is put on ``sys.path`` by the conftest).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT = 30.0
"""Seconds a server may take to listen (its migrations run first; a loaded machine)."""
LISTENING = re.compile(rb"Uvicorn running on (http://127\.0\.0\.1:\d+)")
"""The line uvicorn logs once its socket accepts connections, with the port it was given
(the server asks for port 0: no two servers of parallel test processes ever race for one)."""
DROPPED = ("TAPETE_DATABASE_URL", "TAPETE_SMTP_URL")
"""The environment's settings a test's server never inherits (its own SQLite file; its
e-mail where the test says, else to its log)."""


@contextmanager
def serve(work: Path, flags: list[str], env: dict[str, str] | None = None) -> Iterator[str]:
    """`tapete serve` with ``flags`` and ``env``, its database and log (``server.log``) in
    ``work``: its base URL (no trailing slash) once it listens. Fails the test with the
    server's log if it exits or does not listen in time; terminates it (then kills it) at
    the end."""
    inherited = {k: v for k, v in os.environ.items() if k not in DROPPED}
    env = {**inherited, **(env or {}), "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "tapete.cli", "serve", "--port", "0"]
    command += ["--db", str(work / "tapete.db"), *flags]
    log_path = work / "server.log"
    woken = threading.Event()  # it listens, or its output ended (it exited)
    listening: list[str] = []  # its URL, once it listens
    proc = subprocess.Popen(
        command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    assert proc.stdout is not None
    output = proc.stdout

    def copy() -> None:  # the server's output to its log, as it comes, until it exits
        with open(log_path, "wb") as log:
            for line in output:
                log.write(line)
                log.flush()
                found = None if listening else LISTENING.search(line)
                if found:
                    listening.append(found[1].decode())
                    woken.set()
        woken.set()

    reader = threading.Thread(target=copy, name=f"tapete-serve-{work.name}", daemon=True)
    reader.start()
    try:
        woken.wait(STARTUP_TIMEOUT)
        if not listening:
            try:
                why = f"exited with {proc.wait(timeout=5)}"
            except subprocess.TimeoutExpired:
                why = "timed out"
            pytest.fail(
                f"tapete serve {why} before listening:\n" + log_path.read_text(errors="replace"),
                pytrace=False,
            )
        yield listening[0]
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
        reader.join(timeout=5)
        output.close()
