"""The WebSocket endpoint: parses, forwards typed messages to rooms, sends what they emit.

A connection has one writer task and a bounded queue; the room never waits on a slow
client, and a client that reads too little is closed (4008) rather than queued for without
end. A connection may be in one game (``join``) and in one private room (``enter``) at a
time. What one socket may send, and how many one guest or address may have, are the
hall's :class:`~tapete.server.limits.Limits` (docs/protocol.md, «Limits»).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

from starlette.datastructures import State
from starlette.types import ASGIApp, Receive, Scope
from starlette.types import Send as ASGISend
from starlette.websockets import WebSocket

from tapete.cluster import Node, Unreachable
from tapete.metrics import ERRORS, SOCKETS_OPENED
from tapete.rooms import Elsewhere, Table, error
from tapete.rooms.inbox import MOVED, moved, wire
from tapete.rooms.private_room import PrivateRoom, room_error
from tapete.server.bodies import too_deep
from tapete.server.guests import Guests, guest_in
from tapete.server.limits import Limits
from tapete.server.logs import socket_id
from tapete.server.origin import socket_allowed
from tapete.server.relay import Relay, RemoteConn, rejoin_later, remote_limits
from tapete.server.render import lang_of
from tapete.server.state import Hall, address_of, guest_of
from tapete.server.wsimpl import direct_writer
from tapete.throttle import Bucket

log = logging.getLogger(__name__)

MAX_MESSAGE = 4096
"""Largest WebSocket message a client may send, in bytes."""

CLOSE_TOO_SLOW = 4008
"""Close code: the client left more unread than its queue holds."""
CLOSE_TOO_MANY = 4029
"""Close code: the guest or address already has as many sockets as it may."""
CLOSE_BROKEN = 1011
"""Close code: the server failed to send on the socket."""
CLOSE_REVOKED = 4001
"""Close code: the guest's account was deleted (its cookie is revoked)."""
CLOSE_WAIT = 5.0
"""Seconds the writer waits for a close frame to go out before it gives up."""


