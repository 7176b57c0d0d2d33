"""The ASGI app: pages, the JSON API and the WebSocket endpoint. Thin: no rules here.

The pieces are one module each: :mod:`~tapete.server.pages.games`, :mod:`~tapete.server.pages.api`,
:mod:`~tapete.server.socket`; :mod:`~tapete.server.state` holds what runs
(store, rooms, cookie signer); :mod:`~tapete.server.pages.render` speaks the player's language.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

from sqlalchemy.exc import OperationalError
from starlette.applications import Starlette
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.types import Scope

from tapete.cluster import Unreachable
from tapete.i18n.errors import describe
from tapete.mail import Mailer
from tapete.rooms import Settings, TableClosed
from tapete.server.account.account import AccountApi
from tapete.server.account.guests import GuestMiddleware
from tapete.server.account.history import History
from tapete.server.account.shop import Shop
from tapete.server.account.strangers import Strangers
from tapete.server.edge.limits import Limits
from tapete.server.edge.origin import EdgeMiddleware
from tapete.server.ops.load import RETRY_AFTER as FULL_RETRY_AFTER
from tapete.server.ops.logs import RequestIds
from tapete.server.ops.probes import Ops
from tapete.server.pages.api import Api
from tapete.server.pages.app_shell import AppShell
from tapete.server.pages.assets import Static
from tapete.server.pages.daily import DailyPages
from tapete.server.pages.fairness import Fairness
from tapete.server.pages.games import Pages
from tapete.server.pages.leaderboard import Leaderboards
from tapete.server.pages.logros import LogrosPages
from tapete.server.pages.quick import QuickPlay
from tapete.server.pages.render import Renderer, lang_of
from tapete.server.pages.replay import Replays
from tapete.server.pages.rooms import RoomPages
from tapete.server.socket import SocketFront, Sockets
from tapete.server.socket.endpoint import Direct
from tapete.server.state import Full, Hall, Stopping

log = logging.getLogger(__name__)

RETRY_AFTER = 30
"""Seconds a client is told to wait (``Retry-After``) when the database cannot answer or
write (a full disk, a lock held too long, PostgreSQL away)."""


def create_app(
    database_url: str,
    settings: Settings | None = None,
    limits: Limits | None = None,
    *,
    gc_policy: bool = False,
    watch_load: bool = False,
    redis_url: str | None = None,
    mailer: Mailer | None = None,
    shutdown_seconds: float | None = None,
    sqlite_writer: str | None = None,
    direct: Direct | None = None,
    ws: str = "asgi",
) -> SocketFront:
    """The hall's ASGI app. What ``tapete serve`` tunes beyond the libraries' stock
    behaviour is given here (docs/architecture.md, «Stock settings»): ``gc_policy`` (the
    collector's policy), ``sqlite_writer`` (``loop`` or ``thread``), ``direct`` (the lean
    sockets' way to write a frame straight to the transport, :mod:`~tapete.server.socket.
    wsimpl`; with it the socket also lets go of its handshake); ``watch_load``: refuse
    newcomers when the process is full (:mod:`~tapete.server.ops.load`); ``ws``: the WebSocket
    implementation's name, for the operator's ``/salud``."""
    hall = Hall(
        database_url,
        settings or Settings(),
        limits or Limits(),
        gc_policy,
        redis_url,
        mailer,
        sqlite_writer,
        watch_load,
    )
    if shutdown_seconds is not None:
        hall.shutdown_seconds = shutdown_seconds
    hall.ws = ws
    pages = Pages(hall, Renderer())
    api = Api(hall)
    account = AccountApi(hall, pages)
    shop = Shop(account)
    history = History(account)
    fairness = Fairness(hall, pages)
    replays = Replays(hall, pages)
    shell = AppShell(pages)
    rooms = RoomPages(hall, pages)
    quick = QuickPlay(hall)
    boards = Leaderboards(hall, pages)
    dailies = DailyPages(hall, pages)
    logros = LogrosPages(hall, pages)
    strangers = Strangers(hall)
    sockets = Sockets(hall, lean=direct is not None)
    ops = Ops(hall, lambda: sockets.open)
    hall.load.players = lambda: sockets.open

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hall.start(sockets.relaying)
        try:
            yield
        finally:  # (every part within one deadline: nothing keeps the process from ending)
            stopping = Stopping(hall.shutdown_seconds)
            await stopping.step("the sockets' router", sockets.router.close())
            await stopping.step("the mail", account.close())
            await hall.stop(stopping)

    routes = [
        Route("/", pages.home),
        Route("/reglas", pages.rules_index),
        Route("/reglas/{game}", pages.rules),
        Route("/partida/{game_id}", pages.table),
        Route("/partida/{game_id}/otra", pages.again, methods=["POST"]),
        Route("/partida/{game_id}/justa", fairness.page),
        Route("/api/partidas/{game_id}/justa", fairness.get),
        Route("/partida/{game_id}/repeticion", replays.page),
        Route("/partida/{game_id}/analisis", replays.analysis_page),
        Route("/api/partidas/{game_id}/repeticion", replays.get),
        Route("/api/partidas/{game_id}/analisis", replays.analysis),
        Route("/api/{kind}/nueva", api.create, methods=["POST"]),
        Route("/api/partidas/{game_id}", api.game),
        Route("/api/salas", rooms.create, methods=["POST"]),
        Route("/api/salas/{code}/unirse", rooms.join, methods=["POST"]),
        Route("/api/salas/{code}/reparto", rooms.deal, methods=["POST"]),  # (--test-api)
        Route("/sala/{code}", rooms.page, name="room_page"),
        Route("/clasificacion/{game}", boards.page),
        Route("/api/clasificacion/{game}", boards.get),
        Route("/reto", dailies.page),
        Route("/reto/{game}", dailies.start, methods=["POST"]),
        Route("/api/reto/{game}", dailies.get),
        Route("/logros", logros.page),
        Route("/api/logros", logros.get),
        Route("/api/partidas/{game_id}/puntuacion", boards.change),
        Route("/api/jugadores/bloquear", strangers.block, methods=["POST"]),
        Route("/api/jugadores/bloqueados", strangers.blocked),
        Route("/api/jugadores/bloqueados/{index}", strangers.unblock, methods=["DELETE"]),
        Route("/api/jugadores/denunciar", strangers.report, methods=["POST"]),
        Route("/api/jugadores/nombre", strangers.name, methods=["POST"]),
        Route("/api/jugar", quick.join, methods=["POST"]),
        Route("/api/jugar", quick.status, methods=["GET"]),
        Route("/api/jugar", quick.cancel, methods=["DELETE"]),
        Route("/sala/{code}/qr.svg", rooms.qr),
        Route("/sala/{code}/resumen", rooms.summary),
        Route("/sala/{code}/opciones", rooms.set_options, methods=["POST"]),
        Route("/unirse", rooms.by_code),
        Route("/perfil", account.page),
        Route("/api/cuenta", account.get),
        Route("/api/cuenta", account.erase, methods=["DELETE"]),
        Route("/api/cuenta/datos", account.export),
        Route("/api/cuenta/perfil", account.set_profile, methods=["POST"]),
        Route("/api/cuenta/correo", account.link, methods=["POST"]),
        Route("/api/cuenta/correo", account.unlink, methods=["DELETE"]),
        Route("/api/cuenta/correo/confirmar", account.confirm_link, methods=["POST"]),
        Route("/api/cuenta/recuperar", account.recover, methods=["POST"]),
        Route("/api/cuenta/recuperar/confirmar", account.confirm_recover, methods=["POST"]),
        Route("/api/monedas/diario", account.daily, methods=["POST"]),
        Route("/historial", history.page),
        Route("/api/historial", history.get),
        Route("/tienda", shop.page),
        Route("/api/tienda", shop.get),
        Route("/api/tienda/comprar", shop.buy, methods=["POST"]),
        Route("/api/tienda/equipar", shop.equip, methods=["POST"]),
        Route("/salud", ops.health),
        Route("/manifest.webmanifest", shell.manifest),
        Route("/sw.js", shell.worker),
        Route("/sin-conexion", shell.offline),
        Route("/metrics", ops.metrics),
        WebSocketRoute("/ws", sockets.endpoint),  # (what SocketFront does not take first)
        Mount("/static", Static(), name="static"),
        Route("/{kind}", pages.setup),
        Route("/{kind}/nueva", pages.start, methods=["POST"]),
        Route("/{kind}/guiada", pages.guided, methods=["POST"]),
        Route("/{kind}/sala", rooms.new_from_setup, methods=["POST"]),
        Route("/{kind}/guia", pages.guide),
        Route("/{kind}/guia/{page}", pages.guide),
    ]

    def wants_json(request: Request) -> bool:
        """A refusal is JSON for the API and for scripts, a page for a browser's form."""
        return request.url.path.startswith("/api/") or "text/html" not in request.headers.get(
            "accept", ""
        )

    def refuse(scope: Scope, code: str, status: int) -> Response:
        """The edge's refusal in the player's language: JSON for the API and for scripts,
        a page for a browser's form."""
        request = Request(scope)
        lang = lang_of(request)
        words = describe(code, lang)
        if wants_json(request):
            body = {"type": "error", "code": code, "error": code, "message": words}
            return JSONResponse(body, status_code=status)
        return pages.render(request, "refused.html", status=status, message=words)

    async def unreachable(request: Request, exc: Exception) -> Response:
        """Several processes: Redis, or the process that runs the room, did not answer; or
        the table closed while the request waited for it (asked again, it opens anew)."""
        return refuse(request.scope, "busy", 503)

    async def unavailable(request: Request, exc: Exception) -> Response:
        """The database could not answer or write (a full disk: ``/salud`` says so too):
        the error contract, ``503`` with ``Retry-After`` and the sentence in the player's
        language — JSON for the API and scripts, a page for a browser's form — never a
        plain-text 500. Nothing was changed (the transaction rolled back)."""
        log.debug("the database could not do it: %s", exc)
        lang = lang_of(request)
        words = describe("unavailable", lang)
        headers = {"retry-after": str(RETRY_AFTER)}
        if wants_json(request):
            body = {"error": "unavailable", "message": words}
            return JSONResponse(body, status_code=503, headers=headers)
        page = pages.render(request, "refused.html", status=503, message=words)
        page.headers.update(headers)
        return page

    async def full(request: Request, exc: Exception) -> Response:
        """This process is full: «hay mucha gente, vuelve en un momento», 503 with
        ``Retry-After``, at once (nothing was read from the database, nothing made)."""
        lang = lang_of(request)
        code = exc.code if isinstance(exc, Full) else "full"
        words = describe(code, lang)
        headers = {"retry-after": str(FULL_RETRY_AFTER)}
        if wants_json(request):
            body = {"error": code, "message": words}
            return JSONResponse(body, status_code=503, headers=headers)
        back = request.url.path if request.method == "GET" else "/"
        referer = urlsplit(request.headers.get("referer", ""))
        if referer.netloc == request.url.netloc and referer.path.startswith("/"):
            back = referer.path  # (the page the form was on; never another site)
        page = pages.render(
            request, "full.html", status=503, message=words, back=back, restarting=code != "full"
        )
        page.headers.update(headers)
        return page

    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={
            Unreachable: unreachable,
            TableClosed: unreachable,
            OperationalError: unavailable,
            Full: full,
        },
    )
    # outermost last: the edge refuses before a guest cookie is made
    app.add_middleware(GuestMiddleware, guests=lambda: hall.guests, limits=lambda: hall.limits)
    app.add_middleware(EdgeMiddleware, limits=lambda: hall.limits, refuse=refuse)
    app.add_middleware(GZipMiddleware, minimum_size=500)
    app.add_middleware(RequestIds)
    app.state.hall = hall
    app.state.sockets = sockets
    app.state.account = account
    return SocketFront(app, app.state, sockets, lambda: hall.guests, direct)
