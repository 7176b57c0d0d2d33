"""Friends in a private room, in real browsers: a host makes a room from a game's page, a
friend on a phone joins with the code from the hall, they play to the end, one reloads and
is back in the seat, someone watches, and both ask for the rematch."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import PHONE, TIMEOUT, deal_room, no_horizontal_scroll, shot, version, view
from playwright.sync_api import Page, expect
from test_onecard_browser import play_or_draw
from test_rummy_browser import drag

pytestmark = pytest.mark.slow  # (whole games in several browsers: started first)

SIX_DUELS = {"piles": ["KH QH JH 10H 9H 8H", "2C 3C 4C 5C 6C 7C"]}
"""La guerra in six duels, each the host's (``deal_room``: a whole game in seconds)."""
HEARTS_RUN = {
    "hands": ["3H 4H 5H 6H 8H 9H 10H", "JS QS JC QC JD QD 2S"],
    "discard": "KH",
    "stock": "2C 2D AS AC AD",
}
"""One Card: the host lays seven hearts one after another; the friend never holds a heart
nor any of their numbers, and draws (a whole game in thirteen moves)."""


@pytest.fixture
def host(desktop: Page) -> Page:
    """The host: a desktop browser."""
    return desktop


@pytest.fixture
def watcher(browser: Any) -> Iterator[Page]:
    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 800})
    context.set_default_timeout(TIMEOUT)
    try:
        yield context.new_page()
    finally:
        context.close()


def game_of(page: Page) -> str:
    value = page.locator("[data-game]").first.get_attribute("data-game")
    assert value
    return value


def test_two_friends_play_la_guerra_through_a_code(
    host: Page, phone: Page, watcher: Page, server_url: str, screenshots: Path
) -> None:
    # the host makes the room from the game's page, with its options
    host.goto(f"{server_url}/guerra")
    host.get_by_role("button", name="Jugar con amigos").click()
    expect(host).to_have_url(re.compile(r"/sala/\d{6}$"))
    code = host.url.rsplit("/", 1)[1]
    deal_room(host, server_url, code, SIX_DUELS)
    expect(host.locator("#code")).to_have_text(f"{code[:3]}{code[3:]}")
    expect(host.locator(".qr img")).to_be_visible()
    expect(host.locator("#start")).to_be_disabled()
    shot(host, screenshots / "room-lobby-host.png", full=True)

    # a friend on a phone types the code on the hall, picks a name and sits
    phone.goto(server_url + "/")
    phone.get_by_label("Código de seis cifras").fill(code)
    phone.get_by_role("button", name="Unirse").click()
    expect(phone).to_have_url(f"{server_url}/sala/{code}")
    phone.get_by_label("Tu nombre").fill("Luis")
    phone.get_by_role("button", name="Sentarme").click()
    expect(phone.locator("#seats li.you")).to_contain_text("Luis")
    no_horizontal_scroll(phone, PHONE["width"])
    shot(phone, screenshots / "room-lobby-phone.png", full=True)

    # the host sees Luis at once, and starts
    expect(host.locator("#seats li").nth(1)).to_contain_text("Luis")
    expect(host.locator("#start")).to_be_enabled()
    host.locator("#start").click()
    expect(host.locator("#turn")).to_be_visible()
    expect(phone.locator("#turn")).to_be_visible()
    game = game_of(host)
    assert game_of(phone) == game
    expect(host.locator("#roombar")).to_contain_text(f"Sala {code}")

    # both turn a card; then Luis reloads and is back in his seat
    host.locator("#turn").click()
    phone.locator("#turn").click()
    for page in (host, phone):  # both cards turned (a tie would be a war: still fine)
        page.wait_for_function("() => window.__tapete.version >= 2")
    label = host.locator("#duel-label").inner_text()
    seen = int(host.evaluate("() => window.__tapete.version"))
    phone.reload()
    expect(phone.locator("#turn")).to_be_visible()
    phone.wait_for_function("v => window.__tapete.version === v", arg=seen)
    expect(phone.locator("#duel-label")).to_have_text(label)

    # a reaction: Luis says «¡Bien jugado!», the host sees it by his name
    phone.get_by_role("button", name="¡Bien jugado!").click()
    expect(host.locator("#presence")).to_contain_text("¡Bien jugado!")

    # someone watches: the players see it; the watcher sees no button to play
    watcher.goto(f"{server_url}/sala/{code}")
    expect(watcher.locator("#seats, #seats .seat").first).to_be_visible()
    expect(host.locator("#watchers")).to_have_text("1 persona mirando")

    # they play to the end (autoplay, at once) and both ask for the rematch
    for page in (host, phone):
        page.locator("#speed").select_option("0")
        page.locator("#autoplay").check()
    expect(host.locator("#end")).to_be_visible(timeout=90_000)
    expect(phone.locator("#end")).to_be_visible(timeout=30_000)
    shot(phone, screenshots / "room-end-phone.png")
    # the room's running score, by the names they sat down with: «Anfitrión 1 – 0 Luis»
    winner = host.evaluate("() => window.__tapete.view.result.winner")
    score = f"Anfitrión {int(winner == 0)} – {int(winner == 1)} Luis" if winner is not None else ""
    for page in (host, phone):  # (a draw: no score yet, the bar shows none)
        expect(page.locator("#series")).to_have_text(score)
    rematch = host.get_by_role("button", name="Revancha")
    rematch.click()
    expect(host.locator("#rematch-status")).to_have_text("Esperando a: Luis")
    expect(phone.locator("#rematch-status")).to_have_text("Quieren la revancha: Anfitrión")
    phone.get_by_role("button", name="Revancha").click()
    changed = (
        "g => { const el = document.querySelector('[data-game]');"
        " return !!el && el.dataset.game !== g; }"
    )
    for page in (host, phone):  # both pages reload into the next game
        page.wait_for_function(changed, arg=game, timeout=15_000)
    expect(host.locator("#duel-label")).to_have_text(re.compile(r"^Duelo 1 de"))
    assert game_of(phone) == game_of(host) != game
    expect(phone.locator("#series")).to_have_text(score)  # (kept across the rematch)
    shot(host, screenshots / "room-rematch-host.png")