class BadMessage(ValueError):
    """A message the socket refuses before any room sees it: a shared error code and its
    parameters."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def parse(text: str, max_depth: int) -> dict[str, Any]:
    """The message in ``text``: a JSON object with a string ``type``, at most
    ``max_depth`` deep, whose strings are all Unicode (no lone surrogate such as
    ``"\\ud800"``, which no reply could carry). Raises :class:`BadMessage`.

    >>> parse('{"type": "ping"}', 16)
    {'type': 'ping'}
    >>> parse('{"type": "ping", "ref": "\\\\ud800"}', 16)
    Traceback (most recent call last):
    tapete.server.socket.BadMessage: bad_message
    """
    if len(text) > MAX_MESSAGE:
        raise BadMessage("bad_message", detail=f"> {MAX_MESSAGE} bytes")
    if too_deep(text, max_depth):
        raise BadMessage("bad_message", detail=f"> {max_depth} levels")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("bad_json") from None
    if "\\u" in text and not _unicode(msg):
        raise BadMessage("bad_message", detail="unicode")
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise BadMessage("bad_message", detail="type")
    return msg


def _unicode(value: Any) -> bool:
    """Whether ``value`` could be written back as UTF-8 (no lone surrogate anywhere)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class Conn:
    """One socket: its guest and language, the game and the room it is in, its rate of
    messages in, and its queue out, bounded by ``limits``. :meth:`send` (what rooms call)
    never blocks; a writer task, alive only while something waits to be sent on ``ws``,
    sends the queue in order (an idle socket holds no task: memory per player)."""

    def __init__(
        self,
        guest: str | None,
        lang: str,
        limits: Limits,
        clock: Callable[[], float] = time.monotonic,
        ws: WebSocket | None = None,
        direct: Callable[[bytes], bool] | None = None,
    ) -> None:
        self.guest = guest
        self.lang = lang
        self.limits = limits
        self.address = "?"
        """The peer's network address (its wrong room codes are counted by it too)."""
        self.ws = ws
        self.direct = direct
        """Writes a message's frame now if the transport takes it (:mod:`wsimpl`): what
        :meth:`send_bytes` uses while nothing is queued, without a writer task."""
        self.game: tuple[Table, int] | None = None
        self.lobby: tuple[PrivateRoom, int] | None = None
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
        self.key = ""
        """Its id among this process's sockets, once another process runs its game."""
        self.links: dict[str, str] = {}
        """"game", "lobby": the process that runs it, when not this one (:mod:`relay`)."""
        self.routes: dict[str, str] = {}
        """"game", "lobby": the message that joined it, to join again if it moves."""
        self.relay: Relay | None = None
        self.relayed: RemoteConn | None = None
        """This stands here for another process's socket: sends go back there."""
        self.on_moved: Callable[[Conn, str], None] | None = None
        """Told when the game or room this connection is in moved to another process."""
        self._writer: asyncio.Task[None] | None = None
        self._sending = False
        self._shut = False
        """The close frame went out (or could not): the writer's last act."""

    def leave(self, what: str | None = None) -> None:
        """Leave the game (``what`` = "game"), the room ("lobby"), or both."""
        if what != "lobby":
            if self.game is not None:
                self.game[0].unsubscribe(self.game[1])
                self.game = None
            if self.relay is not None:
                self.relay.bye(self, "game")
        if what != "game":
            if self.lobby is not None:
                self.lobby[0].leave_conn(self.lobby[1])
                self.lobby = None
            if self.relay is not None:
                self.relay.bye(self, "lobby")

    def send(self, message: dict[str, Any], sync: bool = False) -> None:
        """Queue ``message``; past the queue's limits the connection is closed instead
        (:data:`CLOSE_TOO_SLOW`), its queue dropped."""
        if self.closed is not None:
            return
        if self.relayed is not None:
            self.relayed.send(message)
            return
        kind = message.get("type")
        if kind == MOVED:  # (its room stopped here: join again where it is run now)
            what = str(message["what"])
            if what == "game":
                self.game = None
            else:
                self.lobby = None
            if self.on_moved is not None:
                self.on_moved(self, what)
            return
        if kind == "error":
            ERRORS.labels(str(message.get("code"))).inc()
        self.send_bytes(wire(message), sync)

    def send_bytes(self, data: bytes, sync: bool = False) -> None:
        """Queue a message encoded already (by this process, or by the one running the
        game)."""
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
        """Close the connection: leave its game and room, drop what is queued, and have the
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
            self._writer = asyncio.get_running_loop().create_task(self._write(self.ws))

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


def _forget_handshake(ws: WebSocket) -> None:
    """Let go of the handshake's headers, read once the socket is accepted (guest, language,
    address): the ASGI scope's list of them and Starlette's parsed copies, some 40 objects and
    3 kB for the whole life of an idle socket (bench/RESULTS.md, «The writer on the loop»)."""
    ws.scope["headers"] = []
    for cached in ("_headers", "_cookies", "_query_params", "_url"):
        ws.__dict__.pop(cached, None)


class Sockets:
    def __init__(self, hall: Hall) -> None:
        self.hall = hall
        self.live: Counter[str] = Counter()
        """Open sockets by guest (``guest:…``) and by address (``address:…``)."""
        self.relay: Relay | None = None
        """Several processes: the sockets whose game another process runs."""
        self._rejoining: set[asyncio.Task[None]] = set()

    def attach(self, node: Node) -> None:
        """Be one process of several (the hall's start, with Redis)."""
        self.relay = Relay(node, self)

    async def detach(self) -> None:
        if self.relay is not None:
            await self.relay.close()
            self.relay = None

    def relayed_conn(self, remote: RemoteConn, guest: str | None, lang: str) -> Conn:
        """A connection standing here for another process's socket."""
        conn = Conn(guest, lang, remote_limits(self.hall.limits))
        conn.relayed = remote
        return conn

    def rejoin(self, conn: Conn, what: str) -> None:
        """``conn``'s game or room moved: join it again where it is run now."""
        if self.relay is not None:
            self.relay.rejoin(conn, what)
            return
        task = asyncio.get_running_loop().create_task(rejoin_later(self, conn, what))
        self._rejoining.add(task)  # (one process: its room stopped, reopened from the log)
        task.add_done_callback(self._rejoining.discard)

    @property
    def open(self) -> int:
        """How many sockets are open."""
        return sum(n for key, n in self.live.items() if key.startswith("address:"))

    async def endpoint(self, ws: WebSocket, direct: Callable[[bytes], bool] | None = None) -> None:
        if not socket_allowed(ws.scope, self.hall.limits):  # another site's page (4003)
            await ws.close(code=4003)
            return
        await ws.accept()
        SOCKETS_OPENED.inc()
        conn = Conn(guest_of(ws), lang_of(ws), self.hall.limits, ws=ws, direct=direct)
        conn.relay = self.relay
        conn.on_moved = self.rejoin
        conn.address = address_of(ws)
        keys = self._keys(conn.guest, ws)
        _forget_handshake(ws)
        if not self._admit(keys):
            with contextlib.suppress(Exception):
                await ws.close(CLOSE_TOO_MANY, "too many sockets")
            return
        try:
            await self._read(ws, conn)
        finally:
            self._release(keys)
            conn.close(1000, "")
            await conn.finished()

    def _keys(self, guest: str | None, ws: WebSocket) -> list[str]:
        address = ws.client.host if ws.client is not None else "?"
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

    async def _read(self, ws: WebSocket, conn: Conn) -> None:
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
                reply = await self.handle(text, conn)
            if reply is not None:
                conn.send(reply)

    async def handle(self, text: str, conn: Conn, limited: bool = True) -> dict[str, Any] | None:
        """The reply to one message (or None: nothing, or what is sent is sent already).
        ``limited``: counted against the socket's rate (not a message it sent again, nor
        one relayed by its own process, which counted it)."""
        lang = conn.lang
        if self.hall.revoked(conn.guest):  # (its account was deleted meanwhile)
            conn.close(CLOSE_REVOKED, "revoked")
            return None
        if limited and not conn.bucket.take():
            return error("too_fast", lang)
        try:
            return await self.route(text, conn)
        except Unreachable:  # (several processes: Redis or the owner did not answer)
            return error("busy", lang)

    async def route(self, text: str, conn: Conn) -> dict[str, Any] | None:
        """:meth:`handle`, uncounted, raising :class:`Unreachable`."""
        lang, guest = conn.lang, conn.guest
        try:
            msg = parse(text, self.hall.limits.json_depth)
        except BadMessage as exc:
            return error(exc.code, lang, **exc.params)
        kind = msg["type"]
        ref = msg.get("ref")
        if kind == "ping":
            return {"type": "pong", "ref": ref}
        if kind == "join":
            return await self.join(msg, conn, text)
        if kind == "enter":
            return await self.enter(msg, conn, text)
        what = "lobby" if kind == "lobby" else "game" if kind in ROOM_MESSAGES else None
        if what is not None and what in conn.links and self.relay is not None:
            self.relay.forward(conn, conn.links[what], what, text)  # (to the game's process)
            return None
        joined = conn.lobby if what == "lobby" else conn.game
        if what is not None and conn.relayed is not None and joined is None:  # (it moved)
            conn.send(moved(what))
            return None
        if kind == "lobby":
            if conn.lobby is None:
                return error("not_joined", lang)
            reply = await conn.lobby[0].act(guest, msg, lang)
            if reply is not None:
                reply["ref"] = ref
            return reply
        if conn.game is None:
            return error("not_joined", lang) if kind in ROOM_MESSAGES else unknown(kind, lang)
        room = conn.game[0]
        if kind == "move":
            reply = await room.submit(guest, msg.get("version"), msg.get("move"), lang)
            if reply is not None:
                reply["ref"] = ref
            return reply
        if kind == "check":
            await room.durable()
            reply = room.check_draft(guest, msg.get("table"), lang)
            reply["ref"] = ref
            return reply
        if kind == "hint":
            return await room.hint(guest, lang)
        if kind == "sync":
            await self.sync(room, conn)
            return None
        return unknown(kind, lang)

    async def sync(self, room: Table, conn: Conn) -> None:
        """Queue the full view again, once it is durable: at most one such reply waits in
        the queue (another ``sync`` meanwhile is ``too_fast``)."""
        if conn.syncs:
            conn.send(error("too_fast", conn.lang))
            return
        await room.durable()
        conn.send(dict(room.view_message(room.seat_of(conn.guest))), sync=True)

    async def join(self, msg: dict[str, Any], conn: Conn, text: str) -> dict[str, Any] | None:
        """Subscribe to a game: a seat's own, or (a game among friends) as a spectator.
        Another process runs it: the message goes there (:mod:`relay`)."""
        game_id = msg.get("game")
        found = (
            await self.hall.live.find_table(game_id)
            if isinstance(game_id, str) and game_id
            else None
        )
        if isinstance(found, Elsewhere):
            self._elsewhere(conn, "game", found.owner, text)
            return None
        room = found
        if room is None or (room.seat_of(conn.guest) is None and not room.online):
            return error("not_your_game", conn.lang)
        conn.leave("game")
        conn.routes["game"] = text
        since = msg.get("version")
        await room.durable()
        cid, message = room.subscribe(
            conn.guest, conn.send, since if type(since) is int else None, conn.lang
        )
        conn.game = (room, cid)
        conn.send(message)
        return None

    def _elsewhere(self, conn: Conn, what: str, owner: str, text: str) -> None:
        """``conn`` joins a game (``what`` = "game") or room ("lobby") that process ``owner``
        runs: the message goes there. A connection relayed here was sent here for it: it is
        told the game has moved on, and its own process asks again."""
        if conn.relayed is not None:
            conn.send(moved(what))
            return
        conn.leave(what)
        conn.routes[what] = text
        assert self.relay is not None
        self.relay.forward(conn, owner, what, text)

    async def enter(self, msg: dict[str, Any], conn: Conn, text: str) -> dict[str, Any] | None:
        """Be in a private room: its state now and every change (``lobby`` messages). Wrong
        codes count in the hall's one throttle, the HTTP join's too (a connection relayed
        here was counted by its own process)."""
        codes = self.hall.wrong_codes if conn.relayed is None else None
        if codes is not None and codes.throttled(conn.guest, conn.address):
            return room_error("throttled", conn.lang)
        lobby = await self.hall.live.find_room(msg.get("room"))
        if isinstance(lobby, Elsewhere):
            self._elsewhere(conn, "lobby", lobby.owner, text)
            return None
        if lobby is None:
            if codes is not None:
                codes.wrong(conn.guest, conn.address)
            return room_error("room_not_found", conn.lang)
        conn.leave("lobby")
        conn.routes["lobby"] = text
        cid, state = lobby.enter(conn.guest, conn.send, conn.lang)
        conn.lobby = (lobby, cid)
        return state


class SocketFront:
    """The hall's socket (``/ws``) straight from the server, ahead of Starlette's routing
    and middleware: an open socket then holds no suspended frame of theirs, and none of
    them is on the path of each message it sends or receives (bench/RESULTS.md: memory and
    CPU per player). The guest is read from the cookie here, as the guest middleware does
    for pages; everything else goes on to ``app``."""

    def __init__(
        self, app: ASGIApp, state: State, sockets: Sockets, guests: Callable[[], Guests | None]
    ) -> None:
        self.app = app
        self.state = state
        self.sockets = sockets
        self.guests = guests

    async def __call__(self, scope: Scope, receive: Receive, send: ASGISend) -> None:
        if scope["type"] != "websocket" or scope.get("path") != "/ws":
            await self.app(scope, receive, send)
            return
        socket_id()
        guests = self.guests()
        guest = guest_in(scope, guests)[0] if guests is not None else None
        scope.setdefault("state", {})["guest"] = guest
        try:
            await self.sockets.endpoint(WebSocket(scope, receive, send), direct_writer(send))
        except OSError as exc:  # the client went away before or while it was accepted
            log.debug("socket gone at the start (%s)", type(exc).__name__)
        except asyncio.CancelledError:  # a stop's deadline: uvicorn closed it (1012) already
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
            log.debug("socket cut short by the stop")


ROOM_MESSAGES = frozenset({"move", "check", "hint", "sync"})
"""Messages that need a joined game."""


def unknown(kind: str, lang: str) -> dict[str, Any]:
    return error("unknown_type", lang, type=kind[:40])
