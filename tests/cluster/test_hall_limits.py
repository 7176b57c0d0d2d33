"""The hall's throttles mean the same with one process or ten: with Redis every process
counts in one place (the `limits` library's moving window), so the 11th wrong room code is
refused whichever process it reaches; while Redis does not answer, each process goes by its
own counts, at once."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from tapete.server.edge.limits import Limits
from tapete.throttle import SHARED_RETRY, SHARED_TIMEOUT, Counts
from tests.cluster.conftest import RedisServer
from tests.cluster.hall import Process, started

GUEST, OTHER = "guest-" + "a" * 18, "guest-" + "b" * 18


@pytest.fixture
async def two_counts(redis_server: RedisServer) -> AsyncIterator[list[Counts]]:
    """The counts of two processes of one hall: each its own connections to one Redis."""
    clients = [aioredis.from_url(redis_server.url) for _ in range(2)]
    made = []
    for client in clients:
        counts = Counts()
        counts.share(client.connection_pool)
        made.append(counts)
    yield made
    for client in clients:
        await client.aclose()


async def test_two_processes_count_one_limit(two_counts: list[Counts]) -> None:
    a, b = (counts.throttle("codes", 10, 600.0) for counts in two_counts)
    for n in range(10):  # five wrong codes on each process
        throttle = a if n % 2 else b
        assert not await throttle.blocked(GUEST)
        await throttle.hit(GUEST)
    assert await a.blocked(GUEST) and await b.blocked(GUEST)  # the 11th, wherever it goes
    assert not await a.blocked(OTHER) and not await b.blocked(OTHER)  # per key
    alone = Counts().throttle("codes", 10, 600.0)  # a process without Redis counts its own
    assert not await alone.blocked(GUEST)
    # each throttle has its own window: another name is another count
    assert not await two_counts[0].throttle("games", 10, 60.0).blocked(GUEST)


async def test_without_an_answer_from_redis_each_process_counts_alone(
    redis_server: RedisServer, two_counts: list[Counts]
) -> None:
    a = two_counts[0].throttle("codes", 3, 600.0)
    b = two_counts[1].throttle("codes", 3, 600.0)
    await a.hit(GUEST)
    await b.hit(GUEST)
    assert redis_server.proc is not None
    os.kill(redis_server.proc.pid, signal.SIGSTOP)  # Redis hangs: no answer, no error
    try:
        t0 = time.monotonic()
        assert not await a.blocked(GUEST)  # one hit of its own: under 3
        waited = time.monotonic() - t0
        assert waited < SHARED_TIMEOUT + 0.2, waited
        t0 = time.monotonic()
        await a.hit(GUEST)
        await a.hit(GUEST)  # three of its own: refused by its own count, without asking
        assert await a.blocked(GUEST)
        assert time.monotonic() - t0 < 0.05  # Redis is not asked again for a while
        assert two_counts[0].failed_at is not None
    finally:
        os.kill(redis_server.proc.pid, signal.SIGCONT)
    # after SHARED_RETRY the hall counts together again: b sees its own hit and a's first
    two_counts[1].failed_at = time.monotonic() - SHARED_RETRY
    assert not await b.blocked(OTHER)
    assert two_counts[1].failed_at is None
    await b.hit(GUEST)
    assert await b.blocked(GUEST)  # a's first, b's first, and this one: three in Redis


@pytest.fixture
def two_processes(
    tmp_path: Path, fresh_postgres: str, redis_server: RedisServer
) -> Iterator[list[Process]]:
    with started(tmp_path, "ab", fresh_postgres, redis_server.url) as made:
        yield made


def test_the_eleventh_wrong_code_is_refused_whichever_process_gets_it(
    two_processes: list[Process],
) -> None:
    limit = Limits().wrong_codes_per_guest
    a, b = two_processes
    with httpx.Client(base_url=a.url) as http:
        http.get("/")
        cookie = {"Cookie": f"tapete_guest={http.cookies['tapete_guest']}"}

    def join(process: Process, code: str) -> httpx.Response:
        return httpx.post(f"{process.url}/api/salas/{code}/unirse", headers=cookie, json={})

    for n in range(limit):  # wrong codes, one process then the other
        answer = join(two_processes[n % 2], f"{100000 + n}")
        assert answer.status_code == 404, answer.text
        assert answer.json()["error"] == "room_not_found"
    for process in (a, b):
        refused: Any = join(process, "999999")
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"] == "throttled"
    # another guest at the same address is not this guest (its address has 40)
    with httpx.Client(base_url=b.url) as other:
        other.get("/")
        assert other.post("/api/salas/123456/unirse", json={}).status_code == 404
