"""What tests that start real servers share: a free port, waiting for a hall to answer."""

from __future__ import annotations

import socket
import subprocess
import time

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_up(
    base: str, proc: subprocess.Popen[bytes] | None = None, seconds: float = 20.0
) -> bool:
    """Whether ``base``'s ``/salud`` answers 200 within ``seconds`` (False at once if
    ``proc`` died meanwhile)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            return False
        try:
            if httpx.get(base + "/salud", timeout=0.5).status_code == 200:
                return True
        except httpx.HTTPError:
            time.sleep(0.05)
    return False
