"""«Jugar ahora» among several processes on a real redis-server: the queues on Redis behave
as in memory, two people queued on two processes sit at one table, and a process that dies
with people in its queue — or in the middle of seating them — loses nobody."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from tapete.cluster import Node
from tapete.rooms import Live, Settings
from tapete.rooms.matching import Ticket
from tapete.rooms.matchmaker import Matchmaker
from tapete.rooms.quick_board import Board, MemoryBoard, RedisBoard
from tapete.store import Store
from tests.cluster.conftest import RedisServer
from tests.cluster.test_node import TTL, Heard

ANA, BEA, CARLA = "ana-" + "a" * 20, "bea-" + "b" * 20, "carla-" + "c" * 18
WAIT = 20.0


@pytest.fixture(params=["memory", "redis"])
async def board(request: pytest.FixtureRequest) -> AsyncIterator[Board]:
    if request.param == "memory":
        yield MemoryBoard()
        return
    import redis.asyncio as aioredis

    server: RedisServer = request.getfixturevalue("redis_server")
    client = aioredis.from_url(server.url)
    yield RedisBoard(client)
    await client.aclose()


def ticket(guest: str, since: float = 100.0, players: int | None = 2) -> Ticket:
    return Ticket(guest, players, 1500.0, since, frozenset({"x"}))


async def test_a_board_keeps_one_queue_each_and_seats_all_or_none(board: Board) -> None:
    assert await board.add("onecard", ticket(ANA)) is None
    assert await board.add("rummy", ticket(ANA)) == "onecard"  # one queue at a time
    assert await board.add("onecard", ticket(BEA, 101.0)) is None
    assert sorted(t.guest for t in await board.tickets("onecard")) == [ANA, BEA]
    assert await board.waiting(ANA) == ("onecard", ticket(ANA))
    assert await board.count("onecard") == 2
    # all or none: carla is not queued, so nobody is taken
    assert await board.take("onecard", [ANA, CARLA], 200.0) is None
    taken = await board.take("onecard", [ANA, BEA], 200.0)
    assert taken is not None and sorted(t.guest for t in taken) == [ANA, BEA]
    assert await board.tickets("onecard") == []
    assert await board.waiting(ANA) == ("onecard", None)  # being seated: still waiting
    assert await board.remove(ANA) is None  # too late to cancel
    assert await board.count("onecard") == 2
    assert await board.stranded("onecard", 150.0) == []  # taken at 200: not stranded yet
    await board.seated("onecard", [ANA, BEA], "/sala/123456", 60.0)
    assert await board.waiting(ANA) is None and await board.seat_of(ANA) == "/sala/123456"
    assert await board.count("onecard") == 0
    # a ticket taken and never seated comes back once it is old enough
    await board.add("onecard", ticket(CARLA, 300.0))
    assert await board.take("onecard", [CARLA], 300.0) is not None
    stranded = await board.stranded("onecard", 301.0)
    assert stranded == [ticket(CARLA, 300.0)]
    await board.put_back("onecard", stranded)
    assert await board.tickets("onecard") == [ticket(CARLA, 300.0)]
    assert await board.remove(CARLA) == "onecard" and await board.remove(CARLA) is None
    assert await board.waiting(CARLA) is None


class Watched:
    """A Redis client that, after each command, lets ``after`` look at the data as that
    command left it (as another process may, between any two commands of one step)."""

    def __init__(self, redis: Any, after: Callable[[], Any]) -> None:
        self.redis = redis
        self.after = after

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.redis, name)
        if name in ("pipeline", "register_script") or not callable(found):
            return found

        async def watched(*args: Any, **kwargs: Any) -> Any:
            answer = await found(*args, **kwargs)
            await self.after()
            return answer

        return watched


async def test_one_being_seated_is_always_waiting_or_seated_never_neither(board: Board) -> None:
    """What «Jugar ahora»'s page asks while its table is made (status: waiting, then
    seated) never finds the player in neither state, whatever command the seating is at:
    seen once in the bench on two processes, a poll that fell between the end of the wait
    and the table's address."""
    guest = "ana-" + "a" * 20
    seen: list[str] = []

    async def look() -> None:
        waiting, url = await board.waiting(guest), await board.seat_of(guest)
        seen.append("waiting" if waiting is not None else "seated" if url else "neither")

    seating: Board = board
    if isinstance(board, RedisBoard):
        seating = RedisBoard(Watched(board.redis, look))
    await board.add("onecard", ticket(guest))
    assert await board.take("onecard", [guest], 200.0) is not None
    await look()
    await seating.seated("onecard", [guest], "/sala/123456", 60.0)
    await look()
    assert seen[0] == "waiting" and seen[-1] == "seated" and "neither" not in seen, seen


