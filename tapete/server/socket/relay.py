"""Sockets and the tables and rooms they follow on different processes of one hall (several
``tapete serve`` on Redis).

A socket lands on any process; the table or private room it follows is run by one process
only (its lease, :mod:`tapete.rooms.ownership`). When that is another process, this one
*relays*: it forwards the socket's messages for that table (or room), in order, to the
owner, which handles them for a :class:`RemoteConn` standing for the socket there, exactly
as for a socket of its own (:meth:`~tapete.server.socket.router.Router.handle`); what the
owner sends that connection comes back as the bytes to send. The socket's own process still
does what needs no table: reading and refusing messages, the rate limits, ``ping``.

When the owner goes (its heartbeat stops, or it says the table has moved), the socket joins
again on its own — wherever the table is run now, often here — and its client gets a fresh
``joined`` (or ``lobby``) message: nothing for the player to do.

What goes between the processes is :data:`WireMessage`, msgpack arrays tagged by their first
item (:class:`Forward`, :class:`Bye`, :class:`Out`, :class:`Gone`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import msgspec

from tapete.cluster import Node, Unreachable
from tapete.rooms import error
from tapete.rooms.inbox import Message, What, wire
from tapete.server.edge.limits import Limits
from tapete.server.socket.conn import Conn, There

log = logging.getLogger(__name__)


class Wire(msgspec.Struct, tag_field="k", array_like=True, frozen=True):
    """A message between two processes about one socket (``key``: its id on its own
    process)."""

    key: str


class Forward(Wire, frozen=True, tag="m"):
    """A socket's message (``text``, as its client sent it) for the table or room the
    receiver runs."""

    guest: str | None
    lang: str
    text: str


class Bye(Wire, frozen=True, tag="b"):
    """The socket left the table or room the receiver runs (``what``)."""

    what: What


class Out(Wire, frozen=True, tag="o"):
    """A message for the socket, encoded already."""

    data: bytes


class Gone(Wire, frozen=True, tag="v"):
    """The table or room (``what``) is not run by the sender (any more): join it again."""

    what: What


WireMessage = Forward | Bye | Out | Gone
_encode = msgspec.msgpack.Encoder().encode
_decode = msgspec.msgpack.Decoder(WireMessage).decode

Handle = Callable[[Conn, str, bool], Awaitable[Message | None]]
"""How a message is handled: the router's (a connection, the text, counted or not)."""
Moved = Callable[[Conn, What], None]
"""Told a socket of this process whose table or room moved."""


def remote_limits(limits: Limits) -> Limits:
    """The socket's own process keeps its rate (and its queue): not again here."""
    return replace(limits, socket_rate=1e9, socket_burst=10**9)


