"""Watching a game among friends, for every game a private room can play (the registry's
games with ``online``): a spectator who opens the room's link after the start, and one who
had it open in the room's lobby before, see the whole table — every seat's public side,
whose turn, «Estás mirando» — and no player control, follow it move by move, and see the
end with its result and no «Revancha». The page-error guard (conftest.py) fails the test on
any uncaught exception or console error in any of the pages.

Each game is played to its end by the test and the bots (or a friend), from a short deal
that the test API sets for the room's games (``deal_room``): a few moves each, so the end
comes soon; El Peaje deals at random, its route short by its rules."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from browser import PHONE, TIMEOUT, deal_room, no_horizontal_scroll, shot, version
from playwright.sync_api import Browser, Page, ViewportSize, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from test_onecard_browser import FITS_OR_DRAW, play_or_draw

from tapete.registry import REGISTRY

pytestmark = pytest.mark.slow  # (whole games in several browsers: started first)

ONLINE = [key for key, e in REGISTRY.items() if e.game.online is not None]
"""The games a private room can play, as the registry says."""
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE_SIZE: ViewportSize = {"width": PHONE["width"], "height": PHONE["height"]}
WATCHING = {"es": "Estás mirando", "en": "You are watching"}
HOST, FRIEND = "Zoe", "Quique"  # (never a bot's name)
MOVES = 2000
"""More moves than any of these games takes to end."""

OVER = "() => !!(window.__tapete && window.__tapete.view && window.__tapete.view.result)"
MAY_ACT = """() => { const t = window.__tapete; const v = t && t.view;
  return !!v && !v.result && !t.waiting && (v.legal || []).length > 0; }"""
AT_TABLE = "() => !!document.querySelector('[data-game]') && !!window.__tapete?.view"
FREE_CONTROLS = """() => [...document.querySelectorAll(
    ".table-page button, .table-page input, .table-page select")]
  .filter((el) => !el.closest("dialog") && !el.disabled && el.checkVisibility())
  .map((el) => el.id || el.className)"""
"""The controls a spectator could use on the table (outside its dialogs)."""


def legal(page: Page) -> list[dict[str, Any]]:
    found = page.evaluate("() => window.__tapete.view.legal || []")
    assert isinstance(found, list)
    return found


# what the test does at each game's table, and what a spectator sees there ----------------


@dataclass(frozen=True)
class Game:
    options: dict[str, Any]
    """The room's options (``POST /api/salas``): short games."""
    move: Callable[[Page], bool]
    """One move of the player whose page may act now; False: none the test makes now (it
    waits for the table to move on)."""
    drawn: Callable[[Page, int], None]
    """Asserts that a spectator's page shows the table of ``n`` seats, as the view says."""
    felt: str
    """What changes as moves are made (its text)."""
    controls: tuple[str, ...]
    """The table's player controls: a spectator sees none of them."""
    may_use: tuple[str, ...] = ("card-style",)
    """What a spectator may use (ids): the viewer's own choices, not a move."""
    bots: bool = True
    """The host's opponent is a bot (else a friend, in a browser of their own)."""
    to_end: Callable[[Page], None] | None = None
    """The host plays the rest of the game at once (default: :attr:`move` after move)."""
    deal: dict[str, Any] | None = None
    """The position the room's game starts from (default: a deal at random)."""


def drawn(page: Page, script: str) -> dict[str, Any]:
    """``script`` reads the page's view and what its table shows, in one go (the page draws
    each view as it arrives: the two always agree), and returns ``{"view": …, "shown": …}``;
    the test asserts that the table shows what the view says."""
    found = page.evaluate(
        f"() => {{ const t = window.__tapete, v = t.view;"
        f" const all = (sel, f) => [...document.querySelectorAll(sel)].map(f);"
        f" const text = (sel) => document.querySelector(sel)?.textContent.trim();"
        f" {script} }}"
    )
    assert isinstance(found, dict)
    assert found["shown"] == found["view"], found
    return found


# La guerra: the host turns; a bot follows


def guerra_move(page: Page) -> bool:
    page.locator("#turn").click()
    return True


def guerra_to_end(page: Page) -> None:
    page.locator("#speed").select_option("0")
    page.locator("#autoplay").check()


def guerra_drawn(page: Page, n: int) -> None:
    found = drawn(
        page,
        """const turning = v.result ? [] : v.actors.filter((s) => t.seats[s].kind !== "bot");
        return {
          view: {order: [...v.counts.keys()].slice(1).concat([0]),  // seat 0 at the bottom
                 counts: [...v.counts.slice(1), v.counts[0]], turning, mine: 0},
          shown: {order: all("#seats .seat", (e) => Number(e.dataset.seat)),
                  counts: all("#seats .seat .count", (e) => Number(e.textContent)),
                  turning: all("#seats .seat.turning", (e) => Number(e.dataset.seat)),
                  mine: all("#seats .seat.me", (e) => e).length},
        };""",
    )
    assert len(found["view"]["order"]) == n
    expect(page.locator("#duel-label")).to_have_text(re.compile(r"\d"))


