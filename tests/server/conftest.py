from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from tapete.server.app import create_app


@pytest.fixture
def db_url(sqlite_url: str) -> str:
    """The test's database: a fresh SQLite file, migrated (as the hall would on start)."""
    return sqlite_url


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url)) as c:
        c.get("/")  # get a guest cookie
        yield c


class Helpers:
    @staticmethod
    def new_game(client: TestClient, **config: Any) -> str:
        r = client.post("/api/guerra/nueva", json={"config": config})
        assert r.status_code == 201, r.text
        return str(r.json()["id"])

    @staticmethod
    def room(client: TestClient, game_id: str) -> Any:
        """The game's room, opened from its log if it is not in memory (set aside)."""
        live = client.app.state.hall.live  # type: ignore[attr-defined]
        assert client.portal is not None
        return client.portal.call(live.read_table, game_id)


@pytest.fixture
def h() -> type[Helpers]:
    return Helpers
