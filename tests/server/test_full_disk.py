"""A full disk: the database cannot grow, so nothing new can be written (SQLite's
``PRAGMA max_page_count`` held at the file's size, on pages of 512 bytes so that a new row
needs a new page: SQLITE_FULL, as a full disk gives). An HTTP write answers the error
contract — ``503`` with ``Retry-After`` and ``{"error": "unavailable", "message"}`` in the
player's language — instead of a plain-text 500; a move that cannot be written is refused
with that error and shown to nobody; ``/salud`` says 503 while writes fail, and 200 once they
can be made again."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from starlette.testclient import TestClient

from tapete.server.app import create_app
from tapete.store import default_url

UNAVAILABLE_ES = "No podemos guardar nada ahora mismo: inténtalo de nuevo en un rato."
UNAVAILABLE_EN = "We can't save anything right now: try again in a while."


def until_full(con: sqlite3.Connection, insert: str) -> None:
    """Run ``insert`` (its ``?`` numbered 0, 1, …) until the file is full."""
    for n in range(100_000):
        try:
            con.execute(insert, (n,) if "?" in insert else ())
        except sqlite3.OperationalError as full:
            assert "full" in str(full), full
            return
    raise AssertionError(f"{insert!r} never filled the file")


class Disk:
    """The database file's room to grow, held by every connection the hall opens."""

    def __init__(self, client: TestClient, path: Path) -> None:
        self.client = client
        self.path = path
        self.pages = 1 << 30
        store = client.app.state.hall.store  # type: ignore[attr-defined]
        self.store = store
        for engine in (store.engine.sync_engine, store.writer.engine):
            event.listen(engine, "connect", self._limit)

    def _limit(self, dbapi: Any, _record: Any) -> None:
        cur = dbapi.cursor()
        cur.execute(f"PRAGMA max_page_count={self.pages}")
        cur.close()

    def _reconnect(self) -> None:
        assert self.client.portal is not None
        self.client.portal.call(self.store.engine.dispose)
        self.store.writer.engine.dispose()

    def fill(self) -> None:
        """No page more than the file has now, and none free inside it: the free pages a
        dropped table or a migration left are taken by rows of a table nobody reads (else a
        short game could end on them before a move needs a page: failed once in eight), and the
        moves' last page is full."""
        con = sqlite3.connect(self.path, isolation_level=None)
        try:
            con.execute("CREATE TABLE IF NOT EXISTS ballast (b BLOB)")
            self.pages = int(con.execute("PRAGMA page_count").fetchone()[0])
            con.execute(f"PRAGMA max_page_count={self.pages}")
            until_full(con, "INSERT INTO ballast VALUES (zeroblob(400))")
            assert int(con.execute("PRAGMA freelist_count").fetchone()[0]) == 0
            # the moves' last page full too, with the smallest move there is (a move of a
            # game whose id sorts after every real one: its rows and keys come last)
            until_full(con, "INSERT INTO moves (game_id, n, seat, move) VALUES ('~', ?, 0, '0')")
        finally:
            con.close()
        self._reconnect()

    def free(self) -> None:
        self.pages = 1 << 30
        self._reconnect()


@pytest.fixture
def small_pages(tmp_path: Path) -> Path:
    path = tmp_path / "full.db"
    with sqlite3.connect(path) as con:  # (the page size is the file's from its first table)
        con.execute("PRAGMA page_size=512")
        con.execute("CREATE TABLE first (x)")
        con.execute("DROP TABLE first")
    return path


