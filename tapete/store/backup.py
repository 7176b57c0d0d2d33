"""A copy of a live SQLite hall, and a hall brought back from one (``tapete backup FILE``,
``tapete restore FILE``).

The copy is SQLite's online backup API in one step: one read transaction, so the copy is the
database as it stood at one moment (every game with all its moves up to that moment, none
half-written), while the hall goes on writing — in WAL mode a reader holds no writer back.
It is written beside its name and moved into place once whole, mode 0600 (it holds the key
that signs guest cookies). A restore checks the copy (SQLite's integrity check, a Tapete
schema), then puts it in place of the hall's file, for a hall that is stopped; the next
``tapete serve`` migrates it if it is older. PostgreSQL has its own tools (``pg_dump``,
``pg_restore``: the README says how)."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

from tapete.store.repo import private_file, sqlite_path


class NotSQLite(ValueError):
    """The hall's database is not an SQLite file (PostgreSQL: ``pg_dump``)."""


class NotAHall(ValueError):
    """The file is not a whole copy of a Tapete hall."""


def _private_part(target: Path) -> Path:
    """A new empty file beside ``target``, its owner's only, to write the copy in."""
    part = target.with_name(target.name + ".part")
    part.unlink(missing_ok=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    os.close(os.open(part, os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o600))
    return part


def _copy(source: Path, target: Path, journal: bool = False) -> None:
    """``source`` copied into ``target`` in one read transaction, as one file (no WAL); with
    ``journal``, the target's own WAL files go just before the copy takes its place (a
    stopped hall's: what they hold belongs to the file replaced)."""
    part = _private_part(target)
    try:
        with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(part)) as dst:
            src.backup(dst)  # (all pages in one step: a consistent moment)
            dst.execute("pragma journal_mode=delete")
        if journal:
            for name in (target.name + "-wal", target.name + "-shm"):
                target.with_name(name).unlink(missing_ok=True)
        os.replace(part, target)
    except BaseException:
        part.unlink(missing_ok=True)
        raise


def check(path: Path) -> int:
    """The number of games in the hall copied at ``path``; NotAHall if it is none."""
    if not path.is_file():
        raise NotAHall(f"{path}: no such file")
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            if db.execute("pragma integrity_check").fetchone() != ("ok",):
                raise NotAHall(f"{path}: damaged (SQLite's integrity check)")
            tables = {row[0] for row in db.execute("select name from sqlite_master")}
            if not {"alembic_version", "games", "moves"} <= tables:
                raise NotAHall(f"{path}: not a Tapete hall")
            return int(db.execute("select count(*) from games").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        raise NotAHall(f"{path}: {exc}") from None


def backup(url: str, target: Path) -> int:
    """Copy the live hall at ``url`` into ``target``; the number of games copied."""
    source = sqlite_path(url)
    if source is None:
        raise NotSQLite(url)
    if not source.is_file():
        raise NotAHall(f"{source}: no such file")
    _copy(source, target)
    return check(target)


def restore(source: Path, url: str) -> int:
    """Put the copy ``source`` in place of the (stopped) hall at ``url``; the number of
    games it brought back."""
    target = sqlite_path(url)
    if target is None:
        raise NotSQLite(url)
    games = check(source)
    private_file(url)
    _copy(source, target, journal=True)
    return games
