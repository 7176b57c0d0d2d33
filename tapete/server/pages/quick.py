"""«Jugar ahora» over HTTP. The contract (outside checks rely on it; extend it, don't rename
it):

- ``POST /api/jugar`` ``{"game": key, "players": 2|3|4|null}`` with the guest cookie →
  ``202 {"state": "waiting", "game", "waiting", "seconds_left"}``;
- ``GET /api/jugar`` → ``{"state": "waiting", "waiting": n, "seconds_left": s, "game"}`` or
  ``{"state": "seated", "url": "<the table's page>"}`` (the same ``url`` for everyone at the
  table); neither: ``{"state": "idle"}``;
- ``DELETE /api/jugar`` cancels → ``204``; not waiting: ``404``.

Refusals as ``{"error": code, "message": text in the player's language}``: ``404`` unknown
game, ``400`` a bad number of players or a body that is not JSON, ``409`` already waiting,
``403`` banned, ``429`` in a leaving penalty (``seconds``: how long is left).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tapete.games.protocol import IllegalMove
from tapete.i18n import SHARED
from tapete.i18n.errors import describe
from tapete.rooms.matchmaker import MESSAGES
from tapete.server.edge.bodies import read_object
from tapete.server.pages.render import lang_of
from tapete.server.state import Hall, guest_of

STATUS = {
    "unknown_game": 404,
    "bad_players": 400,
    "bad_json": 400,
    "already_waiting": 409,
    "not_waiting": 404,
    "banned": 403,
    "penalty": 429,
}


def wait_words(seconds: int) -> str:
    """A wait in words a player reads at a glance: «4 min», «1 h 20 min», «30 s» (a number
    and its unit never split across lines).

    >>> [w.replace("\u00a0", "_") for w in map(wait_words, (30, 240, 4801, 86400))]
    ['30_s', '4_min', '1_h 21_min', '24_h']
    """
    if seconds < 60:
        return f"{seconds}\u00a0s"
    minutes = -(-seconds // 60)
    hours, minutes = divmod(minutes, 60)
    if not hours:
        return f"{minutes}\u00a0min"
    return f"{hours}\u00a0h {minutes}\u00a0min" if minutes else f"{hours}\u00a0h"


def refusal(code: str, lang: str, **params: Any) -> JSONResponse:
    words = dict(params)
    if code == "penalty":
        words["wait"] = wait_words(int(params.get("seconds", 0)))
    body: dict[str, Any] = {
        "error": code,
        "message": describe(code, lang, SHARED, MESSAGES, **words),
    }
    if code == "penalty":
        body["seconds"] = params.get("seconds")
    return JSONResponse(body, status_code=STATUS.get(code, 400))


class QuickPlay:
    def __init__(self, hall: Hall) -> None:
        self.hall = hall

    async def join(self, request: Request) -> Response:
        self.hall.admit()  # (full: 503 at once, queued nowhere)
        guest = guest_of(request)
        lang = lang_of(request)
        assert guest is not None
        try:
            body = await read_object(request, self.hall.limits.json_depth)
        except ValueError:
            return refusal("bad_json", lang)
        await self.hall.store_ensure(guest)
        try:
            await self.hall.matchmaker.join(guest, body.get("game"), body.get("players"))
        except IllegalMove as exc:
            return refusal(exc.code, lang, **exc.params)
        return JSONResponse(await self.hall.matchmaker.status(guest), status_code=202)

    async def status(self, request: Request) -> Response:
        guest = guest_of(request)
        assert guest is not None
        return JSONResponse(await self.hall.matchmaker.status(guest) or {"state": "idle"})

    async def cancel(self, request: Request) -> Response:
        guest = guest_of(request)
        assert guest is not None
        if not await self.hall.matchmaker.cancel(guest):
            return refusal("not_waiting", lang_of(request))
        return Response(status_code=204)
