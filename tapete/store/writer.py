"""Group commit: one writer per database puts every move that arrived meanwhile into one
transaction.

A room hands its move to :meth:`MoveWriter.append` and waits. The writer takes every move
queued (up to :data:`MAX_BATCH`) and writes them in one transaction with a synchronous
connection: a fenced ``UPDATE`` of each game's version (a game not at the version the move
expects is not touched) and one ``INSERT`` of the moves, each one statement for the whole
batch (``WITH v AS (VALUES …) UPDATE … FROM v RETURNING``, its SQL made once a size and
bound by the driver), then one commit. Only then is each room told whether its move is
durable. There is no timer: a lone move waits for nobody, and under load a batch grows by
itself.

Where the batch is written depends on the database:

- **PostgreSQL**: on the writer's own thread. Each statement is a round trip over the
  network, which must not stop the event loop; while one batch commits the next fills, and
  the thread goes straight on to it without waiting for the loop.
- **SQLite**: on the event loop itself, once per turn of the loop, after the rooms that
  moved in that turn have queued their moves. A commit in WAL mode with
  ``synchronous=NORMAL`` is a few writes to the log's file, no round trip and no fsync
  (tens of microseconds), while on a thread each of the driver's calls lets go of the GIL
  and must take it back from the busy loop: with 5,000 players the wait for a batch to begin
  was the largest term of a move's p99 (bench/RESULTS.md, «The writer on the loop»). The
  loop's connection never waits for the database's write lock (``busy_timeout=0``): when
  another connection holds it (an account's or a room's transaction, between two of its
  awaits) the batch is rolled back untouched and tried again a millisecond later, so the
  loop never blocks on a lock that is waiting for the loop. The write-ahead log is written
  back into the database (checkpointed) by a thread of its own, never by a commit on the
  loop (``wal_autocheckpoint=0`` on the loop's connection): that is where the fsyncs are.

"Committed before anyone is told" holds either way: a room still awaits its own move's
commit before it shows the move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError

from tapete.aio import running_loop
from tapete.metrics import (
    BATCH_START_SECONDS,
    COMMIT_BATCH,
    COMMIT_BUSY,
    COMMIT_SECONDS,
    WRITER_WAIT_SECONDS,
)
from tapete.store.models import GameRow, MoveRow
from tapete.store.players import Rated, write_ratings

MAX_BATCH = 500
"""The most moves one transaction holds (a bound on its statement's size)."""

RETRY_SECONDS = 0.001
"""On SQLite, how long a batch put back for the write lock waits before it is tried again."""

JOIN_SECONDS = 0.01
"""How often :meth:`MoveWriter.close` looks whether a thread of its own has ended."""

RESTART_FRAMES = 4096
"""On SQLite, the size of the write-ahead log (pages) past which the checkpointer makes the
next writer start it over (a ``RESTART`` checkpoint)."""

CHECKPOINT_SECONDS = 1.0
"""On SQLite, how often the checkpointer's thread writes the log back into the database."""

_SQLITE_BUSY = (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED (the low byte of an extended code)


def _same(value: Any) -> Any:
    return value


class StaleWrite(RuntimeError):
    """The game's version in the database is not the one the room expected."""


@dataclass(slots=True)
class Pending:
    game_id: str
    n: int
    seat: int
    move: dict[str, Any]
    outcome: dict[str, Any] | None
    future: asyncio.Future[None] = field(repr=False)
    rated: Rated | None = None
    """The last move of a rated game: its ratings, written in the same transaction."""
    at: float = field(default_factory=time.perf_counter)


def busy(exc: BaseException) -> bool:
    """SQLite said another connection holds the write lock (nothing of ours was written):
    the driver's error, or SQLAlchemy's around it."""
    orig = exc.orig if isinstance(exc, OperationalError) else exc
    if not isinstance(orig, sqlite3.OperationalError):
        return False
    code = getattr(orig, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in _SQLITE_BUSY


class MoveWriter:
    """The one writer of moves for a database (``engine``: a synchronous one, used from the
    writer's thread only on PostgreSQL, from the event loop only on SQLite, whose connection
    must not wait for the write lock nor checkpoint: see ``_sqlite_writer`` in
    :mod:`tapete.store.repo`). ``observe`` is told each batch's size (tests). ``on_loop``
    False: on SQLite too, the writer's own thread, as SQLite stock (``tapete serve
    --sqlite-writer thread``: its connection waits for the lock and checkpoints itself)."""

    def __init__(
        self,
        engine: Engine,
        now: Callable[[], datetime],
        observe: Callable[[int], None] | None = None,
        on_loop: bool = True,
    ) -> None:
        self.engine = engine
        self.now = now
        self.observe = observe
        self.on_loop = on_loop and engine.dialect.name == "sqlite"
        """Batches are written on the event loop (SQLite, unless asked not to), not on a
        thread (PostgreSQL)."""
        self._queued: list[Pending] = []
        """On the loop: the moves waiting for the next batch, in order."""
        self._flush: asyncio.Handle | None = None
        self._checkpointer: Checkpointer | None = None
        self.hold = threading.Event()
        """Set by the checkpointer while it lets the log start over: the loop's connection
        does not try for the write lock meanwhile (it would win it every time, between two
        of the checkpoint's tries)."""
        self._inbox: queue.SimpleQueue[Pending | None] = queue.SimpleQueue()
        """Moves handed over by the rooms, in order (None: stop once what came before is
        written)."""
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()
        self._statements_made: dict[tuple[str, int], str] = {}
        self.failures: list[Callable[[BaseException], None]] = []
        """Told the driver's error of every batch that failed on the driver's connection
        (those through SQLAlchemy's engine raise its ``handle_error`` event instead)."""
        self._direct: Any = None
        """On the loop (SQLite): the driver's connection the batches are written on (checked
        out of the engine's pool at the first batch, back in it at :meth:`close`)."""
        dialect = engine.dialect
        self._when: Callable[[Any], Any] = (
            GameRow.__table__.c.updated_at.type.bind_processor(dialect) or _same
        )
        """A time as the database's driver takes it (SQLAlchemy's own conversion)."""
        self._json: Callable[[Any], Any] = (
            MoveRow.__table__.c.move.type.bind_processor(dialect) or json.dumps
        )
        """A move as the driver takes it: SQLite's JSON text from SQLAlchemy's own conversion;
        PostgreSQL's (whose dialect leaves it to psycopg) the same text, cast in the SQL."""

    @property
    def where(self) -> str:
        """Where batches are written: "loop" (SQLite, on the event loop) or "thread"."""
        return "loop" if self.on_loop else "thread"

    async def append(
        self,
        game_id: str,
        n: int,
        seat: int,
        move: dict[str, Any],
        outcome: dict[str, Any] | None,
        rated: Rated | None = None,
    ) -> None:
        """Commit move ``n`` of ``game_id`` with the next batch; raises :class:`StaleWrite`
        if the game is not at version ``n - 1`` (nothing of this move is written), or the
        database's error if the batch could not be committed. The last move of a rated game
        (``outcome`` and ``rated``) writes the ratings in the same transaction."""
        loop = running_loop()
        future: asyncio.Future[None] = loop.create_future()
        pending = Pending(game_id, n, seat, move, outcome, future, rated=rated)
        if self.on_loop:
            self._queued.append(pending)
            if self._flush is None:  # (after the rest of this turn of the loop has queued)
                self._flush = loop.call_soon(self._write_queued)
        else:
            self._start()
            self._inbox.put(pending)
        await future

    def _write_queued(self) -> None:
        """On the loop (SQLite): write what is queued as one batch and tell its rooms; if
        another connection holds the write lock, put the batch back and try again soon."""
        self._flush = None
        if not self._queued:
            return
        self.checkpointing()
        if self.hold.is_set():  # (the checkpointer has the lock, or is about to)
            self._flush = running_loop().call_later(RETRY_SECONDS, self._write_queued)
            return
        batch = self._queued[:MAX_BATCH]
        del self._queued[:MAX_BATCH]
        loop = batch[0].future.get_loop()
        written, error = self._attempt(batch)
        if error is not None and busy(error):
            COMMIT_BUSY.inc()  # rolled back untouched: first in line again
            self._queued[:0] = batch
            self._flush = loop.call_later(RETRY_SECONDS, self._write_queued)
            return
        self._settle(batch, written, error)
        if self._queued and self._flush is None:
            self._flush = loop.call_soon(self._write_queued)

    def checkpointing(self) -> None:
        """On the loop (SQLite): the checkpointer runs (started before the loop's connection
        first writes: it never checkpoints itself)."""
        if self._checkpointer is None:
            self._checkpointer = Checkpointer.start(self.engine, self.hold)

    def _start(self) -> None:
        if self._thread is None:
            with self._starting:
                if self._thread is None:
                    self._thread = threading.Thread(
                        target=self._serve, name="move-writer", daemon=True
                    )
                    self._thread.start()

    async def close(self) -> None:
        """Finish what is queued, then stop (and let the threads go). The threads are
        waited for from the loop, not from a thread of the loop's pool: whoever awaits this
        may give up on it (a deadline) without leaving a thread behind that the process must
        wait for as it ends (both are daemon threads)."""
        while self._queued or self._flush is not None:
            await asyncio.sleep(RETRY_SECONDS)
        thread, self._thread = self._thread, None
        if thread is not None:
            self._inbox.put(None)
            while thread.is_alive():
                await asyncio.sleep(JOIN_SECONDS)
            await asyncio.sleep(0)  # (the last batch's rooms are told)
        direct, self._direct = self._direct, None
        if direct is not None:
            direct.close()  # (back to the pool: the engine's dispose closes it)
        checkpointer, self._checkpointer = self._checkpointer, None
        if checkpointer is not None:
            checkpointer.ask_to_stop()
            while checkpointer.alive:
                await asyncio.sleep(JOIN_SECONDS)
        self.engine.dispose()

    def _serve(self) -> None:
        """The writer's thread: take every move waiting (at least one), write them, tell
        their rooms, and go straight on to the next batch. The loop is only told: it does
        not hand each batch over (it is busy; a batch would wait for it)."""
        inbox = self._inbox
        while True:
            first = inbox.get()
            if first is None:
                return
            batch, stop = [first], False
            while len(batch) < MAX_BATCH:
                try:
                    more = inbox.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            written, error = self._attempt(batch)
            loop = first.future.get_loop()
            with contextlib.suppress(RuntimeError):  # (its loop closed meanwhile)
                loop.call_soon_threadsafe(self._settle, batch, written, error)
            if stop:
                return

    def _attempt(self, batch: list[Pending]) -> tuple[set[int], Exception | None]:
        """Write ``batch``: the indexes of the moves written, or the error that kept all of
        them out (nothing of the batch was committed)."""
        try:
            return self._write(batch), None
        except Exception as exc:
            return set(), exc

    def _settle(self, batch: list[Pending], written: set[int], error: Exception | None) -> None:
        """On the loop: tell each room of the batch whether its move is durable."""
        if error is None:
            COMMIT_BATCH.observe(len(batch))
            done_at = time.perf_counter()
            for p in batch:
                WRITER_WAIT_SECONDS.observe(done_at - p.at)
            if self.observe is not None:
                self.observe(len(batch))
        for i, p in enumerate(batch):
            if p.future.done():
                continue
            if error is not None:
                p.future.set_exception(error)
            elif i in written:
                p.future.set_result(None)
            else:
                p.future.set_exception(StaleWrite(f"game {p.game_id} is not at version {p.n - 1}"))

    def _sql(self, kind: str, size: int) -> str:
        """The statement ``kind`` ("fence", "insert"; "going", "ending": one game's version
        moved on, or its end) for ``size`` rows, made once a size in the database's own
        placeholders (the driver binds the values)."""
        sql = self._statements_made.get((kind, size))
        if sql is not None:
            return sql
        pg = self.engine.dialect.name == "postgresql"
        mark = "%s" if pg else "?"
        number = f"{mark}::integer" if pg else mark
        if kind == "fence":
            rows = ", ".join([f"({mark}, {number}, {number})"] * size)
            sql = (
                f"WITH v (gid, prev, n) AS (VALUES {rows}) "
                f"UPDATE games SET version = v.n, updated_at = {mark} FROM v "
                "WHERE games.id = v.gid AND games.version = v.prev RETURNING games.id"
            )
        elif kind in ("going", "ending"):
            doc = f"{mark}::json" if pg else mark
            end = f", status = 'finished', outcome = {doc}" if kind == "ending" else ""
            sql = (
                f"UPDATE games SET version = {mark}, updated_at = {mark}{end} "
                f"WHERE id = {mark} AND version = {mark}"
            )
        else:
            doc = f"{mark}::json" if pg else mark
            rows = ", ".join([f"({mark}, {mark}, {mark}, {doc})"] * size)
            sql = f"INSERT INTO moves (game_id, n, seat, move) VALUES {rows}"
        self._statements_made[kind, size] = sql
        return sql

    def _fence_all(
        self, execute: Callable[..., Any], batch: list[Pending], now: datetime
    ) -> tuple[set[int], set[int]]:
        """Move in one statement every game whose first move in the batch is not its last.
        Returns the moves tried, and those of them written."""
        first: dict[str, int] = {}
        for i, p in enumerate(batch):
            first.setdefault(p.game_id, i)
        going = [i for i in first.values() if batch[i].outcome is None]
        if not going:
            return set(), set()
        params: list[Any] = []
        for i in going:
            params += [batch[i].game_id, batch[i].n - 1, batch[i].n]
        params.append(self._when(now))
        done = {row[0] for row in execute(self._sql("fence", len(going)), tuple(params))}
        return set(going), {i for i in going if batch[i].game_id in done}

    def _write(self, batch: list[Pending]) -> set[int]:
        """Write ``batch`` in one transaction (on the writer's thread: it reads the pending
        moves, touches no future); returns the indexes of the moves written (a stale one is
        left out, the others go on). On the loop (SQLite) a batch with no rated game's end
        goes straight through the driver's connection: SQLAlchemy's engine, pool and events
        took ~100 µs of CPU a batch, more than SQLite's work, and at 5,000 players a batch
        is a move or two (bench/RESULTS.md, «A cheaper move»)."""
        t0 = time.perf_counter()
        for p in batch:
            BATCH_START_SECONDS.observe(t0 - p.at)
        now = self.now()
        if self.on_loop and all(p.rated is None for p in batch):
            written = self._write_direct(batch, now)
        else:
            with self.engine.begin() as conn:
                written = self._statements(conn.exec_driver_sql, batch, now, conn)
        COMMIT_SECONDS.observe(time.perf_counter() - t0)
        return written

    def _write_direct(self, batch: list[Pending], now: datetime) -> set[int]:
        """SQLite on the loop: the batch's transaction on the driver's own connection, kept
        checked out of the engine's pool for the writer's life (its connect events ran on
        it: no busy timeout, no checkpoint, transactions begun by us)."""
        if self._direct is None:
            self._direct = self.engine.raw_connection()
        raw: Any = self._direct.driver_connection
        try:
            raw.execute("BEGIN IMMEDIATE")
            written = self._statements(raw.execute, batch, now, None)
            raw.execute("COMMIT")
        except BaseException as exc:
            if raw.in_transaction:
                with contextlib.suppress(sqlite3.Error):  # (else the connection goes too)
                    raw.execute("ROLLBACK")
            if raw.in_transaction or not busy(exc):  # (a full disk, an I/O error: the next
                # batch on a new connection; SQLAlchemy's engine hears its own errors)
                self._direct, direct = None, self._direct
                direct.invalidate()
                for heard in self.failures:
                    heard(exc)
            raise
        return written

    def _statements(
        self, execute: Callable[..., Any], batch: list[Pending], now: datetime, conn: Any
    ) -> set[int]:
        """The batch's statements through ``execute(sql, parameters)`` (the driver's, or
        SQLAlchemy's ``exec_driver_sql``), inside a transaction the caller begins and ends;
        ``conn`` (SQLAlchemy's) writes a rated game's ratings."""
        tried, written = self._fence_all(execute, batch, now)
        games = {batch[i].game_id for i in written}
        when = self._when(now)
        for i, p in enumerate(batch):
            if i in tried:
                continue
            if p.game_id in games:  # a second move of a game in one batch: stale (a room
                continue  # waits for each of its moves: only a stale owner does this)
            if p.outcome is None:
                result = execute(self._sql("going", 1), (p.n, when, p.game_id, p.n - 1))
            else:
                params = (p.n, when, self._json(p.outcome), p.game_id, p.n - 1)
                result = execute(self._sql("ending", 1), params)
            if result.rowcount == 1:
                written.add(i)
                games.add(p.game_id)
                if p.outcome is not None and p.rated is not None:
                    write_ratings(conn, p.rated.game, p.game_id, p.rated.seats, now)
        values: list[Any] = []
        for i in sorted(written):
            p = batch[i]
            values += [p.game_id, p.n, p.seat, self._json(p.move)]
        if values:
            execute(self._sql("insert", len(written)), tuple(values))
        return written


class Checkpointer:
    """SQLite's write-ahead log written back into the database every
    :data:`CHECKPOINT_SECONDS`, on a thread and a connection of its own (a ``PASSIVE``
    checkpoint: it waits for no reader or writer, and no writer waits for it; past
    :data:`RESTART_FRAMES` of log, one that lets the log start over: :meth:`checkpoint`)."""

    def __init__(self, path: str, hold: threading.Event | None = None) -> None:
        self.path = path
        self.hold = hold or threading.Event()
        """Set while a ``RESTART`` checkpoint runs: the writer on the loop waits."""
        self.checkpoints = 0
        self.restarts = 0
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="wal-checkpoint", daemon=True)

    @classmethod
    def start(cls, engine: Engine, hold: threading.Event | None = None) -> Checkpointer | None:
        """The checkpointer of ``engine``'s database file (none for a database in memory)."""
        path = engine.url.database
        if not path or path == ":memory:" or path.startswith("file:"):
            return None
        checkpointer = cls(path, hold)
        checkpointer._thread.start()
        return checkpointer

    def _run(self) -> None:
        conn = sqlite3.connect(  # (a RESTART waits up to a second for the lock, the readers)
            self.path, isolation_level=None, check_same_thread=False, timeout=1.0
        )
        try:
            while not self._stopping.wait(CHECKPOINT_SECONDS):
                self.checkpoint(conn)
            self.checkpoint(conn)
        finally:
            conn.close()

    def checkpoint(self, conn: sqlite3.Connection) -> None:
        """A ``PASSIVE`` checkpoint; past :data:`RESTART_FRAMES`, a ``RESTART`` one.

        The log is written over from its start only by a write that begins when everything
        in it is back in the database. Batches committed back to back (a hall under load)
        leave no such moment to a checkpoint running beside them, and the log grew without
        end (2.6 GB in a soak's first seven minutes: bench/RESULTS.md, «The log that never
        started over»). ``RESTART`` takes the write lock (the writer on the loop, finding it
        taken, tries again a millisecond later: the moves wait, the loop does not), writes
        back what the passive one left (a few batches) and waits for the readers to leave
        the log: the next write starts it over. Meanwhile :attr:`hold` is set, so that the
        writer on the loop stops trying for the lock (it tried every millisecond, and always
        got it between two of the checkpoint's tries)."""
        with contextlib.suppress(sqlite3.Error):  # (tried again at the next tick)
            _, frames, _ = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            self.checkpoints += 1
            if frames >= RESTART_FRAMES:
                self.hold.set()
                try:
                    busy, _, _ = conn.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
                finally:
                    self.hold.clear()
                self.restarts += not busy

    def ask_to_stop(self) -> None:
        """Stop after the checkpoint in progress, if any (and one last)."""
        self._stopping.set()

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def stop(self) -> None:
        self.ask_to_stop()
        self._thread.join()
