"""Group commit: one writer per database puts every move that arrived meanwhile into one
transaction.

A room hands its move to :meth:`MoveWriter.append` and waits; the writer's own thread takes
every move queued (up to :data:`MAX_BATCH`) and writes them in one transaction with a
synchronous connection, tells the event loop which moves are durable, and goes on to the
next batch without waiting for the loop: a
fenced ``UPDATE`` of each game's version (a game not at the version the move expects is not
touched) and one ``INSERT`` of the moves, each one statement for the whole batch (``WITH v
AS (VALUES …) UPDATE … FROM v RETURNING``, its SQL made once a size and bound by the driver),
then one commit. One statement a batch, not one a move: on PostgreSQL each statement is a
round trip, and on SQLite each lets go of the GIL and must take it back from a busy event
loop (bench/RESULTS.md). Only then is each room told whether its move is durable. While one
batch commits the next fills, so the batch grows with the load and a lone move waits for
nobody: there is no timer.

"Committed before anyone is told" holds as before: a room still awaits its own move's
commit before it shows the move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, bindparam, update

from tapete.metrics import BATCH_START_SECONDS, COMMIT_BATCH, COMMIT_SECONDS, WRITER_WAIT_SECONDS
from tapete.store.models import GameRow, MoveRow

MAX_BATCH = 500
"""The most moves one transaction holds (a bound on its statement's size)."""


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
    at: float = field(default_factory=time.perf_counter)


class MoveWriter:
    """The one writer of moves for a database (``engine``: a synchronous one, used from the
    writer's thread only). ``observe`` is told each batch's size (tests)."""

    def __init__(
        self,
        engine: Engine,
        now: Callable[[], datetime],
        observe: Callable[[int], None] | None = None,
    ) -> None:
        self.engine = engine
        self.now = now
        self.observe = observe
        self._inbox: queue.SimpleQueue[Pending | None] = queue.SimpleQueue()
        """Moves handed over by the rooms, in order (None: stop once what came before is
        written)."""
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()
        self._going = (
            update(GameRow)
            .where(GameRow.id == bindparam("gid"), GameRow.version == bindparam("prev"))
            .values(version=bindparam("n"), updated_at=bindparam("now"))
        )
        self._ending = self._going.values(status="finished", outcome=bindparam("result"))
        self._statements: dict[tuple[str, int], str] = {}
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

    async def append(
        self, game_id: str, n: int, seat: int, move: dict[str, Any], outcome: dict[str, Any] | None
    ) -> None:
        """Commit move ``n`` of ``game_id`` with the next batch; raises :class:`StaleWrite`
        if the game is not at version ``n - 1`` (nothing of this move is written), or the
        database's error if the batch could not be committed."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._start()
        self._inbox.put(Pending(game_id, n, seat, move, outcome, future))
        await future

    def _start(self) -> None:
        if self._thread is None:
            with self._starting:
                if self._thread is None:
                    self._thread = threading.Thread(
                        target=self._serve, name="move-writer", daemon=True
                    )
                    self._thread.start()

    async def close(self) -> None:
        """Finish what is queued, then stop (and let the thread go)."""
        thread, self._thread = self._thread, None
        if thread is not None:
            self._inbox.put(None)
            await asyncio.to_thread(thread.join)
            await asyncio.sleep(0)  # (the last batch's rooms are told)
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
            error: Exception | None = None
            try:
                written = self._write(batch)
            except Exception as exc:  # nothing of the batch was committed
                written, error = set(), exc
            results = [(p, i in written) for i, p in enumerate(batch)]
            loop = first.future.get_loop()
            with contextlib.suppress(RuntimeError):  # (its loop closed meanwhile)
                loop.call_soon_threadsafe(self._settle, results, error)
            if stop:
                return

    def _settle(self, results: list[tuple[Pending, bool]], error: Exception | None) -> None:
        """On the loop: tell each room of the batch whether its move is durable."""
        if error is None:
            COMMIT_BATCH.observe(len(results))
            done_at = time.perf_counter()
            for p, _ in results:
                WRITER_WAIT_SECONDS.observe(done_at - p.at)
            if self.observe is not None:
                self.observe(len(results))
        for p, ok in results:
            if p.future.done():
                continue
            if error is not None:
                p.future.set_exception(error)
            elif ok:
                p.future.set_result(None)
            else:
                p.future.set_exception(StaleWrite(f"game {p.game_id} is not at version {p.n - 1}"))

    def _sql(self, kind: str, size: int) -> str:
        """The statement ``kind`` ("fence", "insert") for ``size`` rows, made once a size in
        the database's own placeholders (the driver binds the values)."""
        sql = self._statements.get((kind, size))
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
        else:
            doc = f"{mark}::json" if pg else mark
            rows = ", ".join([f"({mark}, {mark}, {mark}, {doc})"] * size)
            sql = f"INSERT INTO moves (game_id, n, seat, move) VALUES {rows}"
        self._statements[kind, size] = sql
        return sql

    def _fence_all(
        self, conn: Any, batch: list[Pending], now: datetime
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
        done = {
            row[0] for row in conn.exec_driver_sql(self._sql("fence", len(going)), tuple(params))
        }
        return set(going), {i for i in going if batch[i].game_id in done}

    def _write(self, batch: list[Pending]) -> set[int]:
        """Write ``batch`` in one transaction (on the writer's thread: it reads the pending
        moves, touches no future); returns the indexes of the moves written (a stale one is
        left out, the others go on)."""
        t0 = time.perf_counter()
        for p in batch:
            BATCH_START_SECONDS.observe(t0 - p.at)
        now = self.now()
        with self.engine.begin() as conn:
            tried, written = self._fence_all(conn, batch, now)
            games = {batch[i].game_id for i in written}
            for i, p in enumerate(batch):
                if i in tried:
                    continue
                if p.game_id in games:  # a second move of a game in one batch: stale (a room
                    continue  # waits for each of its moves: only a stale owner does this)
                params = {"gid": p.game_id, "prev": p.n - 1, "n": p.n, "now": now}
                if p.outcome is None:
                    result = conn.execute(self._going, params)
                else:
                    result = conn.execute(self._ending, {**params, "result": p.outcome})
                if result.rowcount == 1:
                    written.add(i)
                    games.add(p.game_id)
            values: list[Any] = []
            for i in sorted(written):
                p = batch[i]
                values += [p.game_id, p.n, p.seat, self._json(p.move)]
            if values:
                conn.exec_driver_sql(self._sql("insert", len(written)), tuple(values))
        COMMIT_SECONDS.observe(time.perf_counter() - t0)
        return written
