"""How busy this process is, and whether it is **full**: past what it can hold, a new game,
room or place in «Jugar ahora» is refused at once (503, ``Retry-After``, «hay mucha gente»)
so that the players already at a table keep their latency, and ``/salud`` says so, for a
balancer to send new sessions to another process (README, «A full process»).

The measure is the process's own CPU — every thread's, over the wall time — averaged over
the last :data:`WINDOW` seconds, sampled every :data:`TICK`: a process that spends
``Limits.full_cpu`` of a core is full. The loop's lag (how late a timer wakes) is measured
beside it for the operator (``tapete_loop_lag_seconds``, the detailed ``/salud``), not
decided on: another process's load on the same cores makes it late too, and that is no
reason to turn players away from this one."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable

TICK = 0.25
"""Seconds between two samples."""

WINDOW = 2.0
"""Seconds the CPU share is averaged over: short enough to close the door before the
newcomers of a rush are seated, long enough not to close it for a collector's pause."""

RETRY_AFTER = 5
"""What a refused arrival is told to wait (``Retry-After``, seconds)."""


class Load:
    """This process's CPU share and its loop's lag over the last :data:`WINDOW` seconds
    (:meth:`run` samples them; :meth:`sample` takes one).

    >>> now, used = [0.0], [0.0]
    >>> load = Load(0.9, cpu=lambda: used[0], clock=lambda: now[0])
    >>> for _ in range(8):
    ...     now[0] += 0.25; used[0] += 0.24; load.sample(0.001)
    >>> round(load.cpu_share, 2), load.full
    (0.96, True)
    """

    def __init__(
        self,
        full_cpu: float,
        cpu: Callable[[], float] = time.process_time,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.full_cpu = full_cpu
        """The share of a core past which the process is full (0: never)."""
        self.cpu = cpu
        self.clock = clock
        self.samples: deque[tuple[float, float, float]] = deque()
        """(wall time, CPU time, the tick's lag), the last WINDOW seconds'."""
        self.refused = 0
        """Arrivals refused so far (``tapete_arrivals_refused_total``)."""
        self.sample(0.0)

    def sample(self, lag: float) -> None:
        now = self.clock()
        self.samples.append((now, self.cpu(), lag))
        while len(self.samples) > 2 and self.samples[0][0] < now - WINDOW:
            self.samples.popleft()

    @property
    def cpu_share(self) -> float:
        """CPU seconds per second over the window (1.0: one core, all of it)."""
        (t0, c0, _), (t1, c1, _) = self.samples[0], self.samples[-1]
        return (c1 - c0) / (t1 - t0) if t1 > t0 else 0.0

    @property
    def lag(self) -> float:
        """The loop's mean lag over the window, in seconds."""
        return sum(s[2] for s in self.samples) / len(self.samples)

    @property
    def full(self) -> bool:
        return self.full_cpu > 0 and self.cpu_share >= self.full_cpu

    async def run(self) -> None:
        """Sample every :data:`TICK` seconds, for as long as the process runs."""
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + TICK
            await asyncio.sleep(TICK)
            self.sample(max(0.0, loop.time() - due))
