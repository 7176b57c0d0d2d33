"""What an operator asks the hall: ``/metrics`` (Prometheus' text format) and ``/salud``
(whether it and what it depends on answer).

Both stay on the operator's network: a request straight to the process (no proxy relayed it:
no ``X-Forwarded-For``, ``Forwarded`` or ``X-Real-IP``) from a loopback address or one of
``Limits.operator_networks`` (the private ranges unless set) reads ``/metrics`` and the
detailed ``/salud`` (each dependency's answer and time, the node: its host and PID); anyone
else gets 404 for ``/metrics`` and from ``/salud`` only ``{"ok": …}`` with 200 or 503, which
is all a balancer's health check needs."""

from __future__ import annotations

import asyncio
import ipaddress
import sys
import time
from collections import Counter
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tapete.metrics import Gauges, registry
from tapete.registry import REGISTRY
from tapete.server.state import Hall, address_of

RELAYED = frozenset({b"x-forwarded-for", b"forwarded", b"x-real-ip"})
"""Headers a proxy adds: a request that carries one came from beyond it."""

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

HEALTH_TIMEOUT = 2.0
"""Seconds a dependency has to answer ``/salud``."""


def running_tasks() -> int:
    """The event loop's tasks (0 outside it: the registry reads its gauges once when made)."""
    try:
        return len(asyncio.all_tasks())
    except RuntimeError:
        return 0


class Ops:
    def __init__(self, hall: Hall, open_sockets: Any) -> None:
        self.hall = hall
        self.open_sockets = open_sockets
        self.registry = registry(Gauges(self.gauges))
        self.networks: list[Network] = [
            ipaddress.ip_network(n, strict=False) for n in hall.limits.operator_networks
        ]

    def operator(self, request: Request) -> bool:
        """Whether ``request`` is an operator's: straight to this process (no proxy relayed
        it) from a loopback address or one of ``Limits.operator_networks``."""
        if any(name in RELAYED for name, _ in request.scope.get("headers", [])):
            return False
        try:
            ip = ipaddress.ip_address(address_of(request))
        except ValueError:  # (no address: a test's client, a Unix socket)
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return ip.is_loopback or any(ip in network for network in self.networks)

    def gauges(self) -> dict[str, tuple[str, list[str], list[tuple[list[str], float]]]]:
        started = self.hall.store is not None
        tables = self.hall.live.tables.loaded() if started else []
        by_game = Counter(r.record.kind for r in tables)
        rooms = self.hall.live.rooms.loaded() if started else []
        return {
            "tapete_sockets": ("Open sockets.", [], [([], float(self.open_sockets()))]),
            "tapete_tasks": (
                "The event loop's tasks (each socket, table, room, bot's wait, clock's…).",
                [],
                [([], float(running_tasks()))],
            ),
            "tapete_games_open": (
                "Games in memory (being played or looked at), by game.",
                ["game"],
                [([key], float(by_game[key])) for key in REGISTRY],
            ),
            "tapete_private_rooms_open": (
                "Private rooms in memory.",
                [],
                [([], float(len(rooms)))],
            ),
            "tapete_watchers": (
                "Connections following a game, by game.",
                ["game"],
                [
                    ([key], float(sum(len(r.subscribers) for r in tables if r.record.kind == key)))
                    for key in REGISTRY
                ],
            ),
            "tapete_full": (
                "Whether this process is full: new games, rooms and queue places refused.",
                [],
                [([], float(self.hall.load.full))],
            ),
            "tapete_cpu_share": (
                "The event loop's thread's CPU seconds per second, over the last second.",
                [],
                [([], self.hall.load.cpu_share)],
            ),
            "tapete_loop_lag_seconds": (
                "How late the event loop's timers wake, on average over the last second.",
                [],
                [([], self.hall.load.lag)],
            ),
            "tapete_arrivals_refused": (
                "Newcomers refused because this process was full, so far.",
                [],
                [([], float(self.hall.load.refused))],
            ),
            "tapete_bots_thinking": (
                "Bot decisions in progress.",
                [],
                [([], float(sum(len(r.bots.deciding) for r in tables)))],
            ),
        }

    async def metrics(self, request: Request) -> Response:
        if not self.operator(request):
            return Response("Not Found", status_code=404, media_type="text/plain")
        return Response(generate_latest(self.registry), media_type=CONTENT_TYPE_LATEST)

    async def health(self, request: Request) -> Response:
        """200 and what answers; 503 if the database does not, or cannot write (a full disk:
        :class:`~tapete.server.state.WriteHealth`), and a balancer takes this process out —
        or if the process is full (``"full": true``, :mod:`~tapete.server.ops.load`): a
        balancer sends new sessions elsewhere while the seated players' sockets stay.
        What answers, and how fast, only to an operator (:meth:`operator`): anyone else reads
        ``{"ok": …}`` alone."""
        checks: dict[str, Any] = {}
        store = self.hall.store
        ok = store is not None
        if store is not None:
            t0 = time.perf_counter()
            try:
                await asyncio.wait_for(store.ping(), HEALTH_TIMEOUT)
                checks["database"] = {"ok": True, "ms": round(1000 * (time.perf_counter() - t0))}
            except Exception as exc:
                ok = False
                checks["database"] = {"ok": False, "error": type(exc).__name__}
        if store is not None:
            writes = await self.hall.writes.check(store)
            ok = ok and writes
            checks["writes"] = {"ok": writes}
        node = self.hall.node
        if node is not None:
            t0 = time.perf_counter()
            up = await node.ping()
            ok = ok and up
            checks["redis"] = {"ok": up, "ms": round(1000 * (time.perf_counter() - t0))}
            checks["node"] = node.me
        load = self.hall.load
        full = load.full
        draining = self.hall.draining
        status = 200 if ok and not full and not draining else 503
        if not self.operator(request):
            public: dict[str, bool] = {"ok": ok}
            if full:
                public["full"] = True
            if draining:
                public["draining"] = True
            return JSONResponse(public, status_code=status)
        checks["draining"] = draining
        tables = len(self.hall.live.tables.loaded()) if store is not None else 0
        checks["load"] = {
            "full": full,
            "cpu": round(load.cpu_share, 3),
            "full_cpu": load.full_cpu,
            "lag_ms": round(1000 * load.lag, 1),
        }
        body = {"ok": ok, "rooms": tables, **checks, "settings": self.settings()}
        return JSONResponse(body, status_code=status)

    def settings(self) -> dict[str, Any]:
        """What this process runs beyond the libraries' stock behaviour (docs/architecture.md,
        «Stock settings»): the WebSocket implementation, the collector's policy, where the
        moves are written, and whether our lean sockets' module is loaded at all."""
        store = self.hall.store
        writer = store.writer.where if store is not None else None
        return {
            "ws": self.hall.ws,
            "wsimpl_loaded": "tapete.server.socket.wsimpl" in sys.modules,
            "gc_policy": self.hall.gc_policy is not None,
            "move_writer": writer,
        }
