"""Where «Jugar ahora» keeps who waits: in this process's memory (one process), or in Redis
(several processes as one hall), so that people queued on any process are matched together
by whichever process holds the game's lease, and a process that dies loses nobody.

A person is *waiting* for one game at a time (``add`` refuses a second), with a ticket in
that game's queue. Seating takes the tickets of a match out of the queue atomically (all of
them or none: a cancel meanwhile wins) into a *seating* list with the time they were taken;
once their table is made they are *seated* (its address kept a while). A match whose table
was never made — its process died between — is *stranded*: the next holder of the lease puts
it back in the queue.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from tapete.rooms.matching import Ticket

PREFIX: Final = "tapete:quick:"


def encode(ticket: Ticket) -> str:
    return json.dumps(
        {
            "g": ticket.guest,
            "p": ticket.players,
            "r": ticket.rating,
            "s": ticket.since,
            "a": sorted(ticket.avoid),
        }
    )


def decode(raw: str | bytes) -> Ticket:
    d = json.loads(raw)
    return Ticket(str(d["g"]), d["p"], float(d["r"]), float(d["s"]), frozenset(d["a"]))


class Board(Protocol):
    async def add(self, game: str, ticket: Ticket) -> str | None:
        """Queue ``ticket`` for ``game``: None; or the game its guest already waits for."""

    async def remove(self, guest: str) -> str | None:
        """Take ``guest`` out of their queue: the game; None if they were not in one."""

    async def waiting(self, guest: str) -> tuple[str, Ticket | None] | None:
        """The game ``guest`` waits for and their ticket (None while their table is made)."""

    async def tickets(self, game: str) -> list[Ticket]:
        """The queue of ``game``."""

    async def count(self, game: str) -> int:
        """How many wait for ``game``."""

    async def take(self, game: str, guests: list[str], now: float) -> list[Ticket] | None:
        """Out of the queue into seating, all of ``guests`` or none (None: one left)."""

    async def put_back(self, game: str, tickets: list[Ticket]) -> None:
        """Back in the queue (their table could not be made), as they were."""

    async def seated(self, game: str, guests: list[str], url: str, seconds: float) -> None:
        """Their table is made: they wait no more; its address is kept ``seconds``."""

    async def seat_of(self, guest: str) -> str | None:
        """The address of the table ``guest`` was seated at lately."""

    async def stranded(self, game: str, before: float) -> list[Ticket]:
        """Tickets taken for a table before ``before`` and never seated: out of seating
        (the caller puts them back)."""


@dataclass
class MemoryBoard:
    """One process: everything in its memory."""

    queues: dict[str, dict[str, Ticket]] = field(default_factory=dict)
    games: dict[str, str] = field(default_factory=dict)
    """Guest → the game they wait for (queued or being seated)."""
    seating: dict[str, dict[str, tuple[float, Ticket]]] = field(default_factory=dict)
    addresses: dict[str, tuple[str, float]] = field(default_factory=dict)
    clock: Callable[[], float] = time.time

    async def add(self, game: str, ticket: Ticket) -> str | None:
        if ticket.guest in self.games:
            return self.games[ticket.guest]
        self.games[ticket.guest] = game
        self.queues.setdefault(game, {})[ticket.guest] = ticket
        self.addresses.pop(ticket.guest, None)
        return None

    async def remove(self, guest: str) -> str | None:
        game = self.games.get(guest)
        if game is None or guest not in self.queues.get(game, {}):
            return None  # (not waiting, or already being seated: too late to cancel)
        del self.games[guest]
        del self.queues[game][guest]
        return game

    async def waiting(self, guest: str) -> tuple[str, Ticket | None] | None:
        game = self.games.get(guest)
        if game is None:
            return None
        return game, self.queues.get(game, {}).get(guest)

    async def tickets(self, game: str) -> list[Ticket]:
        return list(self.queues.get(game, {}).values())

    async def count(self, game: str) -> int:
        return len(self.queues.get(game, {})) + len(self.seating.get(game, {}))

    async def take(self, game: str, guests: list[str], now: float) -> list[Ticket] | None:
        queue = self.queues.get(game, {})
        if not all(g in queue for g in guests):
            return None
        taken = [queue.pop(g) for g in guests]
        self.seating.setdefault(game, {}).update({t.guest: (now, t) for t in taken})
        return taken

    async def put_back(self, game: str, tickets: list[Ticket]) -> None:
        for t in tickets:
            self.seating.get(game, {}).pop(t.guest, None)
            self.queues.setdefault(game, {})[t.guest] = t
            self.games[t.guest] = game

    async def seated(self, game: str, guests: list[str], url: str, seconds: float) -> None:
        now = self.clock()
        for g in guests:
            self.seating.get(game, {}).pop(g, None)
            self.games.pop(g, None)
            self.addresses[g] = (url, now + seconds)
        self.addresses = {g: a for g, a in self.addresses.items() if a[1] > now}

    async def seat_of(self, guest: str) -> str | None:
        found = self.addresses.get(guest)
        return found[0] if found is not None and found[1] > self.clock() else None

    async def stranded(self, game: str, before: float) -> list[Ticket]:
        seating = self.seating.get(game, {})
        old = [t for at, t in seating.values() if at < before]
        for t in old:
            del seating[t.guest]
        return old


_TAKE = """
for i, guest in ipairs(ARGV) do
  if i > 1 and redis.call('HEXISTS', KEYS[1], guest) == 0 then return nil end
