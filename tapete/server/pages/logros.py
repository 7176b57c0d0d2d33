"""Logros (:mod:`tapete.logros`). The contract (outside checks rely on it):

- ``GET /logros`` → the player's logros page: each game's and the hall's, earned or with
  its progress («7 / 10»);
- ``GET /api/logros`` → ``[{"key", "title", "earned", "progress", "goal", "rule", "icon",
  "earned_at", "game"}]`` in the player's language (``progress``: how far they are, at most
  ``goal``; ``earned_at``: ISO time or null; ``game``: the game it belongs to, null for the
  hall's own);
- ``GET /api/logros?partida=<id>`` → the same, only the logros that finished game earned
  the reader (the end dialog announces them; the game is counted first if it was not yet):
  ``[]`` for a game that earned nothing, is not over or is not theirs.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tapete.i18n import N_, SHARED, text
from tapete.registry import REGISTRY
from tapete.rooms.logros import Shown
from tapete.server.pages.games import Pages
from tapete.server.pages.render import lang_of
from tapete.server.state import Hall, guest_of


def shown(logro: Shown, lang: str) -> dict[str, Any]:
    """A logro as sent and shown, in ``lang``."""
    p = logro.progress
    earned = p is not None and p.earned_at is not None
    return {
        "key": logro.key,
        "title": text(logro.domain, lang, logro.title),
        "earned": earned,
        "progress": min(p.progress, logro.goal) if p is not None else 0,
        "goal": logro.goal,
        "rule": text(logro.domain, lang, logro.rule, goal=logro.goal),
        "icon": logro.icon,
        "earned_at": p.earned_at.isoformat() if earned and p is not None and p.earned_at else None,
        "game": logro.domain if logro.domain in REGISTRY else None,
    }


class LogrosPages:
    def __init__(self, hall: Hall, pages: Pages) -> None:
        self.hall = hall
        self.pages = pages

    async def listing(self, guest: str | None, lang: str) -> list[dict[str, Any]]:
        if guest is None:
            return []
        return [shown(x, lang) for x in await self.hall.live.logros.of(guest)]

    async def get(self, request: Request) -> Response:
        guest, lang = guest_of(request), lang_of(request)
        game = request.query_params.get("partida")
        if game is None:
            return JSONResponse(await self.listing(guest, lang))
        if guest is None:
            return JSONResponse([])
        earned = set(await self.hall.live.logros.earned_by(game[:40], guest))
        everything = await self.listing(guest, lang)
        return JSONResponse([x for x in everything if x["key"] in earned])

    async def page(self, request: Request) -> Response:
        guest, lang = guest_of(request), lang_of(request)
        logros = await self.listing(guest, lang)
        groups: list[tuple[str, list[dict[str, Any]]]] = []
        for x in logros:  # (each game's, in the hall's order, then the hall's own)
            name = (
                text(x["game"], lang, REGISTRY[x["game"]].game.hall.title)
                if x["game"]
                else text(SHARED, lang, N_("En Tapete"))
            )
            if not groups or groups[-1][0] != name:
                groups.append((name, []))
            groups[-1][1].append(x)
        return self.pages.render(
            request,
            "logros.html",
            logros=logros,
            groups=groups,
            earned=sum(1 for x in logros if x["earned"]),
            title=text(SHARED, lang, N_("Logros")),
        )