class Relay:
    def __init__(self, node: Node, limits: Limits, handle: Handle, moved: Moved) -> None:
        self.node = node
        self.limits = remote_limits(limits)
        self.handle = handle
        self.moved = moved
        self._keys = itertools.count(1)
        self.linked: dict[str, Conn] = {}
        """This process's sockets whose table or room another process runs, by key."""
        self.remote: dict[tuple[str, str], RemoteConn] = {}
        """Other processes' sockets in the tables and rooms run here: (node, key)."""
        self._watch = asyncio.get_running_loop().create_task(self._watching(), name="relay")

    async def close(self) -> None:
        self._watch.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._watch
        for rc in list(self.remote.values()):
            rc.leave()
        self.remote.clear()

    def push(self, to: str, message: WireMessage) -> None:
        self.node.push(to, _encode(message))

    # the socket's side

    def forward(self, conn: Conn, owner: str, what: What, text: str) -> None:
        """Send the socket's message about its ``what`` to the process that runs it."""
        if not conn.key:
            conn.key = str(next(self._keys))
        self.linked[conn.key] = conn
        self.push(owner, Forward(conn.key, conn.guest, conn.lang, text))

    def bye(self, conn: Conn, what: What, owner: str) -> None:
        """The socket leaves its ``what`` (another table, the socket closed)."""
        self.push(owner, Bye(conn.key, what))
        if conn.table is None and conn.room is None:
            self.linked.pop(conn.key, None)

    def received(self, sender: str, body: bytes) -> None:
        """A message from another process (a push: :class:`tapete.cluster.Node`)."""
        try:
            message = _decode(body)
        except (msgspec.DecodeError, msgspec.ValidationError):
            log.warning("a relayed message from %s could not be read", sender)
            return
        match message:
            case Forward(key=key, guest=guest, lang=lang):
                rc = self.remote.get((sender, key))
                if rc is None:
                    rc = self.remote[sender, key] = RemoteConn(self, sender, key, guest, lang)
                rc.take(message)
            case Bye(key=key):
                found = self.remote.get((sender, key))
                if found is not None:
                    found.take(message)
            case Out(key=key, data=data):
                conn = self.linked.get(key)
                if conn is not None and sender in _owners(conn):  # (not from a past owner)
                    conn.send_bytes(data)
            case Gone(key=key, what=what):
                conn = self.linked.get(key)
                if conn is not None and sender in _owners(conn, what):
                    self._rejoin(conn, what)

    def _rejoin(self, conn: Conn, what: What) -> None:
        """The socket's table or room is not where it was: let go of it there, and join it
        again where it is run now."""
        conn.leave(what)
        self.moved(conn, what)

    def back(self) -> None:
        """Redis is back after an outage: what went between processes meanwhile may be
        lost, and the tables may have moved: every relayed socket joins again."""
        for conn in list(self.linked.values()):
            for what in _relayed(conn):
                self._rejoin(conn, what)

    # both

    async def _watching(self) -> None:
        """Every third of a lease's life: the sockets relayed to a process that died join
        again; the connections of a process that died leave."""
        while True:
            await asyncio.sleep(self.node.ttl / 3)
            try:
                await self._check()
            except Exception as exc:  # (Redis down: next time)
                log.debug("checking the other processes failed (%s)", type(exc).__name__)

    async def _check(self) -> None:
        owners = {o for c in self.linked.values() for o in _owners(c)}
        senders = {n for n, _ in self.remote}
        alive = await self.node.alive(sorted(owners | senders))
        for conn in list(self.linked.values()):
            for what in _relayed(conn):
                if not _owners(conn, what) & alive:
                    self._rejoin(conn, what)
        for (node, key), rc in list(self.remote.items()):
            if node not in alive:
                rc.leave()
                self.remote.pop((node, key), None)


def _relayed(conn: Conn) -> list[What]:
    """What of ``conn``'s another process runs."""
    whats: tuple[What, ...] = ("table", "room")
    return [w for w in whats if isinstance(conn.link(w), There)]


def _owners(conn: Conn, what: What | None = None) -> set[str]:
    """The processes that run ``conn``'s table and room (or only its ``what``)."""
    links = [conn.link(what)] if what is not None else [conn.table, conn.room]
    return {link.owner for link in links if isinstance(link, There)}


class RemoteConn:
    """Another process's socket, here where its table or room is run: a connection of this
    process's router whose sends go back to the socket's process. Its messages are handled
    one at a time, in order."""

    def __init__(self, relay: Relay, node: str, key: str, guest: str | None, lang: str) -> None:
        self.relay = relay
        self.node = node
        self.key = key
        self.conn = Conn(guest, lang, relay.limits, relay.moved, relayed=self)
        self.inbox: deque[Forward | Bye] = deque()
        self._task: asyncio.Task[None] | None = None

    def take(self, item: Forward | Bye) -> None:
        self.inbox.append(item)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            while self.inbox:
                item = self.inbox.popleft()
                if isinstance(item, Bye):
                    self.conn.leave(item.what)
                    continue
                try:
                    reply = await self.relay.handle(self.conn, item.text, False)
                except Unreachable:
                    reply = error("busy", self.conn.lang)
                if reply is not None:
                    self.send(reply)
        finally:
            self._task = None
        if self.conn.table is None and self.conn.room is None and not self.inbox:
            self.relay.remote.pop((self.node, self.key), None)

    def leave(self) -> None:
        self.conn.leave()

    def send(self, message: Any) -> None:
        """What the table or room sends the socket: to its process."""
        self.relay.push(self.node, Out(self.key, wire(message)))

    def moved(self, what: What) -> None:
        """The table or room is not run here any more: the socket joins again."""
        self.relay.push(self.node, Gone(self.key, what))
