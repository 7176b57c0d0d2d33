"""The WebSocket endpoint, ``/ws``: accept a socket, count it, read its frames and hand each
to the router (:mod:`.router`), until it goes.

What one socket may send, and how many one guest or address may have, are the hall's
:class:`~tapete.server.edge.limits.Limits` (docs/protocol.md, «Limits»).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Receive, Scope
from starlette.types import Send as ASGISend
from starlette.websockets import WebSocket

from tapete.cluster import Node
from tapete.metrics import SOCKETS_OPENED
from tapete.rooms import error
from tapete.server.account.guests import Guests, guest_in
from tapete.server.edge.origin import socket_allowed
from tapete.server.ops.logs import socket_id
from tapete.server.pages.render import lang_of
from tapete.server.socket.conn import Conn
from tapete.server.socket.router import Router
from tapete.server.state import Hall, address_of, guest_of

log = logging.getLogger(__name__)

CLOSE_TOO_MANY = 4029
"""Close code: the guest or address already has as many sockets as it may."""
CLOSE_ORIGIN = 4003
"""Close code: the socket was opened by another site's page."""

Direct = Callable[[Any], Callable[[bytes], bool] | None]
"""Given an ASGI ``send``, a way to write a message's frame straight to the transport, if
the WebSocket implementation has one (``tapete serve --ws websockets-sansio``: :mod:`.wsimpl`)."""


class Sockets:
    """The hall's open sockets: how many each guest and address has, and the reading of each."""

    def __init__(self, hall: Hall, lean: bool = False) -> None:
        self.hall = hall
        self.lean = lean
        """Let go of what the handshake left in the ASGI scope once a socket is accepted
        (``tapete serve``'s lean sockets: memory per player)."""
        self.live: Counter[str] = Counter()
        """Open sockets by guest (``guest:…``) and by address (``address:…``)."""
        self.router = Router(hall)

    def relaying(self, node: Node) -> Router:
        """Be one process of several (the hall's start, with Redis): route through a router
        that relays what another process runs, and that ``node`` tells what the others
        send and what becomes of this process's units."""
        self.router = Router(self.hall, node)
        return self.router

    @property
    def open(self) -> int:
        """How many sockets are open."""
        return sum(n for key, n in self.live.items() if key.startswith("address:"))

    async def endpoint(self, ws: WebSocket, direct: Callable[[bytes], bool] | None = None) -> None:
        if not socket_allowed(ws.scope, self.hall.limits):  # another site's page
            await ws.close(code=CLOSE_ORIGIN)
            return
        await ws.accept()
        SOCKETS_OPENED.inc()
        router = self.router
        conn = Conn(
            guest_of(ws),
            lang_of(ws),
            self.hall.limits,
            router.moved,
            address=address_of(ws),
            ws=ws,
            direct=direct,
            relay=router.relay,
        )
        keys = self._keys(conn.guest, conn.address)
        if self.lean:
            _forget_handshake(ws)
        if not self._admit(keys):
            with contextlib.suppress(Exception):
                await ws.close(CLOSE_TOO_MANY, "too many sockets")
            return
        try:
            await self._read(ws, conn, router)
        finally:
            self._release(keys)
            conn.close(1000, "")
            await conn.finished()

    @staticmethod
    def _keys(guest: str | None, address: str) -> list[str]:
        keys = [f"address:{address}"]
        return [*keys, f"guest:{guest}"] if guest is not None else keys

    def _admit(self, keys: list[str]) -> bool:
        """Count a new socket for ``keys``, unless one of them is at its limit."""
        limits = self.hall.limits
        for key in keys:
            limit = limits.sockets_per_guest if key.startswith("guest:") else None
            limit = limits.sockets_per_address if limit is None else limit
            if self.live[key] >= limit:
                return False
        self.live.update(keys)
        return True

    def _release(self, keys: list[str]) -> None:
        for key in keys:
            self.live[key] -= 1
            if self.live[key] <= 0:
                del self.live[key]

    @staticmethod
    async def _read(ws: WebSocket, conn: Conn, router: Router) -> None:
        """Handle what the client sends, one message at a time, until it goes or the
        connection closes; a binary frame is refused like any bad message."""
        while conn.closed is None:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                conn.gone = True
                return
            text = frame.get("text")
            reply: dict[str, Any] | None = error("bad_message", conn.lang, detail="binary")
            if text is not None:
                reply = await router.handle(conn, text)
            if reply is not None:
                conn.send(reply)


def _forget_handshake(ws: WebSocket) -> None:
    """Let go of the handshake's headers, read once the socket is accepted (guest, language,
    address): the ASGI scope's list of them and Starlette's parsed copies, some 40 objects and
    3 kB for the whole life of an idle socket (bench/RESULTS.md, «The writer on the loop»).
    Starlette's caches are private: done only where the lean sockets were chosen."""
    ws.scope["headers"] = []
    for cached in ("_headers", "_cookies", "_query_params", "_url"):
        ws.__dict__.pop(cached, None)


class SocketFront:
    """The hall's socket (``/ws``) straight from the server, ahead of Starlette's routing
    and middleware: an open socket then holds no suspended frame of theirs, and none of
    them is on the path of each message it sends or receives (bench/RESULTS.md: memory and
    CPU per player). The guest is read from the cookie here, as the guest middleware does
    for pages; everything else goes on to ``app``."""

    def __init__(
        self,
        app: ASGIApp,
        state: Any,
        sockets: Sockets,
        guests: Callable[[], Guests | None],
        direct: Direct | None = None,
    ) -> None:
        self.app = app
        self.state = state
        self.sockets = sockets
        self.guests = guests
        self.direct = direct

    async def __call__(self, scope: Scope, receive: Receive, send: ASGISend) -> None:
        if scope["type"] != "websocket" or scope.get("path") != "/ws":
            await self.app(scope, receive, send)
            return
        socket_id()
        guests = self.guests()
        guest = guest_in(scope, guests)[0] if guests is not None else None
        scope.setdefault("state", {})["guest"] = guest
        direct = self.direct(send) if self.direct is not None else None
        try:
            await self.sockets.endpoint(WebSocket(scope, receive, send), direct)
        except OSError as exc:  # the client went away before or while it was accepted
            log.debug("socket gone at the start (%s)", type(exc).__name__)
        except asyncio.CancelledError:  # a stop's deadline: uvicorn closed it (1012) already
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
            log.debug("socket cut short by the stop")
