"""The tables this process runs, in memory: making them, opening them from their logs,
rebuilding them on a restart, and letting the idle ones go."""

from __future__ import annotations

import asyncio
import collections
import logging
import secrets
from collections.abc import Awaitable, Callable
from datetime import date, timedelta
from typing import Any

from tapete.aio import running_loop
from tapete.cosmetics import look
from tapete.games.protocol import IllegalMove
from tapete.registry import Entry, entry
from tapete.rooms.device import device_seats
from tapete.rooms.inbox import Settings
from tapete.rooms.ownership import Ownership, table_unit
from tapete.rooms.table import Table, TableEvents
from tapete.store import GameRecord, LoggedMove, RoomRecord, Store, utcnow

log = logging.getLogger(__name__)

RESUME_BATCH = 200
"""Games whose logs a restart reads in one go."""

SEAT_FIELDS = ("kind", "guest", "name", "public", "level", "n", "worn")
"""What a private room's seat brings to its game's seat."""


def practice_seats(
    found: Entry,
    players: int,
    guest: str,
    level: str | None = None,
    worn: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Seat 0 is the guest, in what they ``worn`` (the shop's card back, frame…, as among
    friends); the others are the game's bots at ``level``, each stored as the game's
    ``n``-th bot and named only when shown (:func:`tapete.rooms.seats.seat_names`, in the
    viewer's language); a game without bots: the other seats are people around the same
    phone, with no guest of their own, and nobody's looks stand for them."""
    seats: list[dict[str, Any]] = [{"kind": "human", "guest": guest}]
    bots = found.bots
    if worn is not None and bots is not None:
        seats[0]["worn"] = worn
    for i in range(1, players):
        if bots is None:
            seats.append({"kind": "local"})
            continue
        seats.append({"kind": "bot", "level": level or bots.default, "n": i})
    return seats


def online_clocks(kind: str, options: dict[str, Any]) -> dict[str, float | None]:
    """The clocks of a game among friends: each kind's online seconds, the turn clock as the
    room chose."""
    spec = entry(kind).game
    clocks = {k: c.online for k, c in spec.clocks.items()}
    if "turn" in clocks and "clock" in options:
        clocks["turn"] = options["clock"]
    return clocks


class Tables:
    """The tables run here, by game id. A table is opened from its log the first time it is
    asked for (:meth:`open`), and every unfinished game on a restart (:meth:`resume`). A
    finished game nobody has looked at for ``idle_seconds`` is closed and dropped from
    memory (:meth:`evict`); asked for again, it reopens from its log."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        ownership: Ownership,
        events: TableEvents,
        release: Callable[[str], Awaitable[None]],
        idle_seconds: float = 60.0,
    ) -> None:
        self.store = store
        self.settings = settings
        self.ownership = ownership
        self.events = events
        """Told by each table opened here when its log moved on and when its game ends."""
        self.release = release
        """Told the unit of each table dropped here (it goes if nothing else of it is open)."""
        self.idle_seconds = idle_seconds
        self._tables: dict[str, Table] = {}
        self._units: collections.Counter[str] = collections.Counter()
        """How many of the open tables each unit has (:meth:`holds` in one look)."""
        self._touched: dict[str, float] = {}
        """When each table was last asked for (loop time)."""
        self._room_deals: dict[str, dict[str, Any]] = {}
        """The test API's positions for private rooms' games, by room id
        (:meth:`deal_for_room`)."""
        self._lock = asyncio.Lock()

    def get(self, game_id: str) -> Table | None:
        """The table of ``game_id`` if it is open here (touched: asked for now)."""
        table = self._tables.get(game_id)
        if table is not None:
            self._touched[game_id] = running_loop().time()
        return table

    def loaded(self) -> list[Table]:
        return list(self._tables.values())

    def holds(self, unit: str) -> bool:
        """Whether a table of ``unit`` is open here."""
        return self._units[unit] > 0

    async def open(
        self,
        record: GameRecord,
        clocks: dict[str, float | None] | None = None,
        moves: list[LoggedMove] | None = None,
    ) -> Table:
        """The table of ``record``, opened from its log if it is not open yet (a game among
        friends runs its room's clocks)."""
        if record.room_id is not None and clocks is None:
            stored = await self.store.room_by_id(record.room_id)
            clocks = online_clocks(record.kind, stored.options if stored else {})
        async with self._lock:
            table = self._tables.get(record.id)
            if table is None:
                left = await self.ownership.clocks_left(table_unit(record), record.id)
                table = await Table.open(
                    record, self.store, self.settings, clocks, moves, self.events, left
                )
                self._tables[record.id] = table
                self._units[table_unit(record)] += 1
            self._touched[record.id] = running_loop().time()
            return table

    async def create(
        self,
        kind: str,
        config: dict[str, Any],
        guest: str,
        *,
        level: str | None = None,
        seed: int | None = None,
        position: dict[str, Any] | None = None,
        daily: date | None = None,
        device: list[str] | None = None,
        guided: bool = False,
    ) -> Table:
        """Start a practice game for ``guest`` against bots; with ``device`` (the players'
        names, ``guest``'s first), among people on ``guest``'s device passed round
        (:mod:`~tapete.rooms.device`); ``guided``: the game's guided first game (its deal,
        its bots, :mod:`~tapete.rooms.guide`). Raises IllegalMove("bad_config"); with
        ``daily`` (their attempt at that day's deal), the store's AlreadyPlayed."""
        found = entry(kind)
        spec = found.game
        if guided:
            if spec.guided is None or device is not None or daily is not None:
                raise IllegalMove("bad_config", field="guided")
            position, level = spec.guided.position, spec.guided.level
        start = spec.rules.load(position) if position is not None else None
        parsed = start.config if start is not None else spec.parse_config(config)
        if level is not None and (found.bots is None or found.bots.level(level) is None):
            raise IllegalMove("bad_config", field="level")
        account = await self.store.accounts.get(guest)
        looks = look(account.equipped, account.avatar) if account is not None else look(None, None)
        if device is not None:
            if level is not None or daily is not None:
                raise IllegalMove("bad_config", field="level")
            seats = device_seats(found, spec.rules.seats(parsed), guest, device)
            seats[0]["worn"] = looks
        else:
            seats = practice_seats(found, spec.rules.seats(parsed), guest, level, looks)
            if guided:
                seats[0]["guided"] = True
        record = await self.store.create_game(
            kind,
            spec.config_json(parsed),
            seed if seed is not None else secrets.randbits(62),
            seats,
            owner=guest,
            position=spec.rules.dump(start) if start is not None else None,
            daily=daily,
        )
        await self.ownership.claim(table_unit(record))  # (a new game: nobody else holds it)
        table = await self.open(record)
        await self.set_aside(guest, kind, keep=table.id)
        return table

    async def create_for_room(
        self, record: RoomRecord, seats: list[dict[str, Any]], absent: dict[int, bool]
    ) -> Table:
        """A private room's next game with ``seats``; the seats of ``absent`` players start
        away (True) or with their grace running (False)."""
        spec = entry(record.kind).game
        assert spec.online is not None
        dealt = self._room_deals.get(record.id)
        start = spec.rules.load(dealt) if dealt is not None else None
        if start is not None and spec.rules.seats(start.config) != len(seats):
            start = None  # (the room's seats changed since: a deal at random)
        config = (
            start.config
            if start is not None
            else spec.online.with_seats(spec.parse_config(record.options["config"]), len(seats))
        )
        game_seats = [
            {k: v for k, v in s.items() if v is not None and k in SEAT_FIELDS} for s in seats
        ]
        game = await self.store.create_game(
            record.kind,
            spec.config_json(config),
            secrets.randbits(62),
            game_seats,
            owner=record.host,
            room_id=record.id,
            rated=bool(record.options.get("rated", False)),
            position=spec.rules.dump(start) if start is not None else None,
        )
        table = await self.open(game)
        if absent:
            table.absent_at_start(absent)
        return table

    def deal_for_room(self, record: RoomRecord, position: dict[str, Any]) -> None:
        """Deal every later game of the room of ``record`` from ``position`` (the test API:
        short, known games among friends in the browser tests; kept in this process's memory
        only): a game whose players are as many as the position's seats is dealt from it, any
        other at random. Raises IllegalMove("bad_config") if the position does not read or
        has more seats than the room."""
        spec = entry(record.kind).game
        try:
            start = spec.rules.load(position)
        except (KeyError, ValueError, TypeError):
            raise IllegalMove("bad_config", field="position") from None
        if spec.rules.seats(start.config) > len(record.seats):
            raise IllegalMove("bad_config", field="players")
        self._room_deals[record.id] = spec.rules.dump(start)

    async def resume(self) -> int:
        """Rebuild the live games from their logs (every game of a private room, and the
        practice games moved within ``Settings.live_seconds``), reading the logs in bulk.
        Returns how many. Meanwhile any game asked for opens at once."""
        since = utcnow() - timedelta(seconds=self.settings.live_seconds)
        records = await self.store.unfinished(live_since=since)
        for start in range(0, len(records), RESUME_BATCH):
            batch = [r for r in records[start : start + RESUME_BATCH] if r.id not in self._tables]
            logs = await self.store.logs([r.id for r in batch])
            rooms = await self.store.rooms_by_id([r.room_id for r in batch if r.room_id])
            for record in batch:
                stored = rooms.get(record.room_id) if record.room_id else None
                clocks = online_clocks(record.kind, stored.options) if stored else None
                await self.open(record, clocks, logs[record.id])
        return len(records)

    async def evict(self) -> int:
        """Close, and drop from memory, the games no one is connected to: finished ones not
        asked for in ``idle_seconds``, practice games not asked for in
        ``Settings.idle_unfinished_seconds`` (a game of a private room stays while it is
        unfinished: its room counts on it). Each reopens from its log when asked for.
        Returns how many went."""
        now = running_loop().time()
        async with self._lock:
            gone = [table for table in self._tables.values() if self._idle(table, now)]
            await self._drop(gone)
        if gone:
            log.info("closed %d idle games; %d open", len(gone), len(self._tables))
        return len(gone)

    def _idle(self, table: Table, now: float) -> bool:
        if table.subscribers:
            return False
        idle = now - self._touched.get(table.id, now)
        if table.finished:
            return idle >= self.idle_seconds
        return not table.online and idle >= self.settings.idle_unfinished_seconds

    async def _drop(self, tables: list[Table]) -> None:
        """Close these tables and forget them (the caller holds the lock)."""
        for table in tables:
            await table.close()
            self._forget(table)
            await self.release(table_unit(table.record))

    async def set_aside(self, guest: str, kind: str, keep: str) -> int:
        """A new practice game of ``kind`` replaces the guest's others of that kind in memory
        (nobody connected to them: they reopen from their logs if asked for)."""
        async with self._lock:
            old = [
                table
                for table in self._tables.values()
                if table.id != keep
                and not table.online
                and table.record.kind == kind
                and table.record.owner == guest
                and not table.subscribers
            ]
            await self._drop(old)
        return len(old)

    async def moved(self, units: set[str]) -> None:
        """The tables of ``units`` are run elsewhere now: stop them here, and tell their
        connections to join again."""
        async with self._lock:
            for table in [t for t in self._tables.values() if table_unit(t.record) in units]:
                self._forget(table)
                await table.moved()

    async def close(self) -> None:
        for table in list(self._tables.values()):
            await table.close()
        self._tables.clear()
        self._touched.clear()
        self._units.clear()

    def _forget(self, table: Table) -> None:
        if self._tables.get(table.id) is table:
            del self._tables[table.id]
            unit = table_unit(table.record)
            self._units[unit] -= 1
            if self._units[unit] <= 0:
                del self._units[unit]
        self._touched.pop(table.id, None)
