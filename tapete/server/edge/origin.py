"""The edge: who may change state, what every response says to the browser, how big a body.

A pure ASGI middleware, outside the guest cookie's, so a refused request never gets one:

- a state-changing request (anything but GET, HEAD, OPTIONS) comes from the hall's own
  origin (the ``Origin`` header, else ``Sec-Fetch-Site``) or one of ``Limits.origins``;
  another site's gets ``403`` (``cross_site``). A request with neither header (curl, a
  script, a test) is not a browser's and goes on;
- a body larger than ``Limits.body_bytes`` gets ``413`` (``too_large``), whether its
  ``Content-Length`` says so or its chunks add up to it;
- every response carries the headers of :func:`security_headers`: a Content-Security-Policy
  with no inline script, ``nosniff``, a same-origin referrer, no framing, and HSTS over HTTPS.

A WebSocket checks its ``Origin`` itself (:func:`socket_allowed`, called first thing by the
endpoint): browsers send one on every socket, and no ``SameSite`` protects a socket.
See docs/security.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from starlette.datastructures import MutableHeaders
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tapete.server.edge.limits import Limits

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
HSTS = "max-age=31536000"

Refuse = Callable[[Scope, str, int], Response]
"""Builds the refusal page (or JSON) for a request: ``(scope, code, status)``."""


def header(scope: Scope, name: bytes) -> str | None:
    """The first header ``name`` (lower case) of the request, if any."""
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def trusted_peer(scope: Scope, limits: Limits) -> bool:
    client = scope.get("client")
    return client is not None and str(client[0]) in limits.trusted_proxies


def is_https(scope: Scope, limits: Limits) -> bool:
    """Served over HTTPS: the connection's scheme, or ``X-Forwarded-Proto: https`` from a
    proxy in ``Limits.trusted_proxies`` (from anyone else the header means nothing)."""
    if scope.get("scheme") in ("https", "wss"):
        return True
    if trusted_peer(scope, limits):
        forwarded = header(scope, b"x-forwarded-proto") or ""
        return forwarded.split(",")[0].strip().lower() == "https"
    return False


def _origin_key(origin: str) -> tuple[str, str, int] | None:
    """``scheme://host:port`` as a comparable triple (ws/wss read as http/https; the
    default port filled in); None for what is not an origin (``null``, junk)."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme.lower(), parts.scheme.lower())
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def own_origin(scope: Scope, limits: Limits) -> str | None:
    """The hall's origin as this request reaches it: its scheme and its ``Host``."""
    host = header(scope, b"host")
    if not host:
        server = scope.get("server")
        if not server:
            return None
        host = f"{server[0]}:{server[1]}"
    return f"{'https' if is_https(scope, limits) else 'http'}://{host}"


def origin_allowed(origin: str, scope: Scope, limits: Limits) -> bool:
    """``origin`` is the hall's own (same scheme, host and port) or one of ``Limits.origins``.

    >>> scope = {"type": "http", "scheme": "http", "headers": [(b"host", b"h.example:8000")]}
    >>> origin_allowed("http://h.example:8000", scope, Limits())
    True
    >>> origin_allowed("http://h.example:8001", scope, Limits())
    False
    >>> origin_allowed("https://t.example", scope, Limits(origins=("https://t.example:443",)))
    True
    >>> origin_allowed("null", scope, Limits())
    False
    """
    key = _origin_key(origin)
    if key is None:
        return False
    own = own_origin(scope, limits)
    accepted: Iterable[str] = (*((own,) if own else ()), *limits.origins)
    return any(key == _origin_key(o) for o in accepted)


def request_allowed(scope: Scope, limits: Limits) -> bool:
    """A state-changing request from the hall's pages (or from no browser at all)."""
    origin = header(scope, b"origin")
    if origin is not None:
        return origin_allowed(origin, scope, limits)
    site = header(scope, b"sec-fetch-site")
    return site is None or site.strip().lower() in ("same-origin", "none")


def socket_allowed(scope: Scope, limits: Limits) -> bool:
    """A WebSocket from the hall's own pages (same host and port) or ``Limits.origins``;
    one without ``Origin`` is no browser's and may connect."""
    origin = header(scope, b"origin")
    return origin is None or origin_allowed(origin, scope, limits)


def cross_site_subresource(scope: Scope) -> bool:
    """A request another site's page made of us without the player going there (an image,
    a script, a fetch): no new guest cookie for it."""
    site = (header(scope, b"sec-fetch-site") or "").lower()
    mode = (header(scope, b"sec-fetch-mode") or "").lower()
    return site in ("cross-site", "same-site") and mode not in ("", "navigate")


def _ws_origins(origins: Iterable[str]) -> list[str]:
    out = []
    for o in origins:
        o = o.rstrip("/")
        out.append(o)
        if o.startswith("https://"):
            out.append("wss://" + o[len("https://") :])
        elif o.startswith("http://"):
            out.append("ws://" + o[len("http://") :])
    return out


def content_security_policy(limits: Limits) -> str:
    """No inline script, nothing from elsewhere, no framing (docs/security.md)."""
    connect = " ".join(["'self'", *_ws_origins(limits.origins)])
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "style-src-attr 'unsafe-inline'",
            "img-src 'self' data:",
            "font-src 'self'",
            f"connect-src {connect}",
            "object-src 'none'",
            "frame-ancestors 'none'",
            "base-uri 'none'",
            "form-action 'self'",
        ]
    )


def security_headers(scope: Scope, limits: Limits) -> list[tuple[str, str]]:
    headers = [
        ("content-security-policy", content_security_policy(limits)),
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "same-origin"),
        ("x-frame-options", "DENY"),
        ("cross-origin-opener-policy", "same-origin"),
    ]
    if is_https(scope, limits):
        headers.append(("strict-transport-security", HSTS))
    return headers


class TooLarge(Exception):
    """The body grew past ``Limits.body_bytes`` while the app read it."""


class EdgeMiddleware:
    """Origins of state-changing requests, body sizes, and the security headers."""

    def __init__(self, app: ASGIApp, limits: Callable[[], Limits], refuse: Refuse) -> None:
        self.app = app
        self.limits = limits
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limits = self.limits()
        extra = security_headers(scope, limits)
        started = False

        async def send_secured(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = MutableHeaders(scope=message)
                for name, value in extra:
                    if name not in headers:
                        headers[name] = value
            await send(message)

        async def refuse(code: str, status: int) -> None:
            await self.refuse(scope, code, status)(scope, receive, send_secured)

        if scope["method"] not in SAFE_METHODS and not request_allowed(scope, limits):
            await refuse("cross_site", 403)
            return
        length = header(scope, b"content-length")
        if length is not None and (not length.strip().isdigit() or int(length) > limits.body_bytes):
            await refuse("too_large", 413)
            return
        seen = 0

        async def receive_counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limits.body_bytes:
                    raise TooLarge
            return message

        try:
            await self.app(scope, receive_counted, send_secured)
        except TooLarge:
            if started:
                raise
            await refuse("too_large", 413)
