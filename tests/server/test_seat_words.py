"""A seat is stored as what it is (a person, a bot and its level, someone at the same
phone), never as a name worded in the language of whoever started the game; it is worded
when shown, in the viewer's language: the history, the replay, the fair-deck page. Games
stored with a bot's name («Ordenador») still read in the viewer's language."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient


def _lang(client: TestClient, lang: str) -> None:
    client.get("/", params={"lang": lang})  # (remembered in a cookie)


def _history_seats(client: TestClient, game: str, lang: str) -> list[str]:
    _lang(client, lang)
    games = {g["id"]: g for g in client.get("/api/historial").json()["games"]}
    return list(games[game]["seats"])


def _new(client: TestClient, kind: str, **config: Any) -> str:
    r = client.post(f"/api/{kind}/nueva", json={"config": config})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def _stored_seats(client: TestClient, game: str) -> list[dict[str, Any]]:
    hall = client.app.state.hall  # type: ignore[attr-defined]
    assert client.portal is not None
    record = client.portal.call(hall.store.game, game)
    return list(record.seats)


def test_a_practice_game_stores_its_bots_as_bots_not_as_names(client: TestClient) -> None:
    _lang(client, "en")
    game = _new(client, "guerra", players=3)
    bots = _stored_seats(client, game)[1:]
    assert [b["kind"] for b in bots] == ["bot", "bot"]
    assert all("name" not in b and b["level"] == "normal" for b in bots), bots


def test_the_history_words_the_computer_in_the_viewers_language(client: TestClient) -> None:
    _lang(client, "en")  # an English player starts the game
    game = _new(client, "guerra")
    assert _history_seats(client, game, "en") == ["You", "Computer"]
    assert _history_seats(client, game, "es") == ["Tú", "Ordenador"]
    several = _new(client, "guerra", players=3)
    assert _history_seats(client, several, "en") == ["You", "Computer 1", "Computer 2"]
    assert _history_seats(client, several, "es") == ["Tú", "Ordenador 1", "Ordenador 2"]
    named = _new(client, "onecard", players=3)  # (One Card's bots have names of their own)
    assert _history_seats(client, named, "en") == ["You", "Ana", "Luis"]


def test_a_game_stored_with_a_worded_name_still_reads_in_the_viewers_language(
    client: TestClient,
) -> None:
    hall = client.app.state.hall  # type: ignore[attr-defined]
    me = hall.guests.read(client.cookies.get("tapete_guest"))
    assert client.portal is not None
    client.portal.call(hall.store.ensure_guest, me)
    seats = [
        {"kind": "human", "guest": me},
        {"kind": "bot", "level": "normal", "name": "Ordenador"},  # (as Tapete stored it)
    ]
    record = client.portal.call(hall.store.create_game, "guerra", {}, 7, seats, me)
    client.portal.call(hall.store.append_move, record.id, 1, 0, {"type": "x"}, {"winner": 1})
    assert _history_seats(client, record.id, "en") == ["You", "Computer"]
    assert _history_seats(client, record.id, "es") == ["Tú", "Ordenador"]


def test_the_table_and_the_fair_page_word_the_seats_for_their_viewer(
    client: TestClient, h: Any
) -> None:
    _lang(client, "es")  # started in Spanish, read in English
    game = _new(client, "guerra", players=2, length="corta")
    room = h.room(client, game)
    while room.game.outcome(room.state) is None:  # (played out in memory)
        seat = room.game.actors(room.state)[0]
        room.game.apply(room.state, seat, room.game.legal_moves(room.state, seat)[0])
    _lang(client, "en")
    table = client.get(f"/api/partidas/{game}").json()  # (the seats a replay shows too)
    assert [s["name"] for s in table["seats"]] == ["You", "Computer"]
    redo = client.get(f"/api/partidas/{game}/justa").json()["redo"]
    assert [p["title"] for p in redo["parts"]] == ["Your pile", "Computer's pile"]
    _lang(client, "es")
    table = client.get(f"/api/partidas/{game}").json()
    assert [s["name"] for s in table["seats"]] == ["Tú", "Ordenador"]
