"""Counting what a key (a guest, an address, a seat) does, to slow down what should not be
done fast: a sliding window of hits, and a token bucket, in memory; and the hall's throttles
(:class:`Counts`), counted by every process together when the hall has Redis. Used by the
edge (:mod:`tapete.server.edge.limits`) and by rooms (hints)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

from limits import RateLimitItemPerSecond
from limits.aio.storage import RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter

log = logging.getLogger(__name__)

SHARED_TIMEOUT = 0.25
"""Seconds a throttle waits for Redis's count before going by this process's own."""

SHARED_RETRY = 5.0
"""After Redis did not answer a count, seconds each process goes by its own counts before
asking Redis again (so an outage does not slow every request by :data:`SHARED_TIMEOUT`)."""


class Throttle:
    """At most ``limit`` hits per key in any ``window`` seconds; a key over it is blocked
    until its oldest hit leaves the window.

    >>> t = Throttle(limit=2, window=60, clock=lambda: 0.0)
    >>> t.hit("a"), t.hit("a"), t.blocked("a"), t.blocked("b")
    (False, True, True, False)
    """

    def __init__(
        self, limit: int, window: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._hits: dict[Hashable, deque[float]] = {}

    def _recent(self, key: Hashable) -> deque[float]:
        hits = self._hits.setdefault(key, deque())
        cutoff = self.clock() - self.window
        while hits and hits[0] <= cutoff:
            hits.popleft()
        if not hits:
            del self._hits[key]
            return deque()
        return hits

    def blocked(self, key: Hashable) -> bool:
        return len(self._recent(key)) >= self.limit

    def hit(self, key: Hashable) -> bool:
        """Count a hit; True if the key is now blocked."""
        hits = self._recent(key)
        hits.append(self.clock())
        self._hits[key] = hits
        if len(self._hits) > 50_000:  # never grow without bound: forget the quietest
            for k in list(self._hits)[:10_000]:
                del self._hits[k]
        return len(hits) >= self.limit


class Bucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` saved; each message takes
    one, and one that finds none is refused.

    >>> now = [0.0]
    >>> b = Bucket(rate=1, burst=2, clock=lambda: now[0])
    >>> b.take(), b.take(), b.take()
    (True, True, False)
    >>> now[0] = 1.0
    >>> b.take(), b.take()
    (True, False)
    """

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self) -> bool:
        """Take a token; False if there is none now."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Counts:
    """Where the hall's throttles (:meth:`throttle`) count. Alone, each process counts what
    it sees. With Redis (:meth:`share`, several processes as one hall) a throttle counts in
    Redis for all of them — the moving window of the `limits` library, keyed by the
    throttle's name — so ten processes allow what one does; and in this process too, which
    decides while Redis does not answer: for :data:`SHARED_RETRY` seconds after a count
    Redis did not give in :data:`SHARED_TIMEOUT`. A key this process already holds over the
    limit is refused without asking Redis."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.limiter: MovingWindowRateLimiter | None = None
        self.failed_at: float | None = None

    def share(self, pool: Any, prefix: str = "tapete:limits") -> None:
        """Count in Redis, on the connections of ``pool`` (a ``redis.asyncio`` pool)."""
        storage = RedisStorage(
            "async+redis://", implementation="redispy", key_prefix=prefix, connection_pool=pool
        )
        self.limiter = MovingWindowRateLimiter(storage)

    def throttle(self, name: str, limit: int, window: float) -> HallThrottle:
        """At most ``limit`` hits of a key in any ``window`` seconds (whole seconds in
        Redis), counted as this hall counts."""
        return HallThrottle(self, name, limit, window)

    async def ask(self, work: Callable[[MovingWindowRateLimiter], Awaitable[bool]]) -> bool | None:
        """Redis's answer to ``work``; None if the hall does not share its counts or Redis
        did not answer (now, or lately)."""
        limiter = self.limiter
        if limiter is None:
            return None
        if self.failed_at is not None and self.clock() - self.failed_at < SHARED_RETRY:
            return None
        try:
            answer = await asyncio.wait_for(work(limiter), SHARED_TIMEOUT)
        except Exception as e:  # (down, slow, refusing: the process's own counts decide)
            if self.failed_at is None:
                log.warning("throttles: Redis did not count (%s); each process counts alone", e)
            self.failed_at = self.clock()
            return None
        if self.failed_at is not None:
            log.warning("throttles: Redis counts again for the whole hall")
            self.failed_at = None
        return answer


class HallThrottle:
    """One of the hall's throttles (:meth:`Counts.throttle`): a key is blocked while it has
    ``limit`` hits in the last ``window`` seconds, counted in this process and, when the
    hall shares its counts, in Redis for every process."""

    def __init__(self, counts: Counts, name: str, limit: int, window: float) -> None:
        self.counts = counts
        self.name = name
        self.local = Throttle(limit, window, counts.clock)
        self.item = RateLimitItemPerSecond(limit, max(1, round(window)))

    async def blocked(self, key: str) -> bool:
        if self.local.blocked(key):
            return True
        shared = await self.counts.ask(lambda limiter: limiter.test(self.item, self.name, key))
        return False if shared is None else not shared

    async def hit(self, key: str) -> None:
        """Count a hit (in Redis too when it answers)."""
        self.local.hit(key)
        await self.counts.ask(lambda limiter: limiter.hit(self.item, self.name, key))
