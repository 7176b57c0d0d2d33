"""Leaderboards over HTTP (tapete/server/pages/leaderboard.py): this week and all time,
established players only, public names in the reader's language, your own place."""

from __future__ import annotations

from datetime import timedelta

import pytest
from starlette.testclient import TestClient

from tapete.public_names import drawn
from tapete.server.pages.games import week_start
from tapete.store import utcnow
from tests.ratings_seed import seed_rating
from tests.server.browsers import guest as me
from tests.server.browsers import hall


def rate(client: TestClient, players: dict[str, tuple[float, float]], days_ago: float) -> None:
    """Each guest's One Card rating (mu, sigma) and one rated game ``days_ago``."""
    assert client.portal is not None
    store = hall(client).store
    at = utcnow() - timedelta(days=days_ago)
    for guest, (mu, sigma) in players.items():
        client.portal.call(store.ensure_guest, guest)
        record = client.portal.call(store.create_game, "onecard", {"players": 2}, 1, [], guest)
        with store.writer.engine.begin() as conn:
            seed_rating(conn, guest, mu, at, sigma=sigma, games=15, game_id=record.id)


def test_the_board_of_all_time_and_of_this_week(client: TestClient) -> None:
    mine = me(client)
    days = (utcnow() - week_start(utcnow())).total_seconds() / 86400
    rate(client, {"g-old": (35.0, 3.0)}, days_ago=days + 3)  # before Monday
    rate(client, {mine: (30.0, 3.0), "g-b": (27.5, 4.0)}, days_ago=0)
    rate(client, {"g-new": (40.0, 7.0)}, days_ago=0)  # provisional: on no board
    always = client.get("/api/clasificacion/onecard", params={"periodo": "siempre"}).json()
    assert always["rows"] == [
        {"rank": 1, "name": drawn("g-old").words("es"), "rating": 1900, "games": 15},
        {"rank": 2, "name": drawn(mine).words("es"), "rating": 1700, "games": 15},
        {"rank": 3, "name": drawn("g-b").words("es"), "rating": 1600, "games": 15},
    ]
    assert always["you"] == always["rows"][1]
    week = client.get("/api/clasificacion/onecard").json()  # this week by default
    assert [r["rating"] for r in week["rows"]] == [1700, 1600]
    assert [r["games"] for r in week["rows"]] == [1, 1]
    assert week["you"]["rank"] == 1
    client.get("/", params={"lang": "en"})  # the same player, in English
    english = client.get("/api/clasificacion/onecard").json()
    assert english["rows"][0]["name"] == drawn(mine).words("en")
    page = client.get("/clasificacion/onecard", params={"periodo": "siempre"})
    assert page.status_code == 200 and drawn("g-old").words("en") in page.text
    assert 'class="you"' in page.text


def test_a_provisional_player_has_no_place(client: TestClient) -> None:
    rate(client, {me(client): (30.0, 6.0)}, days_ago=0)
    board = client.get("/api/clasificacion/onecard").json()
    assert board == {"rows": [], "you": None}
    page = client.get("/clasificacion/onecard")
    assert page.status_code == 200 and "Aún no hay nadie" in page.text


def test_refusals(client: TestClient) -> None:
    for game in ("guerra", "peaje", "ajedrez"):  # some games: those not rated, and none
        r = client.get(f"/api/clasificacion/{game}")
        assert r.status_code == 404 and r.json()["error"] == "not_rated"
        assert client.get(f"/clasificacion/{game}").status_code == 404
    r = client.get("/api/clasificacion/rummy", params={"periodo": "mes"})
    assert r.status_code == 400 and r.json()["error"] == "bad_period"


def test_the_hall_shows_the_top_of_each_rated_games_week(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import re

    from tapete.server.pages import games

    monkeypatch.setattr(games, "HALL_BOARD_SECONDS", 0.0)  # (read afresh each time here)
    text = client.get("/").text
    assert 'href="/clasificacion/onecard"' in text and 'href="/clasificacion/rummy"' in text
    assert 'href="/clasificacion/guerra"' not in text
    assert text.count("Nadie todavía esta semana") == 2
    days = (utcnow() - week_start(utcnow())).total_seconds() / 86400
    rate(client, {"g-old": (35.0, 3.0)}, days_ago=days + 3)  # before Monday: not this week
    rate(client, {f"g-{i}": (30.0 - i, 3.0) for i in range(7)}, days_ago=0)
    rate(client, {"g-new": (40.0, 7.0)}, days_ago=0)  # provisional: on no board
    board = re.search(r'data-board="onecard">(.*?)</article>', client.get("/").text, re.S)
    assert board is not None
    rows = re.findall(
        r'board-rank">(\d+)\.</span> <span class="board-name">([^<]*)</span> '
        r'<span class="board-rating">(\d+)<',
        board.group(1),
    )
    assert rows == [(str(i + 1), drawn(f"g-{i}").words("es"), str(1700 - 40 * i)) for i in range(5)]
    english = client.get("/", params={"lang": "en"}).text
    assert drawn("g-0").words("en") in english and "This week's best" in english


def test_the_end_dialogs_rating_change_is_the_readers_own(client: TestClient) -> None:
    from tapete.store.players import RatedSeat, write_ratings

    assert client.portal is not None
    store = hall(client).store
    mine = me(client)
    client.portal.call(store.ensure_guest, mine)
    client.portal.call(store.ensure_guest, "g-other")
    record = client.portal.call(store.create_game, "onecard", {"players": 2}, 1, [], mine)
    with store.writer.engine.begin() as conn:
        seats = [RatedSeat(mine, 1), RatedSeat("g-other", 2)]
        write_ratings(conn, "onecard", record.id, seats, utcnow())
    r = client.get(f"/api/partidas/{record.id}/puntuacion")
    assert r.status_code == 200
    body = r.json()
    assert body["game"] == "onecard" and body["before"] == 1500 and body["provisional"] is True
    assert body["change"] == body["after"] - 1500 > 0
    other = TestClient(client.app)
    other.portal = client.portal
    other.get("/")
    refused = other.get(f"/api/partidas/{record.id}/puntuacion")  # not theirs
    assert refused.status_code == 404 and refused.json()["error"] == "no_rating_change"
    assert client.get("/api/partidas/nada/puntuacion").status_code == 404


def test_a_room_of_friends_may_be_rated_from_the_setup_page(client: TestClient) -> None:
    r = client.post("/onecard/sala", data={"players": "2", "rated": "1"}, follow_redirects=False)
    assert r.status_code == 303
    code = r.headers["location"].removeprefix("/sala/")
    room = hall(client).live.rooms.get(code)
    assert room is not None and room.record.options["rated"] is True
    page = client.get(f"/sala/{code}").text
    assert "Cuenta para la clasificación" in page
    plain = client.post("/onecard/sala", data={"players": "2"}, follow_redirects=False)
    other = hall(client).live.rooms.get(plain.headers["location"].removeprefix("/sala/"))
    assert other is not None and other.record.options["rated"] is False
    # La guerra offers no such choice, and a forged one changes nothing
    war = client.post("/guerra/sala", data={"players": "2", "rated": "1"}, follow_redirects=False)
    room = hall(client).live.rooms.get(war.headers["location"].removeprefix("/sala/"))
    assert room is not None and room.record.options["rated"] is False
    assert 'name="rated"' in client.get("/onecard").text
    assert 'name="rated"' not in client.get("/guerra").text
