"""A node on a real redis-server: claiming units, losing them, taking over from the dead,
messages in order, a request nobody answers."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from tapete.cluster import Node, Unreachable
from tapete.cluster.node import ALIVE, UNITS
from tests.cluster.conftest import RedisServer
from tests.waiting import until

TTL = 2.0
"""Long enough that a loaded machine answers within a third of it (its socket timeout): at
0.6 s a node under load once found Redis «unreachable» and rightly dropped its units."""


class Heard:
    """A node's handler that keeps what it hears: pushes (their bodies, read as numbers),
    lost units, orphans; it answers a request with the sender and the body twice over."""

    def __init__(self) -> None:
        self.pushes: list[int] = []
        self.lost_units: list[list[str]] = []
        self.orphans: list[str] = []

    def push(self, sender: str, body: bytes) -> None:
        self.pushes.append(int(body))

    async def request(self, sender: str, body: bytes) -> bytes:
        return f"{sender}:{int(body) * 2}".encode()

    async def lost(self, units: list[str]) -> None:
        self.lost_units.append(units)

    async def orphan(self, unit: str) -> None:
        self.orphans.append(unit)

    def back(self) -> None:
        pass


@pytest.fixture
async def nodes(redis_server: RedisServer) -> AsyncIterator[Callable[[str], Any]]:
    made: list[Node] = []

    async def make(me: str) -> Node:
        node = Node(redis_server.url, me, ttl=TTL)
        await node.start(Heard())
        made.append(node)
        return node

    yield make
    for node in made:
        await node.stop()


async def test_a_unit_is_held_by_one_live_node_and_freed_by_its_death(
    nodes: Callable[[str], Any], redis_client: Any
) -> None:
    a, b = await nodes("a"), await nodes("b")
    assert await a.claim("game:1") is None  # free: a holds it
    assert await a.claim("game:1") is None  # (again: still a's)
    assert await b.claim("game:1") == "a"
    assert await redis_client.sismember(UNITS + "a", "game:1")
    await redis_client.delete(ALIVE + "a")  # a's heartbeat stops (as if SIGKILLed)
    for task in a._tasks:
        task.cancel()
    assert await b.claim("game:1") is None  # no waiting out the lease of the dead
    assert await a.leases.owner_of("game:1") == "b"


async def test_a_node_that_loses_a_lease_is_told(
    nodes: Callable[[str], Any], redis_client: Any
) -> None:
    a = await nodes("a")
    assert isinstance(a.handler, Heard)
    told = a.handler.lost_units
    assert await a.claim("room:9") is None
    assert await a.claim("game:2") is None
    await redis_client.set("tapete:lease:room:9", "someone-else")
    await until(lambda: bool(told))
    assert told == [["room:9"]]
    assert a.held == {"game:2"}


async def test_the_units_of_a_dead_node_are_shared_out_once(
    nodes: Callable[[str], Any], redis_client: Any
) -> None:
    dead = await nodes("dead")
    units = [f"game:{i}" for i in range(20)]
    for unit in units:
        assert await dead.claim(unit) is None
    for task in dead._tasks:  # it stops beating, its leases and heartbeat run out
        task.cancel()
    b, c = await nodes("b"), await nodes("c")
    assert isinstance(b.handler, Heard) and isinstance(c.handler, Heard)
    await until(lambda: len(b.handler.orphans) + len(c.handler.orphans) >= len(units))
    got = b.handler.orphans + c.handler.orphans
    assert sorted(got) == sorted(units)  # every unit, each to one node
    for unit in units:
        assert await b.leases.owner_of(unit) in ("b", "c")
    assert not await redis_client.sismember("tapete:nodes", "dead")


async def test_pushes_arrive_in_order_and_requests_are_answered(
    nodes: Callable[[str], Any],
) -> None:
    a, b = await nodes("a"), await nodes("b")
    assert isinstance(b.handler, Heard)
    got = b.handler.pushes
    for i in range(300):
        a.push("b", str(i).encode())
    assert await a.call("b", b"21") == b"a:42"
    await until(lambda: len(got) == 300)
    assert got == list(range(300))
    with pytest.raises(Unreachable):
        await a.call("nobody", b"1", timeout=0.3)