# One Card: the host plays the first card that fits (or draws); a bot plays the other seat


def onecard_move(page: Page) -> bool:
    """On the host's turn only (never a call nor a catch, which race the catch window). The
    table may move on between reading the turn and the click (seen once: the «Robar» the
    click aimed at stayed disabled, no card fitting; what moved it was not recorded): the
    locator then matches nothing (a card is «playable», «Robar» enabled, only on our turn)
    and the click waits; if the turn does not come back, no move, and :func:`play` waits for
    the table as on a bot's turn. The wait is long: under a loaded machine (the whole suite
    on two cores) a click once took more than the 2 s it had, on our turn with cards to
    play — a slow page, not a table that moved on."""
    if not page.evaluate("() => window.__tapete.view.turn === window.__tapete.mySeat"):
        return False
    try:
        play_or_draw(page, timeout=15_000)
    except PlaywrightTimeoutError as e:
        if page.locator(FITS_OR_DRAW).count():  # something to click is there: say what
            state = page.evaluate(
                """() => ({dialogs: [...document.querySelectorAll("dialog[open]")].map((d) => d.id),
                   turn: window.__tapete.view.turn, waiting: window.__tapete.waiting,
                   legal: window.__tapete.view.legal})"""
            )
            raise AssertionError(f"the host could not click on their turn: {state}\n{e}") from None
        return False
    return True


def onecard_drawn(page: Page, n: int) -> None:
    found = drawn(
        page,
        """const count = (e) => Number(e.textContent.trim().split(" ")[0]);
        return {
          view: {opponents: [...v.counts.keys()].slice(1),
                 counts: v.counts.slice(1), bottom: [t.nameOf(0), v.counts[0]],
                 backs: Math.min(v.counts[0], 8), top: v.top, hand: 0,
                 turn: v.result ? null : v.turn},
          shown: {opponents: all("#opponents .opp", (e) => Number(e.dataset.seat)),
                  counts: all("#opponents .opp-count", count),
                  bottom: [text("#me-name"), count(document.querySelector("#me-count"))],
                  backs: all("#me-fan .card", (e) => e).length,
                  top: document.querySelector("#discard .card").dataset.code,
                  hand: all("#hand .card", (e) => e).length,
                  turn: v.result ? null : (v.turn === 0 && document.querySelector("#me.active")
                    ? 0 : Number(document.querySelector(".opp.active")?.dataset.seat))},
          stock: [v.stock, text("#stock-count")],
        };""",
    )
    assert len(found["view"]["opponents"]) == n - 1
    assert found["view"]["bottom"][0] == HOST
    assert str(found["stock"][0]) in found["stock"][1]


# Rummy: the host draws (or passes) every turn; a bot plays the other seat


def rummy_move(page: Page) -> bool:
    kinds = {m["type"] for m in legal(page)}
    if "next" in kinds:
        page.locator("#summary-ok").click()
    else:
        page.locator("#draw").click()
    return True


def rummy_drawn(page: Page, n: int) -> None:
    found = drawn(
        page,
        """const first = (sel) => (e) => Number(e.querySelector(sel).textContent.split(" ")[0]);
        return {
          view: {counts: v.counts, scores: v.scores, table: v.table, rack: 0,
                 turn: v.result || v.waiting.length ? [] : [v.turn]},
          shown: {counts: all("#players .rm-player", first(".count")),
                  scores: all("#players .rm-player", first(".score")),
                  table: all("#sets .set", (s) => [...s.querySelectorAll(".tile")]
                    .map((x) => x.dataset.code)),
                  rack: all("#rack .tile", (e) => e).length,
                  turn: all("#players .rm-player", (e, i) => e).flatMap(
                    (e, i) => (e.classList.contains("active") ? [i] : []))},
          pool: [v.pool, text("#hand-label")],
        };""",
    )
    assert len(found["view"]["counts"]) == n
    assert str(found["pool"][0]) in found["pool"][1]


# El Peaje, dos jugadores: the host answers aloud, the friend reveals and marks it right


def peaje_move(page: Page) -> bool:
    if page.locator("#toll-ok").is_visible():
        page.locator("#toll-ok").click()
    else:
        page.locator("#answers button").first.click()
    return True


