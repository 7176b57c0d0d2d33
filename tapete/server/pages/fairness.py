"""A provably fair shuffle: each game's deal is committed to before anyone plays, and the
commitment can be checked against the seed once the game is over (docs/fairness.md).

- the **commitment**, shown from the game's first view: ``SHA-256("<game id>:<seed>:<salt>")``
  in hex, where ``salt`` is an HMAC of the game's id under the hall's secret (so the seed,
  62 random bits, cannot be found from the commitment, and no salt needs storing);
- once the game is **over**, ``GET /api/partidas/{id}/justa`` and ``/partida/{id}/justa``
  reveal the seed and the salt, and the deal the seed gives (the game's own position codec
  of its state before any move: hands, and the order of what was left to draw). The page
  recomputes the SHA-256 in the browser (Web Crypto) and says whether it matches. The deal is
  every hand the table hid: it is shown by the replay's own rule
  (:func:`~tapete.server.pages.replay.sees_hidden`), to those who sat at the game; one who only
  watched it, or a stranger, sees the commitment and that the game is over.

A game started from a set position (tests, teaching) has no seeded deal: nothing to commit.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tapete.fair import commitment, preimage, salt
from tapete.i18n import text
from tapete.i18n.errors import describe
from tapete.rooms import Table
from tapete.server.pages.games import Pages, game_info
from tapete.server.pages.render import lang_of
from tapete.server.pages.replay import public, sat_at, sees_hidden
from tapete.server.state import Hall, guest_of


class Fairness:
    def __init__(self, hall: Hall, pages: Pages) -> None:
        self.hall = hall
        self.pages = pages

    def of(
        self, table: Table, lang: str = "es", viewer: int | None = None, reveal: bool = True
    ) -> dict[str, Any] | None:
        """What may be said of a game's deal now: its commitment always; the seed, the salt
        and the deal once it is over and ``reveal`` (the viewer may see what the table hid:
        :func:`~tapete.server.pages.replay.sees_hidden`), with the steps a browser redoes to check
        it (``redo``: the game's :attr:`GameSpec.deal`, its titles in ``lang``). None:
        started from a set position."""
        record = table.record
        if record.position is not None:
            return None
        assert self.hall.secret is not None
        salted = salt(self.hall.secret, record.id)
        out: dict[str, Any] = {
            "id": record.id,
            "kind": record.kind,
            "commitment": commitment(record.id, record.seed, salted),
            "over": table.game.outcome(table.state) is not None,
        }
        if out["over"] and reveal:
            deal = table.game.new(table.config, record.seed)
            out |= {
                "seed": record.seed,
                "salt": salted,
                "preimage": preimage(record.id, record.seed, salted),
                "deal": table.game.dump(deal),
            }
            if table.spec.deal is not None:
                redo = table.spec.deal(table.config, record.seed)
                out["redo"] = self._titled(table, redo, lang, viewer)
        return out

    def _titled(
        self, table: Table, redo: dict[str, Any], lang: str, viewer: int | None
    ) -> dict[str, Any]:
        """``redo`` with each step's and part's title in ``lang`` (``{name}``: its seat's, as
        ``viewer`` calls it)."""
        names = [s["name"] for s in table.seats_json(viewer, lang)]
        for item in [*redo["steps"], *redo["parts"]]:
            yours = item.pop("yours", None)
            if "title" in item:
                params = dict(item.get("params") or {})
                if "seat" in item:
                    params["name"] = names[item["seat"]]
                    if item["seat"] == viewer and yours:  # (never «Montón de Tú»)
                        item["title"] = yours
                item["title"] = text(table.spec.key, lang, item["title"], **params)
        return redo

    async def _of(self, request: Request, table: Table | None) -> dict[str, Any] | None:
        if table is None:
            return None
        guest = guest_of(request)
        shown = await public(self.hall, table) is not None
        return self.of(
            table, lang_of(request), sat_at(table, guest), sees_hidden(table, guest, shown)
        )

    async def _room(self, request: Request) -> Table | None:
        return await self.hall.live.read_table(request.path_params["game_id"])

    async def get(self, request: Request) -> Response:
        table = await self._room(request)
        fair = await self._of(request, table)
        if fair is None:
            words = describe("not_your_game", lang_of(request))
            return JSONResponse({"error": "not_your_game", "message": words}, status_code=404)
        return JSONResponse(fair)

    async def page(self, request: Request) -> Response:
        table = await self._room(request)
        fair = await self._of(request, table)
        if table is None or fair is None:
            return self.pages.not_found(request)
        mine = sat_at(table, guest_of(request))
        lang = lang_of(request)
        return self.pages.render(
            request, "fairness.html", fair=fair, game=game_info(table.entry, lang), mine=mine
        )
