"""How ``tapete serve`` keeps Python's garbage collector from stopping the hall.

A full collection walks every tracked object: with thousands of sockets open that is
hundreds of milliseconds during which no move is played (bench/RESULTS.md, «GC pauses»).
Most of those objects live as long as their socket or room, and are freed by reference
counting, not by the collector. So, once a full collection has run, what survived it is
frozen (``gc.freeze``): later collections walk only what is newer. What the frozen objects
leave behind in reference cycles (a closed socket's protocol and transport point at each
other) waits for the next thorough sweep, every ``thorough_seconds``: unfreeze, collect
everything, freeze again — one long pause an hour instead of one every minute.

What lives ``freeze_seconds`` is frozen too, full collection or not: a crowd that arrived in
a minute (thousands of sockets and rooms, all young) is never walked in one full collection
of a few hundred milliseconds (bench/RESULTS.md, «Several processes, and one process again»).

And the collector starts no collection of generations 1 and 2 of its own, only of
generation 0 (what was made since the last one). With generation 2 emptied by every freeze,
Python's rule (a full collection once what is pending exceeds a quarter of what is old) let
one run every few seconds, 20–80 ms each with 5,000 players, for the few hundred objects of
cyclic garbage it found; and each tenth young collection walked generation 1 too, 50–75 ms
with 5,000 players (bench/RESULTS.md, «The collector's own full collections», «No
collections of generation 1»). What survives a young collection waits in generation 1 for
the next freeze (``freeze_seconds``), and its cycles for the thorough sweep.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from typing import Any

log = logging.getLogger(__name__)

NO_FULL_COLLECTIONS = 2**30
"""The thresholds of generations 1 and 2: collections of the generation below before one of
theirs (never)."""


class GcPolicy:
    def __init__(self, thorough_seconds: float = 3600.0, freeze_seconds: float = 10.0) -> None:
        self.thorough_seconds = thorough_seconds
        self.freeze_seconds = freeze_seconds
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self._ticker: asyncio.Task[None] | None = None
        self.freezes = 0
        self.sweeps = 0
        self._thresholds: tuple[int, int, int] | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        gc.collect()
        gc.freeze()  # what start-up made lives as long as the process
        self._thresholds = gc.get_threshold()
        young, _, _ = self._thresholds
        gc.set_threshold(young, NO_FULL_COLLECTIONS, NO_FULL_COLLECTIONS)
        gc.callbacks.append(self._collected)
        self._task = self._loop.create_task(self._sweeper(), name="gc-sweeper")
        self._ticker = self._loop.create_task(self._freezer(), name="gc-freezer")

    async def stop(self) -> None:
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._collected)
        for task in (self._task, self._ticker):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._task = self._ticker = None

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "stop" and info.get("generation") == 2 and self._loop is not None:
            self._loop.call_soon_threadsafe(self._freeze)  # (not from inside the collector)

    def _freeze(self) -> None:
        gc.freeze()
        self.freezes += 1

    async def _freezer(self) -> None:
        while True:
            await asyncio.sleep(self.freeze_seconds)
            self._freeze()

    async def _sweeper(self) -> None:
        while True:
            await asyncio.sleep(self.thorough_seconds)
            self.sweep()

    def sweep(self) -> None:
        """Unfreeze, collect everything, freeze again."""
        t0 = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self.sweeps += 1
        log.info(
            "thorough collection: %d unreachable objects in %.0f ms",
            found,
            1000 * (time.perf_counter() - t0),
        )
