"""How busy this process is, and whether it is **full**: past what it can hold, a new game,
room or place in «Jugar ahora» is refused at once (503, ``Retry-After``, «hay mucha gente»)
so that the players already at a table keep their latency, and ``/salud`` says so, for a
balancer to send new sessions to another process (README, «A full process»).

The door closes on what the loop will be doing, not only on what it does: each newcomer let
in during the last :data:`RECENT` seconds counts as one more of the players already here
(its load comes a few seconds later), so the loop's share is scaled by
``(players + recent newcomers) / players``.

The measure is the CPU of the thread that runs the event loop — the one every player's move
waits for — over the wall time, averaged over the last :data:`WINDOW` seconds, sampled every
:data:`TICK`: a loop that spends ``Limits.full_cpu`` of its core is full. Other threads (a
bot's search, hints, PostgreSQL's writer) do not count: they do not make anyone wait on the
loop. The loop's lag (how late a timer wakes) is measured beside it for the operator
(``tapete_loop_lag_seconds``, the detailed ``/salud``), not decided on: measured under a
saturating ramp it stayed at a few milliseconds while moves waited tens of them in their
tables' queues (bench/RESULTS.md, «A full process»), and another process's load on the same
cores makes it late too."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable

TICK = 0.1
"""Seconds between two samples."""

WINDOW = 1.0
"""Seconds the measures are averaged over: short enough to close the door before the
newcomers of a rush are seated, long enough not to close it for a collector's pause."""

RETRY_AFTER = 5
"""What a refused arrival is told to wait (``Retry-After``, seconds)."""

FEW_PLAYERS = 50
"""A newcomer weighs as much as the average player here, the players counted as at least
this many: with a handful of players, the next one does not double the load to come."""

RECENT = 3.0
"""Seconds a newcomer let in counts as load not yet seen: its table is dealt, its socket
opens, and its first move comes a thought later (about 2 s). Without it the door let a whole
wave of arrivals in during the second before the first of them moved (bench/RESULTS.md, «A
full process»)."""


class Load:
    """The event loop's thread's CPU share and the loop's lag over the last :data:`WINDOW`
    seconds (:meth:`run` samples them; :meth:`sample` takes one), and the newcomers let in
    lately (:meth:`admit`).

    >>> now, used = [0.0], [0.0]
    >>> load = Load(0.75, cpu=lambda: used[0], clock=lambda: now[0])
    >>> for _ in range(10):
    ...     now[0] += 0.1; used[0] += 0.09; load.sample(0.001)
    >>> round(load.cpu_share, 2), load.full
    (0.9, True)
    """

    def __init__(
        self,
        full_cpu: float,
        cpu: Callable[[], float] = time.thread_time,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.full_cpu = full_cpu
        """The share of its core past which the loop is full (0: never full)."""
        self.players: Callable[[], int] = lambda: 0
        """How many players are here now (the open sockets; the app sets it)."""
        self.admitted: deque[float] = deque()
        """When each newcomer of the last :data:`RECENT` seconds was let in."""
        self.cpu = cpu
        self.clock = clock
        self.samples: deque[tuple[float, float, float]] = deque()
        """(wall time, CPU time, the tick's lag), the last WINDOW seconds'."""
        self.refused = 0
        """Arrivals refused so far (``tapete_arrivals_refused``)."""
        self.sample(0.0)

    def sample(self, lag: float) -> None:
        now = self.clock()
        self.samples.append((now, self.cpu(), lag))
        while len(self.samples) > 2 and self.samples[0][0] < now - WINDOW:
            self.samples.popleft()

    @property
    def cpu_share(self) -> float:
        """The loop's thread's CPU seconds per second over the window (1.0: all of its core;
        ``cpu`` is read on the loop's thread, by :meth:`run`)."""
        (t0, c0, _), (t1, c1, _) = self.samples[0], self.samples[-1]
        return (c1 - c0) / (t1 - t0) if t1 > t0 else 0.0

    @property
    def lag(self) -> float:
        """The loop's mean lag over the window, in seconds."""
        return sum(s[2] for s in self.samples) / len(self.samples)

    @property
    def expected(self) -> float:
        """The loop's share once the newcomers of the last :data:`RECENT` seconds play as
        much as the players already here."""
        now = self.clock()
        while self.admitted and self.admitted[0] < now - RECENT:
            self.admitted.popleft()
        players = max(self.players(), FEW_PLAYERS)
        return self.cpu_share * (1 + len(self.admitted) / players)

    @property
    def full(self) -> bool:
        return self.full_cpu > 0 and self.expected >= self.full_cpu

    def admit(self) -> bool:
        """Let a newcomer in (counted as load to come), or refuse them: the loop is full."""
        if self.full:
            self.refused += 1
            return False
        if self.full_cpu > 0:
            self.admitted.append(self.clock())
        return True

    async def run(self) -> None:
        """Sample every :data:`TICK` seconds, for as long as the process runs."""
        loop = asyncio.get_running_loop()
        self.samples.clear()  # (from now: not what starting the process cost)
        self.sample(0.0)
        while True:
            due = loop.time() + TICK
            await asyncio.sleep(TICK)
            self.sample(max(0.0, loop.time() - due))
