"""Private rooms over HTTP: create one, join by code or link, its page and its QR code.

The contract (outside checks rely on it):

- ``POST /api/salas`` ``{"game": key, "options": {...}}`` → ``201 {"code", "url", ...}``;
- ``GET /sala/NNNNNN`` → the room's page (lobby, table or end); a wrong code → 404 with the
  join form. Between games (the last one over, the next not begun) the link shows the final
  table and its end dialog (the rematch); ``?vista=sala`` the room itself (seats, options);
- ``POST /api/salas/NNNNNN/unirse`` ``{"name"}`` → ``200`` with the seat; ``404`` wrong or
  expired code, ``409`` full or started, ``403`` removed by the host (until the host lets
  them back), ``429`` throttled; errors as
  ``{"error": code, "message": text in the player's language}``.

Wrong codes are counted per guest and per address by the hall (:class:`WrongCodes`, the
socket's ``enter`` counts in the same one); too many and every lookup by code is refused for
a while (``429``), so codes cannot be walked.
"""

from __future__ import annotations

import io
from typing import Any

import segno
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from tapete.cosmetics import AVATAR_KEYS
from tapete.games.protocol import IllegalMove
from tapete.i18n import N_, js_strings, text
from tapete.rooms.messages import SetOptions, Take
from tapete.rooms.private_room import MESSAGES, PrivateRoom, clean_name, room_error
from tapete.server.edge.bodies import loads, read_object
from tapete.server.pages import forms
from tapete.server.pages.games import Pages, game_info
from tapete.server.pages.render import lang_of
from tapete.server.state import Hall, address_of, guest_of, playable

STATUS = {
    "room_not_found": 404,
    "room_full": 409,
    "room_started": 409,
    "removed": 403,
    "banned": 403,
    "quick_table": 409,
    "throttled": 429,
}

LOBBY_VIEW = ("vista", "sala")
"""The query that asks for the room itself between games (``/sala/NNNNNN?vista=sala``)."""

HOST_NAME = N_("Anfitrión")


def refusal(code: str, lang: str, **params: Any) -> dict[str, str]:
    """An API error: ``{"error": code, "message": text in the player's language}``."""
    return {"error": code, "message": room_error(code, lang, **params)["message"]}


