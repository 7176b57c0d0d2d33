"""The repository the rooms use: games, their move logs, guests, settings.

Every write is one transaction; :meth:`Store.append_move` commits a move (and the
game's new version and status) before the room tells anyone about it. Moves go through the
group commit (:mod:`tapete.store.writer`), every other write through
:class:`~tapete.store.transactions.Transactions` (on SQLite: in one go on the loop).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import (
    create_engine,
    delete,
    event,
    func,
    insert,
    make_url,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.orm import Session
from sqlalchemy.pool import NullPool

from tapete.store.accounts import Accounts
from tapete.store.daily import AlreadyPlayed, Daily, add_attempt
from tapete.store.logros import Logros
from tapete.store.models import AnalysisRow, GameRow, Guest, MoveRow, RoomRow, RoomSeatRow, Setting
from tapete.store.players import Players, Rated
from tapete.store.transactions import Transactions
from tapete.store.writer import MoveWriter, StaleWrite

MIGRATIONS = Path(__file__).parent / "migrations"


def default_url(path: str | Path) -> str:
    return f"sqlite+aiosqlite:///{Path(path).resolve()}"


def sync_url(url: str) -> str:
    """The synchronous driver's URL for the same database (for migrations)."""
    return url.replace("sqlite+aiosqlite://", "sqlite://").replace(
        "postgresql+asyncpg://", "postgresql+psycopg://"
    )


def async_url(url: str) -> str:
    if url.startswith("sqlite://"):
        return url.replace("sqlite://", "sqlite+aiosqlite://", 1)
    if url.startswith("postgresql://"):
        return url.replace("postgresql://", "postgresql+psycopg://", 1)
    return url


def sqlite_path(url: str) -> Path | None:
    """The file of an SQLite URL (None for another database, or one in memory)."""
    made = make_url(url)
    if made.get_backend_name() != "sqlite" or made.database in (None, "", ":memory:"):
        return None
    return Path(made.database)


def private_file(url: str) -> None:
    """An SQLite database holds the key that signs guest cookies: its file (and its
    journal's) is its owner's only, mode 0600, made so before anything is written."""
    path = sqlite_path(url)
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if file.exists():
            file.chmod(0o600)


def migrate(url: str) -> None:
    """Bring the database to the newest schema (runs on every start)."""
    private_file(url)
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", sync_url(url))
    if not url.startswith("postgresql"):
        command.upgrade(cfg, "head")
        return
    # several processes starting together: one migrates, the others wait for it
    engine = create_engine(sync_url(url), poolclass=NullPool)
    try:
        with engine.connect() as con:
            con.execute(text("select pg_advisory_lock(:k)"), {"k": MIGRATION_LOCK})
            try:
                command.upgrade(cfg, "head")
            finally:
                con.execute(text("select pg_advisory_unlock(:k)"), {"k": MIGRATION_LOCK})
    finally:
        engine.dispose()


SQLITE_WRITERS = ("loop", "thread")
"""Where the moves are written on SQLite: on the event loop, or on a thread of their own."""

MIGRATION_LOCK = 0x7A7E7E
"""The PostgreSQL advisory lock held while migrating."""


def utcnow() -> datetime:
    """Now, in UTC (what every time column holds: SQLite keeps no zone)."""
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: str
    kind: str
    config: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    owner: str
    status: str
    version: int
    outcome: dict[str, Any] | None
    position: dict[str, Any] | None = None
    room_id: str | None = None
    rated: bool = False
    """Its result moves the players' ratings (written with its last move)."""

    @classmethod
    def of(cls, row: GameRow) -> GameRecord:
        return cls(
            id=row.id,
            kind=row.kind,
            config=dict(row.config),
            seed=row.seed,
            seats=list(row.seats),
            owner=row.owner,
            status=row.status,
            version=row.version,
            outcome=row.outcome,
            position=row.position,
            room_id=row.room_id,
            rated=row.rated,
        )