@pytest.mark.console_errors(r"status of 404 \(Not Found\) @ http://[\d.:]+/unirse\?codigo=000001$")
def test_a_wrong_code_says_so_and_offers_the_form(phone: Page, server_url: str) -> None:
    phone.goto(server_url + "/")
    phone.get_by_label("Código de seis cifras").fill("000001")
    phone.get_by_role("button", name="Unirse").click()
    expect(phone.get_by_role("alert")).to_contain_text("No hay ninguna sala abierta con ese código")
    expect(phone.get_by_label("Código de seis cifras")).to_be_visible()


def my_turn(page: Page) -> bool:
    return bool(
        page.evaluate(
            """() => { const t = window.__tapete; const v = t && t.view;
              return !!v && !v.result && v.turn === v.seat && !t.waiting; }"""
        )
    )


def over(page: Page) -> bool:
    return bool(page.evaluate("() => !!(window.__tapete.view && window.__tapete.view.result)"))


def synced(pages: list[Page]) -> None:
    """Every page at the newest version any of them has, no move of theirs on its way."""
    newest = max(version(p) for p in pages)
    for p in pages:
        p.wait_for_function(
            "v => window.__tapete.version >= v && !window.__tapete.waiting", arg=newest
        )


def test_two_friends_play_one_card_to_the_end(
    host: Page, phone: Page, server_url: str, screenshots: Path
) -> None:
    host.goto(f"{server_url}/onecard")
    host.get_by_label("Sala con puntuación").check()  # (the end says each one's rating)
    host.get_by_role("button", name="Jugar con amigos").click()
    expect(host).to_have_url(re.compile(r"/sala/\d{6}$"))
    code = host.url.rsplit("/", 1)[1]
    deal_room(host, server_url, code, HEARTS_RUN)
    phone.goto(f"{server_url}/sala/{code}")  # by the link
    phone.get_by_label("Tu nombre").fill("Marta")
    phone.get_by_role("button", name="Sentarme").click()
    expect(host.locator("#start")).to_be_enabled()
    host.locator("#start").click()
    expect(host.locator(".hand .card")).to_have_count(7)
    expect(phone.locator(".hand .card")).to_have_count(7)
    # each sees its own hand only: no card of one hand in the other
    mine = set(host.locator(".hand .card").evaluate_all("e => e.map(x => x.dataset.code)"))
    hers = set(phone.locator(".hand .card").evaluate_all("e => e.map(x => x.dataset.code)"))
    assert mine and hers and not mine & hers
    shot(phone, screenshots / "room-onecard-phone.png")
    for _ in range(600):
        synced([host, phone])  # (then it is one's turn, or the game is over)
        if over(host):
            break
        page = host if my_turn(host) else phone
        assert my_turn(page), "nobody's turn at One Card"
        before = version(page)
        play_or_draw(page)
        page.wait_for_function("v0 => window.__tapete.version > v0", arg=before)
    expect(host.locator("#end")).to_be_visible()
    expect(phone.locator("#end")).to_be_visible()
    expect(host.get_by_role("button", name="Revancha")).to_be_visible()
    # a rated room: each one's new rating, provisional («?»), up for the winner, down for the
    # other (written with the last move: there as soon as the end is)
    lines = []
    for page in (host, phone):
        rating = page.locator("#end-rating")
        expect(rating).to_be_visible()
        expect(rating).to_have_text(re.compile(r"^Tu puntuación: \d+\? \([+−]\d+\)$"))
        lines.append(rating.text_content() or "")
    assert sorted("+" in line for line in lines) == [False, True], lines
    shot(host, screenshots / "room-onecard-end.png")


