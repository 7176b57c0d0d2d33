"""A player's history: every game they sat at, newest first, their result in each as the
game's own descriptor reads its outcome, and their figures by game."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient


def _finished(
    client: TestClient,
    kind: str,
    seats: list[dict[str, Any]],
    outcome: Any,
    log: list[tuple[int, dict[str, Any]]] | None = None,
) -> str:
    """A stored game with ``log`` (each move's seat and move; one filler move when none),
    its last move ending it with ``outcome`` (None: still in play)."""
    hall = client.app.state.hall  # type: ignore[attr-defined]
    assert client.portal is not None
    owner = seats[0]["guest"]
    record = client.portal.call(hall.store.create_game, kind, {}, 7, seats, owner)
    moves = log or [(0, {"type": "x"})]
    for n, (seat, move) in enumerate(moves, 1):
        end = outcome if n == len(moves) else None
        client.portal.call(hall.store.append_move, record.id, n, seat, move, end)
    return str(record.id)


def _me(client: TestClient) -> tuple[Any, str]:
    """The running hall, and the client's guest (stored)."""
    hall = client.app.state.hall  # type: ignore[attr-defined]
    me = hall.guests.read(client.cookies.get("tapete_guest"))
    assert client.portal is not None and me is not None
    client.portal.call(hall.store.ensure_guest, me)
    return hall, str(me)


def test_the_history_reads_each_games_result(client: TestClient) -> None:
    _, me = _me(client)
    you = {"kind": "human", "guest": me, "name": "Ana"}
    bot = {"kind": "bot", "level": "normal", "name": "Rita"}
    won = _finished(client, "guerra", [you, bot], {"winner": 0, "wars": 3})
    lost = _finished(client, "rummy", [you, bot], {"winners": [1], "scores": [-20, 20]})
    tied = _finished(client, "guerra", [you, bot], {"winner": None})
    playing = _finished(client, "onecard", [you, bot], None)
    data = client.get("/api/historial").json()
    by_id = {g["id"]: g for g in data["games"]}
    assert set(by_id) == {won, lost, tied, playing}
    assert [by_id[g]["result"] for g in (won, lost, tied, playing)] == [
        "won",
        "lost",
        "none",
        "playing",
    ]
    assert by_id[won]["seats"] == ["Ana", "Rita"] and by_id[won]["title"] == "La guerra"
    blank = _finished(
        client,
        "onecard",
        [
            {**you, "name": ""},
            {"kind": "human", "guest": "f" * 24, "name": ""},
            {**bot, "name": ""},
        ],
        None,
    )
    seats = {g["id"]: g for g in client.get("/api/historial").json()["games"]}[blank]["seats"]
    assert seats == ["Tú", "Jugador 2", "Ana"]  # (seats without a name: a bot as its game names it)
    guerra = data["stats"]["guerra"]
    assert (guerra["title"], guerra["played"], guerra["won"]) == ("La guerra", 2, 1)
    assert guerra["figures"] == [{"name": "wars", "title": "Guerras", "n": 3}]
    assert data["stats"]["rummy"]["played"] == 1 and data["stats"]["onecard"]["played"] == 0
    assert data["stats"]["rummy"]["figures"][0]["n"] == -20
    page = client.get("/historial").text
    assert "Ganada" in page and "Perdida" in page and "Sin ganador" in page
    # the times are the player's own
    when = by_id[won]["started"]
    client.post("/api/cuenta/perfil", json={"tz": "Pacific/Kiritimati"})  # UTC+14
    local = {g["id"]: g for g in client.get("/api/historial").json()["games"]}[won]
    from datetime import datetime, timedelta

    expected = datetime.fromisoformat(when) + timedelta(hours=14)
    assert local["started_local"] == expected.strftime("%Y-%m-%d %H:%M")


def test_a_new_guest_has_an_empty_history(client: TestClient) -> None:
    data = client.get("/api/historial").json()
    assert data["games"] == [] and all(s["played"] == 0 for s in data["stats"].values())
    assert "Aún no has jugado ninguna partida" in client.get("/historial").text


def test_each_game_counts_its_own_figures(client: TestClient) -> None:
    hall, me = _me(client)
    assert client.portal is not None
    you = {"kind": "human", "guest": me, "name": "Ana"}
    friend = {"kind": "human", "guest": "f" * 24, "name": "Luis"}
    client.portal.call(hall.store.ensure_guest, "f" * 24)
    catches = [
        (0, {"type": "catch", "target": 1}),
        (1, {"type": "catch", "target": 0}),
        (0, {"type": "catch", "target": 1}),
    ]
    _finished(client, "onecard", [you, friend], {"winner": 0, "left": [0, 4]}, catches)
    peaje = {"winner": 0, "reason": "done", "misses": [2], "tolls": [1], "used": [9]}
    _finished(client, "peaje", [you], peaje)
    stats = client.get("/api/historial").json()["stats"]
    onecard = {f["name"]: f["n"] for f in stats["onecard"]["figures"]}
    assert onecard == {"caught": 2, "was_caught": 1}
    assert {f["name"]: f["n"] for f in stats["peaje"]["figures"]} == {"misses": 2, "tolls": 1}
    page = client.get("/historial").text
    assert "Veces pillado" in page and "Peajes pagados" in page
