"""A table's deadlines: the clocks its game asks for now, each running for the seconds the
game declares (or the table's settings say), firing into the table's queue."""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import TYPE_CHECKING, Any

from tapete.aio import running_loop
from tapete.rooms.inbox import ClockFire, Message

if TYPE_CHECKING:
    from tapete.rooms.table import Table

log = logging.getLogger(__name__)

Key = tuple[str, int, Any]


class Clocks:
    def __init__(self, table: Table) -> None:
        self.table: Table = weakref.proxy(table)
        """The table, by a weak reference: the table holds its clocks, and a cycle between
        them kept every game that had ended in memory until the collector's hourly sweep
        (``tapete serve`` freezes what lives long: :mod:`tapete.server.ops.gcpolicy`)."""
        self.running: dict[Key, tuple[asyncio.TimerHandle, float]] = {}
        self.resumed: dict[str, float] = {}
        """Seconds left on clocks that ran on another process before a handover (by
        :func:`name`): each starts with what it had left, once, not its whole time."""

    def seconds(self, kind: str) -> float | None:
        """How long a clock of ``kind`` runs here: the table's setting, else the game's
        practice default; None: it does not run (a kind the game never declared neither)."""
        declared = self.table.spec.clocks.get(kind)
        if declared is None:
            log.warning("table %s: clock kind %r is not declared by its game", self.table.id, kind)
            return None
        if kind in self.table.settings.clocks:
            return self.table.settings.clocks[kind]
        if kind in self.table.clock_seconds:
            return self.table.clock_seconds[kind]
        return declared.practice

    def wanted(self) -> set[Key]:
        table = self.table
        if table.finished:
            return set()
        return {
            (kind, seat, instance)
            for kind, seat, instance in table.game.clocks(table.state)
            if self.seconds(kind) is not None
        }

    def sync(self) -> None:
        """Start the clocks the game asks for now; stop those it no longer does."""
        wanted = self.wanted()
        for key in list(self.running):
            if key not in wanted:
                self.running.pop(key)[0].cancel()
        loop = running_loop()
        for key in wanted - set(self.running):
            seconds = self.resumed.pop(name(key), None)
            if seconds is None:
                seconds = self.seconds(key[0]) or 0.0
            handle = loop.call_later(seconds, self.table.queue.put_nowait, ClockFire(key))
            self.running[key] = (handle, loop.time() + seconds)

    def fired(self, fire: ClockFire) -> Key | None:
        """The clock that ran out, if it still stands (nothing moved it on meanwhile)."""
        if self.running.pop(fire.key, None) is None or fire.key not in self.wanted():
            return None
        return fire.key

    def json(self) -> list[Message]:
        """The running clocks, with the milliseconds left, for the page's countdowns."""
        now = running_loop().time()
        return [
            {
                "kind": kind,
                "seat": seat,
                "ms": max(0, int((deadline - now) * 1000)),
                "of": int((self.seconds(kind) or 0.0) * 1000),
            }
            for (kind, seat, _), (_, deadline) in self.running.items()
        ]

    def left(self) -> dict[str, float]:
        """Seconds left on each running clock (by :func:`name`): what a handover gives the
        next process (:attr:`resumed`), so that the time the handover took is given back."""
        now = running_loop().time()
        return {name(key): max(0.0, deadline - now) for key, (_, deadline) in self.running.items()}

    def stop(self) -> None:
        for handle, _ in self.running.values():
            handle.cancel()
        self.running.clear()


def name(key: Key) -> str:
    """A clock's key as text (the same on every process: the game's own values)."""
    return repr(key)