def test_four_friends_one_drops_and_comes_back(
    browser: Any, server_url: str, screenshots: Path
) -> None:
    contexts: list[Any] = []
    try:
        for _ in range(4):
            contexts.append(
                browser.new_context(locale="es-ES", viewport=PHONE, has_touch=True, is_mobile=True)
            )
        pages = [c.new_page() for c in contexts]
        for p in pages:
            p.set_default_timeout(TIMEOUT)
        host, *friends = pages
        host.goto(f"{server_url}/onecard")
        host.locator('input[name="players"][value="4"]').check()
        host.get_by_role("button", name="Jugar con amigos").click()
        expect(host).to_have_url(re.compile(r"/sala/\d{6}$"))
        link = host.url
        for name, page in zip(("Ana", "Luis", "Marta"), friends, strict=True):
            page.goto(link)
            page.get_by_label("Tu nombre").fill(name)
            page.get_by_role("button", name="Sentarme").click()
            expect(page.locator("#seats li.you")).to_contain_text(name)
        expect(host.locator("#start")).to_be_enabled()
        host.locator("#start").click()
        for page in pages:
            expect(page.locator(".hand .card")).to_have_count(7)
        # Marta's phone drops: the others see her reconnecting, with the grace left
        marta = friends[2]
        marta.close()
        # (the grace: the test server's hour, so a game left behind is not played on by bots)
        expect(host.locator("#presence")).to_contain_text(
            re.compile(r"Marta: reconectando… \d{4} s")
        )
        shot(host, screenshots / "room-four-reconnecting.png")
        # she comes back on the same phone (the same cookie): her seat, her hand
        again = contexts[3].new_page()
        again.goto(link)
        expect(again.locator(".hand .card")).to_have_count(7)
        expect(again.locator("#me-name")).to_have_text("Tú")
        expect(host.locator("#presence")).not_to_contain_text("reconectando")
        no_horizontal_scroll(again, PHONE["width"])
    finally:
        for c in contexts:
            c.close()


