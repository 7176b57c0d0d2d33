"""The WebSocket implementation ``tapete serve`` gives uvicorn.

uvicorn's sans-I/O implementation on ``websockets`` (the lightest of its three here, see
bench/RESULTS.md), less what it keeps of the handshake for the whole life of the socket:
the parsed request and the response, with their headers (about 3 kB an open socket) —
uvicorn's references and the one websockets' request parser keeps in its suspended frame
(bench/RESULTS.md, «The writer on the loop») — and with a direct way out for a text message
already encoded (:meth:`write_text`).
"""

from __future__ import annotations

import asyncio
import logging
import struct
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import OPEN, Protocol

from tapete.aio import LeanQueue, running_loop

log = logging.getLogger(__name__)

CLOSE_NOT_UTF8 = 1007
"""Close code: a text message that is not UTF-8 (RFC 6455, «invalid frame payload data»)."""


class LeanEvent:
    """Whether a socket's transport takes more, as uvicorn's protocol uses it (``set``,
    ``clear``, ``is_set``, ``wait``): a flag and a list of waiters, where an
    ``asyncio.Event`` holds a deque of them (~0.6 kB an idle socket)."""

    __slots__ = ("_value", "_waiters")

    def __init__(self) -> None:
        self._value = False
        self._waiters: list[asyncio.Future[None]] = []

    def is_set(self) -> bool:
        return self._value

    def set(self) -> None:
        self._value = True
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._value = False

    async def wait(self) -> None:
        if self._value:
            return
        waiter = running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await waiter
        finally:
            if waiter in self._waiters:
                self._waiters.remove(waiter)


class LeanHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol on httptools, which lets go of its parser once its connection
    is upgraded to a WebSocket, as uvicorn's own does when a connection is lost.

    The parser holds the protocol's bound methods (its callbacks) and the protocol holds the
    parser: a reference cycle, with the handshake's scope and the transport in it. uvicorn
    breaks it in ``connection_lost``, which an upgraded connection's HTTP protocol never
    gets (the transport then belongs to the WebSocket's protocol). Left alone, each socket
    ever opened left that cycle to the collector, whose full collections ``tapete serve``
    runs once an hour (:mod:`tapete.server.ops.gcpolicy`): a 30-minute soak's memory grew
    16 MB a minute (bench/RESULTS.md, «What the collector was left»). Broken here, it is
    freed by reference counting as the upgrade returns."""

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]  # (as uvicorn's connection_lost)


class LeanSansIOProtocol(WebSocketsSansIOProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = LeanQueue()  # type: ignore[assignment]
        self.writable = LeanEvent()  # type: ignore[assignment]
        self.writable.set()

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.accept" and self.handshake_complete:
            del self.request  # (neither is read once the handshake is complete)
            del self.response
            conn = self.conn
            if not conn.reader.buffer:  # (a client sends nothing before the 101: RFC 6455)
                # the server's parser keeps the parsed request in its frame for as long as it
                # parses frames; a parser of frames alone, as websockets' own swaps do
                conn.parser = Protocol.parse(conn)
                next(conn.parser)

    def send_receive_event_to_app(self) -> None:
        """uvicorn's, but a text message that is not UTF-8 is the client's fault, not the
        server's: that socket is closed with :data:`CLOSE_NOT_UTF8` and a debug line says so,
        where uvicorn logs an ERROR with a traceback."""
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.close_sent:  # (past its close: dropped while the peer's reply is awaited)
            return
        if self.curr_msg_data_type == "text":
            try:
                text = data.decode()
            except UnicodeDecodeError:
                log.debug("a text message that is not UTF-8: its socket is closed (1007)")
                self.conn.send_close(CLOSE_NOT_UTF8, "invalid UTF-8")
                self.handle_parser_exception()
                return
            self.queue.put_nowait({"type": "websocket.receive", "text": text})
        else:
            self.queue.put_nowait({"type": "websocket.receive", "bytes": data})
        if not self.read_paused:
            self.read_paused = True
            self.transport.pause_reading()

    def write_text(self, data: bytes) -> bool:
        """Write ``data`` (UTF-8 text) as one text frame now, if the transport takes it at
        once: the socket is open, not paused by a full buffer, and has no extension (no
        compression) to apply. False: nothing written, send it the ASGI way.

        What ``send`` does for ``websocket.send``, less the ASGI message, the string decoded
        and encoded again and websockets' frame object: a server's frame is not masked, so
        it is a header and the payload."""
        if (
            self.disconnected
            or self.close_sent
            or not self.handshake_complete
            or not self.writable.is_set()
            or self.conn.extensions
            or self.conn.state is not OPEN
            or self.transport.is_closing()
        ):
            return False
        n = len(data)
        if n < 126:
            head = bytes((0x81, n))
        elif n < 65536:
            head = struct.pack("!BBH", 0x81, 126, n)
        else:
            head = struct.pack("!BBQ", 0x81, 127, n)
        self.transport.writelines((head, data))
        return True


def direct_writer(send: Any) -> Callable[[bytes], bool] | None:
    """The :meth:`LeanSansIOProtocol.write_text` behind an ASGI ``send``, when ``send`` is
    that protocol's own (nothing wraps it); else None."""
    owner = getattr(send, "__self__", None)
    return owner.write_text if isinstance(owner, LeanSansIOProtocol) else None


TESTED: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {
    "uvicorn": ((0, 55), (0, 56)),
    "websockets": ((17, 0), (18, 0)),
}
"""The versions (from, up to but not including) of the libraries whose insides this module
reaches into that it was tested on; pyproject.toml pins the same ranges."""


def untested() -> str | None:
    """Why this implementation cannot be trusted with the installed libraries (a version
    outside :data:`TESTED`), or None: ``tapete serve`` then falls back to uvicorn's stock
    ``websockets`` and says so, rather than break the hall silently.

    >>> untested() is None
    True
    """
    import uvicorn
    import websockets

    for name, installed in (
        ("uvicorn", uvicorn.__version__),
        ("websockets", websockets.version.version),
    ):
        low, high = TESTED[name]
        version = _major_minor(installed)
        if not low <= version < high:
            return f"{name} {installed} is not within the tested {_text(low)}–{_text(high)}"
    return None


def _major_minor(version: str) -> tuple[int, int]:
    """``"0.55.1"`` → ``(0, 55)``; a part that is not a number counts as 0."""
    parts = [int(p) if p.isdigit() else 0 for p in [*version.split("."), "0", "0"][:2]]
    return parts[0], parts[1]


def _text(version: tuple[int, int]) -> str:
    return f"{version[0]}.{version[1]}"
