"""Group commit: one writer per database puts every move that arrived meanwhile into one
transaction.

A room hands its move to :meth:`MoveWriter.append` and waits; the writer takes every move
queued (up to :data:`MAX_BATCH`), writes them in one transaction — one ``UPDATE … RETURNING``
for the games' versions (fenced: a game not at the version the move expects is not
touched), one bulk ``INSERT`` for the moves — commits, and only then tells each room
whether its move is durable. While one batch commits the next fills, so the batch grows
with the load and a lone move waits for nobody: there is no timer.

"Committed before anyone is told" holds as before: a room still awaits its own move's
commit before it shows the move.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import and_, insert, or_, update
from sqlalchemy.ext.asyncio import AsyncEngine

from tapete.metrics import COMMIT_BATCH
from tapete.store.models import GameRow, MoveRow

MAX_BATCH = 500
"""The most moves one transaction holds (a bound on its statement's size)."""


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


class MoveWriter:
    """The one writer of moves for a database (an engine). ``observe`` is told each
    batch's size (metrics)."""

    def __init__(
        self,
        engine: AsyncEngine,
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
        """Finish what is queued, then stop."""
        task, self._task = self._task, None
        if task is None or task.done():
            return
        if task.get_loop() is not asyncio.get_running_loop():
            return  # (a loop that is gone: nothing of it can be waiting)
        while self.queue:
            await asyncio.sleep(0.001)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self.queue:
                batch, self.queue = self.queue[:MAX_BATCH], self.queue[MAX_BATCH:]
                try:
                    written = await self._write(batch)
                except Exception as exc:  # nothing of the batch was committed
                    for p in batch:
                        if not p.future.done():
                            p.future.set_exception(exc)
                    continue
                done = {id(p) for p in written}
                COMMIT_BATCH.observe(len(batch))
                if self.observe is not None:
                    self.observe(len(batch))
                for p in batch:
                    if p.future.done():
                        continue
                    if id(p) in done:
                        p.future.set_result(None)
                    else:
                        p.future.set_exception(
                            StaleWrite(f"game {p.game_id} is not at version {p.n - 1}")
                        )

    async def _write(self, batch: list[Pending]) -> list[Pending]:
        """Write ``batch`` in one transaction; returns the moves written (a stale one is
        left out, the others go on)."""
        now = self.now()
        by_game: dict[str, Pending] = {}
        for p in batch:
            if p.game_id in by_game:  # two moves of one game in a batch: the later is stale
                continue  # (a room waits for each of its moves: only a stale owner does this)
            by_game[p.game_id] = p
        going = [p for p in by_game.values() if p.outcome is None]
        ending = [p for p in by_game.values() if p.outcome is not None]
        ok: set[str] = set()
        async with self.engine.begin() as conn:
            if going:
                result = await conn.execute(
                    update(GameRow)
                    .where(
                        or_(
                            *(
                                and_(GameRow.id == p.game_id, GameRow.version == p.n - 1)
                                for p in going
                            )
                        )
                    )
                    .values(version=GameRow.version + 1, updated_at=now)
                    .returning(GameRow.id)
                )
                ok.update(result.scalars())
            for p in ending:
                result = await conn.execute(
                    update(GameRow)
                    .where(GameRow.id == p.game_id, GameRow.version == p.n - 1)
                    .values(version=p.n, updated_at=now, status="finished", outcome=p.outcome)
                    .returning(GameRow.id)
                )
                ok.update(result.scalars())
            rows = [
                {"game_id": p.game_id, "n": p.n, "seat": p.seat, "move": p.move}
                for p in by_game.values()
                if p.game_id in ok
            ]
            if rows:
                await conn.execute(insert(MoveRow), rows)
        return [p for p in by_game.values() if p.game_id in ok]