def peaje_drawn(page: Page, n: int) -> None:
    found = drawn(
        page,
        """const r = v.routes[v.playing];
        return {
          view: {stops: 1 + v.route.length, reference: v.reference,
                 done: r.cards.length},
          shown: {stops: all("#route .stop", (e) => e).length,
                  reference: document.querySelector("#reference .card").dataset.code,
                  done: all("#route .stop.done", (e) => e).length},
          counters: [r.left, r.misses, text("#counters")],
          who: text("#who"),
        };""",
    )
    left, misses, counters = found["counters"]
    assert str(left) in counters and str(misses) in counters, found
    assert HOST in found["who"] or FRIEND in found["who"], found


GAMES: dict[str, Game] = {
    "guerra": Game(
        options={"config": {"players": 2}},
        # six duels, the host's each
        deal={"piles": ["KH QH JH 10H 9H 8H", "2C 3C 4C 5C 6C 7C"]},
        move=guerra_move,
        to_end=guerra_to_end,
        drawn=guerra_drawn,
        felt="#seats",
        controls=("#turn", "#autoplay", "#speed", ".controls .keyhint"),
    ),
    "onecard": Game(
        options={"config": {"players": 2}},
        # the host has nothing for hearts, draws; the bot lays its three hearts and wins
        deal={
            "hands": ["6C 6D 9C 10D 10C", "3H 4H 5H"],
            "discard": "8H",
            "stock": "9S 9D 10S 8S 8C 6S",
        },
        move=onecard_move,
        drawn=onecard_drawn,
        felt=".oc-felt",
        controls=("#hand", "#draw", "#call", "#why", ".keyhint"),
    ),
    "rummy": Game(
        options={"config": {"hands": 1, "players": 2}},
        # nobody can lay 30: three draws empty the pool, then both pass and the hand ends
        deal={
            "racks": ["1R 2A 3N 5O", "1A 2N 4O 6R"],
            "pool": "7R 8A 9N",
            "config": {"hands": 1},
        },
        move=rummy_move,
        drawn=rummy_drawn,
        felt="#players",
        controls=("#rack", "#draw", "#done", "#undo", "#hint", ".sorts", ".keyhint", "#help"),
    ),
    "peaje": Game(
        options={"config": {"variant": "dos", "players": 2}},
        move=peaje_move,
        drawn=peaje_drawn,
        felt=".pj-felt",
        controls=("#answers button",),
        may_use=("odds-toggle",),
        bots=False,
    ),
}


def test_every_game_a_room_plays_is_watched_here() -> None:
    assert ONLINE and set(GAMES) == set(ONLINE), "a game's spectators need their checks here"


# the browsers ---------------------------------------------------------------------------


def new_page(browser: Browser, contexts: list[Any], lang: str, size: ViewportSize) -> Page:
    touch = size == PHONE_SIZE
    context = browser.new_context(
        locale={"es": "es-ES", "en": "en-GB"}[lang],
        viewport=size,
        has_touch=touch,
        is_mobile=touch,
        service_workers="block",
    )
    contexts.append(context)
    context.set_default_timeout(TIMEOUT)
    return context.new_page()


@pytest.fixture
def pages(browser: Browser) -> Iterator[dict[str, Page]]:
    """The host (a laptop, Spanish), a friend (a phone), and two spectators: one who comes
    before the start (a laptop, English), one after it (a phone, Spanish)."""
    contexts: list[Any] = []
    try:
        yield {
            "host": new_page(browser, contexts, "es", DESKTOP),
            "friend": new_page(browser, contexts, "es", PHONE_SIZE),
            "early": new_page(browser, contexts, "en", DESKTOP),
            "late": new_page(browser, contexts, "es", PHONE_SIZE),
        }
    finally:
        for context in contexts:
            context.close()


def post(page: Page, url: str, body: dict[str, Any]) -> Any:
    response = page.request.post(
        url, data=json.dumps(body), headers={"content-type": "application/json"}
    )
    assert response.ok, response.text()
    return response.json()


def room_state(page: Page, condition: str) -> None:
    """Wait until the room page's state (``room``, from its socket) meets ``condition``."""
    page.wait_for_function(
        f"() => {{ const room = window.__tapete_room?.room; return {condition}; }}"
    )


# the table as a spectator sees it ---------------------------------------------------------


def sees_the_table(page: Page, game: Game, lang: str, n: int) -> None:
    page.wait_for_function(AT_TABLE)
    assert page.evaluate("() => [window.__tapete.mySeat, window.__tapete.view.seat]") == [
        None,
        None,
    ]
    watching = page.locator("#watching")
    expect(watching).to_be_visible()
    expect(watching).to_have_text(WATCHING[lang])
    assert page.locator(".statusbar #watching").count() == 1  # (in the table's status line)
    game.drawn(page, n)
    for selector in game.controls:  # (hidden, not merely disabled)
        expect(page.locator(selector).filter(visible=True)).to_have_count(0)
    free = page.evaluate(FREE_CONTROLS)
    assert set(free) <= set(game.may_use), free
    if page.viewport_size == PHONE_SIZE:
        no_horizontal_scroll(page, PHONE["width"])


