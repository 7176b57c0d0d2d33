"""Logs an operator can read with a machine: one JSON object a line, each with its time,
level, logger, message and, when it happened within one, the request's id (``rid``: an
HTTP request's, also sent back as ``X-Request-Id``; ``ws-…``: one socket's).

Quiet under normal use: a socket opening and closing is not news (uvicorn's lines for it are
dropped below ``debug``); a client going away is never an error.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import re
import secrets
import sys
from datetime import UTC, datetime
from typing import Any

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)

CUT_SHORT_HEADERS = [
    (b"content-length", b"0"),
    (b"retry-after", b"5"),
    (b"connection", b"close"),
]
"""The answer of a request cut short by a stop: 503, come back in a moment (another process,
or this one started again)."""

REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("rid", default=None)
_GIVEN_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")

_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "taskName"}

_SOCKET_CHATTER = ('"WebSocket ', "connection open", "connection closed")
"""uvicorn's INFO lines for each socket's life (handshake accepted, open, closed)."""


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "t": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        rid = REQUEST_ID.get()
        if rid is not None:
            out["rid"] = rid
        for key, value in record.__dict__.items():  # extra={...}
            if key not in _STANDARD and key not in out:
                out[key] = value if isinstance(value, str | int | float | bool) else repr(value)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


class QuietSockets(logging.Filter):
    """Drops uvicorn's per-socket INFO lines (kept at ``debug``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO or not record.name.startswith("uvicorn"):
            return True
        message = str(record.msg)
        return not any(part in message for part in _SOCKET_CHATTER)


def setup(level: str, form: str) -> None:
    """Logging for ``tapete serve``: ``form`` is ``json`` (one object a line) or ``text``."""
    handler = logging.StreamHandler(sys.stderr)
    if form == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    numeric = logging.getLevelName(level.upper())
    if numeric > logging.DEBUG:
        handler.addFilter(QuietSockets())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(numeric)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True


class RequestIds:
    """Gives each HTTP request an id (the proxy's ``X-Request-Id`` if it sent a sane one),
    in the logs of everything the request does and in the response's ``X-Request-Id``.

    The outermost of the app's layers, it also ends a request that a stop cuts short (the
    server cancels what is still running at its deadline: ``tapete serve
    --shutdown-seconds``): ``503`` with ``Retry-After`` if nothing was answered yet, and a
    warning in the log, where uvicorn would log an error and answer 500."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = next((v for k, v in scope.get("headers", []) if k == b"x-request-id"), b"")
        text = given.decode("latin-1")
        rid = text if _GIVEN_ID.fullmatch(text) else secrets.token_hex(8)
        token = REQUEST_ID.set(rid)
        started = False

        async def send_with_id(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                MutableHeaders(scope=message)["x-request-id"] = rid
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except asyncio.CancelledError:
            if started:  # (half an answer sent: nothing better than to let it end so)
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
            log.warning("a request cut short: the server is stopping (503)")
            headers = [*CUT_SHORT_HEADERS, (b"x-request-id", rid.encode())]
            await send({"type": "http.response.start", "status": 503, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
        finally:
            REQUEST_ID.reset(token)


def socket_id() -> None:
    """Names the current socket in the logs of what it does (its task's context)."""
    REQUEST_ID.set("ws-" + secrets.token_hex(6))
