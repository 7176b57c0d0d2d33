"""Several ``tapete serve`` processes as one hall, on a real PostgreSQL and redis-server: a
game played across processes, its owner SIGKILLed mid-game, Redis stopped and restarted —
and the log always the one game the players were shown, no move lost, none twice."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tapete.games import guerra
from tests.cluster.conftest import RedisServer
from tests.cluster.hall import Process, caddy, started
from tests.servers import wait_until_up


@pytest.fixture
def processes(
    tmp_path: Path, fresh_postgres: str, redis_server: RedisServer
) -> Iterator[list[Process]]:
    with started(tmp_path, "abc", fresh_postgres, redis_server.url) as made:
        yield made


@pytest.fixture
def guests() -> Iterator[Callable[[Process], Player]]:
    made: list[Player] = []

    def make(process: Process) -> Player:
        made.append(Player(process))
        return made[-1]

    yield make
    for p in made:
        p.close()


class Player:
    """A guest (its cookie is good on every process: the secret is in the database)."""

    def __init__(self, process: Process) -> None:
        self.http = httpx.Client(base_url=process.url)
        self.http.get("/")
        self.headers = {"Cookie": f"tapete_guest={self.http.cookies['tapete_guest']}"}

    def close(self) -> None:
        self.http.close()

    def socket(self, process: Process) -> ClientConnection:
        return connect(process.ws, additional_headers=self.headers, open_timeout=10)


def recv(ws: ClientConnection, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if msg["type"] == kind:
            return msg


def turn(ws: ClientConnection, version: int) -> tuple[int, dict[str, Any]]:
    """Turn our card; read updates until it is our turn again (the bot answers at once)."""
    ws.send(json.dumps({"type": "move", "version": version, "move": {"type": "turn"}}))
    while True:
        msg = json.loads(ws.recv(timeout=10))
        assert msg["type"] == "update", msg
        if msg["view"]["legal"] or msg["view"]["result"]:
            return msg["version"], msg["view"]


def join(ws: ClientConnection, game_id: str, version: int | None = None) -> dict[str, Any]:
    """Join the game; its ``joined`` message."""
    ws.send(json.dumps({"type": "join", "game": game_id, "version": version}))
    return recv(ws, "joined")


def assert_log_is_the_game(db: str, game_id: str, version: int, view: dict[str, Any]) -> None:
    """The committed log holds moves 1..``version``, none lost, none twice, and replays to
    the ``view`` the player was shown."""
    assert [n for n, _, _ in logged(db, game_id)] == list(range(1, version + 1))
    assert replayed_view(db, game_id) == view


def logged(db: str, game_id: str) -> list[tuple[int, int, Any]]:
    engine = create_engine(db)
    with engine.connect() as con:
        rows = con.execute(
            text("select n, seat, move from moves where game_id = :g order by n"), {"g": game_id}
        ).all()
    engine.dispose()
    return [(int(n), int(seat), json.loads(m) if isinstance(m, str) else m) for n, seat, m in rows]


def replayed_view(db: str, game_id: str) -> dict[str, Any]:
    """The view of seat 0 as the engine rebuilds it from the committed log alone."""
    engine = create_engine(db)
    with engine.connect() as con:
        config, seed = con.execute(
            text("select config, seed from games where id = :g"), {"g": game_id}
        ).one()
    engine.dispose()
    config = json.loads(config) if isinstance(config, str) else config
    state = guerra.new(guerra.parse_config(config), int(seed))
    for _, seat, move in logged(db, game_id):
        guerra.apply(state, seat, guerra.parse_move(move))
    view: dict[str, Any] = json.loads(json.dumps(guerra.view(state, 0)))
    return view


def new_game(player: Player) -> str:
    r = player.http.post("/api/guerra/nueva", json={"config": {"length": "final"}})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def owner_of(redis: RedisServer, unit: str) -> str | None:
    import redis as sync_redis

    client = sync_redis.Redis.from_url(redis.url)
    value = client.get("tapete:lease:" + unit)
    client.close()
    return value.decode() if isinstance(value, bytes) else None


def test_a_game_is_played_through_another_process_than_its_owner(
    processes: list[Process],
    redis_server: RedisServer,
    fresh_postgres: str,
    guests: Callable[[Process], Player],
) -> None:
    a, b, _ = processes
    player = guests(a)
    game_id = new_game(player)  # made on a: a runs it
    assert owner_of(redis_server, f"game:{game_id}") == a.node()
    with player.socket(b) as far, player.socket(a) as near:
        far.send(json.dumps({"type": "join", "game": game_id, "version": None}))
        near.send(json.dumps({"type": "join", "game": game_id, "version": None}))
        joined, also = recv(far, "joined"), recv(near, "joined")
        assert joined["view"] == also["view"] and joined["seat"] == 0
        version = joined["version"]
        for _ in range(6):
            version, view = turn(far, version)
        # the socket on the owner saw every update the relayed one did, in order
        seen = [recv(near, "update")["version"] for _ in range(version)]
        assert seen == list(range(1, version + 1))
        far.send(json.dumps({"type": "ping", "ref": 1}))
        assert recv(far, "pong")["ref"] == 1
    assert owner_of(redis_server, f"game:{game_id}") == a.node()  # it never moved
    assert_log_is_the_game(fresh_postgres, game_id, version, view)
    # the table's page and the API answer on a process that does not run the game
    assert player.http.get(f"{b.url}/partida/{game_id}").status_code == 200
    api = player.http.get(f"{b.url}/api/partidas/{game_id}").json()
    assert api["version"] == version and api["view"] == view


def test_the_owner_killed_mid_game_another_takes_over_and_the_game_goes_on(
    processes: list[Process],
    redis_server: RedisServer,
    fresh_postgres: str,
    guests: Callable[[Process], Player],
) -> None:
    a, b, c = processes
    player = guests(a)
    game_id = new_game(player)
    with player.socket(b) as far:
        version = join(far, game_id)["version"]
        for _ in range(5):
            version, view = turn(far, version)
        with player.socket(a) as near:
            near.send(json.dumps({"type": "join", "game": game_id, "version": version}))
            assert recv(near, "joined")["version"] == version
            t0 = time.monotonic()
            a.kill()  # SIGKILL: the owner is gone, with its lease still in Redis
        # the socket on b joins again on its own, wherever the game is run now
        again = recv(far, "joined", timeout=10)
        took = time.monotonic() - t0
        assert took <= 5.0, took
        assert again["version"] == version and again["view"] == view
        assert owner_of(redis_server, f"game:{game_id}") in (b.node(), c.node())
        for _ in range(3):
            version, view = turn(far, version)
    # the client of the dead process reconnects (through the same address: here, c)
    with player.socket(c) as back:
        back.send(json.dumps({"type": "join", "game": game_id, "version": version}))
        joined = recv(back, "joined")
        assert joined["version"] == version and joined["view"] == view
        version, view = turn(back, version)
    assert_log_is_the_game(fresh_postgres, game_id, version, view)


def test_redis_stopped_and_restarted_the_hall_heals_without_a_lost_or_doubled_move(
    processes: list[Process],
    redis_server: RedisServer,
    fresh_postgres: str,
    guests: Callable[[Process], Player],
) -> None:
    a, b, _ = processes
    player = guests(a)
    game_id = new_game(player)
    with player.socket(b) as far:
        version = join(far, game_id)["version"]
        for _ in range(4):
            version, view = turn(far, version)
        redis_server.stop()
        assert httpx.get(a.url + "/salud").status_code == 503  # Redis does not answer
        far.send(json.dumps({"type": "move", "version": version, "move": {"type": "turn"}}))
        time.sleep(4.0)  # past a lease's life: nobody may believe it still runs the game
        redis_server.start()  # empty: every lease is gone
        assert wait_until_up(a.url) and wait_until_up(b.url)
        # the socket joins again (its owner let the game go) and the game goes on
        again = recv(far, "joined", timeout=10)
        version = again["version"]
        assert_log_is_the_game(fresh_postgres, game_id, version, again["view"])
        for _ in range(3):
            version, view = turn(far, version)
    assert_log_is_the_game(fresh_postgres, game_id, version, view)


def test_a_private_room_across_processes_by_its_code(
    processes: list[Process], redis_server: RedisServer, guests: Callable[[Process], Player]
) -> None:
    a, b, c = processes
    host, friend = guests(a), guests(b)
    r = host.http.post(
        "/api/salas", json={"game": "onecard", "options": {"config": {"players": 2}}}
    )
    code = r.json()["code"]
    joined = friend.http.post(f"/api/salas/{code}/unirse", json={"name": "Amiga"})
    assert joined.status_code == 200 and joined.json()["seat"] == 1  # asked of a, from b
    assert friend.http.post(f"{c.url}/api/salas/000000/unirse", json={}).status_code == 404
    page = friend.http.get(f"{c.url}/sala/{code}")
    assert page.status_code == 200 and "Amiga" in page.text
    with host.socket(a) as hws, friend.socket(c) as fws:
        hws.send(json.dumps({"type": "enter", "room": code}))
        fws.send(json.dumps({"type": "enter", "room": code}))
        state = recv(hws, "lobby")
        assert recv(fws, "lobby")["you"] == 1
        hws.send(json.dumps({"type": "lobby", "action": "start", "version": state["version"]}))
        game_id = recv(fws, "lobby")["game_id"]
        while game_id is None:
            game_id = recv(fws, "lobby")["game_id"]
        hws.send(json.dumps({"type": "join", "game": game_id, "version": None}))
        fws.send(json.dumps({"type": "join", "game": game_id, "version": None}))
        mine, theirs = recv(hws, "joined"), recv(fws, "joined")
        assert mine["seat"] == 0 and theirs["seat"] == 1
        # each seat is sent its own hand, the other's only counted (through the relay too)
        assert "hand" not in json.dumps(theirs["view"]).replace('"hand":', "", 1)
        assert set(mine["view"]["hand"]).isdisjoint(theirs["view"]["hand"])
        assert theirs["view"]["counts"][0] == len(mine["view"]["hand"])
        who = mine if 0 in mine["view"]["actors"] else theirs
        ws = hws if who is mine else fws
        legal = who["view"]["legal"]
        ws.send(json.dumps({"type": "move", "version": who["version"], "move": legal[0]}))
        assert recv(hws, "update")["version"] == who["version"] + 1
        assert recv(fws, "update")["version"] == who["version"] + 1


@pytest.fixture
def proxy(tmp_path: Path, processes: list[Process]) -> Iterator[str]:
    """Caddy with the Caddyfile an operator runs (deploy/Caddyfile), in front of them all."""
    with caddy(tmp_path, [p.port for p in processes]) as url:
        yield url


async def test_players_through_the_proxy_lose_nothing_when_a_process_is_killed(
    processes: list[Process], proxy: str, fresh_postgres: str, redis_server: RedisServer
) -> None:
    """``bench/chaos.py`` in short: a dozen players behind Caddy, each a page as
    ``static/js/net.js`` makes it (a closed socket is opened again 250 ms later and joins
    with the last version seen); the process that runs one of their games SIGKILLed mid-play
    and started again. Every player is back on its seat and plays on; every move
    any player was shown is in the log, the logs hold each version once and replay move by
    move."""
    stop = asyncio.Event()
    killed = asyncio.Event()
    seen: dict[tuple[str, int], Any] = {}
    games: set[str] = set()
    after: list[int] = [0] * 12  # moves each player saw committed after the kill
    refused: list[str] = []

    async def page(n: int) -> None:
        async with httpx.AsyncClient(base_url=proxy, timeout=10) as http:
            await http.get("/")
            headers = {"Cookie": f"tapete_guest={http.cookies['tapete_guest']}"}

            async def new() -> str:
                """A new game (a page's form: tried again while the proxy has no answer)."""
                while True:
                    with contextlib.suppress(httpx.HTTPError):
                        r = await http.post(
                            "/api/guerra/nueva", json={"config": {"length": "final"}}
                        )
                        if r.status_code == 201:
                            games.add(r.json()["id"])
                            return str(r.json()["id"])
                        refused.append(f"new:{r.status_code}")
                    await asyncio.sleep(0.25)

            game, version = await new(), None
            while not stop.is_set():
                try:
                    ws = await ws_connect(
                        proxy.replace("http", "ws") + "/ws", additional_headers=headers
                    )
                except (OSError, InvalidStatus):  # (the proxy found nobody: again, as net.js)
                    await asyncio.sleep(0.25)
                    continue
                closer = asyncio.create_task(close_on(ws, stop))
                with contextlib.suppress(ConnectionClosed):
                    await ws.send(json.dumps({"type": "join", "game": game, "version": version}))
                    async for raw in ws:
                        msg = json.loads(raw)
                        if msg["type"] == "error":
                            refused.append(msg["code"])
                        if msg["type"] not in ("joined", "update") or msg.get("view") is None:
                            continue
                        for m in msg.get("missed") or []:
                            seen[(game, m["version"])] = m["move"]
                        if msg["type"] == "update":
                            seen[(game, msg["version"])] = msg["move"]
                            after[n] += killed.is_set()
                        version, view = msg["version"], msg["view"]
                        if view["result"] is not None:
                            game, version = await new(), None
                            await ws.send(json.dumps({"type": "join", "game": game}))
                        elif {"type": "turn"} in view["legal"]:
                            await asyncio.sleep(0.05)
                            move = {"type": "move", "version": version, "move": {"type": "turn"}}
                            await ws.send(json.dumps(move))
                closer.cancel()
                await asyncio.sleep(0.25)  # as net.js

    async def close_on(ws: Any, stop: asyncio.Event) -> None:
        await stop.wait()
        await ws.close()

    pages = [asyncio.create_task(page(n)) for n in range(12)]
    while len(seen) < 24:  # (everyone at a table, playing)
        await asyncio.sleep(0.05)
    first = min(games)
    by_node = {p.node(): p for p in processes}
    victim = by_node[str(owner_of(redis_server, f"game:{first}"))]
    await asyncio.to_thread(victim.kill)
    killed.set()
    await asyncio.to_thread(victim.start)
    for _ in range(200):  # until every player has played on (10 s at most)
        if all(after):
            break
        await asyncio.sleep(0.05)
    stop.set()
    await asyncio.gather(*pages)
    assert all(n > 0 for n in after), after  # every player back on its seat, playing on
    # the error budget: a move sent as its socket was lost, a new game as its process died
    assert set(refused) <= {"stale_version", "not_joined", "new:502", "new:503"}, refused
    for game in games:
        rows = logged(fresh_postgres, game)
        assert [n for n, _, _ in rows] == list(range(1, len(rows) + 1))  # none lost, none twice
        logged_moves = {n: move for n, _, move in rows}
        shown = {v: move for (g, v), move in seen.items() if g == game}
        assert all(logged_moves.get(v) == move for v, move in shown.items()), game
        replayed_view(fresh_postgres, game)  # each move legal, in order
