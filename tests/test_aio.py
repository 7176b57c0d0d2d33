"""The running loop found without a system call, and the one-reader queue."""

from __future__ import annotations

import asyncio
import os
import threading

import pytest

from tapete import aio
from tapete.aio import LeanQueue, running_loop


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


def test_the_queue_hands_items_in_order_to_its_reader() -> None:
    async def run() -> list[int]:
        queue: LeanQueue[int] = LeanQueue()
        got: list[int] = []

        async def reader() -> None:
            while len(got) < 3:
                got.append(await queue.get())

        task = asyncio.create_task(reader())
        await asyncio.sleep(0)  # (the reader waits on an empty queue)
        assert queue.empty()
        queue.put_nowait(1)
        queue.put_nowait(2)
        assert queue.qsize() == 2
        await asyncio.sleep(0)
        queue.put_nowait(3)
        await task
        return got

    assert asyncio.run(run()) == [1, 2, 3]
