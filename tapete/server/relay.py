"""Sockets and rooms on different processes of one hall (several ``tapete serve`` on Redis).

A socket lands on any process; the game or private room it joins is run by one process
only (its lease, :mod:`tapete.rooms.ownership`). When that is another process, this one
*relays*: it forwards the socket's messages for that game (or room), in order, to the
owner, which handles them for a :class:`RemoteConn` standing for the socket there, exactly
as for a socket of its own; what the owner sends that connection comes back as the bytes
to send. The socket's own process still does what needs no room: reading and refusing
messages, the rate limits, ``ping``.

When the owner goes (its heartbeat stops, or it tells us the game has moved), the socket
joins again on its own — wherever the game is run now, often here — and its client gets a
fresh ``joined`` (or ``lobby``) message: nothing for the player to do.

Pushes, as lists (msgpack), between the socket's process and the owner:
``["m", key, guest, lang, text]`` a socket's message; ``["b", key, what]`` the socket left
the game or room (``what``: "game", "lobby"); ``["o", key, bytes]`` a message for the
socket; ``["v", key, what]`` the game or room is not run here (any more): join again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from tapete.cluster import Node, Unreachable
from tapete.rooms.inbox import MOVED, error, wire
from tapete.server.limits import Limits

if TYPE_CHECKING:
    from tapete.server.socket import Conn, Sockets

log = logging.getLogger(__name__)

REJOIN_DELAY = 0.2
"""Seconds before a socket joins again a game that moved (the next owner takes it)."""
REJOIN_TRIES = 60
"""How many times, a second apart after the first, before the socket is closed (1012)."""


class Relay:
    def __init__(self, node: Node, sockets: Sockets) -> None:
        self.node = node
        self.sockets = sockets
        self._keys = itertools.count(1)
        self.linked: dict[str, Conn] = {}
        """This process's sockets whose game or room another process runs, by key."""
        self.remote: dict[tuple[str, str], RemoteConn] = {}
        """Other processes' sockets in the games and rooms run here: (node, key)."""
        self._tasks: set[asyncio.Task[Any]] = set()
        node.pushes.update(m=self._message, b=self._bye, o=self._out, v=self._moved)
        node.on_back.append(self._resync)
        self._watch = asyncio.get_running_loop().create_task(self._watching(), name="relay")

    async def close(self) -> None:
        self._watch.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._watch
        for task in list(self._tasks):
            task.cancel()
        for rc in list(self.remote.values()):
            rc.leave()
        self.remote.clear()

    # the socket's side

    def forward(self, conn: Conn, owner: str, what: str, text: str) -> None:
        """Send the socket's message about its ``what`` to the process that runs it."""
        if not conn.key:
            conn.key = str(next(self._keys))
        conn.links[what] = owner
        self.linked[conn.key] = conn
        self.node.push(owner, ["m", conn.key, conn.guest, conn.lang, text])

    def bye(self, conn: Conn, what: str) -> None:
        """The socket leaves its ``what`` (another game, the socket closed)."""
        owner = conn.links.pop(what, None)
        if owner is not None:
            self.node.push(owner, ["b", conn.key, what])
        if not conn.links:
            self.linked.pop(conn.key, None)

    def _out(self, sender: str, body: list[Any]) -> None:
        conn = self.linked.get(body[1])
        if conn is not None and sender in conn.links.values():  # (not from a past owner)
            conn.send_bytes(body[2])

    def _moved(self, sender: str, body: list[Any]) -> None:
        conn = self.linked.get(body[1])
        if conn is not None and conn.links.get(body[2]) == sender:
            self.rejoin(conn, body[2])

    def rejoin(self, conn: Conn, what: str) -> None:
        """The socket's game (or room) is not where it was: join it again where it is run
        now, the way the client last asked to."""
        owner = conn.links.pop(what, None)
        if owner is not None:  # (if it still has us there: let go)
            self.node.push(owner, ["b", conn.key, what])
        if not conn.links:
            self.linked.pop(conn.key, None)
        if what == "game":
            conn.game = None
        else:
            conn.lobby = None
        self._spawn(rejoin_later(self.sockets, conn, what))

    def _resync(self) -> None:
        """Redis is back after an outage: what went between processes meanwhile may be
        lost, and the games may have moved: every relayed socket joins again."""
        for conn in list(self.linked.values()):
            for what in list(conn.links):
                self.rejoin(conn, what)

    # the owner's side

    def _message(self, sender: str, body: list[Any]) -> None:
        _, key, guest, lang, text = body
        rc = self.remote.get((sender, key))
        if rc is None:
            rc = self.remote[sender, key] = RemoteConn(self, sender, key, guest, lang)
        rc.take(("m", text))

    def _bye(self, sender: str, body: list[Any]) -> None:
        rc = self.remote.get((sender, body[1]))
        if rc is not None:
            rc.take(("b", body[2]))

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
        owners = {o for c in self.linked.values() for o in c.links.values()}
        senders = {n for n, _ in self.remote}
        nodes = sorted(owners | senders)
        alive = await self.node.alive(nodes)
        for conn in list(self.linked.values()):
            for what, owner in list(conn.links.items()):
                if owner not in alive:
                    self.rejoin(conn, what)
        for (node, key), rc in list(self.remote.items()):
            if node not in alive:
                rc.leave()
                self.remote.pop((node, key), None)

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


