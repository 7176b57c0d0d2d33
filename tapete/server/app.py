"""The ASGI app: pages, the JSON API and the WebSocket endpoint. Thin: no rules here."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.websockets import WebSocket, WebSocketDisconnect

from tapete.games import IllegalMove
from tapete.i18n import CATALOG, pick_lang, t
from tapete.rooms import Room, Rooms, Settings, error
from tapete.server.guests import LANG_COOKIE, GuestMiddleware, Guests, cookies_of
from tapete.server.hall import FORMS, GAMES, GUIDE_PAGES
from tapete.store import Store, migrate

log = logging.getLogger(__name__)
HERE = Path(__file__).parent
MAX_MESSAGE = 4096
"""Largest WebSocket message a client may send, in bytes."""


class Hall:
    """What the app holds while it runs: the store, the rooms, the cookie signer."""

    def __init__(self, url: str, settings: Settings) -> None:
        self.url = url
        self.settings = settings
        self.store: Store | None = None
        self.rooms: Rooms | None = None
        self.guests: Guests | None = None

    async def start(self) -> None:
        await asyncio.to_thread(migrate, self.url)
        self.store = Store(self.url)
        self.guests = Guests(await self.store.secret())
        self.rooms = Rooms(self.store, self.settings)
        resumed = await self.rooms.start()
        log.info("resumed %d unfinished games", resumed)

    async def stop(self) -> None:
        if self.rooms is not None:
            await self.rooms.close()
        if self.store is not None:
            await self.store.close()


def create_app(database_url: str, settings: Settings | None = None) -> Starlette:
    hall = Hall(database_url, settings or Settings())
    templates = Jinja2Templates(directory=str(HERE / "templates"))

    def lang_of(request: Request | WebSocket) -> str:
        query = request.query_params.get("lang")
        if query:
            return pick_lang(query)
        # Spanish unless the player chose English (the browser's language is not asked)
        return pick_lang(cookies_of(request.scope).get(LANG_COOKIE))

    def render(request: Request, name: str, status: int = 200, **context: Any) -> Response:
        lang = lang_of(request)

        def tr(key: str, **params: Any) -> str:
            return t(key, lang, **params)

        response = templates.TemplateResponse(
            request, name, {"lang": lang, "t": tr, **context}, status_code=status
        )
        if request.query_params.get("lang") in ("es", "en"):
            response.set_cookie(LANG_COOKIE, lang, max_age=400 * 24 * 3600, samesite="lax")
        return response

    def guest_of(request: Request | WebSocket) -> str | None:
        guest = request.scope.get("state", {}).get("guest")
        return guest if isinstance(guest, str) else None

    def rooms() -> Rooms:
        assert hall.rooms is not None
        return hall.rooms

    async def active_game(guest: str | None, kind: str | None = None) -> dict[str, Any] | None:
        if guest is None or hall.store is None:
            return None
        records = await hall.store.games_of(guest, kind)
        if not records:
            return None
        r = records[0]
        return {
            "id": r.id,
            "kind": r.kind,
            "title": GAMES[r.kind]["title"],
            "url": f"/partida/{r.id}",
        }

    # pages

    async def home(request: Request) -> Response:
        return render(
            request, "hall.html", games=GAMES.values(), resume=await active_game(guest_of(request))
        )

    async def rules(request: Request) -> Response:
        game = request.path_params["game"]
        if game not in GAMES:
            return render(request, "not_found.html", status=404)
        return render(request, f"rules/{game}.html", game=GAMES[game])

    async def setup(request: Request) -> Response:
        kind = request.path_params["kind"]
        if kind not in FORMS:
            return render(request, "not_found.html", status=404)
        return render(
            request,
            f"{kind}_setup.html",
            game=GAMES[kind],
            resume=await active_game(guest_of(request), kind),
            error=None,
        )

    async def start(request: Request) -> Response:
        kind = request.path_params["kind"]
        guest = guest_of(request)
        if kind not in FORMS or guest is None:
            return render(request, "not_found.html", status=404)
        config, level = FORMS[kind](await request.form())
        try:
            room = await rooms().create(kind, config, guest, level=level)
        except IllegalMove as exc:
            return render(
                request,
                f"{kind}_setup.html",
                status=400,
                game=GAMES[kind],
                resume=None,
                error=exc.localized(lang_of(request)),
            )
        return RedirectResponse(f"/partida/{room.id}", status_code=303)

    async def guide(request: Request) -> Response:
        from tapete.server.guides import peaje_examples

        page = request.path_params.get("page", "index")
        if page not in GUIDE_PAGES:
            return render(request, "not_found.html", status=404)
        return render(
            request, f"peaje_guide/{page}.html", examples=peaje_examples(), pages=GUIDE_PAGES
        )

    async def table(request: Request) -> Response:
        room = await rooms().get(request.path_params["game_id"])
        guest = guest_of(request)
        if room is None or room.seat_of(guest) is None:
            return render(request, "not_found.html", status=404, message=t("error.not_your_game"))
        lang = lang_of(request)
        prefixes = ("ui.", room.record.kind + ".")
        strings = {k: v.get(lang, v["es"]) for k, v in CATALOG.items() if k.startswith(prefixes)}
        return render(
            request,
            f"{room.record.kind}_table.html",
            game=GAMES[room.record.kind],
            room_id=room.id,
            config=room.record.config,
            level=next(
                (s.get("level", "normal") for s in room.record.seats if s["kind"] == "bot"),
                "normal",
            ),
            strings=strings,
        )

    # JSON API

    async def api_create(request: Request) -> Response:
        guest = guest_of(request)
        assert guest is not None
        kind = request.path_params["kind"]
        try:
            body = await request.json()
        except ValueError:
            return JSONResponse(error("bad_json", lang_of(request)), status_code=400)
        if kind not in GAMES or not GAMES[kind]["playable"]:
            return JSONResponse(error("not_your_game", lang_of(request)), status_code=404)
        try:
            config = body.get("config", {}) if isinstance(body, dict) else None
            body = body if isinstance(body, dict) else {}
            level = body.get("level", "normal")
            extra: dict[str, Any] = {}
            if hall.settings.test_api:  # a seeded deal or a set position, for browser tests
                if type(body.get("seed")) is int:
                    extra["seed"] = body["seed"]
                if isinstance(body.get("position"), dict):
                    extra["position"] = body["position"]
            room = await rooms().create(
                kind, config if isinstance(config, dict) else {}, guest, level=str(level), **extra
            )
        except IllegalMove as exc:
            return JSONResponse(
                error(exc.code, lang_of(request), exc.localized(lang_of(request))), status_code=400
            )
        except (KeyError, ValueError, TypeError) as exc:
            return JSONResponse(error("bad_config", detail=str(exc)[:80]), status_code=400)
        return JSONResponse({"id": room.id, "url": f"/partida/{room.id}"}, status_code=201)

    async def api_game(request: Request) -> Response:
        room = await rooms().get(request.path_params["game_id"])
        guest = guest_of(request)
        if room is None or room.seat_of(guest) is None:
            return JSONResponse(error("not_your_game", lang_of(request)), status_code=404)
        seat = room.seat_of(guest)
        return JSONResponse(
            {
                "id": room.id,
                "kind": room.record.kind,
                "seat": seat,
                "seats": room.seats_json(seat),
                **room.view_message(seat),
            }
        )

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "rooms": len(rooms().loaded())})

    # the socket

    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        guest = guest_of(ws)
        lang = lang_of(ws)
        out: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

        async def writer() -> None:
            while True:
                message = await out.get()
                if message is None:
                    return
                await ws.send_text(json.dumps(message, ensure_ascii=False, separators=(",", ":")))

        writer_task = asyncio.create_task(writer())
        joined: tuple[Room, int] | None = None
        try:
            while True:
                text = await ws.receive_text()
                reply = await handle(text, guest, lang, out, joined)
                if isinstance(reply, tuple):
                    joined = reply
                elif reply is not None:
                    out.put_nowait(reply)
        except WebSocketDisconnect:
            pass
        finally:
            if joined is not None:
                joined[0].unsubscribe(joined[1])
            out.put_nowait(None)
            with contextlib.suppress(Exception):
                await writer_task

    async def handle(
        text: str,
        guest: str | None,
        lang: str,
        out: asyncio.Queue[dict[str, Any] | None],
        joined: tuple[Room, int] | None,
    ) -> dict[str, Any] | tuple[Room, int] | None:
        if len(text) > MAX_MESSAGE:
            return error("bad_message", lang, detail="demasiado largo")
        try:
            msg = json.loads(text)
        except ValueError:
            return error("bad_json", lang)
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            return error("bad_message", lang, detail="falta «type»")
        kind = msg["type"]
        ref = msg.get("ref")
        if kind == "ping":
            return {"type": "pong", "ref": ref}
        if kind == "join":
            game_id = msg.get("game")
            room = await rooms().get(game_id) if isinstance(game_id, str) and game_id else None
            if room is None or room.seat_of(guest) is None:
                return error("not_your_game", lang)
            if joined is not None:
                joined[0].unsubscribe(joined[1])
            since = msg.get("version")
            conn, message = room.subscribe(
                guest, out.put_nowait, since if type(since) is int else None, lang
            )
            out.put_nowait(message)
            return (room, conn)
        if kind == "move":
            if joined is None:
                return error("not_joined", lang)
            reply = await joined[0].submit(guest, msg.get("version"), msg.get("move"), lang)
            if reply is not None:
                reply["ref"] = ref
            return reply
        if kind == "check":
            if joined is None:
                return error("not_joined", lang)
            reply = joined[0].check_draft(guest, msg.get("table"), lang)
            reply["ref"] = ref
            return reply
        if kind == "hint":
            if joined is None:
                return error("not_joined", lang)
            return await joined[0].hint(guest, lang)
        if kind == "sync":
            if joined is None:
                return error("not_joined", lang)
            room = joined[0]
            return dict(room.view_message(room.seat_of(guest)))
        return error("unknown_type", lang, type=kind[:40])

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hall.start()
        try:
            yield
        finally:
            await hall.stop()

    routes = [
        Route("/", home),
        Route("/reglas/{game}", rules),
        Route("/partida/{game_id}", table),
        Route("/peaje/guia", guide),
        Route("/peaje/guia/{page}", guide),
        Route("/api/{kind}/nueva", api_create, methods=["POST"]),
        Route("/api/partidas/{game_id}", api_game),
        Route("/salud", health),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
        Route("/{kind}", setup),
        Route("/{kind}/nueva", start, methods=["POST"]),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(GuestMiddleware, guests=lambda: hall.guests)
    app.state.hall = hall
    return app