@dataclass(slots=True)
class RoomRecord:
    """A private room as stored: its code, game and options, host, status, version, its
    current game and its seats (``{"kind": "empty" | "human" | "bot", "guest", "name",
    "level"}``, in seat order), and the guests the host removed (``{"guest", "name"}``),
    who may not sit again until the host lets them."""

    id: str
    code: str
    kind: str
    options: dict[str, Any]
    host: str
    status: str
    version: int
    game_id: str | None
    games: int
    seats: list[dict[str, Any]] = field(default_factory=list)
    touched_at: datetime | None = None
    removed: list[dict[str, Any]] = field(default_factory=list)
    quick: bool = False
    """Strangers matched by «Jugar ahora»: joined by no code, seats named by public names
    (``"public"``)."""

    @classmethod
    def of(cls, row: RoomRow, seats: list[RoomSeatRow]) -> RoomRecord:
        return cls(
            id=row.id,
            code=row.code,
            kind=row.kind,
            options=dict(row.options),
            host=row.host,
            status=row.status,
            version=row.version,
            game_id=row.game_id,
            games=row.games,
            seats=[
                {"kind": x.kind, "guest": x.guest, "name": x.name, "level": x.level}
                | ({"public": x.public} if x.public is not None else {})
                for x in sorted(seats, key=lambda x: x.n)
            ],
            touched_at=row.touched_at,
            removed=[dict(x) for x in row.removed or []],
            quick=row.quick,
        )


@dataclass(frozen=True, slots=True)
class LoggedMove:
    n: int
    seat: int
    move: dict[str, Any]


