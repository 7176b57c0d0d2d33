"""The tables: guests and what they own, games and their move logs, rooms, e-mail codes, and a
few settings."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any, overload

from sqlalchemy import (
    JSON,
    BigInteger,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    false,
    func,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


@overload
def aware(value: datetime) -> datetime: ...
@overload
def aware(value: None) -> None: ...
def aware(value: datetime | None) -> datetime | None:
    """A time read back from the store, with its zone: SQLite gives times back without it,
    and they are UTC."""
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}  # noqa: RUF012


class Setting(Base):
    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(512))


class Guest(Base):
    """A player: a guest from the first visit, with an e-mail address if they link one."""

    __tablename__ = "guests"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    email: Mapped[str | None] = mapped_column(String(254), unique=True, index=True)
    avatar: Mapped[str | None] = mapped_column(String(32))
    lang: Mapped[str | None] = mapped_column(String(8))
    tz: Mapped[str | None] = mapped_column(String(64))
    """The player's time zone (IANA name), for the calendar day of the daily coins."""
    coins: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    streak: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Days in a row the daily coins were claimed, up to the last claim."""
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    daily_opens: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When the next daily claim opens, fixed by the last claim (in the zone it was made in)."""
    daily_keeps: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """A claim before this continues the streak; fixed by the last claim, as ``daily_opens``."""
    equipped: Mapped[dict[str, Any] | None]
    """Slot ("back", "felt", "tiles", "frame") → the item worn there."""
    public_name: Mapped[str | None] = mapped_column(String(40))
    """The name strangers see, as chosen (``"zorro-azul"``: tapete/public_names.py); None:
    the one drawn from the id."""
    banned_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """Since when an operator keeps them from playing with people (bots only); None: not."""


class RevokedGuest(Base):
    """A guest whose account was deleted: every copy of its cookie is refused (read as no
    cookie: a new guest), by every process (:class:`tapete.server.account.guests.Guests`)."""

    __tablename__ = "revoked_guests"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class MailCode(Base):
    """A six-digit code sent by e-mail: to link an address ("link") or to recover the
    account that has it ("recover"). Only a keyed digest of the code is kept."""

    __tablename__ = "mail_codes"
    __table_args__ = (
        Index("ix_mail_codes_email", "email", "purpose"),
        Index("ix_mail_codes_requester", "requester", "purpose"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    purpose: Mapped[str] = mapped_column(String(8))
    email: Mapped[str] = mapped_column(String(254))
    guest: Mapped[str | None] = mapped_column(ForeignKey("guests.id"))
    """The account: the one linking the address, or the one that has it (recovering)."""
    requester: Mapped[str | None] = mapped_column(String(32))
    """The guest (browser) that asked for the code: only it can use it, and a new request
    voids only its own earlier code (None: a code from before requesters were kept)."""
    digest: Mapped[str] = mapped_column(String(64))
    tries: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    used: Mapped[bool] = mapped_column(default=False, server_default=false())
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class Owned(Base):
    """A cosmetic a player bought (one row an item: a second purchase cannot be written)."""

    __tablename__ = "owned"

    guest: Mapped[str] = mapped_column(ForeignKey("guests.id"), primary_key=True)
    item: Mapped[str] = mapped_column(String(32), primary_key=True)
    price: Mapped[int] = mapped_column(Integer)
    bought_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class CoinEntry(Base):
    """Every change of a player's coins, with why and the balance after it."""

    __tablename__ = "coin_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    guest: Mapped[str] = mapped_column(ForeignKey("guests.id"), index=True)
    delta: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(40))
    balance: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), index=True)
    config: Mapped[dict[str, Any]]
    seed: Mapped[int] = mapped_column(BigInteger)
    seats: Mapped[list[Any]]
    """One entry a seat: {"kind": "human", "guest": id, "name": …} or {"kind": "bot", …}."""
    owner: Mapped[str] = mapped_column(ForeignKey("guests.id"), index=True)
    status: Mapped[str] = mapped_column(String(16), index=True, default="active")
    version: Mapped[int] = mapped_column(Integer, default=0)
    outcome: Mapped[dict[str, Any] | None]
    position: Mapped[dict[str, Any] | None]
    """Where the game starts, when not from a seeded deal (tests, teaching positions)."""
    room_id: Mapped[str | None] = mapped_column(String(16), default=None)
    """The private room it is played in (None: a practice game)."""
    rated: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Its result moves the ratings of the people who played it (tapete/ratings.py)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), onupdate=func.now()
    )


