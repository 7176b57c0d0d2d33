"""Leases in Redis: each room (a game, a private room) is owned by one process at a time.

A lease is a key ``tapete:lease:<what>`` whose value is the owner's id, with a time to live:
the owner renews it while it holds the room; a process that dies stops renewing, and
another takes the room over once the lease has expired. Taking, renewing and giving back
are single Redis commands or scripts, so two processes can never both believe they took a
lease. A lease is not the last word: an owner that lost its lease without knowing it (a
pause, a partition) is still stopped from committing by the move log's version
(``StaleWrite``), which the new owner moved on.
"""

from __future__ import annotations

from typing import Any

PREFIX = "tapete:lease:"

_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  else
    table.insert(lost, i)
  end
end
return lost
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class Leases:
    """The leases one process (``owner``) takes and keeps, each for ``ttl`` seconds from its
    last renewal."""

    def __init__(self, redis: Any, owner: str, ttl: float = 5.0) -> None:
        self.redis = redis
        self.owner = owner
        self.ttl_ms = int(ttl * 1000)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    async def take(self, what: str) -> bool:
        """Take the lease on ``what`` if nobody holds it (or this process does: renewed);
        False if another process holds it."""
        key = PREFIX + what
        if await self.redis.set(key, self.owner, nx=True, px=self.ttl_ms):
            return True
        return bool(await self.renew([what]) == [])

    async def renew(self, whats: list[str]) -> list[str]:
        """Renew the leases on ``whats``; returns those this process no longer holds (they
        expired, and another may have taken them)."""
        if not whats:
            return []
        lost = await self._renew(keys=[PREFIX + w for w in whats], args=[self.owner, self.ttl_ms])
        return [whats[int(i) - 1] for i in lost]

    async def give_back(self, what: str) -> bool:
        """Give the lease on ``what`` back at once (a clean shutdown, a room closed), if this
        process still holds it."""
        return bool(await self._release(keys=[PREFIX + what], args=[self.owner]))

    async def owner_of(self, what: str) -> str | None:
        value = await self.redis.get(PREFIX + what)
        if value is None:
            return None
        return value.decode() if isinstance(value, bytes) else str(value)
