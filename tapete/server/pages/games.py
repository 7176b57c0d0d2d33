"""The hall's pages: the games, their rules, setup pages, guides and tables."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from tapete.cosmetics import AVATAR_KEYS, worn
from tapete.fair import commitment, salt
from tapete.games.protocol import IllegalMove
from tapete.i18n import N_, SHARED, js_strings, text
from tapete.i18n.errors import describe
from tapete.public_names import of as public_name
from tapete.ratings import shown
from tapete.registry import REGISTRY, Entry
from tapete.rooms import Table
from tapete.rooms.matchmaker import quick_games
from tapete.rooms.private_room import REACTIONS, PrivateRoom
from tapete.server.account.strangers import REASON_WORDS, STRANGER_STRINGS
from tapete.server.pages import forms
from tapete.server.pages.render import Renderer, lang_of
from tapete.server.state import Hall, guest_of, playable
from tapete.store import utcnow
from tapete.store.players import REASONS, Ranked

PLAYING_SECONDS: Final = 300
"""A game moved within this long is being played now (the hall's «Mesas abiertas»)."""
HALL_BOARD: Final = 5
"""How many of each rated game's weekly leaderboard the hall shows."""
HALL_BOARD_SECONDS: Final = 60.0
"""The hall reads its leaderboards at most this often."""
OPEN_TABLES_SECONDS: Final = 10.0
"""The hall asks the store how many games are played now at most this often."""

QUICK_STRINGS: Final = {
    "searching": N_("Buscando jugadores… {seconds} s como mucho"),
    "bots_now": N_("Nadie más a la vista: te sentamos con bots…"),
    "table_now": N_("Preparando la mesa…"),
    "alone": N_("Nadie más buscaba partida: juegas tú solo. Entrando…"),
    "waiting_one": N_("Solo tú esperando este juego ahora mismo."),
    "waiting_many": N_("{n} personas esperando este juego."),
    "seated": N_("¡Mesa lista! Entrando…"),
    "lost": N_("No hemos podido sentarte a una mesa: inténtalo otra vez."),
    "network": N_("No hemos podido hablar con el servidor: inténtalo de nuevo."),
}
"""What the «Jugar ahora» script says itself (the refusals come from the server, in words)."""


def game_info(found: Entry, lang: str, values: dict[str, Any] | None = None) -> dict[str, Any]:
    """What a page shows of a game, in ``lang`` (from the game's own catalog)."""
    spec = found.game

    def tr(msgid: str) -> str:
        return text(spec.key, lang, msgid)

    return {
        "key": spec.key,
        "title": tr(spec.hall.title),
        "line": tr(spec.hall.line),
        "who": tr(spec.hall.who),
        "icon": spec.hall.icon,
        "play_url": f"/{spec.key}",
        "rules_url": f"/reglas/{spec.key}",
        "guide_url": f"/{spec.key}/guia" if spec.guide is not None else None,
        "online": spec.online is not None,
        "quick": spec.key in quick_games(),
        "bots": found.bots is not None,
        "coach": found.bots is not None and found.bots.coach is not None,
        "device": spec.pass_and_play is not None,
        "guided": tr(spec.guided.line) if spec.guided is not None else None,
        "rated": spec.quick is not None and spec.quick.rated,
        "levels": [(lv.key, tr(lv.label)) for lv in found.bots.levels] if found.bots else [],
        "default_level": found.bots.default if found.bots is not None else None,
        "fields": forms.fields(spec, values),
        "fair": {k: tr(v) for k, v in spec.fair_words.items()},
    }


def rated_games() -> list[str]:
    """The games with ratings, in the hall's order."""
    return [k for k, e in REGISTRY.items() if e.game.quick is not None and e.game.quick.rated]


def week_start(now: datetime) -> datetime:
    """Monday, 00:00 UTC, of ``now``'s week (the week of the weekly leaderboards).

    >>> from datetime import UTC
    >>> week_start(datetime(2026, 12, 3, 21, 5, tzinfo=UTC)).isoformat()
    '2026-11-30T00:00:00+00:00'
    """
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    return day - timedelta(days=day.weekday())


def board_row(ranked: Ranked, lang: str) -> dict[str, Any]:
    """A leaderboard's row as shown and sent: the public name in ``lang``, the rating shown."""
    return {
        "rank": ranked.rank,
        "name": public_name(ranked.guest, ranked.public_name).words(lang),
        "rating": shown(ranked.rating),
        "games": ranked.games,
    }


def strangers_words(lang: str) -> dict[str, Any]:
    """The words of the end of a table of strangers (blocking, reporting: strangers.js)."""
    return {
        "reasons": [[k, text(SHARED, lang, REASON_WORDS[k])] for k in REASONS],
        **{k: text(SHARED, lang, v) for k, v in STRANGER_STRINGS.items()},
    }


class Pages:
    def __init__(self, hall: Hall, renderer: Renderer) -> None:
        self.hall = hall
        self.renderer = renderer
        self._playing: tuple[float, dict[str, int]] | None = None
        """The games played now, by game, as last read, and when (monotonic)."""
        self._boards: tuple[float, dict[str, list[Ranked]]] | None = None
        """The top of each rated game's weekly leaderboard, as last read, and when."""

    def render(
        self, request: Request, name: str, domain: str = SHARED, status: int = 200, **ctx: Any
    ) -> Response:
        lang = lang_of(request)
        games = [game_info(e, lang) for e in REGISTRY.values()]
        return self.renderer.render(request, name, domain, status, games=games, **ctx)

    def not_found(self, request: Request, message: str | None = None) -> Response:
        return self.render(request, "not_found.html", status=404, message=message)

    def quick(self, lang: str) -> dict[str, Any]:
        """What the «Jugar ahora» form needs (``_quick.html``, ``quick.js``): the longest
        wait, and the words its script says itself."""
        return {
            "wait": round(self.hall.settings.quick_wait),
            "strings": {k: text(SHARED, lang, v) for k, v in QUICK_STRINGS.items()},
        }

    async def open_tables(self) -> dict[str, dict[str, Any]]:
        """The hall's «Mesas abiertas», by game: games played now (moved in the last
        :data:`PLAYING_SECONDS`; asked of the store at most every
        :data:`OPEN_TABLES_SECONDS`), people waiting for «Jugar ahora», and the table one more
        would fill soonest (``table``: the size asked for, None «me da igual», and how many
        wait for it; None: nobody waits) — the queues read as they are now, which is cheap."""
        now = time.monotonic()
        if self._playing is None or now - self._playing[0] >= OPEN_TABLES_SECONDS:
            assert self.hall.store is not None
            since = utcnow() - timedelta(seconds=PLAYING_SECONDS)
            self._playing = (now, await self.hall.store.playing(since))
        playing = self._playing[1]
        waiting = await self.hall.matchmaker.counts()
        tables = await self.hall.matchmaker.open_tables()
        found: dict[str, dict[str, Any]] = {}
        for key in REGISTRY:
            table = tables.get(key)
            found[key] = {
                "playing": playing.get(key, 0),
                "waiting": waiting.get(key, 0),
                "table": {"players": table[0], "waiting": table[1]} if table else None,
            }
        return found

    async def hall_boards(self, lang: str) -> list[dict[str, Any]]:
        """The hall's leaderboards: for each rated game, the top :data:`HALL_BOARD` of this
        week, asked of the store at most every :data:`HALL_BOARD_SECONDS`."""
        now = time.monotonic()
        if self._boards is None or now - self._boards[0] >= HALL_BOARD_SECONDS:
            assert self.hall.store is not None
            since = week_start(utcnow())
            players = self.hall.store.players
            read = {k: await players.leaderboard(k, since, HALL_BOARD) for k in rated_games()}
            self._boards = (now, read)
        return [
            {"game": game_info(REGISTRY[key], lang), "rows": [board_row(r, lang) for r in top]}
            for key, top in self._boards[1].items()
        ]

    async def home(self, request: Request) -> Response:
        lang = lang_of(request)
        resume = await self.hall.active_game(guest_of(request), lang)
        return self.render(
            request,
            "hall.html",
            resume=resume,
            quick=self.quick(lang),
            open_tables=await self.open_tables(),
            boards=await self.hall_boards(lang),
        )

    async def rules_index(self, request: Request) -> Response:
        return self.render(request, "rules/index.html")

    async def rules(self, request: Request) -> Response:
        found = playable(request.path_params["game"])
        if found is None:
            return self.not_found(request)
        return self.render(
            request, f"rules/{found.key}.html", found.key, game=game_info(found, lang_of(request))
        )

    async def setup(self, request: Request) -> Response:
        found = playable(request.path_params["kind"])
        if found is None:
            return self.not_found(request)
        code = request.query_params.get("sala")
        if code is not None:  # the host changes a private room's options on this page
            room = await self.hall.live.read_room(code)
            if room is None or room.entry is not found or not room.is_host(guest_of(request)):
                return self.not_found(request)
            return self._setup(
                request,
                found,
                room_code=room.code,
                values=room.record.options["config"],
                room_rated=bool(room.record.options.get("rated")),
            )
        resume = await self.hall.active_game(guest_of(request), lang_of(request), found.key)
        return self._setup(
            request, found, resume=resume, first=await self.first_time(request, found)
        )

    async def first_time(self, request: Request, found: Entry) -> bool:
        """Whether the guest has never played ``found`` (the setup page then offers its
        guided first game first)."""
        guest = guest_of(request)
        if guest is None or self.hall.store is None:
            return True
        return not await self.hall.store.accounts.has_played(guest, found.key)

    def _setup(
        self,
        request: Request,
        found: Entry,
        status: int = 200,
        values: dict[str, Any] | None = None,
        **ctx: Any,
    ) -> Response:
        ctx.setdefault("resume", None)
        ctx.setdefault("error", None)
        ctx.setdefault("room_code", None)
        ctx.setdefault("room_rated", False)
        ctx.setdefault("first", False)
        ctx.setdefault("quick", self.quick(lang_of(request)))
        return self.render(
            request,
            f"{found.key}_setup.html",
            found.key,
            status,
            game=game_info(found, lang_of(request), values),
            **ctx,
        )

    async def start(self, request: Request) -> Response:
        found = playable(request.path_params["kind"])
        guest = guest_of(request)
        if found is None or guest is None:
            return self.not_found(request)
        form = await request.form()
        config = forms.read(found.game, form)
        level = str(form.get("level") or "") or None
        device = None  # (friends on this device: their names, in seat order)
        if form.get("mode") == "device":
            device, level = [str(n) for n in form.getlist("name")], None
        if found.bots is None:
            level = None
        if not await self.hall.may_create(request):
            words = describe("too_many_games", lang_of(request))
            return self.setup_error(request, found, words, 429)
        try:
            table = await self.hall.live.tables.create(
                found.key, config, guest, level=level, device=device
            )
        except IllegalMove as exc:
            lang = lang_of(request)
            words = found.game.describe(exc, lang)
            return self._setup(request, found, status=400, error=words)
        return RedirectResponse(f"/partida/{table.id}", status_code=303)

    async def guided(self, request: Request) -> Response:
        """The game's guided first game (``GameSpec.guided``): its deal, its bots, the table
        telling the player what to do at each step."""
        found = playable(request.path_params["kind"])
        guest = guest_of(request)
        if found is None or guest is None or found.game.guided is None:
            return self.not_found(request)
        if not await self.hall.may_create(request):
            words = describe("too_many_games", lang_of(request))
            return self.setup_error(request, found, words, 429)
        table = await self.hall.live.tables.create(found.key, {}, guest, guided=True)
        return RedirectResponse(f"/partida/{table.id}", status_code=303)

    async def guide(self, request: Request) -> Response:
        found = playable(request.path_params["kind"])
        guide = found.game.guide if found is not None else None
        page = request.path_params.get("page", "index")
        if found is None or guide is None or page not in guide.pages:
            return self.not_found(request)
        return self.render(
            request,
            f"{found.key}_guide/{page}.html",
            found.key,
            game=game_info(found, lang_of(request)),
            pages=guide.pages,
            active_page=page,
            **guide.context(),
        )

    async def table(self, request: Request) -> Response:
        table = await self.hall.live.read_table(request.path_params["game_id"])
        guest = guest_of(request)
        lang = lang_of(request)
        if table is None or table.seat_of(guest) is None:
            return self.not_found(request, describe("not_your_game", lang))
        return await self.table_page(request, table)

    async def table_page(
        self,
        request: Request,
        table: Table,
        room: PrivateRoom | None = None,
        replay: dict[str, Any] | None = None,
    ) -> Response:
        """A game's table; in a private room (``room``) for players and spectators alike; or
        its ``replay`` once it is over (the seat it is seen from, and each seat's name). The
        felt and the tiles are the viewer's own (the shop's)."""
        found = table.entry
        lang = lang_of(request)
        guest = guest_of(request)
        account = None
        if guest is not None and self.hall.store is not None:
            account = await self.hall.store.accounts.get(guest)
        attempt = None  # (an attempt at a deal of the day: the page says so, and leads back)
        if not table.online and self.hall.store is not None:
            attempt = await self.hall.store.daily.of_game(table.id)
        first = None
        if replay is None:  # the table as the socket's «joined» would show it, drawn at once
            await table.durable()
            first = table.joined(guest, lang)
        return self.render(
            request,
            f"{found.key}_table.html",
            found.key,
            game=game_info(found, lang),
            room_id=table.id,
            config=table.record.config,
            level=next(
                (s.get("level", "normal") for s in table.record.seats if s["kind"] == "bot"),
                "normal",
            ),
            strings=js_strings(lang, found.key),
            words=found.game.words(lang),
            lobby=room.state(guest, lang) if room is not None else None,
            reactions=[(k, text(SHARED, lang, v)) for k, v in REACTIONS.items()],
            strangers=strangers_words(lang) if room is not None and room.record.quick else None,
            looks=worn(account.equipped if account is not None else None),
            commitment=self.commitment(table),
            avatars=AVATAR_KEYS,
            replay=replay,
            first=first,
            daily={"date": attempt.day.isoformat()} if attempt is not None else None,
        )

    def commitment(self, table: Table) -> str | None:
        """The game's commitment to its deal (:mod:`tapete.fair`); None: a set position."""
        if table.record.position is not None or self.hall.secret is None:
            return None
        return commitment(table.id, table.record.seed, salt(self.hall.secret, table.id))

    def setup_error(
        self, request: Request, found: Entry, words: str, status: int = 400
    ) -> Response:
        return self._setup(request, found, status=status, error=words)

    async def again(self, request: Request) -> Response:
        """«Nueva partida» at the end: the same game, same options (as the game turns them
        for a rematch) and the same bots, a new shuffle."""
        table = await self.hall.live.read_table(request.path_params["game_id"])
        guest = guest_of(request)
        if table is None or guest is None or table.seat_of(guest) is None:
            return self.not_found(request, describe("not_your_game", lang_of(request)))
        spec = table.spec
        config = spec.rematch(table.config) if spec.rematch is not None else table.config
        level = next(
            (str(s["level"]) for s in table.record.seats if s["kind"] == "bot" and "level" in s),
            None,
        )
        device = None  # (on one device: the same people, by the same names)
        if table.device is not None:
            device = [str(s.get("name") or "") for s in table.record.seats]
        if not await self.hall.may_create(request):
            words = describe("too_many_games", lang_of(request))
            return self.setup_error(request, table.entry, words, 429)
        new = await self.hall.live.tables.create(
            spec.key, spec.config_json(config), guest, level=level, device=device
        )
        return RedirectResponse(f"/partida/{new.id}", status_code=303)