@pytest.fixture
def client(small_pages: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    from tapete.server import state

    monkeypatch.setattr(state, "PROBE_SECONDS", 0.0)  # (a probe at every /salud: no waiting)
    with TestClient(create_app(default_url(small_pages)), raise_server_exceptions=False) as c:
        c.get("/")
        yield c


@pytest.fixture
def disk(client: TestClient, small_pages: Path) -> Disk:
    return Disk(client, small_pages)


def health(client: TestClient) -> int:
    return client.get("/salud").status_code


def test_an_http_write_on_a_full_disk_answers_the_error_contract(
    client: TestClient, disk: Disk
) -> None:
    assert client.post("/api/guerra/nueva", json={"config": {}}).status_code == 201
    assert health(client) == 200
    disk.fill()  # (the games' page holds one game: the next needs a page of its own)
    r = client.post("/api/guerra/nueva", json={"config": {}})
    assert r.status_code == 503, r.text
    assert r.headers["content-type"].startswith("application/json")
    assert int(r.headers["retry-after"]) > 0
    assert r.json() == {"error": "unavailable", "message": UNAVAILABLE_ES}
    english = client.post("/api/rummy/nueva?lang=en", json={})
    assert english.status_code == 503 and english.json()["message"] == UNAVAILABLE_EN
    page = client.post("/guerra/nueva", data={}, headers={"accept": "text/html"})
    assert page.status_code == 503 and UNAVAILABLE_ES in page.text  # (a browser's form: a page)
    assert health(client) == 503  # writes fail: the balancer takes this process out
    assert client.get("/salud").json() == {"ok": False}
    disk.free()
    assert health(client) == 200
    assert client.post("/api/guerra/nueva", json={"config": {}}).status_code == 201


def test_a_move_that_cannot_be_written_is_refused_and_shown_to_nobody(
    client: TestClient, disk: Disk, h: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """El Peaje alone: every move is the player's, the next ones in the view's ``legal``."""
    r = client.post("/api/peaje/nueva", json={"config": {}})
    assert r.status_code == 201
    game = r.json()["id"]
    room = h.room(client, game)
    disk.fill()
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "game": game})
        joined = ws.receive_json()
        version, legal = joined["version"], joined["view"]["legal"]
        refused: dict[str, Any] | None = None
        for _ in range(200):  # (moves fill what their pages have left: one needs a new page)
            assert legal, "the game ended before a move met the full disk"
            ws.send_json({"type": "move", "version": version, "move": legal[0]})
            reply = ws.receive_json()
            if reply["type"] == "error":
                refused = reply
                break
            assert reply["type"] == "update" and reply["version"] == version + 1
            version, legal = reply["version"], reply["view"]["legal"]
        assert refused is not None, "no move ever met the full disk"
        assert refused["code"] == "unavailable" and refused["message"] == UNAVAILABLE_ES
        assert room.version == version  # nothing applied, nothing shown
        assert health(client) == 503
        ws.send_json({"type": "sync"})
        synced = ws.receive_json()  # (the next frame: no update was sent meanwhile)
        assert synced["type"] == "sync" and synced["version"] == version
        disk.free()
        assert health(client) == 200
        ws.send_json({"type": "move", "version": version, "move": legal[0]})
        played = ws.receive_json()
        assert played["type"] == "update" and played["version"] == version + 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # (no bug: no ERROR)
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert [m for m in said if m.startswith("the database cannot write")]


class DriverError(Exception):
    """An error as a driver raises it, with its code."""

    def __init__(self, **codes: Any) -> None:
        super().__init__("driver")
        self.__dict__.update(codes)


@pytest.mark.parametrize(
    ("raised", "full"),
    [
        (DriverError(sqlite_errorcode=13), True),  # SQLITE_FULL
        (DriverError(sqlite_errorcode=10 | (4 << 8)), True),  # SQLITE_IOERR_WRITE
        (DriverError(sqlite_errorcode=8), True),  # SQLITE_READONLY
        (DriverError(sqlite_errorcode=5), False),  # SQLITE_BUSY: wait, it is no full disk
        (DriverError(sqlstate="53100"), True),  # PostgreSQL's disk_full
        (DriverError(sqlstate="23505"), False),  # a unique key: a statement's own fault
        (ValueError("no database at all"), False),
    ],
)
def test_which_errors_say_the_database_cannot_write(raised: Exception, full: bool) -> None:
    from sqlalchemy.exc import OperationalError

    from tapete.store.health import cannot_write

    assert cannot_write(raised) is full
    assert cannot_write(OperationalError("INSERT …", {}, raised)) is full  # (as SQLAlchemy's)
