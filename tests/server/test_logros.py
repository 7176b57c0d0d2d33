"""Logros over HTTP and in the rooms (tapete/server/pages/logros.py, tapete/rooms/logros.py):
a finished game is counted once for each person who played it, when it ends and on demand;
the end dialog's question gets what that game earned; the list in both languages; every
game counted again from the logs gives the same progress."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from tapete.rooms import Settings
from tapete.server.app import create_app
from tests.server.browsers import browser, hall
from tests.server.browsers import guest as me
from tests.server.test_daily import attempt, play_out


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, Settings(bot_pace=0))) as c:
        c.get("/")
        yield c


def progress(client: TestClient) -> dict[str, Any]:
    return {x["key"]: x for x in client.get("/api/logros").json()}


def practice(client: TestClient, kind: str, config: dict[str, Any]) -> str:
    r = client.post(f"/api/{kind}/nueva", json={"config": config})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def test_a_finished_game_earns_and_counts_once(client: TestClient) -> None:
    assert client.portal is not None
    before = progress(client)
    assert before["guerra.primera"] == {
        "key": "guerra.primera", "title": "Primera victoria", "earned": False, "progress": 0,
        "goal": 1, "rule": "Gana una partida de La guerra.", "icon": "⚔", "earned_at": None,
        "game": "guerra",
    }  # fmt: skip
    assert before["onecard.diez"]["rule"] == "Gana 10 partidas de One Card."
    game = practice(client, "guerra", {"players": 2, "length": "corta"})
    assert client.get("/api/logros", params={"partida": game}).json() == []  # (not over)
    play_out(client, game)
    table = client.portal.call(hall(client).live.read_table, game)
    won = table.game.outcome(table.state)["winner"] == table.seat_of(me(client))
    earned = client.get("/api/logros", params={"partida": game}).json()
    assert ("guerra.primera" in {x["key"] for x in earned}) == won
    assert all(x["earned"] and x["earned_at"] for x in earned)
    after = progress(client)
    assert after["guerra.partidas"]["progress"] == 1 and after["hall.cuatro"]["progress"] == 1
    assert after["guerra.primera"]["earned"] == won
    # counted once: counting it again (the end dialog asks again, the table's count) changes
    # nothing, and a stranger learns nothing of it
    assert client.portal.call(hall(client).live.logros.count_game, game) == {}
    assert client.get("/api/logros", params={"partida": game}).json() == earned
    assert progress(client) == after
    assert browser(client).get("/api/logros", params={"partida": game}).json() == []


def test_every_game_counted_again_gives_the_same(client: TestClient) -> None:
    assert client.portal is not None
    games = [practice(client, "guerra", {"players": n, "length": "corta"}) for n in (2, 3)]
    games.append(attempt(client, "peaje"))  # (a deal of the day: the hall's logros too)
    for game in games:
        play_out(client, game)
        client.get("/api/logros", params={"partida": game})  # (the end dialog: counted now)
    counted = progress(client)
    assert counted["guerra.partidas"]["progress"] == 2 and counted["hall.cuatro"]["progress"] == 2
    assert counted["hall.reto"]["earned"] and counted["hall.racha3"]["progress"] == 1
    assert counted["peaje.partidas"]["progress"] == 1
    assert client.portal.call(hall(client).live.logros.recount) == 3
    again = progress(client)
    for key, x in counted.items():  # (when it was earned: the recount's time)
        assert {**again[key], "earned_at": None} == {**x, "earned_at": None}, key


def test_the_list_and_the_page_in_english(client: TestClient) -> None:
    english = browser(client, "en")
    listed = english.get("/api/logros").json()
    assert len(listed) >= 30 and {"key", "title", "earned", "progress"} <= set(listed[0])
    by_key = {x["key"]: x for x in listed}
    assert by_key["rummy.apertura"]["title"] == "Grand opening"
    assert by_key["hall.racha7"]["rule"] == "Play the daily challenge 7 days in a row."
    page = english.get("/logros")
    assert page.status_code == 200
    assert f"You have 0 of {len(listed)}." in page.text and "Grand opening" in page.text
    assert 'data-logro="onecard.maestro"' in page.text


def test_the_command_counts_every_game_again(
    client: TestClient, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from tapete.cli import main

    game = practice(client, "guerra", {"players": 2, "length": "corta"})
    play_out(client, game)
    client.get("/api/logros", params={"partida": game})
    counted = progress(client)
    assert main(["logros", "recount", "--db", db_url]) == 0
    assert capsys.readouterr().out == "1 partidas contadas de nuevo para los logros\n"
    again = progress(client)
    assert again["guerra.partidas"]["progress"] == counted["guerra.partidas"]["progress"] == 1
    assert [k for k, x in again.items() if x["earned"]] == [
        k for k, x in counted.items() if x["earned"]
    ]
