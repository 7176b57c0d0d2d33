"""The JSON API: start a game, read one."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tapete.games.protocol import IllegalMove
from tapete.rooms import error
from tapete.server.edge.bodies import read_object
from tapete.server.pages.render import lang_of
from tapete.server.state import Hall, guest_of, playable


class Api:
    def __init__(self, hall: Hall) -> None:
        self.hall = hall

    async def create(self, request: Request) -> Response:
        guest = guest_of(request)
        assert guest is not None
        lang = lang_of(request)
        found = playable(request.path_params["kind"])
        if found is None:
            return JSONResponse(error("not_your_game", lang), status_code=404)
        try:
            body = await read_object(request, self.hall.limits.json_depth)
        except ValueError:
            return JSONResponse(error("bad_json", lang), status_code=400)
        config = body.get("config", {})
        level = body.get("level")
        extra: dict[str, Any] = {}
        if self.hall.settings.test_api:  # a seeded deal or a set position, for browser tests
            if type(body.get("seed")) is int:
                extra["seed"] = body["seed"]
            if isinstance(body.get("position"), dict):
                extra["position"] = body["position"]
        if not await self.hall.may_create(request):
            return JSONResponse(error("too_many_games", lang), status_code=429)
        try:
            table = await self.hall.live.tables.create(
                found.key,
                config if isinstance(config, dict) else {},
                guest,
                level=level if isinstance(level, str) else None,
                **extra,
            )
        except IllegalMove as exc:
            words = found.game.describe(exc, lang)
            return JSONResponse(error(exc.code, lang, words), status_code=400)
        except (KeyError, ValueError, TypeError):  # a test position that makes no sense
            words = found.game.describe(IllegalMove("bad_config", field="position"), lang)
            return JSONResponse(error("bad_config", lang, words), status_code=400)
        return JSONResponse({"id": table.id, "url": f"/partida/{table.id}"}, status_code=201)

    async def game(self, request: Request) -> Response:
        table = await self.hall.live.read_table(request.path_params["game_id"])
        guest = guest_of(request)
        if table is None or table.seat_of(guest) is None:
            return JSONResponse(error("not_your_game", lang_of(request)), status_code=404)
        seat = table.seat_of(guest)
        await table.durable()
        return JSONResponse(
            {
                "id": table.id,
                "kind": table.record.kind,
                "seat": seat,
                "seats": table.seats_json(seat, lang_of(request)),
                **table.view_message(seat),
            }
        )