class Hall:
    """One process of a hall: its node, its tables and rooms, its matchmaker."""

    def __init__(self, node: Node, live: Live, mm: Matchmaker) -> None:
        self.node, self.live, self.mm = node, live, mm
        self.dead = False

    def die(self) -> None:
        """Stop beating, as a process killed would: its leases run out."""
        for task in self.node._tasks:
            task.cancel()
        self.dead = True


@pytest.fixture
async def halls(redis_server: RedisServer, store: Store) -> AsyncIterator[Callable[..., Any]]:
    made: list[Hall] = []

    async def make(me: str, clock: Callable[[], float], stranded: float = 10.0) -> Hall:
        node = Node(redis_server.url, me, ttl=TTL)
        await node.start(Heard())
        live = Live(store, Settings(bot_pace=0, grace_seconds=30), node=node)
        mm = Matchmaker(
            live.rooms, store, wait=WAIT, clock=clock, board=RedisBoard(node.redis),
            ownership=live.ownership, stranded_seconds=stranded,
        )  # fmt: skip
        hall = Hall(node, live, mm)
        made.append(hall)
        return hall

    for guest in (ANA, BEA, CARLA):
        await store.ensure_guest(guest)
    yield make
    for hall in made:
        await hall.mm.close()
        await hall.live.close()
        if hall.dead:  # (its leases ran out: only its connections are left to close)
            await hall.node.redis.aclose()
            await hall.node._listener.aclose()
        else:
            await hall.node.stop()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_two_people_on_two_processes_sit_at_one_table(halls: Any) -> None:
    clock = Clock()
    one, two = await halls("one", clock), await halls("two", clock)
    await one.mm.join(ANA, "onecard", 2)
    await two.mm.join(BEA, "onecard", None)
    made = await one.mm.match() + await two.mm.match()
    assert made == 1  # one process holds the game's lease and seats both
    ana, bea = await one.mm.status(ANA), await two.mm.status(BEA)
    assert ana is not None and ana["state"] == "seated" and ana == bea
    assert await two.mm.status(ANA) == ana  # any process answers for anyone


async def test_a_process_that_dies_with_people_in_its_queue_loses_nobody(halls: Any) -> None:
    clock = Clock()
    one, two = await halls("one", clock), await halls("two", clock)
    await one.mm.join(ANA, "rummy", 2)
    assert await one.mm.match() == 0  # one holds rummy's lease; ana waits alone
    assert "quick:rummy" in one.node.held
    assert await two.mm.match() == 0  # two does not hold it: it matches nothing
    one.die()  # no more heartbeats: its leases run out
    await two.mm.join(BEA, "rummy", 2)

    loop = asyncio.get_running_loop()
    end = loop.time() + TTL * 4  # (one's lease runs out within TTL)
    while loop.time() < end and not await two.mm.match():
        await asyncio.sleep(0.05)
    ana = await two.mm.status(ANA)
    assert ana is not None and ana["state"] == "seated" and ana == await two.mm.status(BEA)


async def test_people_taken_by_a_process_that_died_seating_them_are_seated(halls: Any) -> None:
    clock = Clock()
    one = await halls("one", clock, stranded=1.0)
    await one.mm.join(ANA, "guerra", 2)
    await one.mm.join(BEA, "guerra", 2)
    # as if another process had taken them for a table and died before making it
    assert await one.mm.board.take("guerra", [ANA, BEA], clock.now) is not None
    assert await one.mm.match() == 0
    status = await one.mm.status(ANA)
    assert status is not None and status["state"] == "waiting"
    clock.now += 1.5
    assert await one.mm.match() == 1
    ana = await one.mm.status(ANA)
    assert ana is not None and ana["state"] == "seated" and ana == await one.mm.status(BEA)
