"""One socket as the hall holds it: who it is, what it follows, and its bounded queue out.

A connection may follow one table (``join``) and be in one private room (``enter``) at a
time; each is run here (:class:`Here`: the table or room and the connection's id in it) or
by another process of the hall (:class:`There`: that process, :mod:`.relay`). What the
table or room sends it is queued without ever blocking them; a writer task, alive only
while something waits to be sent, sends the queue in order, and a client that reads too
little is closed (4008) rather than queued for without end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from starlette.websockets import WebSocket

from tapete.aio import running_loop
from tapete.metrics import ERRORS
from tapete.rooms import PrivateRoom, Table
from tapete.rooms.inbox import Message, Moved, What, wire
from tapete.rooms.messages import Enter, Join
from tapete.server.edge.limits import Limits
from tapete.throttle import Bucket

log = logging.getLogger(__name__)

CLOSE_TOO_SLOW = 4008
"""Close code: the client left more unread than its queue holds."""
CLOSE_BROKEN = 1011
"""Close code: the server failed to send on the socket."""
CLOSE_WAIT = 5.0
"""Seconds the writer waits for a close frame to go out before it gives up."""

T = TypeVar("T", Table, PrivateRoom)


class Relaying(Protocol):
    """What a connection needs of the relay (:mod:`.relay`), when another process runs what
    it follows."""

    def bye(self, conn: Conn, what: What, owner: str) -> None: ...


class Relayed(Protocol):
    """Another process's socket, for which a connection stands here (:mod:`.relay`)."""

    def send(self, message: Message) -> None: ...
    def moved(self, what: What) -> None: ...


@dataclass(frozen=True, slots=True)
class Here(Generic[T]):
    """A table or private room this process runs, and the connection's id in it."""

    target: T
    id: int


@dataclass(frozen=True, slots=True)
class There:
    """A table or private room another process runs (``owner``, its node id)."""

    owner: str


