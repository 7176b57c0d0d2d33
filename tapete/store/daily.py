"""What the store keeps of the deal of the day («Reto del día», :mod:`tapete.daily`): each
player's attempt (its game, made with the attempt in one transaction:
:meth:`~tapete.store.repo.Store.create_game`), and its result once the game is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session

from tapete.store.models import DailyRow, GameRow, Guest, aware

if TYPE_CHECKING:
    from tapete.store.transactions import Transactions


class AlreadyPlayed(Exception):
    """The player has an attempt at this day's deal already: ``game_id``."""

    def __init__(self, game_id: str) -> None:
        super().__init__(game_id)
        self.game_id = game_id


@dataclass(frozen=True, slots=True)
class Of:
    """Whose attempt at which day's deal a game is."""

    day: date
    kind: str
    guest: str


@dataclass(frozen=True, slots=True)
class DailyGame:
    """An attempt with what the day's table needs of its game."""

    guest: str
    game_id: str
    result: dict[str, Any] | None
    public_name: str | None
    seats: list[Any]
    status: str
    outcome: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime


class Daily:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], tx: Transactions) -> None:
        self.sessions = sessions
        self.tx = tx

    async def attempt(self, day: date, kind: str, guest: str) -> str | None:
        """The game of ``guest``'s attempt at the day's deal, if they made one."""
        async with self.sessions() as s:
            row = await s.get(DailyRow, (day, kind, guest))
            return row.game_id if row is not None else None

    async def of_game(self, game_id: str) -> Of | None:
        """The attempt a game is, if it is one."""
        async with self.sessions() as s:
            row = (await s.scalars(select(DailyRow).where(DailyRow.game_id == game_id))).first()
            return Of(row.day, row.kind, row.guest) if row is not None else None

    async def games(self, day: date, kind: str) -> list[DailyGame]:
        """Every attempt at the day's deal, with its game and the player's chosen name."""
        async with self.sessions() as s:
            rows = await s.execute(
                select(DailyRow, GameRow, Guest.public_name)
                .join(GameRow, GameRow.id == DailyRow.game_id)
                .join(Guest, Guest.id == DailyRow.guest)
                .where(DailyRow.day == day, DailyRow.kind == kind)
            )
            return [
                DailyGame(
                    guest=d.guest,
                    game_id=d.game_id,
                    result=dict(d.result) if d.result is not None else None,
                    public_name=name,
                    seats=list(g.seats),
                    status=g.status,
                    outcome=g.outcome,
                    created_at=aware(g.created_at),
                    updated_at=aware(g.updated_at),
                )
                for d, g, name in rows
            ]

    async def keep_results(self, day: date, kind: str, results: dict[str, dict[str, Any]]) -> None:
        """Keep the results of finished attempts (by guest), read once from their games."""
        if not results:
            return

        def write(s: Session) -> None:
            for guest, result in results.items():
                s.execute(
                    update(DailyRow)
                    .where(DailyRow.day == day, DailyRow.kind == kind, DailyRow.guest == guest)
                    .values(result=result)
                )

        await self.tx.run(write)

    async def days(self, guest: str) -> list[date]:
        """The days ``guest`` played a deal of the day (any game), newest first."""
        async with self.sessions() as s:
            rows = await s.scalars(select(DailyRow.day).where(DailyRow.guest == guest).distinct())
            return sorted(set(rows), reverse=True)


def add_attempt(s: Session, day: date, kind: str, guest: str, game_id: str) -> None:
    """The attempt, in the transaction that makes its game (a second one for the same day,
    game and player breaks the key: :class:`AlreadyPlayed`)."""
    s.add(DailyRow(day=day, kind=kind, guest=guest, game_id=game_id, result=None))
