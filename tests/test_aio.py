"""The running loop found without a system call (the one-reader queue: test_wsimpl)."""

from __future__ import annotations

import asyncio
import os
import threading

import pytest

from tapete import aio
from tapete.aio import running_loop


def test_running_loop_is_the_loop_running_now_on_each_thread() -> None:
    async def which() -> asyncio.AbstractEventLoop:
        assert running_loop() is asyncio.get_running_loop()
        return running_loop()

    first = asyncio.run(which())
    second = asyncio.run(which())  # (a new loop on the same thread: not the one remembered)
    assert first is not second
    found: list[asyncio.AbstractEventLoop] = []
    thread = threading.Thread(target=lambda: found.append(asyncio.run(which())))
    thread.start()
    thread.join()
    assert found and found[0] is not second


def test_no_running_loop_is_an_error_as_asyncio_says() -> None:
    asyncio.run(asyncio.sleep(0))
    with pytest.raises(RuntimeError):
        running_loop()


def test_a_forked_child_forgets_the_parents_loop() -> None:
    async def fork() -> int:
        running_loop()
        pid = os.fork()
        if pid == 0:
            os._exit(0 if not aio._loops else 1)
        return os.waitpid(pid, 0)[1]

    assert asyncio.run(fork()) == 0
