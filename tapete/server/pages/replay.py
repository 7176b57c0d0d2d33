"""The replay of a finished game, for those who played it.

- ``GET /partida/{id}/repeticion[?asiento=k]`` → the game's own table page, driven by a
  step bar instead of the socket (``static/js/replay.js``);
- ``GET /api/partidas/{id}/repeticion[?asiento=k]`` → ``{"id", "kind", "seat", "seats",
  "steps": [{"n", "seat", "move", "view"}, ...]}``: the table as seat ``k`` (the viewer's
  own by default) saw it after each move, with what it hid shown (``view["revealed"]``).

404 ``not_your_game``: no such game, or the viewer did not sit at it; 409 ``not_over``: it
is still being played (a replay would show what the table hides); 400 ``bad_seat``.

Who may see what a finished game's table hid is one rule, :func:`sees_hidden`, which the
fair-deck page (:mod:`~tapete.server.pages.fairness`) follows too.
"""

from __future__ import annotations

from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from tapete import daily
from tapete.i18n import N_, SHARED, text
from tapete.i18n.errors import describe
from tapete.rooms import Table
from tapete.rooms.analysis import NoCoach
from tapete.rooms.replay import NotOver, steps
from tapete.server.account.account import Refused, refusing
from tapete.server.pages.games import Pages
from tapete.server.pages.render import lang_of
from tapete.server.state import Hall, guest_of
from tapete.store import utcnow


def sat_at(table: Table, guest: str | None) -> int | None:
    """``guest``'s seat at the game, if they sat at it (None: a watcher, a stranger)."""
    return table.seat_of(guest)


def sees_hidden(table: Table, guest: str | None, public: bool = False) -> bool:
    """The one rule of who may see what a game's table hid (every hand, the order of the
    deck): once it is over, those who sat at it, and nobody else — not one who only watched
    it, not a stranger with its link — but for a ``public`` game (:func:`public`), which
    everyone may see once it is over. Its replay (here) and the seed and the deal on its
    fair-deck page (:mod:`~tapete.server.pages.fairness`) both follow it."""
    return table.finished and (public or sat_at(table, guest) is not None)


async def public(hall: Hall, table: Table) -> int | None:
    """A game everyone may see once it is over, and the seat to see it from: an attempt at
    a deal of the day whose day is over (the deal was everybody's; «Reto del día»), from its
    player's seat. None: a game only its players see."""
    if hall.store is None or table.online:
        return None
    attempt = await hall.store.daily.of_game(table.id)
    if attempt is None or attempt.day >= daily.day_of(utcnow()):
        return None
    return table.seat_of(attempt.guest)


ANALYSIS_WORDS: Final = {
    "title": N_("Análisis"),
    "computing": N_("Analizando la partida… {done} de {of} jugadas"),
    "costly": N_("Tus jugadas más caras"),
    "all": N_("Todas tus jugadas"),
    "none": N_("Ninguna jugada tuya que analizar en esta partida."),
    "clean": N_("Ninguna jugada cara: jugaste como el entrenador."),
    "move": N_("Jugada {n}"),
    "see": N_("Ver la jugada {n}"),
    "see_short": N_("Ver"),
    "failed": N_("No se ha podido analizar la partida."),
}
"""What the analysis panel says itself (the coach's words on each move come with it)."""


class Replays:
    def __init__(self, hall: Hall, pages: Pages) -> None:
        self.hall = hall
        self.pages = pages

    async def _open(self, request: Request) -> tuple[Table, int]:
        """The game and the seat it is seen from; :class:`Refused` if it may not be."""
        table = await self.hall.live.read_table(request.path_params["game_id"])
        mine = sat_at(table, guest_of(request)) if table is not None else None
        shown = await public(self.hall, table) if table is not None and mine is None else None
        if table is None or (mine is None and shown is None):  # (sees_hidden: not theirs)
            raise Refused("not_your_game", 404)
        asked = request.query_params.get("asiento")
        if asked is None:
            seat = mine if mine is not None else shown
            assert seat is not None
            return table, seat
        if not asked.isdigit() or int(asked) >= len(table.record.seats):
            raise Refused("bad_seat", 400)
        return table, int(asked)

    async def data(self, table: Table, seat: int, mine: int | None, lang: str) -> dict[str, Any]:
        """The steps as ``seat`` saw them; it is «you» only if it is the viewer's own."""
        assert self.hall.store is not None
        log = await self.hall.store.moves(table.id)
        return {
            "id": table.id,
            "kind": table.record.kind,
            "seat": seat,
            "seats": table.seats_json(seat if seat == mine else None, lang),
            "steps": steps(table.spec, table.record, log, seat),
        }

    @refusing
    async def get(self, request: Request) -> Response:
        table, seat = await self._open(request)
        mine = table.seat_of(guest_of(request))
        try:
            return JSONResponse(await self.data(table, seat, mine, lang_of(request)))
        except NotOver:
            raise Refused("not_over", 409) from None

    @refusing
    async def analysis(self, request: Request) -> Response:
        """The coach's analysis of a finished game from a seat (the viewer's own by
        default): ``200 {"state": "ready", "seat", "unit", "moves": [{"n", "move", "best",
        "loss", "code", "params", "words"}], "costliest"}``, or ``202 {"state":
        "computing", "done", "of"}`` while it is made (begun by this request if it was
        not). Refusals as the replay's, and ``404 no_analysis`` for a game with no coach."""
        table, seat = await self._open(request)
        if not table.finished:
            raise Refused("not_over", 409)
        found = table.entry
        try:
            status = await self.hall.coaching.status(found, table.record, seat)
        except NoCoach:
            raise Refused("no_analysis", 404) from None
        except NotOver:
            raise Refused("not_over", 409) from None
        if status["state"] != "ready":
            return JSONResponse(status, status_code=202)
        assert found.bots is not None
        lang = lang_of(request)
        words = found.bots.coach_words
        for move in status["moves"]:
            move["words"] = describe(
                move["code"], lang, found.key, words, found.game.params, **move["params"]
            )
        return JSONResponse(status)

    async def page(self, request: Request, analysis: bool = False) -> Response:
        try:
            table, seat = await self._open(request)
        except Refused as no:
            return self.pages.not_found(request, describe(no.code, lang_of(request)))
        if not table.finished:  # (still being played: its table)
            return RedirectResponse(f"/partida/{table.id}", status_code=303)
        lang = lang_of(request)
        mine = table.seat_of(guest_of(request))
        seats = [(s["seat"], s["name"]) for s in table.seats_json(mine, lang)]
        replay: dict[str, Any] = {"seat": seat, "seats": seats, "mine": mine}
        if analysis:
            bots = table.entry.bots
            if bots is None or bots.coach is None:
                return self.pages.not_found(request, describe("no_analysis", lang))
            replay["analysis"] = {k: text(SHARED, lang, v) for k, v in ANALYSIS_WORDS.items()}
        return await self.pages.table_page(request, table, replay=replay)

    async def analysis_page(self, request: Request) -> Response:
        """``GET /partida/{id}/analisis[?asiento=k]``: the replay with the coach's words
        beside it (``static/js/analysis.js``), each move a step to go to."""
        return await self.page(request, analysis=True)
