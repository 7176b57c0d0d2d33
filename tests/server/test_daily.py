"""The deal of the day over HTTP (tapete/server/pages/daily.py, tapete/rooms/daily.py): one
deal a day and game for everyone, one attempt a player, the day's table, the commitment and
what checks it once the day is over."""

from __future__ import annotations

import asyncio
import hashlib
import subprocess
import sys
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest
from starlette.testclient import TestClient

from tapete import daily
from tapete.registry import REGISTRY
from tapete.rooms import Settings
from tapete.server.app import create_app
from tapete.store import utcnow
from tests.server.browsers import browser, hall
from tests.server.browsers import guest as me

DAILY_GAMES = [k for k, e in REGISTRY.items() if e.game.daily is not None]


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, Settings(bot_pace=0))) as c:
        c.get("/")
        yield c


def today() -> date:
    return daily.day_of(utcnow())


def attempt(client: TestClient, kind: str) -> str:
    r = client.post(f"/reto/{kind}", follow_redirects=False)
    assert r.status_code == 303, r.text
    location = r.headers["location"]
    assert location.startswith("/partida/")
    return location.removeprefix("/partida/")


def record(client: TestClient, game_id: str) -> Any:
    assert client.portal is not None
    return client.portal.call(hall(client).store.game, game_id)


def play_out(client: TestClient, game_id: str) -> None:
    """Play the game to its end, the player's seat choosing as the game's best bot would."""
    assert client.portal is not None
    table = client.portal.call(hall(client).live.read_table, game_id)
    entry = REGISTRY[table.record.kind]
    seat = table.seat_of(me(client))
    for _ in range(3000):
        client.portal.call(table.settled)  # (the bots' moves in, before reading the table)
        if table.finished:
            return
        if seat in table.game.actors(table.state):
            view = table.game.view(table.state, seat)
            if entry.bots is not None:
                choice = entry.bots.choose(view, entry.bots.levels[-1].key)
                assert choice is not None
                move = choice[0]
            else:
                move = next(iter(view["legal"]))
            refused = client.portal.call(table.submit, me(client), table.version, move)
            # (One Card's race: a bot may catch or call between our reading and our move)
            assert refused is None or refused["code"] == "stale_version", refused
        else:
            client.portal.call(asyncio.sleep, 0.01)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("kind", DAILY_GAMES)
def test_everyone_gets_the_days_deal_once(client: TestClient, kind: str) -> None:
    first = attempt(client, kind)
    again = attempt(client, kind)  # one attempt a day: the same game
    assert again == first
    friend = browser(client)
    theirs = attempt(friend, kind)
    assert theirs != first
    mine, other = record(client, first), record(client, theirs)
    secret = hall(client).secret
    assert mine.seed == other.seed == daily.seed(secret, today(), kind)  # the same cards
    spec = REGISTRY[kind].game.daily
    assert spec is not None
    assert (
        mine.config
        == other.config
        == REGISTRY[kind].game.config_json(REGISTRY[kind].game.parse_config(spec.config))
    )
    bots = [s.get("level") for s in mine.seats if s.get("kind") == "bot"]
    assert bots == ([spec.level] * len(bots)) and (spec.level is None) == (not bots)
    body = client.get(f"/api/reto/{kind}").json()
    assert body["date"] == today().isoformat() and body["played"] is True
    assert body["mine"] == first and body["attempts"] == 2 and body["table"] == []
    assert body["commitment"] == daily.commitment(secret, today(), kind)
    assert "seed" not in body and "salt" not in body  # (not before the day is over)
    stranger = browser(client)
    assert stranger.get(f"/api/reto/{kind}").json()["played"] is False


def test_two_tabs_at_once_make_one_attempt(client: TestClient) -> None:
    assert client.portal is not None
    dailies = hall(client).dailies
    guest = me(client)

    async def both() -> list[Any]:
        return list(
            await asyncio.gather(*(dailies.start("onecard", guest, today()) for _ in range(2)))
        )

    started = client.portal.call(both)
    assert started[0].game_id == started[1].game_id
    assert sorted(s.new for s in started) == [False, True]
    games = client.portal.call(hall(client).store.games_of, guest, "onecard")
    assert len(games) == 1


def test_the_days_table_ranks_the_finished_attempts(client: TestClient) -> None:
    assert client.portal is not None
    players = [client, browser(client), browser(client, "en")]
    games = [attempt(p, "onecard") for p in players]
    for p, g in zip(players[:2], games[:2], strict=True):
        play_out(p, g)
    body = players[2].get("/api/reto/onecard").json()
    assert body["attempts"] == 3 and len(body["table"]) == 2  # (one still playing)
    rows = body["table"]
    assert [r["rank"] for r in rows] == [1, 2] or rows[0]["rank"] == rows[1]["rank"] == 1
    assert all(r["you"] is False for r in rows)  # (the reader has not finished)
    for r in rows:
        assert r["text"] == f"{r['result']} {'move' if r['result'] == 1 else 'moves'}"
        assert isinstance(r["name"], str) and r["name"]
    keys = [(not r["won"], r["result"], r["seconds"]) for r in rows]
    assert keys == sorted(keys)  # who won first, then fewer moves, then quicker
    kept = client.portal.call(hall(client).store.daily.games, today(), "onecard")
    assert sorted(a.result is not None for a in kept) == [False, True, True]  # (read once)
    for p, g in zip(players[:2], games[:2], strict=True):  # each one's result, from the log
        table = client.portal.call(hall(client).live.read_table, g)
        seat = table.seat_of(me(p))
        log = [(m.seat, m.move) for m in client.portal.call(hall(client).store.moves, g)]
        turns = sum(1 for s, m in log if s == seat and m["type"] in ("play", "draw"))
        mine = p.get("/api/reto/onecard").json()
        [row] = [r for r in mine["table"] if r["you"]]
        outcome = table.game.outcome(table.state)
        assert row["result"] == turns and row["won"] == (outcome["winner"] == seat)
    page = client.get("/reto")
    assert "Tu resultado:" in page.text and "Ver tu partida" in page.text


