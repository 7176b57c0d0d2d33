"""Safe with strangers: block someone you played with (never matched again), report them
with a preset reason (an operator reads reports with ``tapete moderation``), and choose the
name strangers see. A page never learns another player's guest id: one is named by the game
you shared and their seat in it.

- ``POST /api/jugadores/bloquear`` ``{"game_id", "seat"}`` → ``201`` (``200`` if already
  blocked: nothing changes);
- ``GET /api/jugadores/bloqueados`` → ``{"blocked": [{"index", "name"}]}`` (the last first,
  public names in the reader's language); ``DELETE /api/jugadores/bloqueados/<index>`` →
  ``204``;
- ``POST /api/jugadores/denunciar`` ``{"game_id", "seat", "reason"}`` (a reason of
  ``REASONS``) → ``201``; the same person for the same game again: ``409``;
- ``POST /api/jugadores/nombre`` ``{"name": "zorro-azul" | null}`` → ``200 {"name", "key"}``
  (the name in words, and as stored; null: back to the drawn name); a name not made of the
  lists: ``400``.

Refusals as ``{"error": code, "message"}``: ``404`` no such game or seat, ``403`` a game you
did not play, ``400`` yourself, a bot's seat, a bad reason or body.
"""

from __future__ import annotations

from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tapete.i18n import N_, SHARED
from tapete.i18n.errors import describe
from tapete.public_names import of as public_name
from tapete.public_names import parse
from tapete.server.edge.bodies import read_object
from tapete.server.pages.render import lang_of
from tapete.server.state import Hall, guest_of
from tapete.store import utcnow
from tapete.store.players import REASONS

MESSAGES: Final = {
    "no_such_seat": N_("No hay nadie en ese asiento de esa partida."),
    "not_your_table": N_("Solo puedes hacerlo con quien ha jugado contigo."),
    "not_yourself": N_("No puedes hacerlo contigo."),
    "a_bot": N_("Es un bot: no hace falta."),
    "bad_reason": N_("Elige uno de los motivos."),
    "already_reported": N_("Ya lo has denunciado por esta partida."),
    "bad_public_name": N_("Elige el nombre de las listas."),
    "not_blocked": N_("No está en tu lista de bloqueados."),
}
REASON_WORDS: Final = {
    "insultos": N_("Molesta a los demás"),
    "trampas": N_("Hace trampas"),
    "abandono": N_("Abandona a propósito"),
    "otro": N_("Otra cosa"),
}
"""Each reason of a report as a player reads it (``REASONS``, in that order)."""
STRANGER_STRINGS: Final = {
    "others": N_("Los demás jugadores"),
    "block": N_("Bloquear"),
    "report": N_("Denunciar"),
    "why": N_("¿Por qué?"),
    "send": N_("Enviar"),
    "blocked": N_("Bloqueado: no volveréis a coincidir."),
    "reported": N_("Denuncia enviada. Gracias por avisar."),
    "network": N_("No hemos podido hablar con el servidor: inténtalo de nuevo."),
}
"""What the end of a table of strangers says about blocking and reporting (strangers.js)."""
STATUS: Final = {
    "no_such_seat": 404,
    "not_your_table": 403,
    "already_reported": 409,
    "not_blocked": 404,
}


def refusal(code: str, lang: str, **params: Any) -> JSONResponse:
    words = describe(code, lang, SHARED, MESSAGES, **params)
    return JSONResponse({"error": code, "message": words}, status_code=STATUS.get(code, 400))


class Strangers:
    def __init__(self, hall: Hall) -> None:
        self.hall = hall

    async def _other(self, request: Request, body: Any) -> tuple[str, str, str] | JSONResponse:
        """The requester, the guest at ``body``'s seat of ``body``'s game, and the game's id;
        or the refusal."""
        lang = lang_of(request)
        guest = guest_of(request)
        assert guest is not None and self.hall.store is not None
        game_id, seat = body.get("game_id"), body.get("seat")
        if not isinstance(game_id, str) or type(seat) is not int:
            return refusal("bad_message", lang, detail="game_id, seat")
        record = await self.hall.store.game(game_id)
        if record is None or not 0 <= seat < len(record.seats):
            return refusal("no_such_seat", lang)
        if not any(s.get("guest") == guest for s in record.seats):
            return refusal("not_your_table", lang)
        target = record.seats[seat]
        if target.get("kind") != "human" or not isinstance(target.get("guest"), str):
            return refusal("a_bot" if target.get("kind") == "bot" else "no_such_seat", lang)
        if target["guest"] == guest:
            return refusal("not_yourself", lang)
        return guest, str(target["guest"]), game_id

    async def _body(self, request: Request) -> dict[str, Any] | JSONResponse:
        try:
            return await read_object(request, self.hall.limits.json_depth)
        except ValueError:
            return refusal("bad_json", lang_of(request))

    async def block(self, request: Request) -> Response:
        body = await self._body(request)
        if isinstance(body, JSONResponse):
            return body
        found = await self._other(request, body)
        if isinstance(found, JSONResponse):
            return found
        guest, other, _ = found
        assert self.hall.store is not None
        new = await self.hall.store.players.block(guest, other, utcnow())
        return JSONResponse({"blocked": True}, status_code=201 if new else 200)

    async def blocked(self, request: Request) -> Response:
        guest = guest_of(request)
        assert guest is not None and self.hall.store is not None
        lang = lang_of(request)
        players = self.hall.store.players
        others = await players.blocked(guest)
        chosen = await players.public_names(others)
        return JSONResponse(
            {
                "blocked": [
                    {"index": i, "name": public_name(g, chosen.get(g)).words(lang)}
                    for i, g in enumerate(others)
                ]
            }
        )

    async def unblock(self, request: Request) -> Response:
        guest = guest_of(request)
        assert guest is not None and self.hall.store is not None
        index = request.path_params["index"]
        others = await self.hall.store.players.blocked(guest)
        if not (index.isdigit() and int(index) < len(others)):
            return refusal("not_blocked", lang_of(request))
        await self.hall.store.players.unblock(guest, others[int(index)])
        return Response(status_code=204)

    async def report(self, request: Request) -> Response:
        body = await self._body(request)
        if isinstance(body, JSONResponse):
            return body
        if body.get("reason") not in REASONS:
            return refusal("bad_reason", lang_of(request))
        found = await self._other(request, body)
        if isinstance(found, JSONResponse):
            return found
        guest, other, game_id = found
        assert self.hall.store is not None
        made = await self.hall.store.players.report(
            guest, other, game_id, str(body["reason"]), utcnow()
        )
        if not made:
            return refusal("already_reported", lang_of(request))
        return JSONResponse({"reported": True}, status_code=201)

    async def name(self, request: Request) -> Response:
        body = await self._body(request)
        if isinstance(body, JSONResponse):
            return body
        guest = guest_of(request)
        assert guest is not None and self.hall.store is not None
        key = body.get("name")
        if key is not None and parse(key) is None:
            return refusal("bad_public_name", lang_of(request))
        await self.hall.store_ensure(guest)
        await self.hall.store.players.set_public_name(guest, key)
        name = public_name(guest, key)
        return JSONResponse({"name": name.words(lang_of(request)), "key": name.key})