def felt_of(page: Page, game: Game) -> str:
    return str(page.locator(game.felt).inner_text())


def sees_the_end(page: Page, lang: str) -> None:
    end = page.locator("#end")
    expect(end).to_be_visible(timeout=30_000)
    expect(page.locator("#end-title")).not_to_be_empty()
    figures = page.locator("#end-list li").count() + len(page.locator("#end-stats").inner_text())
    assert figures, "the end says no result"
    expect(page.locator("#again")).to_be_hidden()  # no «Revancha» for a spectator
    expect(page.locator("#watching")).to_have_text(WATCHING[lang])


# the players ----------------------------------------------------------------------------


def settled(players: list[Page]) -> int:
    """Every player's page at the newest version; returns it."""
    v = max(version(p) for p in players)
    for p in players:
        p.wait_for_function("v => window.__tapete.version >= v && !window.__tapete.waiting", arg=v)
    return v


def play(players: list[Page], game: Game, moves: int) -> int:
    """Make up to ``moves`` moves (the humans': the bots make theirs); the versions it took.
    Stops at the end of the game."""
    host = players[0]
    start = settled(players)
    for _ in range(moves):
        v = settled(players)
        if host.evaluate(OVER):
            break
        actor = next((p for p in players if p.evaluate(MAY_ACT)), None)
        if actor is None or not game.move(actor):  # a bot's turn: the table moves on
            host.wait_for_function(f"v => window.__tapete.version > v || ({OVER})()", arg=v)
            continue
        actor.wait_for_function("v => window.__tapete.version > v", arg=v)
    return settled(players) - start


@pytest.mark.parametrize("key", ONLINE)
def test_spectators_see_the_whole_table_to_the_end(
    key: str, pages: dict[str, Page], server_url: str, screenshots: Path
) -> None:
    game = GAMES[key]
    host, friend, early, late = pages["host"], pages["friend"], pages["early"], pages["late"]

    # the room: the host's, with a bot or a friend
    host.goto(server_url + "/")
    room = post(
        host, f"{server_url}/api/salas", {"game": key, "options": game.options, "name": HOST}
    )
    link = server_url + room["url"]
    if game.deal is not None:
        deal_room(host, server_url, room["code"], game.deal)
    host.goto(link)
    room_state(host, "room.seats[0].connected")  # (the host's socket is open)
    players = [host]
    if game.bots:
        host.get_by_role("button", name="Poner un bot").first.click()
        room_state(host, "room.seats.some((s) => s.kind === 'bot')")
    else:
        friend.goto(server_url + "/")
        post(friend, f"{server_url}/api/salas/{room['code']}/unirse", {"name": FRIEND})
        friend.goto(link)
        players.append(friend)
    n = int(host.evaluate("() => window.__tapete_room.room.seats.length"))

    # a spectator opens the link before the start: the room's lobby, as someone watching
    early.goto(link)
    room_state(early, "room.you === null && room.watchers >= 1")
    room_state(host, "room.can_start")
    host.locator("#start").click()
    for page in players:
        page.wait_for_function(AT_TABLE)
    sees_the_table(early, game, "en", n)  # taken to the table when the game starts

    # another opens it after the start
    late.goto(link)
    sees_the_table(late, game, "es", n)
    shot(late, screenshots / f"spectator-{key}-phone.png")
    shot(early, screenshots / f"spectator-{key}-desktop-en.png")

    # moves are made: both follow them, each update drawn
    before = {page: (version(page), felt_of(page, game)) for page in (early, late)}
    assert play(players, game, 4) >= 2
    now = version(host)
    for page, (was, felt) in before.items():
        page.wait_for_function("v => window.__tapete.version >= v", arg=now)
        assert version(page) > was
        if not host.evaluate(OVER):
            assert felt_of(page, game) != felt, f"{key}: the felt did not change"
            sees_the_table(page, game, "es" if page is late else "en", n)

    # to the end: both see the result, and no «Revancha»
    if game.to_end is not None:
        game.to_end(host)
        expect(host.locator("#end")).to_be_visible(timeout=90_000)
    else:
        play(players, game, MOVES)
    assert host.evaluate(OVER), f"{key}: the game did not end"
    sees_the_end(late, "es")
    sees_the_end(early, "en")
    shot(late, screenshots / f"spectator-{key}-end-phone.png")
    shot(early, screenshots / f"spectator-{key}-end-desktop-en.png")