class RoomPages:
    def __init__(self, hall: Hall, pages: Pages) -> None:
        self.hall = hall
        self.pages = pages

    def link(self, request: Request, code: str) -> str:
        """The room's link to share: on the hall's public origin (the first of
        ``Limits.origins``) when there is one, else as this request reached the hall."""
        origins = self.hall.limits.origins
        base = origins[0] if origins else str(request.base_url)
        return f"{base.rstrip('/')}/sala/{code}"

    # looking rooms up by code, slowly for those who guess

    async def find(self, request: Request, code: object) -> PrivateRoom | str:
        """The room with ``code``, or why not (``throttled``, ``room_not_found``)."""
        guest, address = guest_of(request), address_of(request)
        if await self.hall.wrong_codes.throttled(guest, address):
            return "throttled"
        room = await self.hall.live.read_room(code)
        if room is None:
            await self.hall.wrong_codes.wrong(guest, address)
            return "room_not_found"
        return room

    # the JSON API

    async def create(self, request: Request) -> Response:
        guest = guest_of(request)
        lang = lang_of(request)
        assert guest is not None
        try:
            body = await read_object(request, self.hall.limits.json_depth)
        except ValueError:
            return JSONResponse(refusal("bad_json", lang), status_code=400)
        found = playable(body.get("game"))
        if found is None:
            return JSONResponse(refusal("not_your_game", lang), status_code=404)
        name = clean_name(body.get("name")) or await self.hall.store_name(guest)
        if not await self.hall.may_create(request):
            return JSONResponse(refusal("too_many_games", lang), status_code=429)
        try:
            room = await self.hall.live.rooms.create(
                found.key, body.get("options", {}), guest, name or text("tapete", lang, HOST_NAME)
            )
        except IllegalMove as exc:
            error = refusal(exc.code, lang, **exc.params)
            if exc.code not in MESSAGES:  # the game's options: in its own words
                error["message"] = found.game.describe(exc, lang)
            return JSONResponse(error, status_code=STATUS.get(exc.code, 400))
        return JSONResponse(
            {
                "code": room.code,
                "url": f"/sala/{room.code}",
                "seat": 0,
                "room": room.state(guest, lang),
            },
            status_code=201,
        )

    async def join(self, request: Request) -> Response:
        guest = guest_of(request)
        lang = lang_of(request)
        assert guest is not None
        found = await self.find(request, request.path_params["code"])
        if isinstance(found, str):
            return JSONResponse(refusal(found, lang), status_code=STATUS[found])
        try:
            raw = await request.body()
            body = loads(raw, self.hall.limits.json_depth) if raw.strip() else {}
        except ValueError:
            return JSONResponse(refusal("bad_json", lang), status_code=400)
        name = body.get("name") if isinstance(body, dict) else None
        reply = await self.hall.live.act(
            found, guest, Take(name=name if isinstance(name, str) else None), lang
        )
        if reply is not None:
            code = str(reply["code"])
            return JSONResponse(refusal(code, lang), status_code=STATUS.get(code, 400))
        return JSONResponse(
            {"code": found.code, "url": f"/sala/{found.code}", "seat": found.seat_of(guest)}
        )

    async def deal(self, request: Request) -> Response:
        """The test API (``--test-api``, else 404): the host sets the position every later
        game of the room is dealt from (``{"position": …}``, as a practice game's), for
        browser tests that play a room's games to their end."""
        lang = lang_of(request)
        if not self.hall.settings.test_api:  # (no room is looked up: nothing to learn here)
            return JSONResponse(refusal("room_not_found", lang), status_code=404)
        room = await self.hall.live.read_room(request.path_params["code"])
        if room is None or not room.is_host(guest_of(request)):
            return JSONResponse(refusal("room_not_found", lang), status_code=404)
        try:
            body = await read_object(request, self.hall.limits.json_depth)
        except ValueError:
            return JSONResponse(refusal("bad_json", lang), status_code=400)
        position = body.get("position")
        try:
            if not isinstance(position, dict):
                raise IllegalMove("bad_config", field="position")
            self.hall.live.tables.deal_for_room(room.record, position)
        except IllegalMove as exc:
            error = refusal(exc.code, lang, **exc.params)
            error["message"] = room.spec.describe(exc, lang)
            return JSONResponse(error, status_code=400)
        return Response(status_code=204)

    # pages

    async def page(self, request: Request) -> Response:
        code = request.path_params["code"]
        found = await self.find(request, code)
        if isinstance(found, str):
            status = STATUS[found]
            return self.pages.render(
                request, "room_join.html", status=status, error=refusal(found, lang_of(request))
            )
        room = found
        guest = guest_of(request)
        lang = lang_of(request)
        game_id = room.record.game_id
        if room.record.status == "playing" and game_id is not None:
            table = await self.hall.live.read_table(game_id)
            key, value = LOBBY_VIEW
            wanted = request.query_params.get(key) == value
            if table is not None and not (table.finished and wanted):
                return await self.pages.table_page(request, table, room=room)
        name = await self.hall.store_name(guest) if guest else None
        return self.pages.render(
            request,
            "room.html",
            room.spec.key,
            **self._summary(room, lang),
            room=room.state(guest, lang),
            code=room.code,
            link=self.link(request, room.code),
            your_name=name or "",
            strings=js_strings(lang, room.spec.key),
            clocks=list(room.online.turn_clocks) if room.online else [],
            avatars=AVATAR_KEYS,
        )

    @staticmethod
    def _summary(room: PrivateRoom, lang: str) -> dict[str, Any]:
        """What a room's summary shows: the game's options with the room's values, and its
        turn clock (if the game has one)."""
        options = room.record.options
        return {
            "game": game_info(room.entry, lang, options["config"]),
            "clock": options.get("clock"),
            "has_clock": "turn" in room.spec.clocks,
            "rated": bool(options.get("rated")),
        }

    async def summary(self, request: Request) -> Response:
        """The room's options in words (a fragment: the room page reloads it on a change)."""
        found = await self.find(request, request.path_params["code"])
        if isinstance(found, str):
            return Response(status_code=STATUS[found])
        return self.pages.render(
            request, "_room_summary.html", found.spec.key, **self._summary(found, lang_of(request))
        )

    async def qr(self, request: Request) -> Response:
        code = request.path_params["code"]
        if not (isinstance(code, str) and len(code) == 6 and code.isdigit()):
            return Response(status_code=404)
        link = self.link(request, code)
        buf = io.BytesIO()
        segno.make(link, error="m").save(
            buf, kind="svg", scale=6, border=2, dark="#0f2e1f", xmldecl=False, title=link
        )
        return Response(
            buf.getvalue(),
            media_type="image/svg+xml",
            headers={"cache-control": "public, max-age=86400"},
        )

    async def new_from_setup(self, request: Request) -> Response:
        """«Jugar con amigos» from a game's setup page: a room with the options chosen."""
        found = playable(request.path_params["kind"])
        guest = guest_of(request)
        if found is None or guest is None or found.game.online is None:
            return self.pages.not_found(request)
        form = await request.form()
        clock_text = str(form.get("clock") or "")
        clock: float | None = float(clock_text) if clock_text.replace(".", "").isdigit() else None
        options: dict[str, Any] = {"config": forms.read(found.game, form)}
        if clock_text:
            options["clock"] = clock
        if found.game.quick is not None and found.game.quick.rated:
            options["rated"] = form.get("rated") == "1"
        lang = lang_of(request)
        name = await self.hall.store_name(guest) or text("tapete", lang, HOST_NAME)
        if not await self.hall.may_create(request):
            words = refusal("too_many_games", lang)["message"]
            return self.pages.setup_error(request, found, words, 429)
        try:
            room = await self.hall.live.rooms.create(found.key, options, guest, name)
        except IllegalMove as exc:
            return self.pages.setup_error(request, found, found.game.describe(exc, lang))
        return RedirectResponse(f"/sala/{room.code}", status_code=303)

    async def set_options(self, request: Request) -> Response:
        """The host saves the room's options from the game's setup page (``?sala=``)."""
        room = await self.hall.live.read_room(request.path_params["code"])
        guest = guest_of(request)
        if room is None or not room.is_host(guest):
            return self.pages.not_found(request)
        form = await request.form()
        options = {"config": forms.read(room.spec, form), "clock": room.record.options["clock"]}
        if room.spec.quick is not None and room.spec.quick.rated:
            options["rated"] = form.get("rated") == "1"
        reply = await self.hall.live.act(
            room,
            guest,
            SetOptions(version=room.version, options=options),
            lang_of(request),
        )
        if reply is not None:
            return self.pages.setup_error(request, room.entry, str(reply["message"]))
        return RedirectResponse(await self.room_url(room), status_code=303)

    async def room_url(self, room: PrivateRoom) -> str:
        """The room itself: ``/sala/NNNNNN``, which between games shows the final table, so
        then with ``?vista=sala``."""
        url = f"/sala/{room.code}"
        game_id = room.record.game_id
        if room.record.status == "playing" and game_id is not None:
            table = await self.hall.live.read_table(game_id)
            if table is not None and table.finished:
                key, value = LOBBY_VIEW
                return f"{url}?{key}={value}"
        return url

    async def by_code(self, request: Request) -> Response:
        """The hall's «Unirse con código» form: to the room, or back with the reason."""
        code = "".join(ch for ch in str(request.query_params.get("codigo", "")) if ch.isdigit())
        found = await self.find(request, code)
        if isinstance(found, str):
            return self.pages.render(
                request,
                "room_join.html",
                status=STATUS[found],
                error=refusal(found, lang_of(request)),
                code=code,
            )
        return RedirectResponse(f"/sala/{found.code}", status_code=303)
