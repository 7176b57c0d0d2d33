"""What playing with strangers keeps of a player: ratings and their changes, leaderboards,
the public name they chose, whom they blocked, reports, bans, and the games they left.

A rated game's ratings are written by :func:`write_ratings`, inside the transaction of the
game's last move (:mod:`tapete.store.writer`), so a result and its ratings are durable
together or not at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import Connection, and_, delete, func, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session

from tapete.ratings import NEW, PROVISIONAL_SIGMA, Rating, Seat, places, rate
from tapete.store.models import (
    BlockRow,
    GameRow,
    Guest,
    LeavingRow,
    MoveRow,
    RatingChangeRow,
    RatingRow,
    ReportRow,
    aware,
)

if TYPE_CHECKING:
    from tapete.store.transactions import Transactions

LEADERBOARD: Final = 100
"""The rows of a leaderboard."""
REASONS: Final = ("insultos", "trampas", "abandono", "otro")
"""The preset reasons of a report (no free text): bothering others (the reactions used to
annoy), cheating, leaving on purpose, something else. (No «name»: a stranger's name is made
of the hall's own lists.)"""


@dataclass(frozen=True, slots=True)
class Ranked:
    """One row of a leaderboard."""

    rank: int
    guest: str
    public_name: str | None
    """As chosen (a key of tapete/public_names.py); None: the drawn one."""
    rating: Rating
    games: int
    """Rated games in the leaderboard's period."""


@dataclass(frozen=True, slots=True)
class Report:
    id: int
    reporter: str
    reported: str
    game_id: str | None
    reason: str
    status: str
    at: datetime


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """A seat of a finished rated game, as the writer rates it."""

    guest: str | None
    """None: a bot from the start."""
    place: int
    left: bool = False


@dataclass(frozen=True, slots=True)
class Rated:
    """A rated game's last move brings its result for the ratings: the game's kind and each
    seat."""

    game: str
    seats: tuple[RatedSeat, ...]


def write_ratings(
    conn: Connection,
    game: str,
    game_id: str,
    seats: Sequence[RatedSeat],
    now: datetime,
    leavings: bool = True,
) -> None:
    """Rate a finished game in the caller's transaction: read the humans' ratings as they
    are now, update them (tapete/ratings.py), write them and each one's change; and (with
    ``leavings``) each human who left, for the leaving penalty and for :func:`recompute`."""
    if leavings:
        for seat in seats:
            if seat.guest is not None and seat.left:
                conn.execute(insert(LeavingRow).values(game_id=game_id, guest=seat.guest, at=now))
    guests = [s.guest for s in seats if s.guest is not None]
    rows = conn.execute(
        select(RatingRow.guest, RatingRow.mu, RatingRow.sigma, RatingRow.games).where(
            RatingRow.game == game, RatingRow.guest.in_(guests)
        )
    )
    before = {r.guest: Rating(r.mu, r.sigma, r.games) for r in rows}
    rated = [
        Seat(before.get(s.guest, NEW) if s.guest is not None else None, s.place, s.left)
        for s in seats
    ]
    after = rate(rated)
    used = places(rated)
    for n, (seat, old, new) in enumerate(zip(seats, rated, after, strict=True)):
        if seat.guest is None or old.rating is None or new is None or new == old.rating:
            continue
        values = {"mu": new.mu, "sigma": new.sigma, "games": new.games, "updated_at": now}
        if seat.guest in before:
            conn.execute(
                update(RatingRow)
                .where(RatingRow.guest == seat.guest, RatingRow.game == game)
                .values(**values)
            )
        else:
            conn.execute(insert(RatingRow).values(guest=seat.guest, game=game, **values))
        conn.execute(
            insert(RatingChangeRow).values(
                game_id=game_id,
                guest=seat.guest,
                game=game,
                seat=n,
                place=used[n],
                mu_before=old.rating.mu,
                sigma_before=old.rating.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
                at=now,
            )
        )


class Players:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], tx: Transactions) -> None:
        self.sessions = sessions
        self.tx = tx

    # ratings

    async def ratings(self, game: str, guests: Sequence[str]) -> dict[str, Rating]:
        """Each guest's rating in ``game`` (a new player's if they have none)."""
        async with self.sessions() as s:
            rows = await s.scalars(
                select(RatingRow).where(RatingRow.game == game, RatingRow.guest.in_(guests))
            )
            found = {r.guest: Rating(r.mu, r.sigma, r.games) for r in rows}
        return {g: found.get(g, NEW) for g in guests}

    async def median_mu(self, game: str) -> float:
        """The median mean of ``game``'s established players (a new player's if none)."""
        async with self.sessions() as s:
            mus = list(
                await s.scalars(
                    select(RatingRow.mu)
                    .where(RatingRow.game == game, RatingRow.sigma <= PROVISIONAL_SIGMA)
                    .order_by(RatingRow.mu)
                )
            )
        if not mus:
            return NEW.mu
        middle = len(mus) // 2
        return mus[middle] if len(mus) % 2 else (mus[middle - 1] + mus[middle]) / 2

    async def changes(self, game_id: str) -> dict[str, tuple[Rating, Rating]]:
        """A rated game's changes, by guest: the rating before and after."""
        async with self.sessions() as s:
            rows = await s.scalars(
                select(RatingChangeRow).where(RatingChangeRow.game_id == game_id)
            )
            return {
                r.guest: (Rating(r.mu_before, r.sigma_before), Rating(r.mu_after, r.sigma_after))
                for r in rows
            }

    def _board(self, game: str, since: datetime | None) -> Any:
        """Established, not banned players of ``game`` (who played since ``since``, if
        given): guest, chosen name, mean, uncertainty, games (in the period)."""
        if since is None:
            counted = RatingRow.games.label("n")
            query = select(
                RatingRow.guest, Guest.public_name, RatingRow.mu, RatingRow.sigma, counted
            ).join(Guest, Guest.id == RatingRow.guest)
        else:
            counted = func.count(RatingChangeRow.game_id).label("n")
            query = (
                select(RatingRow.guest, Guest.public_name, RatingRow.mu, RatingRow.sigma, counted)
                .join(Guest, Guest.id == RatingRow.guest)
                .join(
                    RatingChangeRow,
                    and_(
                        RatingChangeRow.guest == RatingRow.guest,
                        RatingChangeRow.game == RatingRow.game,
                        RatingChangeRow.at >= since,
                    ),
                )
                .group_by(RatingRow.guest, Guest.public_name, RatingRow.mu, RatingRow.sigma)
            )
        return query.where(
            RatingRow.game == game,
            RatingRow.sigma <= PROVISIONAL_SIGMA,
            Guest.banned_at.is_(None),
        )

    async def leaderboard(
        self, game: str, since: datetime | None = None, limit: int = LEADERBOARD
    ) -> list[Ranked]:
        """The top ``limit`` of ``game`` by rating (all time, or who played since
        ``since``); equal means share a rank."""
        board = self._board(game, since).subquery()
        query = (
            select(board).order_by(board.c.mu.desc(), board.c.n.desc(), board.c.guest).limit(limit)
        )
        async with self.sessions() as s:
            rows = (await s.execute(query)).all()
        out: list[Ranked] = []
        for i, row in enumerate(rows):
            rank = out[-1].rank if out and out[-1].rating.mu == row.mu else i + 1
            out.append(Ranked(rank, row.guest, row.public_name, Rating(row.mu, row.sigma), row.n))
        return out

    async def place(self, game: str, guest: str, since: datetime | None = None) -> Ranked | None:
        """``guest``'s own row of the leaderboard, wherever they are (None: not on it —
        provisional, banned, or no game in the period)."""
        board = self._board(game, since).subquery()
        async with self.sessions() as s:
            row = (await s.execute(select(board).where(board.c.guest == guest))).first()
            if row is None:
                return None
            above = await s.scalar(select(func.count()).where(board.c.mu > row.mu))
        rating = Rating(row.mu, row.sigma)
        return Ranked(int(above or 0) + 1, row.guest, row.public_name, rating, row.n)

    # names

    async def set_public_name(self, guest: str, key: str | None) -> None:
        """The name strangers see, as chosen (checked by the caller against the lists);
        None: back to the drawn one."""

        def write(s: Session) -> None:
            s.execute(update(Guest).where(Guest.id == guest).values(public_name=key))

        await self.tx.run(write)

    async def public_names(self, guests: Sequence[str]) -> dict[str, str | None]:
        """Each guest's chosen public name (None: drawn)."""
        async with self.sessions() as s:
            rows = await s.execute(select(Guest.id, Guest.public_name).where(Guest.id.in_(guests)))
            found = {row.id: row.public_name for row in rows}
        return {g: found.get(g) for g in guests}

    # blocks

    async def block(self, guest: str, other: str, now: datetime) -> bool:
        """``guest`` blocks ``other``; False if they already had (nothing changes)."""

        def write(s: Session) -> bool:
            if s.get(BlockRow, (guest, other)) is not None:
                return False
            s.add(BlockRow(guest=guest, blocked=other, at=now))
            return True

        return await self.tx.run(write)

    async def unblock(self, guest: str, other: str) -> bool:

        def write(s: Session) -> bool:
            done = s.execute(
                delete(BlockRow).where(BlockRow.guest == guest, BlockRow.blocked == other)
            )
            return bool(getattr(done, "rowcount", 0))

        return await self.tx.run(write)

    async def blocked(self, guest: str) -> list[str]:
        """Whom ``guest`` blocked, the last first."""
        async with self.sessions() as s:
            rows = await s.scalars(
                select(BlockRow.blocked).where(BlockRow.guest == guest).order_by(BlockRow.at.desc())
            )
            return list(rows)

    async def avoided(self, guest: str) -> frozenset[str]:
        """Whom ``guest`` is never matched with: whom they blocked and who blocked them."""
        async with self.sessions() as s:
            rows = await s.execute(
                select(BlockRow.guest, BlockRow.blocked).where(
                    or_(BlockRow.guest == guest, BlockRow.blocked == guest)
                )
            )
            return frozenset(b if g == guest else g for g, b in rows)

    # reports and bans

    async def report(
        self, reporter: str, reported: str, game_id: str | None, reason: str, now: datetime
    ) -> bool:
        """A report; False if ``reporter`` already reported ``reported`` for that game (one
        report a game: pressing twice changes nothing)."""
        assert reason in REASONS, reason

        def write(s: Session) -> bool:
            same = s.scalar(
                select(func.count()).where(
                    ReportRow.reporter == reporter,
                    ReportRow.reported == reported,
                    ReportRow.game_id.is_(None)
                    if game_id is None
                    else ReportRow.game_id == game_id,
                )
            )
            if same:
                return False
            s.add(
                ReportRow(
                    reporter=reporter,
                    reported=reported,
                    game_id=game_id,
                    reason=reason,
                    status="open",
                    at=now,
                )
            )
            return True

        return await self.tx.run(write)

    async def reports(self, status: str | None = "open") -> list[Report]:
        """Reports, the oldest first (``status`` None: all)."""
        query = select(ReportRow).order_by(ReportRow.at, ReportRow.id)
        if status is not None:
            query = query.where(ReportRow.status == status)
        async with self.sessions() as s:
            rows = await s.scalars(query)
            return [
                Report(r.id, r.reporter, r.reported, r.game_id, r.reason, r.status, aware(r.at))
                for r in rows
            ]

    async def ban(self, guest: str, now: datetime) -> bool:
        """Keep ``guest`` from playing with people; their open reports are closed as
        ``banned``. False if there is no such guest."""

        def write(s: Session) -> bool:
            done = s.execute(update(Guest).where(Guest.id == guest).values(banned_at=now))
            if not getattr(done, "rowcount", 0):
                return False
            s.execute(
                update(ReportRow)
                .where(ReportRow.reported == guest, ReportRow.status == "open")
                .values(status="banned")
            )
            return True

        return await self.tx.run(write)

    async def unban(self, guest: str) -> bool:

        def write(s: Session) -> bool:
            done = s.execute(
                update(Guest)
                .where(Guest.id == guest, Guest.banned_at.is_not(None))
                .values(banned_at=None)
            )
            return bool(getattr(done, "rowcount", 0))

        return await self.tx.run(write)

    async def dismiss(self, report: int) -> bool:
        """An operator looked at an open report and found nothing to do."""

        def write(s: Session) -> bool:
            done = s.execute(
                update(ReportRow)
                .where(ReportRow.id == report, ReportRow.status == "open")
                .values(status="dismissed")
            )
            return bool(getattr(done, "rowcount", 0))

        return await self.tx.run(write)

    async def banned(self, guest: str) -> bool:
        async with self.sessions() as s:
            return await s.scalar(select(Guest.banned_at).where(Guest.id == guest)) is not None

    # leaving

    async def left(self, guest: str, game_id: str, now: datetime) -> None:
        """``guest`` left a quick-play game (or lost their seat to timeouts): once a game."""

        def write(s: Session) -> None:
            if s.get(LeavingRow, (game_id, guest)) is None:
                s.add(LeavingRow(game_id=game_id, guest=guest, at=now))

        await self.tx.run(write)

    async def leavings(self, guest: str, since: datetime) -> list[datetime]:
        """When ``guest`` left quick-play games since ``since``, the oldest first."""
        async with self.sessions() as s:
            rows = await s.scalars(
                select(LeavingRow.at)
                .where(LeavingRow.guest == guest, LeavingRow.at >= since)
                .order_by(LeavingRow.at)
            )
            return [aware(at) for at in rows]


