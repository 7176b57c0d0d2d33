"""Persistence: SQLAlchemy models, Alembic migrations, and the repository the rooms use."""

from tapete.store.daily import AlreadyPlayed
from tapete.store.repo import (
    GameRecord,
    LoggedMove,
    RoomRecord,
    StaleWrite,
    Store,
    default_url,
    migrate,
    utcnow,
)

__all__ = [
    "AlreadyPlayed",
    "GameRecord",
    "LoggedMove",
    "RoomRecord",
    "StaleWrite",
    "Store",
    "default_url",
    "migrate",
    "utcnow",
]
