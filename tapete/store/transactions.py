"""Every write of the store but the moves' batches: one short transaction at a time.

A write is a function of a synchronous :class:`~sqlalchemy.orm.Session` (``fn(s)``: it adds,
updates, reads what it needs and returns its answer), handed to :meth:`Transactions.run`.

- **SQLite** (the moves' writer on the loop, the default): the function runs on the event
  loop, in one go, on the moves' writer's own connection, inside ``BEGIN IMMEDIATE``. The
  database's write lock is taken and given back within one turn of the loop: tens of
  microseconds of SQL, no await in between. Through the asynchronous driver (aiosqlite) a
  transaction held the lock from its first ``INSERT`` to its ``COMMIT`` across one turn of
  the loop per statement; with the loop's core full (a 30-minute soak at 5,000 players) a
  turn took tens of milliseconds, the transactions waiting for the lock in SQLite's own
  busy handler (which sleeps and polls, first come not first served) waited past its five
  seconds, and rooms' rematches and games' logros failed with «database is locked»
  (bench/RESULTS.md, «The soak»). Here nothing waits inside SQLite: the loop's connection
  never waits for the lock (``busy_timeout=0``); when another connection holds it (another
  process: ``tapete backup``, a command) the transaction is rolled back untouched and tried
  again a millisecond later, on the loop, for up to :data:`LOCK_SECONDS`.
- **PostgreSQL**, or SQLite with ``--sqlite-writer thread``: the function runs through an
  asynchronous session (:meth:`~sqlalchemy.ext.asyncio.AsyncSession.run_sync`), row locks
  being the database's business.

Reads stay on the asynchronous sessions: a reader never waits for a writer in WAL mode.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session, sessionmaker

from tapete.metrics import WRITE_BUSY
from tapete.store.writer import RETRY_SECONDS, busy

T = TypeVar("T")

LOCK_SECONDS = 10.0
"""On SQLite, how long a write is tried again while another process holds the write lock
before its error is raised."""


class Transactions:
    """The store's writes (not the moves'). ``engine``: the moves' writer's synchronous
    engine when it writes on the loop (SQLite), else None."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], engine: Engine | None) -> None:
        self.sessions = sessions
        self._sync = sessionmaker(engine, expire_on_commit=False) if engine is not None else None
        self.on_loop = engine is not None
        """Writes run on the event loop, in one go (SQLite)."""
        self.started: Callable[[], None] = _nothing
        """Called before the first write on the loop (the moves' writer starts its
        checkpointer: the loop's connection never checkpoints)."""
        self.hold = threading.Event()
        """Set while the checkpointer lets the log start over (the moves' writer's
        :attr:`~tapete.store.writer.MoveWriter.hold`): no write tries for the lock."""

    async def run(self, fn: Callable[[Session], T]) -> T:
        """``fn(s)`` in one transaction, committed before this returns (its return value);
        an exception from ``fn`` rolls everything back and is raised here."""
        if self._sync is None:
            async with self.sessions.begin() as session:
                return await session.run_sync(fn)
        self.started()
        deadline = time.monotonic() + LOCK_SECONDS
        while True:
            if not self.hold.is_set():
                try:
                    with self._sync() as s, s.begin():
                        return fn(s)
                except OperationalError as exc:
                    if not busy(exc) or time.monotonic() > deadline:
                        raise
            WRITE_BUSY.inc()
            await asyncio.sleep(RETRY_SECONDS)


def _nothing() -> None:
    return None


__all__ = ["LOCK_SECONDS", "Transactions"]
