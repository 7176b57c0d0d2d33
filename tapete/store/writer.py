"""Group commit: one writer per database puts every move that arrived meanwhile into one
transaction.

A room hands its move to :meth:`MoveWriter.append` and waits; the writer takes every move
queued (up to :data:`MAX_BATCH`) and writes them in one transaction, on a thread of its own
with a synchronous connection (one hop off the event loop a batch, not one a statement): a
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
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
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
        self.queue: list[Pending] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="move-writer")
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
        loop = asyncio.get_running_loop()
        self._ensure(loop)
        assert self._wake is not None
        future: asyncio.Future[None] = loop.create_future()
        self.queue.append(Pending(game_id, n, seat, move, outcome, future))
        self._wake.set()
        await future

    def _ensure(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._task is not None and self._loop is loop and not self._task.done():
            return
        self._loop = loop
        self._wake = asyncio.Event()
        self._task = loop.create_task(self._run(), name="move-writer")

    async def close(self) -> None:
        """Finish what is queued, then stop (and let the thread go)."""
        task, self._task = self._task, None
        if task is not None and not task.done() and task.get_loop() is asyncio.get_running_loop():
            while self.queue:
                await asyncio.sleep(0.001)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._thread.shutdown(wait=True)
        self.engine.dispose()

    async def _run(self) -> None:
        assert self._wake is not None
        loop = asyncio.get_running_loop()
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self.queue:
                batch, self.queue = self.queue[:MAX_BATCH], self.queue[MAX_BATCH:]
                try:
                    written = await loop.run_in_executor(self._thread, self._write, batch)
                except Exception as exc:  # nothing of the batch was committed
                    for p in batch:
                        if not p.future.done():
                            p.future.set_exception(exc)
                    continue
                COMMIT_BATCH.observe(len(batch))
                done_at = time.perf_counter()
                for p in batch:
                    WRITER_WAIT_SECONDS.observe(done_at - p.at)
                if self.observe is not None:
                    self.observe(len(batch))
                for i, p in enumerate(batch):
                    if p.future.done():
                        continue
                    if i in written:
                        p.future.set_result(None)
                    else:
                        p.future.set_exception(
                            StaleWrite(f"game {p.game_id} is not at version {p.n - 1}")
                        )

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
