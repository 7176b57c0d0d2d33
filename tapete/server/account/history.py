"""A player's history: every game they sat at, newest first, and their figures by game.

- ``GET /historial`` → the page; ``GET /api/historial`` → ``{"games": [...], "stats": {...}}``:
  each game's id, kind and title, when it started, whether it is over, the seats' names,
  the player's seat and result (``won``, ``lost``, ``none``: nobody won, ``playing``); by
  game, how many were played to the end and won.
"""

from __future__ import annotations

from datetime import UTC
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tapete.accounts import zone
from tapete.i18n import N_, SHARED, text
from tapete.registry import REGISTRY
from tapete.rooms.seats import seat_names
from tapete.server.account.account import AccountApi
from tapete.server.pages.render import lang_of
from tapete.server.state import guest_of
from tapete.store.models import GameRow

RESULTS = {
    "won": N_("Ganada"),
    "lost": N_("Perdida"),
    "none": N_("Sin ganador"),
    "playing": N_("En juego"),
}


class History:
    def __init__(self, accounts: AccountApi) -> None:
        self.api = accounts
        self.pages = accounts.pages

    def _game(
        self, row: GameRow, guest: str, lang: str, tz: str | None = None
    ) -> dict[str, Any] | None:
        entry = REGISTRY.get(row.kind)
        if entry is None:
            return None
        seat = next(i for i, s in enumerate(row.seats) if s.get("guest") == guest)
        if row.status != "finished" or row.outcome is None:
            result = "playing"
        else:
            winners = entry.game.winners(row.outcome)
            result = "won" if seat in winners else "lost" if winners else "none"
        names = seat_names(entry, row.seats, seat, lang)  # (as this player reads them)
        started = row.created_at
        if started is not None and started.tzinfo is None:
            started = started.replace(tzinfo=UTC)  # (SQLite gives it back without its zone)
        local = started.astimezone(zone(tz)) if started is not None else None
        return {
            "id": row.id,
            "kind": row.kind,
            "title": text(row.kind, lang, entry.game.hall.title),
            "started": started.isoformat() if started is not None else None,
            "started_local": local.strftime("%Y-%m-%d %H:%M") if local is not None else "",
            "over": result != "playing",
            "seat": seat,
            "seats": names,
            "result": result,
            "result_text": text(SHARED, lang, RESULTS[result]),
            "room": row.room_id is not None,
            "url": f"/partida/{row.id}",
            "replay": f"/partida/{row.id}/repeticion" if result != "playing" else None,
            "analysis": f"/partida/{row.id}/analisis"
            if result != "playing" and entry.bots is not None and entry.bots.coach is not None
            else None,
        }

    async def data(self, guest: str, lang: str) -> dict[str, Any]:
        rows = await self.api.accounts.games(guest)
        account = await self.api.accounts.get(guest)
        tz = account.tz if account is not None else None
        games = [g for g in (self._game(r, guest, lang, tz) for r in rows) if g is not None]
        figures = await self._figures(rows, games)
        stats: dict[str, dict[str, Any]] = {}
        for key, entry in REGISTRY.items():
            mine = [g for g in games if g["kind"] == key and g["over"]]
            totals = {name: 0 for name in entry.game.stat_names}
            for g in mine:
                for name, n in figures.get(g["id"], {}).items():
                    totals[name] = totals.get(name, 0) + n
            stats[key] = {
                "title": text(key, lang, entry.game.hall.title),
                "played": len(mine),
                "won": sum(g["result"] == "won" for g in mine),
                "figures": [
                    {"name": name, "title": text(key, lang, entry.game.stat_names[name]), "n": n}
                    for name, n in totals.items()
                    if name in entry.game.stat_names
                ],
            }
        return {"games": games, "stats": stats}

    async def _figures(
        self, rows: list[GameRow], games: list[dict[str, Any]]
    ) -> dict[str, dict[str, int]]:
        """Each finished game's figures for the player's seat, as its game counts them
        (``GameSpec.stats``, from the outcome and the log: one query for every log)."""
        over = {g["id"]: g["seat"] for g in games if g["over"]}
        counted = {
            r.id: r
            for r in rows
            if r.id in over and r.outcome is not None and REGISTRY[r.kind].game.stats is not None
        }
        store = self.api.hall.store
        assert store is not None
        logs = await store.logs(list(counted))
        out = {}
        for game_id, row in counted.items():
            stats = REGISTRY[row.kind].game.stats
            assert stats is not None and row.outcome is not None
            log = [(m.seat, m.move) for m in logs.get(game_id, [])]
            out[game_id] = stats(row.outcome, over[game_id], log)
        return out

    async def get(self, request: Request) -> Response:
        guest = guest_of(request)
        assert guest is not None
        return JSONResponse(await self.data(guest, lang_of(request)))

    async def page(self, request: Request) -> Response:
        guest = guest_of(request)
        assert guest is not None
        return self.pages.render(
            request, "history.html", history=await self.data(guest, lang_of(request))
        )
