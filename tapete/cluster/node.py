"""One ``tapete serve`` process's place in a hall of several, on Redis.

A process (a *node*) has an id, a heartbeat key (``tapete:alive:<id>``, with the leases'
time to live) and a channel (``tapete:to:<id>``). It owns *units* (a practice game, a
private room with its games) by their leases (:mod:`tapete.cluster.leases`) and renews
them all with its heartbeat, several times a lease's life. What it owns is listed in
``tapete:units:<id>`` so that, when a node's heartbeat stops (SIGKILL, a lost machine),
the others share its units out (``SPOP``: each to one of them) and open them from the log.

A lease held by a node whose heartbeat is gone is free: :meth:`Node.claim` takes it at
once, so a room is never stuck behind a dead owner for the rest of a lease's life.

Messages between nodes are one ordered stream per sender (one publisher task: Redis keeps
the order of what one connection publishes), each an :class:`Envelope` (msgpack): *pushes*
(one way: a socket's message, a table's update for a socket) and *requests*, which get a
reply or :class:`Unreachable` after a timeout. Pub/sub delivers at most once: a message
lost in a partition is lost, and whoever waited on it resyncs (a socket joins again, a
request is refused with ``busy``).

The node knows nothing of games or rooms: their bodies are bytes to it, and the hall gives
it, when it starts, the :class:`NodeHandler` that reads them and hears what happens to its
units.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import secrets
import socket
import time
from typing import Any, Literal, Protocol

import msgspec
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from tapete.cluster.leases import PREFIX, Leases

log = logging.getLogger(__name__)

ALIVE = "tapete:alive:"
NOTES = "tapete:notes:"
"""What a draining node leaves for the next holder of each unit (``NOTES + unit``: a hash,
by key, of bytes the hall reads; the clocks' time left)."""
NOTES_TTL = 300
UNITS = "tapete:units:"
NODES = "tapete:nodes"
CHANNEL = "tapete:to:"

_CLAIM = """
local owner = redis.call('GET', KEYS[1])
if owner and owner ~= ARGV[1] and redis.call('EXISTS', ARGV[3] .. owner) == 1 then
  return owner
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SADD', KEYS[2], ARGV[4])
return false
"""
"""Take a unit's lease unless a live node holds it (then: that node's id)."""


class NodeHandler(Protocol):
    """What a node is given when it starts: who reads what the other nodes send it, and who
    hears what happens to its units."""

    def push(self, sender: str, body: bytes) -> None:
        """A one-way message from node ``sender``."""

    async def request(self, sender: str, body: bytes) -> bytes:
        """A request from node ``sender``: the reply."""

    async def lost(self, units: list[str]) -> None:
        """The units this node no longer holds (their leases expired or were taken)."""

    async def orphan(self, unit: str) -> None:
        """A unit this node has just taken over from a dead one: open it."""

    def back(self) -> None:
        """Redis answers again after it did not: what was sent meanwhile may be lost."""


class Envelope(msgspec.Struct, array_like=True, frozen=True):
    """One message between nodes, as published: a push (``p``), a request (``q``) or its
    reply (``r``, with the request's ``rid``), from ``sender``; or ``a``: a draining node
    left its units, take them over now."""

    kind: Literal["p", "q", "r", "a"]
    sender: str
    rid: int
    body: bytes


class Unreachable(RuntimeError):
    """No reply in time: the node is gone, or Redis is."""


def node_id() -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class Node:
    def __init__(self, url: str, me: str | None = None, ttl: float = 3.0) -> None:
        self.url = url
        self.me = me or node_id()
        self.ttl = ttl
        self.redis: Any = aioredis.from_url(
            url, socket_timeout=ttl / 3, socket_connect_timeout=ttl / 3
        )
        self._listener: Any = aioredis.from_url(
            url, socket_connect_timeout=ttl / 3, health_check_interval=ttl
        )
        """The subscription's own connection: it waits without a timeout."""
        self.leases = Leases(self.redis, self.me, ttl)
        self._claim = self.redis.register_script(_CLAIM)
        self.held: set[str] = set()
        """The units this node holds (as far as it knows)."""
        self.handler: NodeHandler | None = None
        """Given at :meth:`start`."""
        self.up = False
        """Whether the last heartbeat reached Redis."""
        self._last_beat = time.monotonic()
        self._out: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._waiting: dict[int, asyncio.Future[bytes]] = {}
        self._ids = itertools.count(1)
        self._tasks: list[asyncio.Task[None]] = []
        self._answering: set[asyncio.Task[None]] = set()
        self._adopting: asyncio.Task[None] | None = None
        self._stopping = False
        self.draining = False
        """Handing everything over (:meth:`drain`): nothing is taken here any more."""
        self._listening = asyncio.Event()
        self._encode = msgspec.msgpack.Encoder().encode
        self._decode = msgspec.msgpack.Decoder(Envelope).decode

    # life cycle

    async def start(self, handler: NodeHandler) -> None:
        """Beat once, listen, and go on beating (Redis down: the node starts anyway, and
        says so on ``/salud`` until it is back); ``handler`` reads what the other nodes send
        and hears what happens to this node's units."""
        self.handler = handler
        self._tasks = [
            asyncio.create_task(self._listen(), name="node-listen"),
            asyncio.create_task(self._publish(), name="node-publish"),
        ]
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._listening.wait(), self.ttl)
        await self._beat()
        self._tasks.append(asyncio.create_task(self._beating(), name="node-beat"))

    async def drain(self) -> None:
        """Hand every unit over (the hall closed them here first): stop beating, give each
        lease back but leave the units listed, so that the others — told at once — share them
        out and open them from their logs as they would a dead node's; from now on nothing
        is taken here (:meth:`claim`)."""
        self.draining = True
        for task in self._tasks:
            if task.get_name() == "node-beat":
                task.cancel()
        held = sorted(self.held)
        try:
            for unit in held:
                await self.leases.give_back(unit)
            await self.redis.delete(ALIVE + self.me)
            raw = await self.redis.smembers(NODES)
        except (RedisError, OSError) as exc:  # (the others adopt them after a lease's life)
            log.warning("draining: redis unreachable (%s)", type(exc).__name__)
            raw = set()
        self.held.clear()
        others = [n.decode() if isinstance(n, bytes) else str(n) for n in raw]
        for node in sorted(set(others) - {self.me}):
            self._out.put_nowait((node, self._encode(Envelope("a", self.me, 0, b""))))
        log.info("draining: %d units handed over", len(held))

    async def stop(self) -> None:
        """Give every lease back and stop (a clean shutdown: the others need not wait). A
        drained node leaves its units listed for the others to share out."""
        self._stopping = True
        tasks = [*self._tasks, *([self._adopting] if self._adopting is not None else [])]
        for task in tasks:
            task.cancel()
        if tasks:  # (bounded: a client library that swallowed a cancel must not hang us)
            await asyncio.wait(tasks, timeout=self.ttl)
        self._tasks = []
        with contextlib.suppress(RedisError, OSError):
            for unit in list(self.held):
                await self.leases.give_back(unit)
            await self.redis.delete(ALIVE + self.me)
            if not self.draining:
                await self.redis.delete(UNITS + self.me)
                await self.redis.srem(NODES, self.me)
        self.held.clear()
        await self.redis.aclose()
        await self._listener.aclose()

    async def ping(self) -> bool:
        try:
            return bool(await self.redis.ping())
        except (RedisError, OSError):
            return False

    # units

    async def claim(self, unit: str) -> str | None:
        """Hold ``unit`` (taking it if it is free, or its holder is dead): None; or the id of
        the live node that holds it. Raises :class:`Unreachable` without Redis — and on a
        draining node for a unit nobody else holds yet (it is being handed over)."""
        if self.draining:
            try:
                owner = await self.leases.owner_of(unit)
            except (RedisError, OSError) as exc:
                raise Unreachable(str(exc)) from exc
            if owner is not None and owner != self.me:
                return owner
            raise Unreachable(f"{unit} is being handed over")
        try:
            owner = await self._claim(
                keys=[PREFIX + unit, UNITS + self.me],
                args=[self.me, int(self.ttl * 1000), ALIVE, unit],
            )
        except (RedisError, OSError) as exc:
            raise Unreachable(str(exc)) from exc
        if owner is None:
            self.held.add(unit)
            return None
        return owner.decode() if isinstance(owner, bytes) else str(owner)

    async def give_back(self, unit: str) -> None:
        """Let ``unit`` go (closed here): another node may take it at once."""
        self.held.discard(unit)
        with contextlib.suppress(RedisError, OSError):
            await self.leases.give_back(unit)
            await self.redis.srem(UNITS + self.me, unit)

    async def note(self, unit: str, key: str, body: bytes) -> None:
        """Leave ``body`` for the next holder of ``unit`` (:meth:`read_note`)."""
        with contextlib.suppress(RedisError, OSError):
            await self.redis.hset(NOTES + unit, key, body)
            await self.redis.expire(NOTES + unit, NOTES_TTL)

    async def read_note(self, unit: str, key: str) -> bytes | None:
        """What the last holder of ``unit`` left under ``key``, once (None: nothing)."""
        try:
            body = await self.redis.hget(NOTES + unit, key)
            if body is not None:
                await self.redis.hdel(NOTES + unit, key)
        except (RedisError, OSError):
            return None
        return body if isinstance(body, bytes) or body is None else str(body).encode()

    async def alive(self, nodes: list[str]) -> set[str]:
        """Which of ``nodes`` beat within a lease's life."""
        if not nodes:
            return set()
        flags = await self.redis.mget([ALIVE + n for n in nodes])
        return {n for n, f in zip(nodes, flags, strict=True) if f is not None}

    # the heartbeat: renew, notice the lost, take over from the dead

    async def _beating(self) -> None:
        while not self._stopping:
            await asyncio.sleep(self.ttl / 3)
            await self._beat()

    async def _beat(self) -> None:
        held = sorted(self.held)
        try:
            await self.redis.set(ALIVE + self.me, "1", px=int(self.ttl * 1000))
            await self.redis.sadd(NODES, self.me)
            lost = await self.leases.renew(held)
        except (RedisError, OSError) as exc:
            if self.up:
                log.warning("redis unreachable (%s)", type(exc).__name__)
            self.up = False
            if self.held and time.monotonic() - self._last_beat > self.ttl * 0.8:
                # our leases may have run out meanwhile: another node may hold them now
                await self._lose(sorted(self.held))
            return
        back = not self.up
        self.up = True
        if back:
            log.info("redis reachable; node %s holds %d units", self.me, len(held))
            if self.handler is not None:
                self.handler.back()
        self._last_beat = time.monotonic()
        if lost:
            await self._lose(lost)
        # beside the beat: opening a dead node's many rooms must not hold up our renewals
        if self._adopting is None or self._adopting.done():
            self._adopting = asyncio.create_task(self._adopt_safely(), name="node-adopt")

    async def _adopt_safely(self) -> None:
        try:
            await self._adopt()
        except (RedisError, OSError) as exc:
            log.debug("taking over failed (%s): next beat", type(exc).__name__)

    async def _lose(self, units: list[str]) -> None:
        self.held.difference_update(units)
        with contextlib.suppress(RedisError, OSError):
            if units:
                await self.redis.srem(UNITS + self.me, *units)
        log.warning("lost %d units", len(units))
        if self.handler is not None:
            try:
                await self.handler.lost(units)
            except Exception:
                log.exception("dropping lost units failed")

    async def _adopt(self) -> None:
        """Share out the units of nodes whose heartbeat stopped."""
        raw = await self.redis.smembers(NODES)
        others = sorted(n.decode() if isinstance(n, bytes) else n for n in raw)
        others = [n for n in others if n != self.me]
        dead = set(others) - await self.alive(others)
        for node in sorted(dead):
            while (unit := await self.redis.spop(UNITS + node)) is not None:
                unit = unit.decode() if isinstance(unit, bytes) else str(unit)
                if await self.claim(unit) is None and self.handler is not None:
                    log.info("taking over %s from %s", unit, node)
                    try:
                        await self.handler.orphan(unit)
                    except Exception:
                        log.exception("taking over %s failed", unit)
            await self.redis.srem(NODES, node)

    # messages

    def push(self, to: str, body: bytes) -> None:
        """Send ``body`` to node ``to``, after everything this node sent it before."""
        self._out.put_nowait((to, self._encode(Envelope("p", self.me, 0, body))))

    async def call(self, to: str, body: bytes, timeout: float = 3.0) -> bytes:
        """Ask node ``to`` (its handler's :meth:`NodeHandler.request`) and wait for its
        reply."""
        rid = next(self._ids)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = future
        self._out.put_nowait((to, self._encode(Envelope("q", self.me, rid, body))))
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise Unreachable(f"no reply from {to}") from None
        finally:
            self._waiting.pop(rid, None)

    async def _publish(self) -> None:
        """The one publisher: everything sent, in order, pipelined when it piles up."""
        while True:
            batch = [await self._out.get()]
            while not self._out.empty() and len(batch) < 512:
                batch.append(self._out.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for to, data in batch:
                        pipe.publish(CHANNEL + to, data)
                    await pipe.execute()
            except (RedisError, OSError) as exc:
                log.debug("publishing %d messages failed (%s)", len(batch), exc)

    async def _listen(self) -> None:
        while not self._stopping:
            try:
                async with self._listener.pubsub() as sub:
                    await sub.subscribe(CHANNEL + self.me)
                    self._listening.set()
                    async for message in sub.listen():
                        if message.get("type") == "message":
                            self._received(message["data"])
            except (RedisError, OSError) as exc:
                self._listening.clear()
                if self._stopping:
                    return
                log.debug("listening failed (%s): again", type(exc).__name__)
                await asyncio.sleep(self.ttl / 6)

    def _received(self, data: bytes) -> None:
        try:
            envelope = self._decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError):
            log.warning("a message from another node could not be read")
            return
        if envelope.kind == "r":
            future = self._waiting.get(envelope.rid)
            if future is not None and not future.done():
                future.set_result(envelope.body)
            return
        if envelope.kind == "a":  # a node drained: take its units over now
            idle = self._adopting is None or self._adopting.done()
            if idle and not self.draining and not self._stopping:
                self._adopting = asyncio.create_task(self._adopt_safely(), name="node-adopt")
            return
        if self.handler is None:
            return
        if envelope.kind == "p":
            try:
                self.handler.push(envelope.sender, envelope.body)
            except Exception:
                log.exception("a push from %s failed", envelope.sender)
            return
        task = asyncio.get_running_loop().create_task(self._answer(self.handler, envelope))
        self._answering.add(task)
        task.add_done_callback(self._answering.discard)

    async def _answer(self, handler: NodeHandler, envelope: Envelope) -> None:
        try:
            reply = await handler.request(envelope.sender, envelope.body)
        except Exception:
            log.exception("a request from %s failed", envelope.sender)
            reply = b""
        self._out.put_nowait(
            (envelope.sender, self._encode(Envelope("r", self.me, envelope.rid, reply)))
        )