def test_two_friends_at_rummy_drag_tiles_and_drafts_stay_private(
    host: Page, phone: Page, server_url: str, screenshots: Path
) -> None:
    host.goto(f"{server_url}/rummy")
    host.get_by_role("button", name="Jugar con amigos").click()
    expect(host).to_have_url(re.compile(r"/sala/\d{6}$"))
    phone.goto(host.url)
    phone.get_by_label("Tu nombre").fill("Lucas")
    phone.get_by_role("button", name="Sentarme").click()
    expect(host.locator("#start")).to_be_enabled()
    host.locator("#start").click()
    for page in (host, phone):
        expect(page.locator("#rack .tile")).to_have_count(14)
    mover, other = (
        (host, phone) if host.locator("#turn-label").inner_text() == "Te toca" else (phone, host)
    )
    expect(mover.locator("#turn-label")).to_have_text("Te toca")
    expect(mover.locator("#hint")).to_be_hidden()  # no hints among friends
    # a tile dragged to the table: the mover's draft, checked live, never shown to the other
    drag(mover, mover.locator("#rack .tile").first, mover.locator("#sets .new-set"))
    expect(mover.locator("#sets .set .tile")).to_have_count(1)
    expect(mover.locator("#rack .tile")).to_have_count(13)
    # the server has checked the draft (its report is back); then a reaction the mover sends
    # reaches the other: whatever the server sent the other before it has arrived too
    mover.wait_for_function("() => window.__rummy.report !== null")
    mover.get_by_role("button", name="¡Bien jugado!").click()
    expect(other.locator("#presence")).to_contain_text("¡Bien jugado!")
    expect(other.locator("#sets .set .tile")).to_have_count(0)
    shot(mover, screenshots / "room-rummy-draft.png")
    # undo, then draw: the turn passes, and the other sees one more tile in the mover's count
    mover.locator("#undo").click()
    expect(mover.locator("#rack .tile")).to_have_count(14)
    mover.locator("#draw").click()
    expect(other.locator("#turn-label")).to_have_text("Te toca")
    expect(mover.locator("#rack .tile")).to_have_count(15)
    other.locator("#draw").click()
    expect(mover.locator("#turn-label")).to_have_text("Te toca")
    expect(other.locator("#rack .tile")).to_have_count(15)


def peaje_actor(pages: list[Page]) -> Page | None:
    """The phone that may act now (the first of them for a toll, which any may confirm)."""
    for page in pages:
        if page.evaluate(
            "() => { const t = window.__tapete; return !!t.view && !t.waiting"
            " && t.view.legal.length > 0; }"
        ):
            return page
    return None


def test_three_friends_play_el_peaje_turnos_rapidos_on_three_phones(
    browser: Any, server_url: str, screenshots: Path
) -> None:
    """RULES.md: «Turnos rápidos: each player's route on their own phone; everyone sees the
    current player's route live.» Three phones, one room, to the end and the rematch."""
    contexts: list[Any] = []
    try:
        for _ in range(3):
            contexts.append(
                browser.new_context(locale="es-ES", viewport=PHONE, has_touch=True, is_mobile=True)
            )
        pages = [c.new_page() for c in contexts]
        for p in pages:
            p.set_default_timeout(TIMEOUT)
        host, ana, luis = pages
        host.goto(f"{server_url}/peaje")
        expect(host.locator("#with-friends")).to_be_hidden()  # solitario: no room
        host.locator('input[name="variant"][value="rapidos"]').check()
        host.locator("#more").tap()
        expect(host.locator("#count-out")).to_have_text("3")
        host.get_by_role("button", name="Jugar con amigos").tap()
        expect(host).to_have_url(re.compile(r"/sala/\d{6}$"))
        link = host.url
        expect(host.locator("#seats li")).to_have_count(3)
        expect(host.locator("#bot-row")).to_be_hidden()  # El Peaje has no bots
        expect(host.get_by_role("button", name="Poner un bot")).to_have_count(0)
        for name, page in (("Ana", ana), ("Luis", luis)):
            page.goto(link)
            page.get_by_label("Tu nombre").fill(name)
            page.get_by_role("button", name="Sentarme").tap()
            expect(page.locator("#seats li.you")).to_contain_text(name)
        host.locator("#start").tap()
        for page in pages:
            expect(page.locator("#route .stop")).not_to_have_count(0)
        game = game_of(host)
        expect(host.locator("#who")).to_have_text("Te toca")
        expect(ana.locator("#who")).to_have_text("Turno de Anfitrión")
        expect(ana.locator("#answers button")).to_have_count(0)
        no_horizontal_scroll(ana, PHONE["width"])
        shot(host, screenshots / "room-peaje-host-turn.png")
        shot(ana, screenshots / "room-peaje-ana-watches.png")

        players_seen: set[int] = set()
        misses = 0
        for _ in range(600):
            synced(pages)  # (then a phone may act, or the game is over: no clock runs)
            if over(host):
                break
            before = version(host)
            actor = peaje_actor(pages)
            assert actor is not None, "no phone may act at El Peaje"
            state = view(actor)
            players_seen.add(state["current"])
            if state["phase"] == "answer":  # the player in turn answers on their own phone
                assert pages.index(actor) == state["current"]
                assert sum(1 for p in pages if p.locator("#answers button").count()) == 1
            misses += state["phase"] == "miss"
            if not actor.locator("#toll").is_hidden():
                actor.locator("#toll-ok").tap()
            else:
                actor.locator("#answers button").first.tap()
            for page in pages:
                page.wait_for_function("v => window.__tapete.version > v", arg=before)
            # everyone sees the current player's route, live
            routes = {p.locator("#route").inner_text() for p in pages}
            if not any(p.evaluate("() => window.__tapete.waiting") for p in pages):
                assert len(routes) == 1, routes
            if len(players_seen) == 2 and state["phase"] == "miss":
                shot(luis, screenshots / "room-peaje-after-a-miss.png")
        assert over(host), "the game did not end"
        # a miss passes the turn to the next phone (a run of hits may win before any miss)
        assert len(players_seen) >= min(3, misses + 1)
        for page in pages:
            expect(page.locator("#end")).to_be_visible()
        shot(ana, screenshots / "room-peaje-end.png")
        for page in pages:
            page.get_by_role("button", name="Revancha").tap()
        changed = (
            "g => { const el = document.querySelector('[data-game]');"
            " return !!el && el.dataset.game !== g; }"
        )
        for page in pages:
            page.wait_for_function(changed, arg=game, timeout=15_000)
        expect(ana.locator("#who")).to_have_text("Te toca")  # the next player starts
        no_horizontal_scroll(luis, PHONE["width"])
    finally:
        for c in contexts:
            c.close()