def test_a_day_over_shows_what_checks_its_commitment(client: TestClient) -> None:
    yesterday = today() - timedelta(days=1)
    body = client.get("/api/reto/rummy", params={"fecha": yesterday.isoformat()}).json()
    preimage = f"reto:{yesterday.isoformat()}:rummy:{body['seed']}:{body['salt']}"
    assert hashlib.sha256(preimage.encode()).hexdigest() == body["commitment"]
    assert body["played"] is False and body["table"] == []


def test_the_seed_is_the_secrets_and_the_days(client: TestClient) -> None:
    secret = hall(client).secret
    day = today()
    seeds = {daily.seed(secret, day - timedelta(days=i), k) for i in range(30) for k in DAILY_GAMES}
    assert len(seeds) == 30 * len(DAILY_GAMES)  # a new deal every day, for every game
    assert daily.seed("another hall's secret", day, "onecard") != daily.seed(secret, day, "onecard")


CHILD = """
import asyncio, sys
from tapete import daily
from tapete.store import Store, utcnow

async def main() -> None:
    store = Store(sys.argv[1])
    try:
        secret = await store.secret()
    finally:
        await store.close()
    print(daily.seed(secret, daily.day_of(utcnow()), "guerra"))

asyncio.run(main())
"""


@pytest.mark.processes
def test_two_processes_deal_the_same_day(db_url: str) -> None:
    """Two halls on one store (one after the other here, and another process beside them)
    deal the same day's cards: the secret is the store's."""
    found = []
    for _ in range(2):
        with TestClient(create_app(db_url, Settings(bot_pace=0))) as c:
            c.get("/")
            found.append(c.get("/api/reto/guerra").json()["commitment"])
            secret = hall(c).secret
    assert found[0] == found[1]
    child = subprocess.run(
        [sys.executable, "-c", CHILD, db_url], capture_output=True, text=True, check=True
    )
    assert int(child.stdout) == daily.seed(secret, today(), "guerra")


def test_refusals(client: TestClient) -> None:
    r = client.get("/api/reto/ajedrez")
    assert r.status_code == 404 and r.json()["error"] == "no_daily"
    for bad in ("ayer", "2026-13-01", (today() + timedelta(days=1)).isoformat()):
        r = client.get("/api/reto/onecard", params={"fecha": bad})
        assert r.status_code == 400 and r.json()["error"] == "bad_date", bad
    assert client.post("/reto/ajedrez", follow_redirects=False).status_code == 404
    assert client.get("/api/reto/onecard").json()["played"] is False  # (nothing was made)


def test_the_page_offers_each_games_deal(client: TestClient) -> None:
    page = client.get("/reto")
    assert page.status_code == 200
    for kind in DAILY_GAMES:
        assert f'action="/reto/{kind}"' in page.text
    game = attempt(client, "rummy")
    page = client.get("/reto")
    assert f'href="/partida/{game}"' in page.text and 'action="/reto/rummy"' not in page.text
    english = browser(client, "en").get("/reto")
    assert "Daily challenge" in english.text


def test_a_day_over_its_games_are_everyones(client: TestClient) -> None:
    """Yesterday's deal opens for everyone: each finished attempt's replay, its analysis and
    its deal; today's are their players' only."""
    assert client.portal is not None
    yesterday = today() - timedelta(days=1)
    old = client.portal.call(hall(client).dailies.start, "rummy", me(client), yesterday).game_id
    new = attempt(client, "rummy")
    for game in (old, new):
        play_out(client, game)
    stranger = browser(client, "en")
    replay = stranger.get(f"/api/partidas/{old}/repeticion")
    assert replay.status_code == 200
    body = replay.json()
    table = client.portal.call(hall(client).live.read_table, old)
    seat = table.seat_of(me(client))
    assert body["seat"] == seat and body["steps"]  # (seen from the player's seat)
    assert all(s["name"] != "You" for s in body["seats"])  # (the stranger is nobody there)
    assert stranger.get(f"/partida/{old}/analisis").status_code == 200
    fair = stranger.get(f"/api/partidas/{old}/justa").json()
    assert fair["seed"] == daily.seed(hall(client).secret, yesterday, "rummy")
    day = stranger.get("/api/reto/rummy", params={"fecha": yesterday.isoformat()}).json()
    assert [r["game"] for r in day["table"]] == [old]
    assert stranger.get(f"/api/partidas/{new}/repeticion").status_code == 404  # today's
    assert "seed" not in stranger.get(f"/api/partidas/{new}/justa").json()
    assert all("game" not in r for r in stranger.get("/api/reto/rummy").json()["table"])
    page = stranger.get("/reto").text
    assert f'href="/partida/{old}/repeticion"' in page and f"/partida/{new}/" not in page


def test_the_table_of_an_attempt_says_so_and_leads_back(client: TestClient) -> None:
    game = attempt(client, "guerra")
    page = client.get(f"/partida/{game}").text
    assert 'class="dailybar"' in page and today().isoformat() in page
    assert 'href="/reto" id="again"' in page  # (the end leads to the day's table)
    practice = client.post("/api/guerra/nueva", json={"config": {}}).json()["id"]
    assert 'class="dailybar"' not in client.get(f"/partida/{practice}").text
