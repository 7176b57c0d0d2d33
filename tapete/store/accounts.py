"""A player's own place in the store: their profile, e-mail address and codes, coins.

Every change that must not happen twice is one conditional statement in one transaction
(a claim of the day's coins, a code's try), so two tabs or two processes at once cannot
both succeed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session

from tapete.accounts import (
    CODE_SECONDS,
    CODE_TRIES,
    MAIL_GAP_SECONDS,
    MAIL_WINDOW_SECONDS,
    MAILS_PER_ADDRESS,
    claim_window,
    daily_grant,
    fix_day,
    same_digest,
    streak_after,
)
from tapete.store.models import (
    BlockRow,
    CoinEntry,
    GameRow,
    Guest,
    LeavingRow,
    MailCode,
    Owned,
    RatingChangeRow,
    RatingRow,
    RevokedGuest,
    RoomSeatRow,
    aware,
)

if TYPE_CHECKING:
    from tapete.store.transactions import Transactions

Checked = Literal["ok", "wrong", "expired", "too_many"]
Bought = Literal["ok", "owned", "poor"]


@dataclass
class Account:
    id: str
    name: str | None
    email: str | None
    avatar: str | None
    lang: str | None
    tz: str | None
    coins: int
    streak: int
    claimed_at: datetime | None
    equipped: dict[str, Any] = field(default_factory=dict)
    owned: list[str] = field(default_factory=list)
    daily_opens: datetime | None = None
    """When the next daily claim opens (fixed by the last claim; None: no claim yet)."""
    daily_keeps: datetime | None = None
    """A claim before this continues the streak (fixed by the last claim)."""


@dataclass
class Claim:
    granted: int
    coins: int
    streak: int


class Accounts:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], tx: Transactions) -> None:
        self.sessions = sessions
        self.tx = tx

    async def get(self, guest: str) -> Account | None:
        async with self.sessions() as s:
            row = await s.get(Guest, guest)
            if row is None:
                return None
            owned = (await s.scalars(select(Owned.item).where(Owned.guest == guest))).all()
            return Account(
                id=row.id,
                name=row.name,
                email=row.email,
                avatar=row.avatar,
                lang=row.lang,
                tz=row.tz,
                coins=row.coins,
                streak=row.streak,
                claimed_at=aware(row.claimed_at),
                equipped=dict(row.equipped or {}),
                owned=sorted(owned),
                daily_opens=aware(row.daily_opens),
                daily_keeps=aware(row.daily_keeps),
            )

    async def wearing(self, guests: list[str]) -> dict[str, tuple[dict[str, Any], str | None]]:
        """What each of ``guests`` wears (equipped items, avatar), in one query; a guest
        with no account is left out."""
        async with self.sessions() as s:
            rows = await s.execute(
                select(Guest.id, Guest.equipped, Guest.avatar).where(Guest.id.in_(guests))
            )
            return {gid: (dict(equipped or {}), avatar) for gid, equipped, avatar in rows}

    async def set_profile(self, guest: str, **fields: Any) -> None:
        """Change any of name, avatar, lang, tz."""
        allowed = {"name", "avatar", "lang", "tz"}
        assert set(fields) <= allowed, set(fields) - allowed
        if fields:

            def write(s: Session) -> None:
                s.execute(update(Guest).where(Guest.id == guest).values(**fields))

            await self.tx.run(write)

    async def by_email(self, email: str) -> str | None:
        """The account an address is linked to (compared without case)."""
        async with self.sessions() as s:
            found = await s.scalar(
                select(Guest.id).where(func.lower(Guest.email) == email.lower()).limit(1)
            )
            return found

    # codes

    async def may_send(
        self, email: str, purpose: str, requester: str | None, now: datetime, cap: int
    ) -> bool:
        """Whether another code may go to ``email`` now, asked for by ``requester`` (a
        guest): a few a quarter of an hour from each requester whatever they are for, not two
        for the same purpose within half a minute, and at most ``cap`` from everyone together
        (mail bombing). One requester's codes never count against another's: whoever asks for
        codes to someone's address cannot keep its owner from asking for one."""
        since = now - timedelta(seconds=MAIL_WINDOW_SECONDS)
        async with self.sessions() as s:
            sent = (
                await s.execute(
                    select(MailCode.created_at, MailCode.purpose, MailCode.requester).where(
                        func.lower(MailCode.email) == email.lower(), MailCode.created_at >= since
                    )
                )
            ).all()
        if len(sent) >= cap:
            return False
        mine = [(aware(at), kind) for at, kind, who in sent if who == requester]
        if len(mine) >= MAILS_PER_ADDRESS:
            return False
        recent = [t for t, kind in mine if kind == purpose]
        return all(t is None or (now - t).total_seconds() >= MAIL_GAP_SECONDS for t in recent)

    async def add_code(
        self,
        purpose: str,
        email: str,
        guest: str | None,
        digest: str,
        now: datetime,
        requester: str | None = None,
    ) -> None:
        """Keep a new code's digest for the account ``guest`` (linking: the one asking;
        recovering: the one that has the address, or None), asked for by ``requester``
        (``guest`` when not given). The requester's own earlier codes for the same purpose
        and address stop working; nobody else's do."""
        requester = guest if requester is None else requester
        mine = (
            MailCode.requester.is_(None) if requester is None else MailCode.requester == requester
        )

        def write(s: Session) -> None:
            s.execute(
                update(MailCode)
                .where(
                    MailCode.purpose == purpose,
                    func.lower(MailCode.email) == email.lower(),
                    mine,
                    MailCode.used.is_(False),
                )
                .values(used=True)
            )
            s.add(
                MailCode(
                    purpose=purpose,
                    email=email,
                    guest=guest,
                    requester=requester,
                    digest=digest,
                    created_at=now,
                    expires_at=now + timedelta(seconds=CODE_SECONDS),
                )
            )

        await self.tx.run(write)

    async def check_code(
        self,
        purpose: str,
        digest_of: Callable[[str], str],
        now: datetime,
        *,
        guest: str | None = None,
        email: str | None = None,
        requester: str | None = None,
    ) -> tuple[Checked, str | None]:
        """Try a code against the live one (the newest unused) of ``guest`` (linking) or of
        ``email`` (recovering), asked for by ``requester`` if given (only the browser that
        asked for a code can use it); ``digest_of(address)`` is the typed code's digest for
        the address it was sent to. Returns the verdict and, when right, that address.

        A try is counted before it is judged, by the one statement that checks it may be
        made (``UPDATE … SET tries = tries + 1 WHERE … AND tries < CODE_TRIES RETURNING``,
        the transaction's first, so it holds the write lock on SQLite and the row's lock on
        PostgreSQL until the verdict is committed): tries sent at once are counted one after
        the other, at most :data:`CODE_TRIES` are judged, the rest are ``too_many`` (and so
        is the right code after them)."""
        live = select(MailCode.id).where(MailCode.purpose == purpose, MailCode.used.is_(False))
        if guest is not None:
            live = live.where(MailCode.guest == guest)
        if email is not None:
            live = live.where(func.lower(MailCode.email) == email.lower())
        if requester is not None:
            live = live.where(MailCode.requester == requester)
        code_id = live.order_by(MailCode.id.desc()).limit(1).scalar_subquery()

        def write(s: Session) -> tuple[Checked, str | None]:
            claimed = (
                s.execute(
                    update(MailCode)
                    .where(
                        MailCode.id == code_id,
                        MailCode.used.is_(False),
                        MailCode.tries < CODE_TRIES,
                        MailCode.expires_at > now,
                    )
                    .values(tries=MailCode.tries + 1)
                    .returning(MailCode.id, MailCode.email, MailCode.digest)
                )
            ).first()
            if claimed is None:  # why not: no live code, no tries left, or too late
                row = s.scalar(select(MailCode).where(MailCode.id == code_id))
                if row is None:
                    return "wrong", None
                return ("too_many" if row.tries >= CODE_TRIES else "expired"), None
            row_id, sent_to, digest = claimed
            if not same_digest(digest_of(sent_to), digest):
                return "wrong", None
            done = s.execute(
                update(MailCode)
                .where(MailCode.id == row_id, MailCode.used.is_(False))
                .values(used=True)
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]  # (right twice at once: once)
                return "wrong", None
            return "ok", sent_to

        return await self.tx.run(write)

    async def link(self, guest: str, email: str) -> bool:
        """Link ``email`` to ``guest``; False if another account has it."""

        def write(s: Session) -> bool:
            other = s.scalar(
                select(Guest.id).where(func.lower(Guest.email) == email.lower(), Guest.id != guest)
            )
            if other is not None:
                return False
            s.execute(update(Guest).where(Guest.id == guest).values(email=email))
            return True

        return await self.tx.run(write)

    async def unlink(self, guest: str) -> None:

        def write(s: Session) -> None:
            s.execute(update(Guest).where(Guest.id == guest).values(email=None))

        await self.tx.run(write)

    # coins

    async def claim_daily(self, guest: str, now: datetime) -> Claim | None:
        """Today's coins, once: None if the next claim is not open yet. What the last claim
        fixed decides (when the next opens, until when it continues the streak: in the zone
        it was made in, :func:`tapete.accounts.fix_day`), so a zone changed since moves
        neither. The balance, the streak and the next window change in one conditional
        ``UPDATE``."""

        def write(s: Session) -> Claim | None:
            row = s.get(Guest, guest)
            if row is None:
                return None
            last = aware(row.claimed_at)
            opens, keeps = claim_window(
                last, aware(row.daily_opens), aware(row.daily_keeps), row.tz
            )
            streak = streak_after(row.streak, opens, keeps, now)
            if streak is None:
                return None
            granted = daily_grant(streak)
            next_opens, next_keeps = fix_day(now, row.tz, opens)
            claimed = Guest.claimed_at.is_(None) if last is None else Guest.claimed_at == last
            done = s.execute(
                update(Guest)
                .where(Guest.id == guest, claimed)
                .values(
                    coins=Guest.coins + granted,
                    streak=streak,
                    claimed_at=now,
                    daily_opens=next_opens,
                    daily_keeps=next_keeps,
                )
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]  # (another tab claimed it)
                return None
            coins = s.scalar(select(Guest.coins).where(Guest.id == guest))
            assert coins is not None
            s.add(CoinEntry(guest=guest, delta=granted, reason="daily", balance=coins, at=now))
            return Claim(granted, coins, streak)

        return await self.tx.run(write)

    # cosmetics

    async def buy(self, guest: str, item: str, price: int, now: datetime) -> Bought:
        """Buy ``item`` for ``price`` coins, in one transaction: the coins come off only if
        there are enough (one conditional ``UPDATE``), and the item is written once (its
        row's key is the player and the item): two tabs buying at once pay once."""
        try:

            def write(s: Session) -> Bought:
                paid = s.execute(
                    update(Guest)
                    .where(Guest.id == guest, Guest.coins >= price)
                    .values(coins=Guest.coins - price)
                )
                if paid.rowcount != 1:  # type: ignore[attr-defined]
                    owned = s.scalar(
                        select(Owned.item).where(Owned.guest == guest, Owned.item == item)
                    )
                    return "owned" if owned is not None else "poor"
                s.add(Owned(guest=guest, item=item, price=price, bought_at=now))
                s.flush()  # (a second purchase fails here, and nothing is paid)
                coins = s.scalar(select(Guest.coins).where(Guest.id == guest))
                assert coins is not None
                s.add(
                    CoinEntry(
                        guest=guest, delta=-price, reason=f"buy:{item}", balance=coins, at=now
                    )
                )
                return "ok"

            return await self.tx.run(write)
        except IntegrityError:
            return "owned"

    async def equip(self, guest: str, slot: str, item: str) -> None:
        """Wear ``item`` in ``slot`` (the caller checked it is owned or free)."""

        def write(s: Session) -> None:
            row = s.get(Guest, guest, with_for_update=True)
            if row is None:
                return
            row.equipped = {**(row.equipped or {}), slot: item}

        await self.tx.run(write)

    async def revoked(self, since: datetime | None = None) -> list[tuple[str, datetime]]:
        """The guests revoked (their account deleted), since ``since`` if given: each with
        when."""
        async with self.sessions() as s:
            query = select(RevokedGuest.id, RevokedGuest.at)
            if since is not None:
                query = query.where(RevokedGuest.at >= since)
            rows = (await s.execute(query)).all()
        return [(guest, aware(at)) for guest, at in rows]

    # the player's data

    async def games(self, guest: str, limit: int = 500) -> list[GameRow]:
        """The games the player sat at, newest first: those they started and those of the
        private rooms they sat in (one query, no search inside the seats' JSON)."""
        async with self.sessions() as s:
            rooms = select(RoomSeatRow.room_id).where(RoomSeatRow.guest == guest)
            query = (
                select(GameRow)
                .where(or_(GameRow.owner == guest, GameRow.room_id.in_(rooms)))
                .order_by(GameRow.created_at.desc(), GameRow.id)
                .limit(limit)
            )
            rows = list(await s.scalars(query))
        return [r for r in rows if any(seat.get("guest") == guest for seat in r.seats)]

    async def has_played(self, guest: str, kind: str) -> bool:
        """Whether the player has started a game of ``kind`` (a practice game, or a private
        room's as its host)."""
        async with self.sessions() as s:
            query = select(GameRow.id).where(GameRow.owner == guest, GameRow.kind == kind)
            return (await s.scalar(query.limit(1))) is not None

    async def export(self, guest: str) -> dict[str, Any]:
        """Everything kept of the player, for them to download."""
        account = await self.get(guest)
        if account is None:
            return {}
        async with self.sessions() as s:
            entries = (
                await s.scalars(
                    select(CoinEntry).where(CoinEntry.guest == guest).order_by(CoinEntry.id)
                )
            ).all()
            bought = (await s.scalars(select(Owned).where(Owned.guest == guest))).all()
            public_name = await s.scalar(select(Guest.public_name).where(Guest.id == guest))
            ratings = (await s.scalars(select(RatingRow).where(RatingRow.guest == guest))).all()
            blocked = (await s.scalars(select(BlockRow).where(BlockRow.guest == guest))).all()
        games = await self.games(guest, limit=100_000)
        return {
            "account": {
                "id": account.id,
                "name": account.name,
                "email": account.email,
                "avatar": account.avatar,
                "lang": account.lang,
                "time_zone": account.tz,
                "coins": account.coins,
                "streak": account.streak,
                "claimed_at": account.claimed_at.isoformat() if account.claimed_at else None,
                "equipped": account.equipped,
            },
            "public_name": public_name,
            "ratings": [
                {"game": r.game, "mu": r.mu, "sigma": r.sigma, "games": r.games} for r in ratings
            ],
            "blocked": [{"guest": b.blocked, "at": _iso(b.at)} for b in blocked],
            "owned": [
                {"item": o.item, "price": o.price, "bought_at": _iso(o.bought_at)} for o in bought
            ],
            "coins": [
                {"delta": e.delta, "reason": e.reason, "balance": e.balance, "at": _iso(e.at)}
                for e in entries
            ],
            "games": [
                {
                    "id": g.id,
                    "game": g.kind,
                    "options": g.config,
                    "started": _iso(g.created_at),
                    "status": g.status,
                    "seat": next(i for i, seat in enumerate(g.seats) if seat.get("guest") == guest),
                    "result": g.outcome,
                    "room": g.room_id,
                }
                for g in games
            ],
        }

    async def erase(self, guest: str, now: datetime) -> None:
        """Forget the player: their address, name, coins, what they own, their codes; in
        the games and rooms they sat in (which stay, for the others) their seat keeps no
        name of theirs. What remains of them is a random id with nothing in it, revoked in
        the same transaction: no cookie that carries it is read again (a copy another
        browser kept, a stolen one), so nobody can act as them in the games that point at
        it, which stay whole."""
        games = await self.games(guest, limit=100_000)

        def write(s: Session) -> None:
            s.merge(RevokedGuest(id=guest, at=now))
            s.execute(
                delete(MailCode).where(or_(MailCode.guest == guest, MailCode.requester == guest))
            )
            s.execute(delete(Owned).where(Owned.guest == guest))
            s.execute(delete(CoinEntry).where(CoinEntry.guest == guest))
            s.execute(delete(RatingChangeRow).where(RatingChangeRow.guest == guest))
            s.execute(delete(RatingRow).where(RatingRow.guest == guest))
            s.execute(delete(LeavingRow).where(LeavingRow.guest == guest))
            s.execute(
                delete(BlockRow).where(or_(BlockRow.guest == guest, BlockRow.blocked == guest))
            )
            s.execute(update(RoomSeatRow).where(RoomSeatRow.guest == guest).values(name=None))
            for g in games:
                seats = [
                    {k: v for k, v in seat.items() if k not in ("name", "worn")}
                    if seat.get("guest") == guest
                    else seat
                    for seat in g.seats
                ]
                s.execute(update(GameRow).where(GameRow.id == g.id).values(seats=seats))
            s.execute(
                update(Guest)
                .where(Guest.id == guest)
                .values(
                    name=None,
                    email=None,
                    avatar=None,
                    lang=None,
                    tz=None,
                    coins=0,
                    streak=0,
                    claimed_at=None,
                    daily_opens=None,
                    daily_keeps=None,
                    equipped=None,
                    public_name=None,
                )
            )

        await self.tx.run(write)


def _iso(value: datetime | None) -> str | None:
    stamp = aware(value)
    return stamp.isoformat() if stamp is not None else None
