"""Counting what a guest or an address does, to slow down what should not be done fast:
guessing room codes. In memory, per process."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable


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
        self._hits: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float]:
        hits = self._hits.setdefault(key, deque())
        cutoff = self.clock() - self.window
        while hits and hits[0] <= cutoff:
            hits.popleft()
        if not hits:
            del self._hits[key]
            return deque()
        return hits

    def blocked(self, key: str) -> bool:
        return len(self._recent(key)) >= self.limit

    def hit(self, key: str) -> bool:
        """Count a hit; True if the key is now blocked."""
        hits = self._recent(key)
        hits.append(self.clock())
        self._hits[key] = hits
        if len(self._hits) > 50_000:  # never grow without bound: forget the quietest
            for k in list(self._hits)[:10_000]:
                del self._hits[k]
        return len(hits) >= self.limit