def test_el_peaje_dos_jugadores_one_phone_answers_the_other_validates(
    host: Page, phone: Page, watcher: Page, server_url: str, screenshots: Path
) -> None:
    """RULES.md: «Dos jugadores: one phone answers, the other reveals and marks
    acierto/fallo (the mark counts).» A watcher sees the table and no button."""
    host.goto(f"{server_url}/peaje")
    host.locator('input[name="variant"][value="dos"]').check()
    host.get_by_role("button", name="Jugar con amigos").click()
    expect(host).to_have_url(re.compile(r"/sala/\d{6}$"))
    link = host.url
    phone.goto(link)
    phone.get_by_label("Tu nombre").fill("Vera")
    phone.get_by_role("button", name="Sentarme").tap()
    # everyone reads what the host chose, the toll first; a change reaches them at once
    expect(phone.locator("#summary-toll")).to_have_text("un punto")
    expect(phone.locator("#summary")).to_contain_text("Sin reloj")
    host.locator("#clock").select_option("30")
    expect(phone.locator("#summary")).to_contain_text("30 s")
    no_horizontal_scroll(phone, PHONE["width"])
    shot(phone, screenshots / "room-peaje-lobby-phone.png", full=True)
    expect(host.locator("#start")).to_be_enabled()
    host.locator("#start").click()
    # the host answers aloud: no button on the host's screen; Vera reveals
    expect(host.locator("#who")).to_have_text("Te toca responder en voz alta")
    expect(host.locator("#prompt")).to_contain_text("Vera revela la carta en su móvil")
    expect(host.locator("#answers button")).to_have_count(0)
    expect(phone.locator("#who")).to_have_text("Anfitrión responde en voz alta")
    shot(phone, screenshots / "room-peaje-dos-validator.png")
    phone.get_by_role("button", name="Revelar").tap()
    expect(phone.get_by_role("button", name="Acierto")).to_be_visible()
    expect(host.locator("#who")).to_have_text("Vera valida")
    expect(host.locator("#answers button")).to_have_count(0)
    watcher.goto(link)
    expect(watcher.locator("#route .stop")).not_to_have_count(0)
    expect(watcher.locator("#answers button")).to_have_count(0)
    expect(host.locator("#watchers")).to_have_text("1 persona mirando")
    phone.get_by_role("button", name="Acierto").tap()  # the mark counts
    expect(host.locator("#toll")).to_be_visible()  # fácil: a toll after the first question
    expect(watcher.locator("#toll")).to_be_visible()
    expect(watcher.locator("#toll-ok")).to_be_hidden()
    shot(host, screenshots / "room-peaje-dos-toll-host.png")
    host.get_by_role("button", name="Sí, peaje cumplido").click()
    expect(phone.locator("#toll")).to_be_hidden()
    expect(phone.get_by_role("button", name="Revelar")).to_be_visible()
