"""Leaderboards of the rated games: this week and all time, the top 100 and your own place,
established players only (docs/ratings.md). The contract (outside checks rely on it):

- ``GET /clasificacion/<game>`` → the page (``?periodo=semana|siempre``, this week by
  default);
- ``GET /api/partidas/<id>/puntuacion`` → the reader's rating change in that finished
  rated game, ``{"game", "before", "after", "change", "provisional"}`` (ratings as shown);
  ``404`` if the game moved no rating of theirs (not rated, not over, not theirs);
- ``GET /api/clasificacion/<game>?periodo=semana|siempre`` → ``{"rows": [{"rank", "name",
  "rating", "games"}], "you": {"rank", "name", "rating", "games"} or null}``; a game that is
  not rated: ``404``; another period: ``400``. Names are public names in the reader's
  language; ``you`` is null while your rating is provisional or you played no rated game in
  the period; this week runs from Monday, 00:00 UTC.
"""

from __future__ import annotations

from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tapete.i18n import N_, SHARED, text
from tapete.i18n.errors import describe
from tapete.ratings import provisional, shown
from tapete.registry import REGISTRY
from tapete.server.pages.games import Pages, board_row, game_info, rated_games, week_start
from tapete.server.pages.render import lang_of
from tapete.server.state import Hall, guest_of
from tapete.store import utcnow

PERIODS: Final = ("semana", "siempre")
MESSAGES: Final = {
    "not_rated": N_("Ese juego no tiene clasificación."),
    "bad_period": N_("La clasificación es de esta semana o de siempre."),
    "no_rating_change": N_("Esa partida no ha cambiado tu puntuación."),
}


class Leaderboards:
    def __init__(self, hall: Hall, pages: Pages) -> None:
        self.hall = hall
        self.pages = pages

    async def board(
        self, game: str, period: str, guest: str | None, lang: str
    ) -> tuple[dict[str, Any], int | None]:
        """The leaderboard as the API gives it, and which of its rows is the reader's."""
        assert self.hall.store is not None
        players = self.hall.store.players
        since = week_start(utcnow()) if period == "semana" else None
        ranked = await players.leaderboard(game, since)
        rows = [board_row(r, lang) for r in ranked]
        mine = await players.place(game, guest, since) if guest is not None else None
        at = next((i for i, r in enumerate(ranked) if r.guest == guest), None)
        return {"rows": rows, "you": board_row(mine, lang) if mine is not None else None}, at

    @staticmethod
    def _asked(request: Request) -> tuple[str | None, str | None]:
        """The game and period asked for, or the refusal's code."""
        game = request.path_params["game"]
        if game not in rated_games():
            return None, "not_rated"
        period = request.query_params.get("periodo", "semana")
        if period not in PERIODS:
            return None, "bad_period"
        return game, period

    async def change(self, request: Request) -> Response:
        """The reader's rating change in a finished rated game (the end dialog's line)."""
        assert self.hall.store is not None
        guest = guest_of(request)
        game_id = str(request.path_params["game_id"])
        changes = await self.hall.store.players.changes(game_id) if guest else {}
        if guest not in changes:
            words = describe("no_rating_change", lang_of(request), SHARED, MESSAGES)
            return JSONResponse({"error": "no_rating_change", "message": words}, status_code=404)
        before, after = changes[guest]
        record = await self.hall.store.game(game_id)
        return JSONResponse(
            {
                "game": record.kind if record is not None else None,
                "before": shown(before),
                "after": shown(after),
                "change": shown(after) - shown(before),
                "provisional": provisional(after),
            }
        )

    async def get(self, request: Request) -> Response:
        lang = lang_of(request)
        game, code = self._asked(request)
        if game is None:
            assert code is not None
            words = describe(code, lang, SHARED, MESSAGES)
            status = 404 if code == "not_rated" else 400
            return JSONResponse({"error": code, "message": words}, status_code=status)
        period = request.query_params.get("periodo", "semana")
        board, _ = await self.board(game, period, guest_of(request), lang)
        return JSONResponse(board)

    async def page(self, request: Request) -> Response:
        lang = lang_of(request)
        game, code = self._asked(request)
        if game is None:
            assert code is not None
            return self.pages.not_found(request, describe(code, lang, SHARED, MESSAGES))
        period = request.query_params.get("periodo", "semana")
        board, mine = await self.board(game, period, guest_of(request), lang)
        return self.pages.render(
            request,
            "leaderboard.html",
            game=game_info(REGISTRY[game], lang),
            period=period,
            board=board,
            mine=mine,
            others=[game_info(REGISTRY[k], lang) for k in rated_games() if k != game],
            title=text(SHARED, lang, N_("Clasificación")),
        )
