"""A hall of several ``tapete serve`` processes for tests: each process on its own port, on
one PostgreSQL and one redis-server, and Caddy in front of them as an operator runs it
(``deploy/Caddyfile``)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import httpx

from tests.servers import free_port, wait_until_up

CADDYFILE = Path(__file__).resolve().parents[2] / "deploy" / "Caddyfile"


class Process:
    def __init__(
        self, folder: Path, name: str, db: str, redis: str, extra: Sequence[str] = ()
    ) -> None:
        self.port = free_port()
        self.db, self.redis = db, redis
        self.extra = list(extra)
        """More arguments for ``tapete serve``."""
        self.logpath = folder / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @classmethod
    def at(cls, url: str) -> Process:
        """Whatever answers at ``url`` (the proxy), to talk to, not to start."""
        front = cls.__new__(cls)
        front.port = int(url.rsplit(":", 1)[1])
        return front

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> None:
        self.launch()
        self.wait()

    def launch(self) -> None:
        with open(self.logpath, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tapete.cli", "serve", "--port", str(self.port),
                 "--db", self.db, "--redis", self.redis, "--bot-pace", "0",
                 "--log-level", "warning", "--log-format", "text", *self.extra],
                stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip

    def wait(self) -> None:
        assert wait_until_up(self.url, self.proc, 40), self.logpath.read_text()

    def node(self) -> str:
        return str(httpx.get(self.url + "/salud").json()["node"])

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None


@contextlib.contextmanager
def started(
    folder: Path, names: str, db: str, redis: str, extra: Sequence[str] = ()
) -> Iterator[list[Process]]:
    """One process for each letter of ``names`` on ``db`` and ``redis``, started all at once
    on an empty database (one migrates, the others wait), and stopped at the end."""
    made = [Process(folder, name, db, redis, extra) for name in names]
    for p in made:
        p.launch()
    try:
        for p in made:
            p.wait()
        yield made
    finally:
        for p in made:
            p.stop()


@contextlib.contextmanager
def caddy(folder: Path, ports: Sequence[int]) -> Iterator[str]:
    """Caddy with the Caddyfile an operator runs, in front of the processes on ``ports``;
    its URL."""
    binary = shutil.which("caddy")
    assert binary is not None, "caddy is not installed (apt-get install caddy)"
    front = free_port()
    env = {
        **os.environ,
        "TAPETE_UPSTREAMS": " ".join(f"127.0.0.1:{port}" for port in ports),
        "TAPETE_LISTEN": f"http://127.0.0.1:{front}",
        "XDG_DATA_HOME": str(folder / "caddy"),
        "XDG_CONFIG_HOME": str(folder / "caddy"),
    }
    with open(folder / "caddy.log", "ab") as out:
        proc = subprocess.Popen(
            [binary, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
            env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{front}"
    try:
        assert wait_until_up(url, proc), (folder / "caddy.log").read_text()
        yield url
    finally:
        proc.terminate()
        proc.wait(10)