def recompute(conn: Connection) -> int:
    """Every rating again, from nothing, in the caller's transaction: each finished rated
    game in the order they ended, its result replayed from its move log (the game's rules,
    through the registry), its bots' seats and who left as stored. Returns the games rated.
    (A change of the rating's parameters is this, run once: a migration, not a loss.)"""
    from tapete.registry import entry

    conn.execute(delete(RatingChangeRow))
    conn.execute(delete(RatingRow))
    left = {(g, guest) for g, guest in conn.execute(select(LeavingRow.game_id, LeavingRow.guest))}
    games = conn.execute(
        select(
            GameRow.id,
            GameRow.kind,
            GameRow.config,
            GameRow.seed,
            GameRow.position,
            GameRow.seats,
            GameRow.updated_at,
        )
        .where(GameRow.rated.is_(True), GameRow.status == "finished")
        .order_by(GameRow.updated_at, GameRow.id)
    ).all()
    done = 0
    for game_row in games:
        spec = entry(game_row.kind).game
        quick = spec.quick
        if quick is None or quick.places is None:
            continue
        rules = spec.rules
        state = (
            rules.load(game_row.position)
            if game_row.position is not None
            else rules.new(spec.parse_config(game_row.config), game_row.seed)
        )
        moves = conn.execute(
            select(MoveRow.seat, MoveRow.move)
            .where(MoveRow.game_id == game_row.id)
            .order_by(MoveRow.n)
        )
        for seat, move in moves:
            rules.apply(state, seat, spec.parse_move(move))
        outcome = rules.outcome(state)
        if outcome is None:
            continue
        seats = [
            RatedSeat(
                s.get("guest") if s.get("kind") == "human" else None,
                place,
                (game_row.id, s.get("guest")) in left,
            )
            for s, place in zip(game_row.seats, quick.places(outcome), strict=True)
        ]
        write_ratings(conn, game_row.kind, game_row.id, seats, aware(game_row.updated_at), False)
        done += 1
    return done
