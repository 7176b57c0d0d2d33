"""A player's history: every game they sat at, newest first, their result in each as the
game's own descriptor reads its outcome, and their figures by game."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient


def _finished(client: TestClient, kind: str, seats: list[dict[str, Any]], outcome: Any) -> str:
    hall = client.app.state.hall  # type: ignore[attr-defined]
    assert client.portal is not None
    owner = seats[0]["guest"]
    record = client.portal.call(hall.store.create_game, kind, {}, 7, seats, owner)
    if outcome is not None:
        client.portal.call(hall.store.append_move, record.id, 1, 0, {"type": "x"}, outcome)
    return str(record.id)


def test_the_history_reads_each_games_result(client: TestClient) -> None:
    hall = client.app.state.hall  # type: ignore[attr-defined]
    me = hall.guests.read(client.cookies.get("tapete_guest"))
    assert client.portal is not None
    client.portal.call(hall.store.ensure_guest, me)
    you = {"kind": "human", "guest": me, "name": "Ana"}
    bot = {"kind": "bot", "level": "normal", "name": "Rita"}
    won = _finished(client, "guerra", [you, bot], {"winner": 0})
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
    assert data["stats"]["guerra"] == {"title": "La guerra", "played": 2, "won": 1}
    assert data["stats"]["rummy"]["played"] == 1 and data["stats"]["onecard"]["played"] == 0
    page = client.get("/historial").text
    assert "Ganada" in page and "Perdida" in page and "Sin ganador" in page


def test_a_new_guest_has_an_empty_history(client: TestClient) -> None:
    data = client.get("/api/historial").json()
    assert data["games"] == [] and all(s["played"] == 0 for s in data["stats"].values())
    assert "Aún no has jugado ninguna partida" in client.get("/historial").text
