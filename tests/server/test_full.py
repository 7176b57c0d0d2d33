"""A full process (past ``Limits.full_cpu`` of a core): the players already at a table play
on; a newcomer — a new game, a new room, a place in «Jugar ahora» — is refused at once with
503, ``Retry-After`` and «hay mucha gente, vuelve en un momento», nothing made; ``/salud``
says so, and a balancer in front (Caddy, as an operator runs it) sends new sessions to
another process."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from tapete.server.app import create_app
from tapete.server.ops.load import FEW_PLAYERS, RECENT, RETRY_AFTER, TICK, WINDOW, Load
from tests.cluster.hall import caddy
from tests.server.browsers import browser, hall
from tests.server.test_operator import seen_from
from tests.servers import free_port, wait_until_up


class Machine:
    """A process's clocks, moved by hand: the wall, the CPU it has spent, its loop's lag."""

    def __init__(self) -> None:
        self.wall = 100.0
        self.used = 10.0

    def run(self, seconds: float, share: float, load: Load, lag: float = 0.010) -> None:
        """``seconds`` of wall time at ``share`` of a core, the loop ``lag`` late, sampled as
        :meth:`Load.run` does."""
        for _ in range(round(seconds / TICK)):
            self.wall += TICK
            self.used += TICK * share
            load.sample(lag)


def test_full_is_a_busy_loop_over_the_last_second() -> None:
    machine = Machine()
    load = Load(0.8, cpu=lambda: machine.used, clock=lambda: machine.wall)
    assert load.cpu_share == 0.0 and not load.full  # (one sample: nothing measured yet)
    machine.run(1.0, 0.5, load)
    assert load.cpu_share == pytest.approx(0.5) and not load.full
    machine.run(0.5, 1.0, load)  # a busy half second: the window's average is 0.75
    assert load.cpu_share == pytest.approx(0.75) and not load.full
    machine.run(0.5, 1.0, load)  # a busy second: full
    assert load.cpu_share == pytest.approx(1.0) and load.lag == pytest.approx(0.010)
    assert load.full
    machine.run(WINDOW, 0.3, load)  # quiet again: the busy second has left the window
    assert load.cpu_share == pytest.approx(0.3) and not load.full
    # a late loop on a quiet thread (another process's load on the same cores): not full
    machine.run(WINDOW, 0.2, load, lag=0.050)
    assert load.lag > 0.04 and not load.full
    never = Load(0.0, cpu=lambda: machine.used, clock=lambda: machine.wall)
    machine.run(1.0, 2.0, never, lag=0.1)
    assert never.cpu_share == pytest.approx(2.0) and not never.full  # (0: never full)
    assert len(load.samples) <= WINDOW / TICK + 2  # (the window's samples, no more)


@pytest.fixture
def busy(db_url: str) -> Iterator[tuple[TestClient, Machine]]:
    """A hall whose process is measured on a machine the test drives."""
    with TestClient(create_app(db_url)) as client:
        client.get("/")
        machine = Machine()
        hall(client).load = Load(0.9, cpu=lambda: machine.used, clock=lambda: machine.wall)
        yield client, machine


def made(client: TestClient) -> int:
    """Games and rooms in the database."""
    store = hall(client).store
    assert client.portal is not None
    return len(client.portal.call(store.unfinished)) + len(client.portal.call(store.open_rooms))


def test_a_full_process_refuses_newcomers_and_serves_its_players(
    busy: tuple[TestClient, Machine],
) -> None:
    client, machine = busy
    load = hall(client).load
    seated = client.post("/api/guerra/nueva", json={"config": {}})
    assert seated.status_code == 201
    game = seated.json()["id"]
    room = client.post("/api/salas", json={"game": "onecard", "options": {}}).json()["code"]
    friend = browser(client)
    machine.run(1.0, 0.95, load)
    assert load.full
    before = made(client)

    # a new practice game, over the API: JSON, 503, Retry-After, in the player's words
    api = client.post("/api/onecard/nueva", json={"config": {"players": 2}})
    assert api.status_code == 503 and api.headers["retry-after"] == str(RETRY_AFTER)
    assert api.json() == {
        "error": "full",
        "message": "Hay mucha gente jugando ahora mismo: vuelve en un momento.",
    }
    english = browser(client, "en").post("/api/guerra/nueva", json={"config": {}})
    assert (
        english.json()["message"] == "Lots of people are playing right now: come back in a moment."
    )
    # …from the game's page (a browser's form): the page, and a way back to the form
    form = client.post(
        "/onecard/nueva",
        data={"players": "2"},
        headers={"accept": "text/html", "referer": "http://testserver/onecard"},
        follow_redirects=False,
    )
    assert form.status_code == 503 and form.headers["retry-after"] == str(RETRY_AFTER)
    assert "Hay mucha gente jugando ahora mismo" in form.text
    assert 'href="/onecard"' in form.text
    # a new room, and a place in «Jugar ahora»: refused too, queued nowhere
    assert client.post("/api/salas", json={"game": "guerra", "options": {}}).status_code == 503
    quick = client.post("/api/jugar", json={"game": "onecard", "players": 2})
    assert quick.status_code == 503 and quick.json()["error"] == "full"
    assert client.get("/api/jugar").json() == {"state": "idle"}
    assert made(client) == before  # nothing was made
    assert load.refused == 5

    # those already in: the seated player's table, and a friend joining the room made before
    assert client.get(f"/partida/{game}").status_code == 200
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "game": game})
        joined = ws.receive_json()
        assert joined["type"] == "joined" and {"type": "turn"} in joined["view"]["legal"]
        ws.send_json({"type": "move", "version": joined["version"], "move": {"type": "turn"}})
        moved = ws.receive_json()
        assert moved["type"] == "update" and moved["version"] == joined["version"] + 1
    assert friend.post(f"/api/salas/{room}/unirse", json={"name": "Bea"}).status_code == 200

    # /salud: 503 for the balancer, and why; the operator reads the load
    outside = seen_from(client, "203.0.113.7").get("/salud")
    assert outside.status_code == 503 and outside.json() == {"ok": True, "full": True}
    detail = seen_from(client, "127.0.0.1").get("/salud").json()
    assert detail["load"]["full"] is True and detail["load"]["cpu"] == pytest.approx(0.95)
    metrics = seen_from(client, "127.0.0.1").get("/metrics").text
    assert "tapete_full 1.0" in metrics and "tapete_arrivals_refused 5.0" in metrics

    # quiet again: the door opens
    machine.run(WINDOW, 0.4, load)
    assert client.post("/api/onecard/nueva", json={"config": {"players": 2}}).status_code == 201
    assert seen_from(client, "203.0.113.7").get("/salud").json() == {"ok": True}


def test_only_tapete_serve_watches_its_load(client: TestClient) -> None:
    """A test's hall shares its process with the tests: it never counts itself full."""
    assert hall(client).load.full_cpu == 0 and hall(client).loading is None


