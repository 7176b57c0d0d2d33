"""What the store keeps of logros (:mod:`tapete.logros`): each player's progress towards
each one, when and by which game it was earned, and the games already counted for them
(each once: counting a game and its progress are one transaction)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session

from tapete.store.models import GameRow, LogroGameRow, LogroRow, aware

if TYPE_CHECKING:
    from tapete.store.transactions import Transactions


@dataclass(frozen=True, slots=True)
class Progress:
    progress: int
    earned_at: datetime | None
    game_id: str | None


class Logros:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], tx: Transactions) -> None:
        self.sessions = sessions
        self.tx = tx

    async def count(
        self,
        game_id: str,
        guest: str,
        adds: Mapping[str, int],
        sets: Mapping[str, int],
        goals: Mapping[str, int],
        now: datetime,
    ) -> list[str] | None:
        """Count a finished game for ``guest``: each logro of ``adds`` grows by its number,
        each of ``sets`` becomes it (a streak, the games tried: never lower); the logros
        that reach their goal now are earned by this game (returned). None, and nothing
        changed: the game was counted for them already."""
        return (await self.count_all(game_id, {guest: (adds, sets)}, goals, now))[guest]

    async def count_all(
        self,
        game_id: str,
        counts: Mapping[str, tuple[Mapping[str, int], Mapping[str, int]]],
        goals: Mapping[str, int],
        now: datetime,
    ) -> dict[str, list[str] | None]:
        """:meth:`count` for each guest of ``counts`` (their ``adds`` and ``sets``), in one
        transaction: a guest the game was counted for already (by another process
        meanwhile) gets None and leaves the others' counts as they are."""

        def write(s: Session) -> dict[str, list[str] | None]:
            out: dict[str, list[str] | None] = {}
            for guest, (adds, sets) in counts.items():
                try:
                    with s.begin_nested():
                        out[guest] = _count(s, game_id, guest, adds, sets, goals, now)
                except IntegrityError:
                    out[guest] = None
            return out

        return await self.tx.run(write)

    async def counted_for(self, game_id: str) -> set[str]:
        """The guests ``game_id`` was counted for."""
        async with self.sessions() as s:
            rows = await s.scalars(
                select(LogroGameRow.guest).where(LogroGameRow.game_id == game_id)
            )
            return set(rows)

    async def kinds_of(self, guests: list[str]) -> dict[str, set[str]]:
        """The games each of ``guests`` has finished one of (counted), in one query."""
        out: dict[str, set[str]] = {guest: set() for guest in guests}
        async with self.sessions() as s:
            rows = await s.execute(
                select(LogroGameRow.guest, GameRow.kind)
                .join(GameRow, GameRow.id == LogroGameRow.game_id)
                .where(LogroGameRow.guest.in_(guests))
                .distinct()
            )
            for guest, kind in rows:
                out[guest].add(kind)
        return out

    async def of(self, guest: str) -> dict[str, Progress]:
        """``guest``'s progress, by logro."""
        async with self.sessions() as s:
            rows = await s.scalars(select(LogroRow).where(LogroRow.guest == guest))
            return {r.key: Progress(r.progress, aware(r.earned_at), r.game_id) for r in rows}

    async def earned_by(self, game_id: str, guest: str) -> list[str]:
        """The logros that ``game_id`` earned ``guest``."""
        async with self.sessions() as s:
            rows = await s.scalars(
                select(LogroRow.key).where(LogroRow.guest == guest, LogroRow.game_id == game_id)
            )
            return list(rows)

    async def wipe(self) -> None:
        """Forget every count (before counting every game again: ``tapete logros``)."""

        def write(s: Session) -> None:
            s.execute(delete(LogroRow))
            s.execute(delete(LogroGameRow))

        await self.tx.run(write)

    async def finished(self) -> list[str]:
        """Every finished game, in the order they ended (to count them all again)."""
        async with self.sessions() as s:
            rows = await s.scalars(
                select(GameRow.id)
                .where(GameRow.status == "finished")
                .order_by(GameRow.updated_at, GameRow.id)
            )
            return list(rows)


def _count(
    s: Session,
    game_id: str,
    guest: str,
    adds: Mapping[str, int],
    sets: Mapping[str, int],
    goals: Mapping[str, int],
    now: datetime,
) -> list[str]:
    """One guest's count in ``s`` (IntegrityError: counted already)."""
    earned: list[str] = []
    s.add(LogroGameRow(game_id=game_id, guest=guest))
    s.flush()
    keys = set(adds) | set(sets)
    rows = s.scalars(select(LogroRow).where(LogroRow.guest == guest, LogroRow.key.in_(keys)))
    have = {r.key: r for r in rows}
    for key in sorted(keys):
        row = have.get(key)
        if row is None:
            row = LogroRow(guest=guest, key=key, progress=0)
            s.add(row)
        new = row.progress + adds.get(key, 0)
        if key in sets:
            new = max(new, sets[key])
        if row.earned_at is None and new >= goals[key]:
            row.earned_at, row.game_id = now, game_id
            earned.append(key)
        row.progress = new
    s.flush()
    return earned
