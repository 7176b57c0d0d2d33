"""The deal of the day («Reto del día», :mod:`tapete.daily`). The contract (outside checks
rely on it):

- ``GET /reto`` → the page: the day's deal of each game, the player's result and place, the
  day's table, their streak of days, yesterday's deal to check and replay;
- ``POST /reto/<game>`` → the player's attempt: a new game from the day's seed (303 to its
  table), or the one they made already today (303 to it: one attempt a day);
- ``GET /api/reto/<game>[?fecha=AAAA-MM-DD]`` → ``{"date", "commitment", "played", "table":
  [{"rank", "name", "result", "won", "text", "seconds"}], "mine", "streak"}``: ``played`` says
  whether the reader made an attempt that day, ``result`` is the number the table ranks by
  (moves, points, duels, misses), ``text`` says it in the reader's language. A past day adds
  ``"seed"`` and ``"salt"`` (``commitment`` = SHA-256 of ``reto:<day>:<game>:<seed>:<salt>``);
  a game without a deal of the day: ``404``; a bad or future date: ``400``.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from tapete import daily
from tapete.games.protocol import IllegalMove
from tapete.i18n import N_, SHARED, plural, text
from tapete.i18n.errors import describe
from tapete.public_names import parse
from tapete.registry import Entry
from tapete.rooms.daily import DayTable, games, spec_of
from tapete.server.pages.games import Pages, game_info
from tapete.server.pages.render import lang_of
from tapete.server.state import Hall, guest_of
from tapete.store import utcnow

MESSAGES: Final = {
    "no_daily": N_("Ese juego no tiene reto del día."),
    "bad_date": N_("Esa fecha no es un día de reto: AAAA-MM-DD, hoy o antes."),
}
SHOWN: Final = 10
"""The rows of a day's table on the page (the API gives them all)."""


def _refuse(request: Request, code: str, status: int) -> Response:
    words = describe(code, lang_of(request), SHARED, MESSAGES)
    return JSONResponse({"error": code, "message": words}, status_code=status)


def result_text(kind: str, lang: str, value: int) -> str:
    """The number a day's table ranks by, in words of the game (``23 jugadas``)."""
    _, spec = spec_of(kind)
    singular, plural_ = spec.unit
    return plural(kind, lang, singular, plural_, value)


def rows(table: DayTable, lang: str, over: bool = False) -> list[dict[str, Any]]:
    """The day's table as sent and shown; a day ``over`` gives each attempt's game (public
    then: its replay and analysis are everyone's)."""
    out = []
    for ranked in table.rows:
        a = ranked.attempt
        public = parse(a.name)
        out.append(
            {
                "rank": ranked.rank,
                "name": public.words(lang) if public is not None else a.name,
                "result": a.value,
                "won": a.won,
                "text": result_text(table.kind, lang, a.value),
                "seconds": a.seconds,
                "you": a.game_id == table.mine,
            }
        )
        if over:
            out[-1]["game"] = a.game_id
    return out


def _level(entry: Entry, level: str | None, lang: str) -> str | None:
    """The bots' level of a game's deal of the day, in words (None: no bots)."""
    found = entry.bots.level(level) if entry.bots is not None and level is not None else None
    return text(entry.key, lang, found.label) if found is not None else None


class DailyPages:
    def __init__(self, hall: Hall, pages: Pages) -> None:
        self.hall = hall
        self.pages = pages

    def today(self) -> date:
        return daily.day_of(utcnow())

    async def start(self, request: Request) -> Response:
        guest = guest_of(request)
        try:
            found, _ = spec_of(request.path_params["game"])
        except IllegalMove:
            return self.pages.not_found(
                request, describe("no_daily", lang_of(request), SHARED, MESSAGES)
            )
        if guest is None:
            return self.pages.not_found(request)
        started = await self.hall.dailies.start(found.key, guest, self.today())
        return RedirectResponse(f"/partida/{started.game_id}", status_code=303)

    async def get(self, request: Request) -> Response:
        lang = lang_of(request)
        try:
            found, _ = spec_of(request.path_params["game"])
        except IllegalMove:
            return _refuse(request, "no_daily", 404)
        today = self.today()
        asked = request.query_params.get("fecha")
        try:
            day = date.fromisoformat(asked) if asked is not None else today
        except ValueError:
            return _refuse(request, "bad_date", 400)
        if day > today:
            return _refuse(request, "bad_date", 400)
        guest = guest_of(request)
        table = await self.hall.dailies.table(found.key, day, guest)
        body: dict[str, Any] = {
            "game": found.key,
            "date": day.isoformat(),
            "commitment": self.hall.dailies.commitment(day, found.key),
            "played": table.mine is not None,
            "mine": table.mine,
            "attempts": table.played,
            "table": rows(table, lang, over=day < today),
            "streak": await self.hall.dailies.streak(guest, today) if guest else 0,
        }
        if day < today:  # (the day is over: what anyone can check the commitment with)
            body["seed"] = self.hall.dailies.seed(day, found.key)
            body["salt"] = self.hall.dailies.salt(day, found.key)
        return JSONResponse(body)

    async def page(self, request: Request) -> Response:
        lang = lang_of(request)
        guest = guest_of(request)
        today = self.today()
        yesterday = today - timedelta(days=1)
        deals = []
        for entry in games():
            table = await self.hall.dailies.table(entry.key, today, guest)
            before = await self.hall.dailies.table(entry.key, yesterday, guest)
            spec = entry.game.daily
            assert spec is not None
            shown = rows(table, lang)
            you = next((r for r in shown if r["you"]), None)
            deals.append(
                {
                    "game": game_info(entry, lang),
                    "line": text(entry.key, lang, spec.line),
                    "level": _level(entry, spec.level, lang),
                    "mine": table.mine,
                    "you": you,
                    "finished": you is not None,
                    "rows": shown[:SHOWN],
                    "attempts": table.played,
                    "commitment": self.hall.dailies.commitment(today, entry.key),
                    "yesterday": {
                        "date": yesterday.isoformat(),
                        "best": rows(before, lang, over=True)[:3],
                        "coach": entry.bots is not None and entry.bots.coach is not None,
                        "commitment": self.hall.dailies.commitment(yesterday, entry.key),
                        "api": f"/api/reto/{entry.key}?fecha={yesterday.isoformat()}",
                    },
                }
            )
        streak = await self.hall.dailies.streak(guest, today) if guest else 0
        ends = daily.ends(today)
        return self.pages.render(
            request,
            "daily.html",
            deals=deals,
            streak=streak,
            today=today.isoformat(),
            ends=ends.isoformat(),
            title=text(SHARED, lang, N_("Reto del día")),
        )
