"""Counting what a key (a guest, an address, a seat) does, to slow down what should not be
done fast: a sliding window of hits, and a token bucket. In memory, per process; used by the
edge (:mod:`tapete.server.edge.limits`) and by rooms (hints)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable


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