class MoveRow(Base):
    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    """The version this move produced: the first move of a game is 1."""
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[dict[str, Any]]
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class RoomRow(Base):
    """A private room: friends join it by its code; it plays one game after another."""

    __tablename__ = "rooms"
    __table_args__ = (
        Index(
            "ix_rooms_open_code",
            "code",
            unique=True,
            sqlite_where=text("status != 'closed'"),
            postgresql_where=text("status != 'closed'"),
        ),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    code: Mapped[str] = mapped_column(String(6), index=True)
    """Six digits, unique among the rooms not closed; freed when a room closes."""
    kind: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]]
    host: Mapped[str] = mapped_column(ForeignKey("guests.id"))
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``lobby`` (before a game), ``playing``, ``closed``."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    game_id: Mapped[str | None] = mapped_column(String(16), default=None)
    games: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    touched_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    removed: Mapped[list[Any] | None]
    """The guests the host removed (``[{"guest", "name"}]``): they may not sit again until
    the host lets them (None: nobody)."""
    quick: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Strangers matched by «Jugar ahora»: nobody joins it by its code, and its seats show
    public names."""


class RoomSeatRow(Base):
    __tablename__ = "room_seats"

    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``empty``, ``human`` or ``bot``."""
    guest: Mapped[str | None] = mapped_column(ForeignKey("guests.id"), default=None)
    name: Mapped[str | None] = mapped_column(String(40), default=None)
    level: Mapped[str | None] = mapped_column(String(16), default=None)
    public: Mapped[str | None] = mapped_column(String(40), default=None)
    """At a table of strangers, the name they see (tapete/public_names.py), not ``name``."""


class AnalysisRow(Base):
    """The coach's analysis of a finished game from one seat (tapete/rooms/analysis.py)."""

    __tablename__ = "analyses"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    result: Mapped[dict[str, Any]] = mapped_column()
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DailyRow(Base):
    """One player's attempt at a day's deal («Reto del día», tapete/daily.py): one a day and
    game (the key), made with its game in one transaction."""

    __tablename__ = "daily"

    day: Mapped[date] = mapped_column(Date, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    guest: Mapped[str] = mapped_column(ForeignKey("guests.id"), primary_key=True, index=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    """Once the game is over: ``{"won", "value", "seconds"}`` (read from its game)."""


class LogroGameRow(Base):
    """A finished game whose logros a player has had counted (once: the key)."""

    __tablename__ = "logro_games"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    guest: Mapped[str] = mapped_column(ForeignKey("guests.id"), primary_key=True, index=True)


class LogroRow(Base):
    """A player's progress towards a logro (tapete/logros.py), and when a game earned it."""

    __tablename__ = "logros"

    guest: Mapped[str] = mapped_column(ForeignKey("guests.id"), primary_key=True)
    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    progress: Mapped[int] = mapped_column(Integer, default=0)
    earned_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    game_id: Mapped[str | None] = mapped_column(String(16), default=None)
    """The game that earned it."""


class RatingRow(Base):
    """A player's rating in a game of skill (tapete/ratings.py): its mean and uncertainty."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_game_mu", "game", "mu"),)

    guest: Mapped[str] = mapped_column(ForeignKey("guests.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingChangeRow(Base):
    """A rated game's change of one player's rating, written with the game's last move."""

    __tablename__ = "rating_changes"
    __table_args__ = (
        Index("ix_rating_changes_game_at", "game", "at"),
        Index("ix_rating_changes_guest", "guest", "game"),
    )

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    guest: Mapped[str] = mapped_column(ForeignKey("guests.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    """The game's kind (``onecard``)."""
    seat: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    """The place the rating used (one who left: last)."""
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LeavingRow(Base):
    """A quick-play game a player left (or lost to timeouts): two within 24 h and the next
    «Jugar ahora» waits (RULES.md «Quick play», «Leaving»)."""

    __tablename__ = "leavings"
    __table_args__ = (Index("ix_leavings_guest_at", "guest", "at"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    guest: Mapped[str] = mapped_column(ForeignKey("guests.id"), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class BlockRow(Base):
    """A player blocked another: they are never matched again."""

    __tablename__ = "blocks"
    __table_args__ = (Index("ix_blocks_blocked", "blocked"),)

    guest: Mapped[str] = mapped_column(ForeignKey("guests.id"), primary_key=True)
    blocked: Mapped[str] = mapped_column(ForeignKey("guests.id"), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ReportRow(Base):
    """A player reported another, with a preset reason, from a game they shared."""

    __tablename__ = "reports"
    __table_args__ = (Index("ix_reports_status", "status", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter: Mapped[str] = mapped_column(ForeignKey("guests.id"))
    reported: Mapped[str] = mapped_column(ForeignKey("guests.id"), index=True)
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id"))
    reason: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), default="open")
    """``open``; ``dismissed`` or ``banned`` once an operator has looked."""
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
