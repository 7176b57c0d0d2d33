"""Guest identity: no login, a random id kept in a signed cookie.

A pure ASGI middleware, so the same identity reaches pages and the WebSocket.
A request without a valid cookie gets a new guest id; pages set the cookie
(``HttpOnly; SameSite=Lax``, ``Secure`` over HTTPS). The token carries the time it was
issued, so tokens issued before a given moment can be refused (a leaked cookie rotated);
tokens from before issue times existed still read, and are reissued with one. The token of a
guest whose account was deleted is refused (a revocation kept in the database).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer, URLSafeTimedSerializer
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tapete.server.edge.limits import Limits
from tapete.server.edge.origin import cross_site_subresource, is_https

COOKIE = "tapete_guest"
LANG_COOKIE = "tapete_lang"
MAX_AGE = 400 * 24 * 3600


class Guests:
    """Signs and reads guest tokens. ``not_before`` (a Unix time) refuses every token issued
    earlier; untimed tokens (from before tokens had a time) read unless it is set. A guest in
    ``revoked`` (its account deleted: the store keeps the list) is read from no token: every
    copy of its cookie is a new guest's, on a page and on the socket alike."""

    def __init__(
        self, secret: str, not_before: float = 0.0, revoked: set[str] | None = None
    ) -> None:
        self.serializer = URLSafeTimedSerializer(secret, salt="guest")
        self.untimed = URLSafeSerializer(secret, salt="guest")
        self.not_before = not_before
        self.revoked: set[str] = revoked if revoked is not None else set()

    def revoke(self, guest: str) -> None:
        """No token of ``guest`` is read from now on (its account was deleted)."""
        self.revoked.add(guest)

    def sign(self, guest_id: str) -> str:
        return str(self.serializer.dumps(guest_id))

    def read(self, token: str | None) -> str | None:
        return self.read_token(token)[0]

    def read_token(self, token: str | None) -> tuple[str | None, bool]:
        """The guest id in ``token`` (or None), and whether it should be reissued (an
        untimed token)."""
        if not token:
            return None, False
        try:
            value, issued = self.serializer.loads(token, max_age=MAX_AGE, return_timestamp=True)
            stale = False
            if issued.timestamp() < self.not_before:
                return None, False
        except BadSignature:
            if self.not_before:
                return None, False
            try:
                value = self.untimed.loads(token)
            except BadSignature:
                return None, False
            stale = True
        ok = isinstance(value, str) and 8 <= len(value) <= 32 and value not in self.revoked
        return (value, stale) if ok else (None, False)


def cookie_pairs(scope: Scope) -> list[tuple[str, str]]:
    """Every ``name=value`` of the request's ``Cookie`` headers, in order.

    Tolerant: a pair that does not parse (another site's JSON value, spaces, quotes) is
    skipped and the others kept (``http.cookies`` would drop the whole header).

    >>> cookie_pairs({"headers": [(b"cookie", b'x={"a": 1, "b"}; tapete_guest=abc; ;y')]})
    [('x', '{"a": 1, "b"}'), ('tapete_guest', 'abc')]
    """
    pairs: list[tuple[str, str]] = []
    for name, value in scope.get("headers", []):
        if name != b"cookie":
            continue
        for part in value.decode("latin-1").split(";"):
            key, eq, val = part.partition("=")
            key = key.strip()
            if not eq or not key:
                continue
            val = val.strip()
            if len(val) >= 2 and val[0] == val[-1] == '"':
                val = val[1:-1]
            pairs.append((key, val))
    return pairs


def cookies_of(scope: Scope) -> dict[str, str]:
    """The request's cookies by name (the first of a name wins)."""
    out: dict[str, str] = {}
    for key, val in cookie_pairs(scope):
        out.setdefault(key, val)
    return out


def guest_cookie(token: str, secure: bool) -> str:
    flags = "; Secure" if secure else ""
    return f"{COOKIE}={token}; Path=/; Max-Age={MAX_AGE}; HttpOnly; SameSite=Lax{flags}"


def guest_in(scope: Scope, guests: Guests) -> tuple[str | None, bool]:
    """The guest whose signed cookie ``scope`` carries (None: none valid), and whether the
    cookie should be issued again (signed before a rotation, or near its end)."""
    for key, token in cookie_pairs(scope):  # a cookie tossed in beside ours: the valid one
        if key == COOKIE:
            guest, reissue = guests.read_token(token)
            if guest is not None:
                return guest, reissue
    return None, False


class GuestMiddleware:
    """Puts ``scope["state"]["guest"]`` (an id, or None on a socket without a cookie)."""

    def __init__(
        self, app: ASGIApp, guests: Callable[[], Any], limits: Callable[[], Limits] = Limits
    ) -> None:
        self.app = app
        self.guests = guests
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        guests: Guests = self.guests()
        guest, reissue = guest_in(scope, guests)
        http = scope["type"] == "http"
        new = guest is None and http
        if new:
            guest = secrets.token_hex(12)
        # another site's image or fetch of us: it may see a page, never get a cookie
        issue = http and (new or reissue) and not cross_site_subresource(scope)
        scope.setdefault("state", {})["guest"] = guest
        secure = is_https(scope, self.limits())

        async def send_with_cookie(message: Message) -> None:
            if issue and message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.append("set-cookie", guest_cookie(guests.sign(str(guest)), secure))
            await send(message)

        await self.app(scope, receive, send_with_cookie)


__all__ = [
    "COOKIE",
    "LANG_COOKIE",
    "GuestMiddleware",
    "Guests",
    "cookie_pairs",
    "cookies_of",
    "guest_in",
]
