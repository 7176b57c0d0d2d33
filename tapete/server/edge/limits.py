"""What one guest, address or connection may do: the limits a hostile or unlucky client
meets (docs/security.md). The counting is :mod:`tapete.throttle`."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, fields, replace
from typing import Any

PRIVATE_NETWORKS = ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")
"""The private ranges (RFC 1918, and IPv6's unique local addresses): an operator's network
unless ``operator_networks`` says which."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Every limit of the edge, with its default; ``tapete serve`` sets a few from flags and
    the environment (docs/security.md lists them all)."""

    # sockets
    socket_queue_messages: int = 512
    """Messages queued for one connection that it has not read yet, at most."""
    socket_queue_bytes: int = 2_000_000
    """Bytes queued for one connection, at most; past either cap it is closed (4008)."""
    socket_rate: float = 30.0
    """Messages a socket may send per second, on average…"""
    socket_burst: int = 60
    """…and at once."""
    sockets_per_guest: int = 12
    sockets_per_address: int = 200
    socket_ping_seconds: float = 20.0
    """Keepalive: a peer that answers no ping within this is closed."""
    socket_deflate: bool = False
    """Per-message compression of socket frames. Off: for frames of a few kilobytes it cost
    about 45 kB a connection (a zlib context each) and about half of the time spent sending
    frames (bench/RESULTS.md)."""
    # bodies
    body_bytes: int = 64 * 1024
    """The largest request body (and socket message: 4 KB, MAX_MESSAGE) accepted."""
    json_depth: int = 16
    """The deepest JSON nesting accepted, in a body or a socket message."""
    # creating games
    open_games_per_guest: int = 8
    """Unfinished practice games a guest may have; a new one of a kind replaces the old."""
    games_per_minute_guest: int = 20
    games_per_minute_address: int = 120
    # room codes
    wrong_codes_per_guest: int = 10
    wrong_codes_per_address: int = 40
    """Wrong room codes one guest, and one network address, may try in 10 minutes, however
    they arrive (the join, a room's page, the socket's ``enter``); past either, every lookup
    by code from them is ``throttled`` until the oldest leaves the window."""
    # e-mail codes (besides the database's own per address: tapete.accounts.may_send)
    mail_codes_per_guest: int = 6
    mail_codes_per_address: int = 6
    """Codes one guest, and one network address, may ask for in 15 minutes."""
    mail_codes_per_email: int = 10
    """Codes one e-mail address may be sent in 15 minutes, whoever asks (against mail
    bombing; each requester has 3 of its own within it, and never voids another's code)."""
    # a full process
    full_cpu: float = 0.75
    """A process whose event loop's thread spends this share of its core (over the last
    second) is full: new games, rooms and places in «Jugar ahora» are refused at once (503,
    ``Retry-After``) and ``/salud`` answers 503 ``{"full": true}`` until it is not; 0: never
    full. Only ``tapete serve`` watches it (:mod:`tapete.server.ops.load`)."""
    # hints
    hint_threads: int = 1
    """Threads that compute hints (their own pool: bots never wait on them)."""
    hints_per_minute: int = 20
    """Hints one seat may ask for per minute (one at a time)."""
    # cross-site
    origins: tuple[str, ...] = ()
    """Origins accepted besides the hall's own (a deployment behind a proxy: its public
    origin, e.g. ``https://tapete.example``)."""
    trusted_proxies: tuple[str, ...] = ()
    """Peer addresses whose ``X-Forwarded-Proto`` / ``X-Forwarded-For`` are believed."""
    # what only an operator reads
    operator_networks: tuple[str, ...] = PRIVATE_NETWORKS
    """Networks (CIDR) whose requests, straight to the process (not relayed by a proxy),
    read ``/metrics`` and the detailed ``/salud``; loopback always does. Anyone else gets 404
    for ``/metrics`` and from ``/salud`` only 200 or 503 (docs/security.md, «What an
    operator reads»)."""
    # the guest cookie
    cookies_issued_after: float = 0.0
    """A Unix time: every guest token issued before it is refused (a leaked cookie's
    rotation: everyone gets a new identity). 0: all read."""

    def __post_init__(self) -> None:
        for network in self.operator_networks:
            try:
                ipaddress.ip_network(network, strict=False)
            except ValueError:
                raise ValueError(f"operator_networks: {network!r} is no network") from None

    def with_text(self, text: str) -> Limits:
        """These limits with some changed, as an operator writes them
        (``TAPETE_LIMITS`` / ``--limit``): ``name=value`` pairs separated by commas or
        spaces; a list's items by ``|``. Raises ValueError on a name that is no limit.

        >>> Limits().with_text("socket_deflate=on").socket_deflate
        True
        >>> Limits().with_text("sockets_per_guest=4, origins=https://a.example|https://b.example")
        ... # doctest: +ELLIPSIS
        Limits(...sockets_per_guest=4,...origins=('https://a.example', 'https://b.example')...)
        """
        kinds = {f.name: type(getattr(self, f.name)) for f in fields(self)}
        changes: dict[str, Any] = {}
        for pair in text.replace(",", " ").split():
            name, sep, value = pair.partition("=")
            if not sep or name not in kinds:
                raise ValueError(f"no such limit: {name!r} (see docs/security.md)")
            kind = kinds[name]
            if kind is tuple:
                changes[name] = tuple(v for v in value.split("|") if v)
            elif kind is bool:
                changes[name] = value.lower() in ("1", "true", "yes", "on")
            else:
                changes[name] = kind(value)
        return replace(self, **changes)