def answers(base: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the server died"
        try:
            httpx.get(base + "/salud", timeout=0.5)
            return
        except httpx.HTTPError:
            time.sleep(0.05)
    raise AssertionError(f"{base} does not answer")


@pytest.mark.processes
def test_a_full_process_behind_the_proxy_gets_no_new_sessions(tmp_path: Path) -> None:
    """Two processes behind Caddy; one is full (its limit set below what an idle process
    spends): Caddy's health check reads its /salud and sends every newcomer to the other."""
    ports = [free_port(), free_port()]
    procs = []
    for n, port in enumerate(ports):
        limit = ["--limit", "full_cpu=0.000001"] if n == 0 else []
        command = ["serve", "--port", str(port), "--db", str(tmp_path / f"{n}.db"),
                   "--log-level", "warning", *limit]  # fmt: skip
        with open(tmp_path / f"serve{n}.log", "ab") as out:
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-m", "tapete.cli", *command], stdout=out, stderr=out
                )
            )
    full, free = (f"http://127.0.0.1:{port}" for port in ports)
    try:
        answers(full, procs[0])
        assert wait_until_up(free, procs[1])
        deadline = time.monotonic() + 5
        while httpx.get(full + "/salud").status_code != 503:  # (its first samples)
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert httpx.get(full + "/salud").json()["load"]["full"] is True
        with httpx.Client(base_url=full) as player:
            player.get("/")
            refused = player.post("/api/guerra/nueva", json={"config": {}})
            assert refused.status_code == 503 and refused.headers["retry-after"] == "5"
        with caddy(tmp_path, ports) as front:
            time.sleep(0.5)  # (Caddy's first health checks)
            with httpx.Client(base_url=front) as player:
                player.get("/")
                for _ in range(6):  # round robin would send every other one to the full one
                    made = player.post("/api/guerra/nueva", json={"config": {}})
                    assert made.status_code == 201, made.text
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(10)


def test_newcomers_count_as_the_load_they_will_be() -> None:
    """A wave of arrivals: each newcomer of the last few seconds counts as one more of the
    players here, so the door closes before their moves come, not after."""
    machine = Machine()
    load = Load(0.75, cpu=lambda: machine.used, clock=lambda: machine.wall)
    load.players = lambda: 100
    machine.run(WINDOW, 0.6, load)  # 100 players keep the loop at 60 %
    let_in = 0
    while load.admit():
        let_in += 1
    assert let_in == 25  # 0.6 × (100 + 25) / 100 = 0.75: the 26th is refused
    assert load.full and load.refused == 1
    load.players = lambda: 2  # a handful of players count as FEW_PLAYERS
    assert load.expected == pytest.approx(0.6 * (FEW_PLAYERS + 25) / FEW_PLAYERS)
    machine.run(RECENT + TICK, 0.6, load)  # (they did not come after all: the door opens again)
    assert not load.full and load.admit()


def test_only_the_loops_thread_counts() -> None:
    """A thread that thinks (a bot's search, a hint) does not fill the loop: the load reads
    the CPU of the thread that samples it (the loop's, in :meth:`Load.run`)."""
    load = Load(0.5)

    def think() -> None:
        end = time.thread_time() + 0.2
        while time.thread_time() < end:
            pass

    other = threading.Thread(target=think)
    other.start()
    other.join()
    load.sample(0.0)
    (_, before, _), (_, after, _) = load.samples[0], load.samples[-1]
    assert after - before < 0.1  # (the other thread's 0.2 s of CPU: not this one's)


@pytest.mark.parametrize(
    ("lang", "title", "words"),
    [
        ("es", "Un momento", "Estamos poniendo la sala al día"),
        ("en", "Just a moment", "We are updating the hall"),
    ],
)
def test_a_stopping_process_tells_newcomers_to_come_back_in_seconds(
    client: TestClient, lang: str, title: str, words: str
) -> None:
    """Draining (a deploy's SIGTERM): a new game is refused, in words of its own."""
    hall(client).draining = True
    player = browser(client, lang)
    page = player.post(
        "/guerra/nueva", data={}, headers={"accept": "text/html"}, follow_redirects=False
    )
    assert page.status_code == 503 and page.headers["retry-after"] == str(RETRY_AFTER)
    assert f"<h1>{title}</h1>" in page.text and words in page.text
    api = player.post("/api/guerra/nueva", json={"config": {}})
    assert api.status_code == 503 and api.json()["error"] == "restarting"
    assert seen_from(client, "203.0.113.7").get("/salud").json() == {"ok": True, "draining": True}
