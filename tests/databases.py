"""Databases for tests: a SQLite file, and a throwaway PostgreSQL cluster (one for the
session; ``fresh_postgres`` empties it for a test).

PostgreSQL comes from Debian's binaries (`.ci/run` installs them); a missing server is a
failure, not a skip.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tapete.store import default_url


def _pg_bin() -> Path:
    """``PG_BIN``, or the newest Debian PostgreSQL installed (/usr/lib/postgresql/<n>/bin)."""
    if "PG_BIN" in os.environ:
        return Path(os.environ["PG_BIN"])
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name)
    )
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


PG_BIN = _pg_bin()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_postgres(*cmd: str) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.getuid() == 0 else list(cmd)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    initdb = PG_BIN / "initdb"
    assert initdb.exists(), f"PostgreSQL is not installed ({initdb}); apt-get install postgresql"
    root = Path(tempfile.mkdtemp(prefix="tapete-pg-"))
    if os.getuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    data, port = root / "data", _free_port()
    subprocess.run(
        _as_postgres(
            str(initdb), "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"
        ),
        check=True,
        capture_output=True,
    )
    pg_ctl = str(PG_BIN / "pg_ctl")
    opts = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run(
        _as_postgres(pg_ctl, "-D", str(data), "-l", str(root / "log"), "-w", "-o", opts, "start"),
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_postgres(pg_ctl, "-D", str(data), "-m", "immediate", "stop"), capture_output=True
        )
        shutil.rmtree(root, ignore_errors=True)


def emptied(url: str) -> str:
    """``url``'s database with nothing in it (what an earlier test made is dropped)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.begin() as con:
        con.execute(text("drop schema public cascade; create schema public"))
    engine.dispose()
    return url


@pytest.fixture
def fresh_postgres(postgres_url: str) -> str:
    return emptied(postgres_url)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated once for the session (per worker): the template that
    :func:`sqlite_url` copies (a copy takes 0.2 ms, migrating a new file 60 ms)."""
    from tapete.store import migrate

    path = tmp_path_factory.mktemp("template") / "migrated.db"
    migrate(default_url(path))
    leftovers = [p.name for p in path.parent.iterdir() if p != path]
    assert not leftovers, f"migrating left {leftovers} beside the file: a copy would miss it"
    return path


def fresh_sqlite(template: Path, path: Path) -> str:
    """The URL of a new SQLite file at ``path``, migrated as ``template`` is."""
    shutil.copyfile(template, path)
    return default_url(path)


@pytest.fixture
def sqlite_url(tmp_path: Path, migrated_sqlite: Path) -> str:
    """A fresh SQLite database of this test's own, already migrated."""
    return fresh_sqlite(migrated_sqlite, tmp_path / "test.db")


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return default_url(tmp_path / "store.db")
    return emptied(request.getfixturevalue("postgres_url"))
