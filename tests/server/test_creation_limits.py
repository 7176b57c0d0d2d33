"""Unbounded creation (the hardening issue): one guest made 3,000 games in 26 s. Now a guest
and an address may make only so many games and rooms a minute (Limits), a refusal changes
nothing, and a new practice game of a kind sets the guest's old one aside in memory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from tapete.server.app import create_app
from tapete.server.edge.limits import Limits
from tapete.store import default_url


def app_with(tmp_path: Path, **limits: Any) -> TestClient:
    return TestClient(create_app(default_url(tmp_path / "t.db"), limits=Limits(**limits)))


def games_in_memory(client: TestClient) -> int:
    return len(client.app.state.hall.live.tables.loaded())  # type: ignore[attr-defined]


def test_a_guest_may_make_so_many_games_a_minute(tmp_path: Path) -> None:
    with app_with(tmp_path, games_per_minute_guest=5) as client:
        client.get("/")
        made = [client.post("/api/guerra/nueva", json={}) for _ in range(5)]
        assert [r.status_code for r in made] == [201] * 5
        refused = client.post("/api/guerra/nueva", json={}, headers={"accept-language": "en"})
        assert refused.status_code == 429
        assert refused.json()["code"] == "too_many_games" and "wait" in refused.json()["message"]
        page = client.post("/guerra/nueva", data={"players": "2"})  # the form: its page, 429
        assert page.status_code == 429 and "espera un minuto" in page.text
        room = client.post("/api/salas", json={"game": "onecard", "options": {}})
        assert room.status_code == 429
        # five made, and only the newest guerra is kept in memory (one a kind)
        assert games_in_memory(client) == 1


def test_an_address_may_make_so_many_a_minute_whoever_asks(tmp_path: Path) -> None:
    with app_with(tmp_path, games_per_minute_address=3) as first:
        first.get("/")
        assert all(first.post("/api/onecard/nueva", json={}).status_code == 201 for _ in range(3))
        first.cookies.clear()  # a «new» guest from the same address
        first.get("/")
        assert first.post("/api/onecard/nueva", json={}).status_code == 429