class Store:
    def __init__(
        self,
        url: str,
        observe: Callable[[int], None] | None = None,
        sqlite_writer: str | None = None,
    ) -> None:
        """``observe`` is told the size of every batch of moves committed (metrics).
        ``sqlite_writer`` (``TAPETE_SQLITE_WRITER``, ``tapete serve --sqlite-writer``): on
        SQLite, ``loop`` (the default) writes the moves on the event loop, ``thread`` on a
        thread of their own, with SQLite's stock locking and checkpoints."""
        writer = sqlite_writer or os.environ.get("TAPETE_SQLITE_WRITER") or "loop"
        if writer not in SQLITE_WRITERS:
            raise ValueError(f"sqlite writer: {writer!r} is not one of {SQLITE_WRITERS}")
        on_loop = writer == "loop"
        self.url = async_url(url)
        self.engine: AsyncEngine = create_async_engine(self.url)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        # (on the loop, two connections that never work at once: the one the writer keeps
        # for its batches, and one for every other write, Store.tx)
        writing = create_engine(sync_url(self.url), pool_size=2 if on_loop else 1, max_overflow=0)
        if writing.dialect.name == "sqlite":
            event.listen(writing, "connect", _sqlite_writer if on_loop else _sqlite_thread)
            event.listen(writing, "begin", _begin_immediate)
        self.writer = MoveWriter(writing, utcnow, observe, on_loop)
        self.tx = Transactions(self.sessions, writing if self.writer.on_loop else None)
        """Every write but the moves' (:mod:`tapete.store.transactions`)."""
        self.tx.started = self.writer.checkpointing
        self.tx.hold = self.writer.hold
        self.accounts = Accounts(self.sessions, self.tx)
        """Profiles, e-mail addresses and codes, coins (:mod:`tapete.store.accounts`)."""
        self.players = Players(self.sessions, self.tx)
        """Ratings, leaderboards, public names, blocks, reports, bans, leavings
        (:mod:`tapete.store.players`)."""
        self.daily = Daily(self.sessions, self.tx)
        """The deals of the day: attempts and results (:mod:`tapete.store.daily`)."""
        self.logros = Logros(self.sessions, self.tx)
        """Logros: progress and the games counted (:mod:`tapete.store.logros`)."""

    async def close(self) -> None:
        await self.writer.close()
        await self.engine.dispose()

    async def ping(self) -> None:
        """The database answers (``/salud``)."""
        async with self.engine.connect() as conn:
            await conn.execute(select(1))

    # settings and guests

    async def secret(self) -> str:
        """The key that signs guest cookies, made once and kept in the database (processes
        starting together agree on one: the first insert wins)."""
        insert = postgresql_insert if self.engine.dialect.name == "postgresql" else sqlite_insert

        def write(s: Session) -> str:
            made = insert(Setting).values(key="secret", value=secrets.token_urlsafe(32))
            s.execute(made.on_conflict_do_nothing())
            row = s.get(Setting, "secret")
            assert row is not None
            return row.value

        return await self.tx.run(write)

    def _insert_guest(self) -> Any:
        """``INSERT INTO guests`` in the database's own dialect (for ``ON CONFLICT``)."""
        if self.engine.dialect.name == "postgresql":
            return postgresql_insert(Guest)
        return sqlite_insert(Guest)

    async def ensure_guest(self, guest_id: str) -> None:
        """The guest exists: one statement, so requests racing on a first visit all pass."""
        await self.tx.run(lambda s: self._ensure_guests(s, [guest_id]))

    def _ensure_guests(self, s: Session, guests: list[str]) -> None:
        for guest_id in guests:
            s.execute(self._insert_guest().values(id=guest_id).on_conflict_do_nothing())

    # games

    async def create_game(
        self,
        kind: str,
        config: dict[str, Any],
        seed: int,
        seats: list[dict[str, Any]],
        owner: str,
        position: dict[str, Any] | None = None,
        room_id: str | None = None,
        rated: bool = False,
        daily: date | None = None,
    ) -> GameRecord:
        """A new game. With ``daily``, it is ``owner``'s attempt at that day's deal of its
        game, made in the same transaction: :class:`AlreadyPlayed` (nothing made) when they
        have one."""

        def write(s: Session) -> GameRecord:
            self._ensure_guests(s, [owner])
            for _ in range(10):
                game_id = secrets.token_urlsafe(9)[:12]
                if s.get(GameRow, game_id) is None:
                    break
            row = GameRow(
                id=game_id,
                kind=kind,
                config=config,
                seed=seed,
                seats=seats,
                owner=owner,
                status="active",
                version=0,
                outcome=None,
                position=position,
                room_id=room_id,
                rated=rated,
                updated_at=utcnow(),
            )
            s.add(row)
            s.flush()
            if daily is not None:
                add_attempt(s, daily, kind, owner, game_id)
                s.flush()
            return GameRecord.of(row)

        try:
            return await self.tx.run(write)
        except IntegrityError:  # (only an attempt's key can be taken: the id is drawn free)
            made = await self.daily.attempt(daily, kind, owner) if daily is not None else None
            if made is None:
                raise
            raise AlreadyPlayed(made) from None

    async def game(self, game_id: str) -> GameRecord | None:
        async with self.sessions() as s:
            row = await s.get(GameRow, game_id)
            return GameRecord.of(row) if row is not None else None

    async def moves(self, game_id: str) -> list[LoggedMove]:
        async with self.sessions() as s:
            rows = await s.scalars(
                select(MoveRow).where(MoveRow.game_id == game_id).order_by(MoveRow.n)
            )
            return [LoggedMove(n=r.n, seat=r.seat, move=dict(r.move)) for r in rows]

    async def analysis(self, game_id: str, seat: int) -> dict[str, Any] | None:
        """The coach's analysis of a finished game from ``seat``, once made."""
        async with self.sessions() as s:
            row = await s.get(AnalysisRow, (game_id, seat))
            return dict(row.result) if row is not None else None

    async def save_analysis(self, game_id: str, seat: int, result: dict[str, Any]) -> None:
        """Keep an analysis (made once: a second one for the same seat changes nothing)."""

        def write(s: Session) -> None:
            if s.get(AnalysisRow, (game_id, seat)) is None:
                s.add(AnalysisRow(game_id=game_id, seat=seat, result=result, made_at=utcnow()))

        await self.tx.run(write)

    async def logs(self, game_ids: list[str]) -> dict[str, list[LoggedMove]]:
        """The move logs of several games at once (a restart's), each in order."""
        out: dict[str, list[LoggedMove]] = {g: [] for g in game_ids}
        async with self.sessions() as s:
            for start in range(0, len(game_ids), 500):
                chunk = game_ids[start : start + 500]
                rows = await s.execute(
                    select(MoveRow.game_id, MoveRow.n, MoveRow.seat, MoveRow.move)
                    .where(MoveRow.game_id.in_(chunk))
                    .order_by(MoveRow.game_id, MoveRow.n)
                )
                for game_id, n, seat, move in rows:
                    out[game_id].append(LoggedMove(n=n, seat=seat, move=dict(move)))
        return out

    async def rooms_by_id(self, room_ids: list[str]) -> dict[str, RoomRecord]:
        """Several rooms at once, by id."""
        out: dict[str, RoomRecord] = {}
        async with self.sessions() as s:
            for start in range(0, len(room_ids), 500):
                chunk = room_ids[start : start + 500]
                rows = list(await s.scalars(select(RoomRow).where(RoomRow.id.in_(chunk))))
                seats = list(
                    await s.scalars(select(RoomSeatRow).where(RoomSeatRow.room_id.in_(chunk)))
                )
                for row in rows:
                    out[row.id] = RoomRecord.of(row, [x for x in seats if x.room_id == row.id])
        return out

    async def append_move(
        self,
        game_id: str,
        n: int,
        seat: int,
        move: dict[str, Any],
        outcome: dict[str, Any] | None,
        rated: Rated | None = None,
    ) -> None:
        """Commit move ``n`` (the version it makes) and the game's new version, in the
        writer's next batch (:mod:`~tapete.store.writer`: group commit); the last move of a
        rated game with its ratings (``rated``), in the same transaction.

        Raises :class:`StaleWrite` if the game is not at version ``n - 1``.
        """
        await self.writer.append(game_id, n, seat, move, outcome, rated)

    async def unfinished(self, live_since: datetime | None = None) -> list[GameRecord]:
        """The games not over yet; with ``live_since``, only the live ones: every game of a
        private room, and the practice games moved (or made) since then."""
        async with self.sessions() as s:
            q = select(GameRow).where(GameRow.status == "active")
            if live_since is not None:
                q = q.where(or_(GameRow.room_id.is_not(None), GameRow.updated_at >= live_since))
            rows = await s.scalars(q)
            return [GameRecord.of(r) for r in rows]

    async def playing(self, since: datetime) -> dict[str, int]:
        """By game, the games being played now: not over, and moved (or made) since
        ``since`` (the hall's «Mesas abiertas»: every process's, from the shared store)."""
        async with self.sessions() as s:
            rows = await s.execute(
                select(GameRow.kind, func.count())
                .where(GameRow.status == "active", GameRow.updated_at >= since)
                .group_by(GameRow.kind)
            )
            return {str(kind): int(n) for kind, n in rows}

    async def games_of(
        self, guest_id: str, kind: str | None = None, active: bool = True
    ) -> list[GameRecord]:
        """The guest's games, newest first."""
        async with self.sessions() as s:
            q = select(GameRow).where(GameRow.owner == guest_id)
            if kind is not None:
                q = q.where(GameRow.kind == kind)
            if active:
                q = q.where(GameRow.status == "active")
            rows = await s.scalars(q.order_by(GameRow.created_at.desc(), GameRow.id))
            return [GameRecord.of(r) for r in rows]

    # guests' names

    async def guest_name(self, guest_id: str) -> str | None:
        async with self.sessions() as s:
            row = await s.get(Guest, guest_id)
            return row.name if row is not None else None

    async def set_guest_name(self, guest_id: str, name: str) -> None:
        insert = self._insert_guest().values(id=guest_id, name=name)
        upsert = insert.on_conflict_do_update(index_elements=["id"], set_={"name": name})
        await self.tx.run(lambda s: s.execute(upsert))

    # private rooms

    async def create_room(
        self,
        kind: str,
        options: dict[str, Any],
        host: str,
        seats: list[dict[str, Any]],
        quick: bool = False,
    ) -> RoomRecord:
        """A new room with a random six-digit code no open room has (never sequential, not
        derived from any id); ``quick``: a table of strangers («Jugar ahora»)."""
        guests = sorted({host} | {s["guest"] for s in seats if isinstance(s.get("guest"), str)})
        await self.tx.run(lambda s: self._ensure_guests(s, guests))

        def write(s: Session, code: str) -> RoomRecord:
            row = RoomRow(
                id=secrets.token_urlsafe(9)[:12],
                code=code,
                kind=kind,
                options=options,
                host=host,
                status="lobby",
                version=0,
                game_id=None,
                games=0,
                quick=quick,
            )
            s.add(row)
            s.flush()
            rows = [_seat_row(row.id, n, seat) for n, seat in enumerate(seats)]
            s.add_all(rows)
            s.flush()
            return RoomRecord.of(row, rows)

        for _ in range(50):
            code = f"{secrets.randbelow(10**6):06d}"
            try:
                return await self.tx.run(lambda s: write(s, code))  # noqa: B023 (run at once)
            except IntegrityError:
                continue  # that code is taken by an open room: draw another
        raise RuntimeError("no free room code")

    async def room(self, code: str) -> RoomRecord | None:
        """The open (not closed) room with ``code``."""
        async with self.sessions() as s:
            row = await s.scalar(
                select(RoomRow).where(RoomRow.code == code, RoomRow.status != "closed")
            )
            return await self._room_of(s, row)

    async def room_results(self, room_id: str) -> list[tuple[list[Any], dict[str, Any]]]:
        """The finished games of a room, in order: each one's seats and outcome."""
        async with self.sessions() as s:
            rows = await s.execute(
                select(GameRow.seats, GameRow.outcome)
                .where(GameRow.room_id == room_id, GameRow.status == "finished")
                .order_by(GameRow.created_at, GameRow.id)
            )
            return [(list(seats), dict(outcome)) for seats, outcome in rows if outcome]

    async def room_by_id(self, room_id: str) -> RoomRecord | None:
        async with self.sessions() as s:
            return await self._room_of(s, await s.get(RoomRow, room_id))

    async def open_rooms(self) -> list[RoomRecord]:
        async with self.sessions() as s:
            rows = await s.scalars(select(RoomRow).where(RoomRow.status != "closed"))
            out = []
            for row in rows:
                record = await self._room_of(s, row)
                assert record is not None
                out.append(record)
            return out

    async def save_room(self, room: RoomRecord, expected: int) -> None:
        """Store ``room`` (at its new version) if the stored one is at ``expected``; its seats
        are replaced in the same transaction. Raises :class:`StaleWrite` otherwise."""

        def write(s: Session) -> None:
            result = s.execute(
                update(RoomRow)
                .where(RoomRow.id == room.id, RoomRow.version == expected)
                .values(
                    options=room.options,
                    host=room.host,
                    status=room.status,
                    version=room.version,
                    game_id=room.game_id,
                    games=room.games,
                    removed=room.removed,
                    touched_at=datetime.now().astimezone(),
                )
            )
            if result.rowcount != 1:  # type: ignore[attr-defined]
                raise StaleWrite(f"room {room.id} is not at version {expected}")
            s.execute(delete(RoomSeatRow).where(RoomSeatRow.room_id == room.id))
            if room.seats:  # (one statement, not the ORM's unit of work: every lobby change)
                s.execute(
                    insert(RoomSeatRow),
                    [_seat_values(room.id, n, seat) for n, seat in enumerate(room.seats)],
                )

        await self.tx.run(write)

    async def close_idle_rooms(self, before: datetime) -> list[str]:
        """Close the rooms untouched since ``before`` (their codes are free again); returns
        their ids."""

        def write(s: Session) -> list[str]:
            ids = list(
                s.scalars(
                    select(RoomRow.id).where(
                        RoomRow.status != "closed", RoomRow.touched_at < before
                    )
                )
            )
            if ids:
                s.execute(update(RoomRow).where(RoomRow.id.in_(ids)).values(status="closed"))
            return ids

        return await self.tx.run(write)

    async def _room_of(self, s: Any, row: RoomRow | None) -> RoomRecord | None:
        if row is None:
            return None
        seats = list(await s.scalars(select(RoomSeatRow).where(RoomSeatRow.room_id == row.id)))
        return RoomRecord.of(row, seats)