end
local taken = {}
for i, guest in ipairs(ARGV) do
  if i > 1 then
    local ticket = redis.call('HGET', KEYS[1], guest)
    redis.call('HDEL', KEYS[1], guest)
    redis.call('HSET', KEYS[2], guest, ARGV[1] .. '|' .. ticket)
    table.insert(taken, ticket)
  end
end
return taken
"""
"""Take every guest's ticket out of the queue (KEYS[1]) into seating (KEYS[2]), stamped with
ARGV[1]; or none if one is missing (they cancelled meanwhile)."""

_REMOVE = """
local game = redis.call('GET', KEYS[1])
if not game then return nil end
if redis.call('HDEL', ARGV[1] .. game, ARGV[2]) == 0 then return nil end
redis.call('DEL', KEYS[1])
return game
"""
"""Cancel: only while the ticket is still in its queue (not once it is being seated)."""


class RedisBoard:
    """Several processes: the queues in Redis, shared by all."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self._take = redis.register_script(_TAKE)
        self._remove = redis.register_script(_REMOVE)

    @staticmethod
    def _s(value: Any) -> str:
        return value.decode() if isinstance(value, bytes) else str(value)

    async def add(self, game: str, ticket: Ticket) -> str | None:
        if not await self.redis.set(PREFIX + "w:" + ticket.guest, game, nx=True):
            found = await self.redis.get(PREFIX + "w:" + ticket.guest)
            return self._s(found) if found is not None else game
        await self.redis.hset(PREFIX + "q:" + game, ticket.guest, encode(ticket))
        await self.redis.delete(PREFIX + "s:" + ticket.guest)
        return None

    async def remove(self, guest: str) -> str | None:
        game = await self._remove(keys=[PREFIX + "w:" + guest], args=[PREFIX + "q:", guest])
        return self._s(game) if game is not None else None

    async def waiting(self, guest: str) -> tuple[str, Ticket | None] | None:
        game = await self.redis.get(PREFIX + "w:" + guest)
        if game is None:
            return None
        name = self._s(game)
        raw = await self.redis.hget(PREFIX + "q:" + name, guest)
        return name, decode(raw) if raw is not None else None

    async def tickets(self, game: str) -> list[Ticket]:
        return [decode(raw) for raw in (await self.redis.hgetall(PREFIX + "q:" + game)).values()]

    async def count(self, game: str) -> int:
        queued = await self.redis.hlen(PREFIX + "q:" + game)
        seating = await self.redis.hlen(PREFIX + "t:" + game)
        return int(queued) + int(seating)

    async def take(self, game: str, guests: list[str], now: float) -> list[Ticket] | None:
        keys = [PREFIX + "q:" + game, PREFIX + "t:" + game]
        taken = await self._take(keys=keys, args=[repr(now), *guests])
        return [decode(raw) for raw in taken] if taken is not None else None

    async def put_back(self, game: str, tickets: list[Ticket]) -> None:
        async with self.redis.pipeline(transaction=True) as step:  # (all back at once)
            for t in tickets:
                step.hset(PREFIX + "q:" + game, t.guest, encode(t))
                step.hdel(PREFIX + "t:" + game, t.guest)
            await step.execute()

    async def seated(self, game: str, guests: list[str], url: str, seconds: float) -> None:
        # (one transaction: a poll on another process finds each guest waiting or seated,
        # never between the two — the end of the wait and the table's address at once)
        async with self.redis.pipeline(transaction=True) as step:
            for g in guests:
                step.set(PREFIX + "s:" + g, url, px=int(seconds * 1000))
                step.hdel(PREFIX + "t:" + game, g)
                step.delete(PREFIX + "w:" + g)
            await step.execute()

    async def seat_of(self, guest: str) -> str | None:
        found = await self.redis.get(PREFIX + "s:" + guest)
        return self._s(found) if found is not None else None

    async def stranded(self, game: str, before: float) -> list[Ticket]:
        old = []
        for guest, raw in (await self.redis.hgetall(PREFIX + "t:" + game)).items():
            at, _, ticket = self._s(raw).partition("|")
            if float(at) < before and await self.redis.hdel(PREFIX + "t:" + game, guest):
                old.append(decode(ticket))
        return old
