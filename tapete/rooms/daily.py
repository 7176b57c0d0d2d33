"""The deals of the day («Reto del día», :mod:`tapete.daily`): a player's one attempt a day
at each game's deal, and the day's table of everyone who played it. Games are read from the
registry (each one's :class:`~tapete.games.protocol.Daily`); none is named here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from tapete import daily
from tapete.games.protocol import Daily, IllegalMove
from tapete.public_names import of as public_name
from tapete.registry import REGISTRY, Entry
from tapete.rooms.seats import seat_of
from tapete.rooms.tables import Tables
from tapete.store import AlreadyPlayed, Store


def games() -> list[Entry]:
    """The games with a deal of the day, in the hall's order."""
    return [e for e in REGISTRY.values() if e.game.daily is not None]


def spec_of(kind: object) -> tuple[Entry, Daily]:
    """The game ``kind`` and its deal of the day; ``IllegalMove("bad_config")`` if none."""
    found = REGISTRY.get(kind) if isinstance(kind, str) else None
    if found is None or found.game.daily is None:
        raise IllegalMove("bad_config", field="game")
    return found, found.game.daily


@dataclass(frozen=True, slots=True)
class Started:
    game_id: str
    new: bool
    """False: the player had played (or begun) the day's deal already: their game."""


@dataclass(frozen=True, slots=True)
class DayTable:
    day: date
    kind: str
    rows: list[daily.Ranked]
    """Each finished attempt, ranked."""
    played: int
    """Attempts made (finished or not)."""
    mine: str | None
    """The viewer's game, if they made an attempt."""


class Dailies:
    def __init__(self, store: Store, tables: Tables, secret: str) -> None:
        self.store = store
        self.tables = tables
        self.secret = secret

    def seed(self, day: date, kind: str) -> int:
        return daily.seed(self.secret, day, kind)

    def salt(self, day: date, kind: str) -> str:
        return daily.salt(self.secret, day, kind)

    def commitment(self, day: date, kind: str) -> str:
        return daily.commitment(self.secret, day, kind)

    async def start(self, kind: str, guest: str, day: date) -> Started:
        """``guest``'s attempt at the day's deal of ``kind``: a new game from the day's seed
        with the deal's options and bots, or the one they made already (one a day, also from
        two tabs at once: the store's key decides)."""
        found, spec = spec_of(kind)
        made = await self.store.daily.attempt(day, found.key, guest)
        if made is not None:
            return Started(made, False)
        try:
            table = await self.tables.create(
                found.key, spec.config, guest, level=spec.level, seed=self.seed(day, found.key),
                daily=day,
            )  # fmt: skip
        except AlreadyPlayed as exc:
            return Started(exc.game_id, False)
        return Started(table.id, True)

    async def table(self, kind: str, day: date, viewer: str | None) -> DayTable:
        """The day's table of ``kind``: the finished attempts ranked (results read from their
        games the first time, then kept)."""
        found, spec = spec_of(kind)
        attempts = await self.store.daily.games(day, found.key)
        fresh = [a for a in attempts if a.result is None and a.outcome is not None]
        logs = await self.store.logs([a.game_id for a in fresh]) if fresh else {}
        kept: dict[str, dict[str, Any]] = {}
        for a in fresh:
            seat = seat_of(a.seats, a.guest)
            if seat is None:
                continue
            log = [(m.seat, m.move) for m in logs.get(a.game_id, [])]
            assert a.outcome is not None
            won, value = spec.result(a.outcome, seat, log)
            seconds = max(0.0, (a.updated_at - a.created_at).total_seconds())
            kept[a.guest] = {"won": won, "value": value, "seconds": round(seconds, 1)}
        await self.store.daily.keep_results(day, found.key, kept)
        rows: list[daily.Attempt] = []
        for a in attempts:
            result = a.result or kept.get(a.guest)
            name = public_name(a.guest, a.public_name).key
            if result is None:
                rows.append(daily.Attempt(a.guest, name, False, game_id=a.game_id))
                continue
            rows.append(
                daily.Attempt(
                    a.guest, name, True, bool(result["won"]), int(result["value"]),
                    float(result["seconds"]), a.game_id,
                )
            )  # fmt: skip
        return DayTable(
            day=day,
            kind=found.key,
            rows=daily.rank(rows, spec.lower),
            played=len(attempts),
            mine=next((a.game_id for a in attempts if a.guest == viewer), None),
        )

    async def streak(self, guest: str, today: date) -> int:
        """Days in a row ``guest`` played a deal of the day (any game)."""
        return daily.streak(await self.store.daily.days(guest), today)
