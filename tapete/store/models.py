"""The tables: guests, games and their move logs, and a few settings."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, ForeignKey, Integer, String, func
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}  # noqa: RUF012


class Setting(Base):
    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(512))


class Guest(Base):
    __tablename__ = "guests"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


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
