"""What one guest, address or connection may do, and counting it: the limits a hostile or
unlucky client meets (docs/security.md), and the throttles that count hits against them. In
memory, per process."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class Limits:
    """Every limit of the edge, with its default; ``tapete serve`` sets a few from flags and
    the environment (docs/security.md lists them all)."""

    # sockets
    socket_queue_messages: int = 512
    """Messages queued for one connection that it has not read yet, at most."""
    socket_queue_bytes: int = 2_000_000
    """Bytes queued for one connection, at most; past either cap it is closed (4008)."""
    socket_rate: float = 30.0
    """Messages a socket may send per second, on average…"""
    socket_burst: int = 60
    """…and at once."""
    sockets_per_guest: int = 12
    sockets_per_address: int = 200
    socket_ping_seconds: float = 20.0
    """Keepalive: a peer that answers no ping within this is closed."""
    socket_deflate: bool = False
    """Per-message compression of socket frames. Off: for frames of a few kilobytes it cost
    about 45 kB a connection (a zlib context each) and about half of the time spent sending
    frames (bench/RESULTS.md)."""
    # bodies
    body_bytes: int = 64 * 1024
    """The largest request body (and socket message: 4 KB, MAX_MESSAGE) accepted."""
    json_depth: int = 16
    """The deepest JSON nesting accepted, in a body or a socket message."""
    # creating games
    open_games_per_guest: int = 8
    """Unfinished practice games a guest may have; a new one of a kind replaces the old."""
    games_per_minute_guest: int = 20
    games_per_minute_address: int = 120
    # hints
    hint_threads: int = 1
    """Threads that compute hints (their own pool: bots never wait on them)."""
    hints_per_minute: int = 20
    """Hints one seat may ask for per minute (one at a time)."""
    # cross-site
    origins: tuple[str, ...] = ()
    """Origins accepted besides the hall's own (a deployment behind a proxy: its public
    origin, e.g. ``https://tapete.example``)."""
    trusted_proxies: tuple[str, ...] = ()
    """Peer addresses whose ``X-Forwarded-Proto`` / ``X-Forwarded-For`` are believed."""
    # the guest cookie
    cookies_issued_after: float = 0.0
    """A Unix time: every guest token issued before it is refused (a leaked cookie's
    rotation: everyone gets a new identity). 0: all read."""

    def with_text(self, text: str) -> Limits:
        """These limits with some changed, as an operator writes them
        (``TAPETE_LIMITS`` / ``--limit``): ``name=value`` pairs separated by commas or
        spaces; a list's items by ``|``. Raises ValueError on a name that is no limit.

        >>> Limits().with_text("socket_deflate=on").socket_deflate
        True
        >>> Limits().with_text("sockets_per_guest=4, origins=https://a.example|https://b.example")
        ... # doctest: +ELLIPSIS
        Limits(...sockets_per_guest=4,...origins=('https://a.example', 'https://b.example')...)
        """
        kinds = {f.name: type(getattr(self, f.name)) for f in fields(self)}
        changes: dict[str, Any] = {}
        for pair in text.replace(",", " ").split():
            name, sep, value = pair.partition("=")
            if not sep or name not in kinds:
                raise ValueError(f"no such limit: {name!r} (see docs/security.md)")
            kind = kinds[name]
            if kind is tuple:
                changes[name] = tuple(v for v in value.split("|") if v)
            elif kind is bool:
                changes[name] = value.lower() in ("1", "true", "yes", "on")
            else:
                changes[name] = kind(value)
        return replace(self, **changes)


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
