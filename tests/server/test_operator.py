"""What only an operator reads stays on the operator's network by default: ``/metrics`` and
the detailed ``/salud`` (the database's and Redis's answers, the node: its host and PID) are
for requests straight from a loopback address or one of ``Limits.operator_networks`` (the
private ranges unless set); anyone else — and anything a proxy relays — gets 404 for
``/metrics`` and from ``/salud`` only whether the hall is healthy (200 or 503). The shipped
Caddyfile answers 404 for ``/metrics`` itself."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from tapete.server.app import create_app
from tapete.server.edge.limits import Limits
from tests.cluster.hall import caddy
from tests.servers import free_port, wait_until_up

PUBLIC = "203.0.113.5"


@pytest.fixture
def app(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url)) as c:
        yield c


def seen_from(client: TestClient, host: str) -> TestClient:
    """The same hall, asked from ``host``."""
    other = TestClient(client.app, client=(host, 40000))
    other.portal = client.portal
    return other


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "10.1.2.3", "192.168.1.20", "fd00::7"])
def test_the_operators_network_reads_metrics_and_the_detailed_health(
    app: TestClient, host: str
) -> None:
    them = seen_from(app, host)
    metrics = them.get("/metrics")
    assert metrics.status_code == 200 and "tapete_sockets" in metrics.text
    health = them.get("/salud")
    assert health.status_code == 200 and health.json()["database"]["ok"] is True


@pytest.mark.parametrize("host", [PUBLIC, "2001:db8::1", "testclient"])
def test_anyone_else_gets_no_metrics_and_a_bare_health(app: TestClient, host: str) -> None:
    them = seen_from(app, host)
    assert them.get("/metrics").status_code == 404
    health = them.get("/salud")
    assert health.status_code == 200 and health.json() == {"ok": True}
    assert str(os.getpid()) not in health.text


def test_what_a_proxy_relays_is_public_whatever_its_addresses(app: TestClient) -> None:
    local = seen_from(app, "127.0.0.1")
    for header in ({"x-forwarded-for": PUBLIC}, {"x-forwarded-for": "127.0.0.1"}):
        assert local.get("/metrics", headers=header).status_code == 404
        assert local.get("/salud", headers=header).json() == {"ok": True}


def test_the_bare_health_says_503_when_the_database_does_not_answer(
    app: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def down() -> None:
        raise ConnectionError("the database went away")

    monkeypatch.setattr(app.app.state.hall.store, "ping", down)  # type: ignore[attr-defined]
    r = seen_from(app, PUBLIC).get("/salud")
    assert r.status_code == 503 and r.json() == {"ok": False}


def test_an_operator_network_of_ones_own(db_url: str) -> None:
    limits = Limits().with_text("operator_networks=192.0.2.0/24|2001:db8:1::/48")
    with TestClient(create_app(db_url, limits=limits)) as c:
        assert seen_from(c, "192.0.2.9").get("/metrics").status_code == 200
        assert seen_from(c, "2001:db8:1::5").get("/metrics").status_code == 200
        assert seen_from(c, "127.0.0.1").get("/metrics").status_code == 200  # (always)
        assert seen_from(c, "10.1.2.3").get("/metrics").status_code == 404  # (not theirs)


def test_a_network_that_is_none_is_refused_at_start() -> None:
    with pytest.raises(ValueError, match=r"operator_networks: .10\.0\.0\.0/33. is no network"):
        Limits().with_text("operator_networks=10.0.0.0/33")


@pytest.mark.processes
def test_the_caddyfile_keeps_metrics_in(tmp_path: Path) -> None:
    port = free_port()
    command = ["serve", "--port", str(port), "--db", str(tmp_path / "x.db"), "--log-level",
               "warning"]  # fmt: skip
    with open(tmp_path / "serve.log", "ab") as out:
        hall = subprocess.Popen(
            [sys.executable, "-m", "tapete.cli", *command], stdout=out, stderr=out
        )
    try:
        assert wait_until_up(f"http://127.0.0.1:{port}", hall)
        with caddy(tmp_path, [port]) as outside:
            refused = httpx.get(outside + "/metrics")
            assert refused.status_code == 404
            assert "x-request-id" not in refused.headers  # (Caddy's own answer: not relayed)
            assert httpx.get(outside + "/salud").json() == {"ok": True}
            hall_page = httpx.get(outside + "/")  # (the hall itself goes through)
            assert hall_page.status_code == 200 and "x-request-id" in hall_page.headers
        inside = httpx.get(f"http://127.0.0.1:{port}/metrics")  # (the operator's scrape)
        assert inside.status_code == 200
    finally:
        hall.terminate()
        hall.wait(10)
