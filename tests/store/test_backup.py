"""Backups of a live SQLite hall (``tapete backup FILE``) and a hall brought back from one
(``tapete restore FILE``): a copy made while games are being written holds every game as it
stood at one moment, and once restored every finished game replays from its log to the
result stored with it; a file that is not a copy is refused and changes nothing; PostgreSQL
is sent to its own tools."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from tapete.cli import main
from tapete.registry import REGISTRY
from tapete.store import Store, default_url
from tapete.store.backup import NotAHall, NotSQLite, backup, check, restore
from tapete.store.repo import sqlite_path

GUEST = "b" * 24
CAP = 3000
"""Moves of one random game at most (every game here ends well before)."""


async def play_one(store: Store, kind: str, seed: int, pause: bool = False) -> str:
    """A game of ``kind`` played by random legal moves to its end, each move written as the
    hall writes it (the last with its result); its id."""
    spec = REGISTRY[kind].game
    rules = spec.rules
    config = spec.parse_config({})
    state = rules.new(config, seed)
    seats = [{"kind": "human", "guest": GUEST} for _ in range(rules.seats(config))]
    record = await store.create_game(kind, spec.config_json(config), seed, seats, GUEST)
    pick = random.Random(seed)
    for n in range(1, CAP):
        seat = pick.choice(rules.actors(state))
        move = pick.choice(rules.legal_moves(state, seat))
        rules.apply(state, seat, move)
        outcome = rules.outcome(state)
        await store.append_move(record.id, n, seat, spec.move_json(move), outcome)
        if pause:
            await asyncio.sleep(0)  # (the backup's thread gets its turn between moves)
        if outcome is not None:
            return record.id
    raise AssertionError(f"{kind} {seed}: no end in {CAP} moves")


async def replays_to_its_result(store: Store, game_id: str) -> bool:
    """Whether the game's log, replayed by its rules, ends where its stored result says."""
    record = await store.game(game_id)
    assert record is not None and record.outcome is not None
    spec = REGISTRY[record.kind].game
    state = spec.rules.new(spec.parse_config(record.config), record.seed)
    for logged in await store.moves(game_id):
        spec.rules.apply(state, logged.seat, spec.parse_move(logged.move))
    return spec.rules.outcome(state) == record.outcome


async def finished(store: Store, ids: list[str]) -> list[str]:
    found = [await store.game(i) for i in ids]
    return [g.id for g in found if g is not None and g.outcome is not None]


async def test_a_copy_made_under_writes_restores_every_finished_game(
    tmp_path: Path, sqlite_url: str
) -> None:
    url = sqlite_url
    store = Store(url)
    try:
        before = [await play_one(store, kind, 1) for kind in REGISTRY]
        copy = tmp_path / "copia.db"
        # the copy is made on a thread while more games are played and written
        writing = asyncio.ensure_future(
            asyncio.gather(*(play_one(store, k, 7, pause=True) for k in REGISTRY))
        )
        copied = await asyncio.to_thread(backup, url, copy)
        during = await writing
        assert copied >= len(before)
        assert copy.stat().st_mode & 0o777 == 0o600  # (it holds the cookies' key)
        assert not copy.with_name("copia.db.part").exists()
    finally:
        await store.close()

    # brought back in place of another hall (stopped): what the copy held, and no more
    other = default_url(tmp_path / "other" / "hall.db")
    assert restore(copy, other) == copied
    back = Store(other)
    try:
        games = await finished(back, before + during)
        assert set(before) <= set(games)  # every game finished before the copy began
        for game_id in games:  # and any finished during it: whole, or not there at all
            assert await replays_to_its_result(back, game_id), game_id
        for game_id in set(during) - set(games):
            record = await back.game(game_id)
            if record is not None:  # caught mid-game: its log up to a version, no more
                assert [m.n for m in await back.moves(game_id)] == list(
                    range(1, record.version + 1)
                )
    finally:
        await back.close()


def test_what_is_not_a_copy_is_refused_and_changes_nothing(tmp_path: Path, sqlite_url: str) -> None:
    url = sqlite_url
    path = sqlite_path(url)
    assert path is not None
    hall = path.read_bytes()
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    for wrong in (junk, tmp_path / "missing.db"):
        with pytest.raises(NotAHall):
            restore(wrong, url)
    assert path.read_bytes() == hall
    with pytest.raises(NotAHall):
        backup(default_url(tmp_path / "nobody.db"), tmp_path / "copy.db")
    assert not (tmp_path / "copy.db").exists()
    with pytest.raises(NotSQLite):
        backup("postgresql+asyncpg://tapete@localhost/tapete", tmp_path / "copy.db")


def test_the_commands(tmp_path: Path, sqlite_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    hall, copy = sqlite_path(sqlite_url), tmp_path / "copia.db"
    assert hall is not None
    assert main(["backup", str(copy), "--db", str(hall)]) == 0
    assert "copia hecha" in capsys.readouterr().out and check(copy) == 0
    assert main(["restore", str(copy), "--db", str(tmp_path / "new.db")]) == 0
    assert "sala recuperada" in capsys.readouterr().out
    assert main(["restore", str(tmp_path / "nothing.db"), "--db", str(hall)]) == 1
    postgres: Any = "postgresql+asyncpg://tapete@localhost/tapete"
    assert main(["backup", str(copy), "--db", postgres]) == 2
    assert "pg_dump" in capsys.readouterr().err