async def rejoin_later(sockets: Sockets, conn: Conn, what: str) -> None:
    """Join ``conn``'s game (or room) again, the way its client last asked to, wherever it
    is run now; a second apart while Redis or the owner does not answer."""
    await asyncio.sleep(REJOIN_DELAY)
    for _ in range(REJOIN_TRIES):
        text = conn.routes.get(what)
        if conn.closed is not None or text is None:
            return
        if what in conn.links or (conn.game if what == "game" else conn.lobby):
            return  # (joined meanwhile: the client asked again)
        try:
            reply = await sockets.route(text, conn)
        except Unreachable:
            await asyncio.sleep(1.0)
            continue
        if reply is not None:
            conn.send(reply)
        return
    conn.close(1012, "unavailable")


def remote_limits(limits: Limits) -> Limits:
    """The socket's own process keeps its rate (and its queue): not again here."""
    return replace(limits, socket_rate=1e9, socket_burst=10**9)


class RemoteConn:
    """Another process's socket, here where its game or room is run: what the owner's
    handling of socket messages needs of a connection (``Sockets.handle``), its sends going
    back to the socket's process. Its messages are handled one at a time, in order."""

    def __init__(self, relay: Relay, node: str, key: str, guest: str | None, lang: str) -> None:
        self.relay = relay
        self.node = node
        self.key = key
        self.conn = relay.sockets.relayed_conn(self, guest, lang)
        self.inbox: deque[tuple[str, str]] = deque()
        self._task: asyncio.Task[None] | None = None

    def take(self, item: tuple[str, str]) -> None:
        self.inbox.append(item)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            while self.inbox:
                kind, value = self.inbox.popleft()
                if kind == "b":
                    self._leave(value)
                    continue
                try:
                    reply = await self.relay.sockets.handle(value, self.conn, limited=False)
                except Unreachable:
                    reply = error("busy", self.conn.lang)
                if reply is not None:
                    self.send(reply)
        finally:
            self._task = None
        if not self.conn.game and not self.conn.lobby and not self.inbox:
            self.relay.remote.pop((self.node, self.key), None)

    def _leave(self, what: str) -> None:
        self.conn.leave(what)

    def leave(self) -> None:
        self.conn.leave()

    def send(self, message: dict[str, Any]) -> None:
        """What the owner sends the socket: to its process."""
        if message.get("type") == MOVED:
            what = str(message["what"])
            if what == "game":
                self.conn.game = None
            else:
                self.conn.lobby = None
            self.relay.node.push(self.node, ["v", self.key, what])
            return
        self.relay.node.push(self.node, ["o", self.key, wire(message)])