class Conn:
    """One socket: its guest and language, what it follows, its rate of messages in, and
    its queue out, bounded by ``limits``. :meth:`send` (what tables and rooms call) never
    blocks. ``moved`` is told when what it follows is no longer run here."""

    def __init__(
        self,
        guest: str | None,
        lang: str,
        limits: Limits,
        moved: Callable[[Conn, What], None],
        *,
        address: str = "?",
        clock: Callable[[], float] = time.monotonic,
        ws: WebSocket | None = None,
        direct: Callable[[bytes], bool] | None = None,
        relay: Relaying | None = None,
        relayed: Relayed | None = None,
    ) -> None:
        self.guest = guest
        self.lang = lang
        self.limits = limits
        self.moved = moved
        self.address = address
        """The peer's network address (its wrong room codes are counted by it too)."""
        self.ws = ws
        self.direct = direct
        """Writes a message's frame now if the transport takes it (:mod:`.wsimpl`): what
        :meth:`send_bytes` uses while nothing is queued, without a writer task."""
        self.relay = relay
        """Several processes: how messages reach a table or room another process runs."""
        self.relayed = relayed
        """This stands here for another process's socket: sends go back there."""
        self.table: Here[Table] | There | None = None
        self.room: Here[PrivateRoom] | There | None = None
        self.routes: dict[What, Join | Enter] = {}
        """How it joined its table and entered its room: to do it again if they move."""
        self.key = ""
        """Its id among this process's sockets, once another process runs what it follows."""
        self.out: deque[tuple[str, int, bool]] = deque()
        """Queued, not yet sent: each message's text, its size in bytes, whether it answers
        a ``sync``."""
        self.queued_bytes = 0
        self.syncs = 0
        """``sync`` replies queued and not yet sent (at most one)."""
        self.closed: tuple[int, str] | None = None
        """The close code and reason, once the connection is closing."""
        self.gone = False
        """The peer went away: nothing more can be sent."""
        self.bucket = Bucket(limits.socket_rate, limits.socket_burst, clock)
        self._writer: asyncio.Task[None] | None = None
        self._sending = False
        self._shut = False
        """The close frame went out (or could not): the writer's last act."""

    def link(self, what: What) -> Here[Table] | Here[PrivateRoom] | There | None:
        return self.table if what == "table" else self.room

    def unlink(self, what: What) -> None:
        if what == "table":
            self.table = None
        else:
            self.room = None

    def leave(self, what: What | None = None) -> None:
        """Leave the table (``what`` = "table"), the room ("room"), or both."""
        for which in ("table", "room") if what is None else (what,):
            link = self.link(which)
            self.unlink(which)
            if isinstance(link, There):
                if self.relay is not None:
                    self.relay.bye(self, which, link.owner)
            elif isinstance(link, Here):
                if isinstance(link.target, Table):
                    link.target.unsubscribe(link.id)
                else:
                    link.target.leave_conn(link.id)

    def send(self, message: Message | Moved, sync: bool = False) -> None:
        """Queue ``message``; past the queue's limits the connection is closed instead
        (:data:`CLOSE_TOO_SLOW`), its queue dropped. :class:`Moved`: what it follows is run
        elsewhere now, it joins again."""
        if self.closed is not None:
            return
        if isinstance(message, Moved):
            self.unlink(message.what)
            if self.relayed is not None:
                self.relayed.moved(message.what)
            else:
                self.moved(self, message.what)
            return
        if self.relayed is not None:
            self.relayed.send(message)
            return
        if message.get("type") == "error":
            ERRORS.labels(str(message.get("code"))).inc()
        self.send_bytes(wire(message), sync)

    def send_bytes(self, data: bytes, sync: bool = False) -> None:
        """Queue a message encoded already (by this process, or by the one running the
        table)."""
        if self.closed is not None:
            return
        if self.direct is not None and self._writer is None and not self.out and self.direct(data):
            return  # (nothing was queued, and the transport took it)
        text, size = data.decode(), len(data)
        limits = self.limits
        if (
            len(self.out) >= limits.socket_queue_messages
            or self.queued_bytes + size > limits.socket_queue_bytes
        ):
            self.close(CLOSE_TOO_SLOW, "too much unread")
            return
        self.out.append((text, size, sync))
        self.queued_bytes += size
        self.syncs += sync
        self._kick()

    def close(self, code: int, reason: str) -> None:
        """Close the connection: leave its table and room, drop what is queued, and have the
        writer send the close frame (a send stuck on a client that does not read is
        abandoned)."""
        if self.closed is not None:
            return
        self.closed = (code, reason)
        self.out.clear()
        self.queued_bytes = self.syncs = 0
        self.leave()
        if self._writer is not None and self._sending:
            self._writer.cancel()
        self._kick()

    async def finished(self) -> None:
        """Wait until the writer is done (after :meth:`close`: the close frame is out)."""
        while self._writer is not None:
            await asyncio.wait({self._writer})

    def _kick(self) -> None:
        if self._writer is None and self.ws is not None and not self._shut:
            self._writer = running_loop().create_task(self._write(self.ws))

    async def _write(self, ws: WebSocket) -> None:
        """The writer: send what is queued, in order, then end; once the connection is
        closed, close the socket with its code. A send that fails closes the connection
        (:data:`CLOSE_BROKEN`)."""
        try:
            while self.out and self.closed is None:
                text, size, sync = self.out.popleft()
                self.queued_bytes -= size
                if not await self._send(ws, text):
                    break
                del text  # (nothing sent stays referenced while the socket waits)
                self.syncs -= sync
            if self.closed is not None:
                self._shut = True
                if not self.gone:
                    code, reason = self.closed
                    with contextlib.suppress(Exception, asyncio.CancelledError):
                        await asyncio.wait_for(ws.close(code, reason), CLOSE_WAIT)
        finally:
            self._writer = None
        if self.out and self.closed is None:
            self._kick()  # (queued while this one was ending)

    async def _send(self, ws: WebSocket, text: str) -> bool:
        """Send one message; False if the connection closed meanwhile or the send failed."""
        self._sending = True
        try:
            await ws.send_text(text)
            return True
        except asyncio.CancelledError:
            if self.closed is None:
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()  # our own: :meth:`close` gave up on a stuck send
            return False
        except Exception as exc:  # the peer is gone or the transport broke
            self._sending = False
            log.debug("socket send failed (%s): closing it", type(exc).__name__)
            self.close(CLOSE_BROKEN, "send failed")
            return False
        finally:
            self._sending = False