def _seat_row(room_id: str, n: int, seat: dict[str, Any]) -> RoomSeatRow:
    return RoomSeatRow(**_seat_values(room_id, n, seat))


def _seat_values(room_id: str, n: int, seat: dict[str, Any]) -> dict[str, Any]:
    return {
        "room_id": room_id,
        "n": n,
        "kind": seat.get("kind", "empty"),
        "guest": seat.get("guest"),
        "name": seat.get("name"),
        "level": seat.get("level"),
        "public": seat.get("public"),
    }


def _sqlite_writer(dbapi_connection: Any, record: Any) -> None:
    """The move writer's connection, used on the event loop: its transactions are begun by
    SQLAlchemy, not guessed by Python's sqlite3 from a statement's first word (which takes
    ``WITH … UPDATE`` for a read and runs it outside any transaction); it never waits for the
    write lock (the writer tries again a millisecond later) and never checkpoints (its
    checkpointer's thread does)."""
    _sqlite_pragmas(dbapi_connection, record)
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA busy_timeout=0")
    cur.execute("PRAGMA wal_autocheckpoint=0")
    cur.close()
    dbapi_connection.isolation_level = None


def _sqlite_thread(dbapi_connection: Any, record: Any) -> None:
    """The move writer's connection on a thread of its own (``--sqlite-writer thread``):
    SQLite's stock waiting for the write lock and checkpoints; its transactions begun by
    SQLAlchemy, as on the loop."""
    _sqlite_pragmas(dbapi_connection, record)
    dbapi_connection.isolation_level = None


def _begin_immediate(conn: Any) -> None:
    """Take the write lock when the transaction begins (the writer only writes)."""
    conn.exec_driver_sql("BEGIN IMMEDIATE")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


__all__ = [
    "GameRecord",
    "LoggedMove",
    "RoomRecord",
    "StaleWrite",
    "Store",
    "default_url",
    "migrate",
]
