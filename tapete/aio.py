"""The running event loop, found without a system call.

CPython 3.11's ``asyncio.get_running_loop()`` asks the kernel for the process's id on every
call (``getpid``, to notice a fork): on the move path it was called a dozen times a move, 5.6%
of the loop's thread at 5,000 players (bench/RESULTS.md, «A cheaper move»). :func:`running_loop`
remembers the loop running on each thread and asks again only when that loop is no longer
running; a fork forgets everything (``os.register_at_fork``)."""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Generic, TypeVar

T = TypeVar("T")

_get_ident = threading.get_ident
_loops: dict[int, asyncio.AbstractEventLoop] = {}


def running_loop() -> asyncio.AbstractEventLoop:
    """The loop running on this thread (as ``asyncio.get_running_loop()``: RuntimeError if
    none is)."""
    loop = _loops.get(_get_ident())
    if loop is not None and loop.is_running():
        return loop
    loop = asyncio.get_running_loop()
    _loops[_get_ident()] = loop
    return loop


def _forget() -> None:
    _loops.clear()


os.register_at_fork(after_in_child=_forget)


class LeanQueue(Generic[T]):
    """A queue with one reader (``put_nowait``, ``get``, ``empty``, ``qsize``): a list and a
    waiter. An ``asyncio.Queue`` holds four deques and an event (~3 kB: uvicorn's receive
    queue of every socket is one of these, bench/RESULTS.md «The writer on the loop») and
    looks the running loop up each time its reader waits; a table's and a room's inbox are
    these too."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[T] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> T:
        while not self._items:
            self._waiter = running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)

    def empty(self) -> bool:
        return not self._items

    def drain(self) -> list[T]:
        """Everything queued, taken out (the reader has stopped)."""
        items, self._items = self._items, []
        return items

    def qsize(self) -> int:
        return len(self._items)
