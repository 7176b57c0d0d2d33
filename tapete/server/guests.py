"""Guest identity: no login, a random id kept in a signed cookie.

A pure ASGI middleware, so the same identity reaches pages and the WebSocket.
A request without a valid cookie gets a new guest id; pages set the cookie.
"""

from __future__ import annotations

import secrets
from http.cookies import SimpleCookie
from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE = "tapete_guest"
LANG_COOKIE = "tapete_lang"
MAX_AGE = 400 * 24 * 3600


class Guests:
    def __init__(self, secret: str) -> None:
        self.serializer = URLSafeSerializer(secret, salt="guest")

    def sign(self, guest_id: str) -> str:
        return str(self.serializer.dumps(guest_id))

    def read(self, token: str | None) -> str | None:
        if not token:
            return None
        try:
            value = self.serializer.loads(token)
        except BadSignature:
            return None
        return value if isinstance(value, str) and 8 <= len(value) <= 32 else None


def cookies_of(scope: Scope) -> dict[str, str]:
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(value.decode("latin-1"))
            except Exception:
                return {}
            return {k: m.value for k, m in jar.items()}
    return {}


class GuestMiddleware:
    """Puts ``scope["state"]["guest"]`` (an id, or None on a socket without a cookie)."""

    def __init__(self, app: ASGIApp, guests: Any) -> None:
        self.app = app
        self.guests = guests

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        guests: Guests = self.guests()
        guest = guests.read(cookies_of(scope).get(COOKIE))
        new = guest is None and scope["type"] == "http"
        if new:
            guest = secrets.token_hex(12)
        scope.setdefault("state", {})["guest"] = guest

        async def send_with_cookie(message: Message) -> None:
            if new and message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.append(
                    "set-cookie",
                    f"{COOKIE}={guests.sign(str(guest))}; Path=/; Max-Age={MAX_AGE}; "
                    "HttpOnly; SameSite=Lax",
                )
            await send(message)

        await self.app(scope, receive, send_with_cookie)
