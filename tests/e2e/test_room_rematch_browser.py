"""A private room around the end of a game, in real browsers: the rematch never waits for a
player who went (the end names whom it waits for, the one who went is played by a bot and
keeps the seat), the end dialog closes to show the final table and opens again, «Volver a
la sala» leads to the room where the host removes someone and lets them back, «Empezar
ya», and an invite opened on a phone asks for a name before anything else."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import PHONE, TIMEOUT, deal_room, inside_viewport, no_horizontal_scroll, shot, still
from playwright.sync_api import Page, expect
from servers import serve

pytestmark = pytest.mark.slow  # (whole games in several browsers: started first)

GRACE = 3
"""Seconds of grace on the server of the test that waits one out (45 s elsewhere)."""
CHANGED = (
    "g => { const el = document.querySelector('[data-game]');"
    " return !!el && el.dataset.game !== g; }"
)


@pytest.fixture(scope="module")
def short_grace_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A `tapete serve` of its own whose dropped players run out of grace in ``GRACE``
    seconds, bots at 15 % of their pace; its base URL."""
    flags = ["--test-api", "--bot-pace", "0.15", "--grace-seconds", str(GRACE)]
    flags += ["--limit", "games_per_minute_address=100000"]
    with serve(tmp_path_factory.mktemp("tapete-grace"), flags) as url:
        yield url


def contexts(browser: Any, sizes: list[dict[str, int]], locale: str = "es-ES") -> list[Any]:
    """A context for each size (the caller closes them; if one cannot be made, those made
    are closed here)."""
    out: list[Any] = []
    try:
        for size in sizes:
            phone = size == PHONE
            context = browser.new_context(
                locale=locale, viewport=size, has_touch=phone, is_mobile=phone,
                service_workers="block",
            )  # fmt: skip
            out.append(context)
            context.set_default_timeout(TIMEOUT)
    except BaseException:
        for context in out:
            context.close()
        raise
    return out


DESKTOP = {"width": 1280, "height": 800}


SHORT = {
    2: {"piles": ["KH QH JH 10H", "2C 3C 4C 5C"]},
    3: {"piles": ["KH QH JH 10H", "2C 3C 4C 5C", "6D 7D 8D 9D"]},
}
"""La guerra in four duels, each the host's: the room's games (``deal_room``) end in seconds."""


def make_room(host: Page, server_url: str, players: int = 2) -> str:
    """The host makes a La guerra room for ``players`` from the game's page, its games
    short (:data:`SHORT`); its link."""
    host.goto(f"{server_url}/guerra")
    host.locator(f'input[name="players"][value="{players}"]').check()
    host.get_by_role("button", name="Jugar con amigos").click()
    expect(host).to_have_url(re.compile(r"/sala/\d{6}$"))
    deal_room(host, server_url, host.url.rsplit("/", 1)[1], SHORT[players])
    return host.url


def sit(page: Page, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_label("Tu nombre").fill(name)
    page.get_by_role("button", name="Sentarme").click()
    expect(page.locator("#seats li.you")).to_contain_text(name)


def game_of(page: Page) -> str:
    value = page.locator("[data-game]").first.get_attribute("data-game")
    assert value
    return value


def autoplay_to_the_end(*pages: Page) -> None:
    for page in pages:
        page.locator("#speed").select_option("0")
        page.locator("#autoplay").check()
    for page in pages:
        expect(page.locator("#end")).to_be_visible(timeout=120_000)


def test_the_rematch_never_waits_for_one_who_went(
    browser: Any, short_grace_url: str, screenshots: Path
) -> None:
    """The issue: one closed the browser mid-game, the stand-in finished for them, the two
    others pressed «Revancha» and waited for ever. Now the end names whom it waits for, and
    the one who went is played by a bot, in a seat that stays theirs."""
    ctx = contexts(browser, [DESKTOP, PHONE, PHONE])
    try:
        host, ana, luis = (c.new_page() for c in ctx)
        link = make_room(host, short_grace_url, players=3)
        sit(ana, link, "Ana")
        sit(luis, link, "Luis")
        expect(host.locator("#start")).to_be_enabled()
        host.locator("#start").click()
        for page in (host, ana, luis):
            expect(page.locator("#turn")).to_be_visible()
        first = game_of(host)
        # Luis closes the browser mid-game, once his table is joined: a table is drawn from
        # its page before its socket joins, and a seat nobody has come to yet is on its way
        # for 10 s before its grace begins (tests/rooms/test_rematch.py), which this test
        # does not wait out
        still(luis)
        luis.close()
        expect(host.locator("#presence")).to_contain_text("Luis: reconectando…")
        expect(host.locator("#presence")).to_contain_text(
            "Luis: se fue · juega un bot", timeout=GRACE * 1000 + TIMEOUT
        )
        expect(host.locator("#presence")).not_to_contain_text("reconectando")
        shot(host, screenshots / "room-gone-presence-desktop.png")
        autoplay_to_the_end(host, ana)
        # the host asks: the end says it waits for Ana, not for Luis, who went
        host.get_by_role("button", name="Revancha").click()
        status = host.locator("#rematch-status")
        expect(status).to_contain_text("Esperando a: Ana")
        expect(status).to_contain_text("Luis se fue: jugará un bot hasta que vuelva.")
        expect(host.get_by_role("button", name="Revancha")).to_be_disabled()
        expect(host.get_by_role("button", name="Empezar ya")).to_be_visible()
        expect(ana.locator("#rematch-status")).to_contain_text("Quieren la revancha: Anfitrión")
        expect(ana.get_by_role("button", name="Empezar ya")).to_be_hidden()  # (the host's)
        shot(host, screenshots / "room-rematch-waiting-desktop.png")
        shot(ana, screenshots / "room-rematch-asked-phone.png")
        ana.get_by_role("button", name="Revancha").click()  # the last one here: it begins
        for page in (host, ana):
            page.wait_for_function(CHANGED, arg=first, timeout=15_000)
            expect(page.locator("#turn")).to_be_visible()
        # Luis's seat is his, played by a bot until he is back
        expect(host.locator("#presence")).to_contain_text("Luis: se fue · juega un bot")
        back = ctx[2].new_page()
        back.goto(link)
        expect(back.locator("#turn")).to_be_visible()
        expect(back.locator(".seat.me, #seats").first).to_be_visible()
        assert back.evaluate("() => window.__tapete.mySeat") is not None
        expect(host.locator("#presence")).not_to_contain_text("Luis")
        no_horizontal_scroll(back, PHONE["width"])
    finally:
        for c in ctx:
            c.close()


def test_the_end_closes_to_show_the_table_and_the_room_is_a_click_away(
    browser: Any, server_url: str, screenshots: Path
) -> None:
    ctx = contexts(browser, [DESKTOP, PHONE])
    try:
        host, luis = (c.new_page() for c in ctx)
        link = make_room(host, server_url)
        code = link.rsplit("/", 1)[1]
        sit(luis, link, "Luis")
        host.locator("#start").click()
        autoplay_to_the_end(host, luis)
        end, again = host.locator("#end"), host.locator("#end-open")
        expect(again).to_be_hidden()
        # Esc closes it: the final table, and a button to see the end again
        host.keyboard.press("Escape")
        expect(end).to_be_hidden()
        expect(again).to_be_visible()
        shot(host, screenshots / "room-end-closed-desktop.png")
        again.click()
        expect(end).to_be_visible()
        expect(again).to_be_hidden()
        host.get_by_role("button", name="Ver la mesa").click()  # the ×
        expect(end).to_be_hidden()
        luis.get_by_role("button", name="Ver la mesa").tap()
        expect(luis.locator("#end")).to_be_hidden()
        inside_viewport(luis, "#end-open")
        shot(luis, screenshots / "room-end-closed-phone.png")
        luis.locator("#end-open").tap()
        expect(luis.locator("#end")).to_be_visible()
        again.click()
        # a countdown that ran out before the server said more: «se fue», never «0 s»
        host.evaluate(
            """() => window.__tapete.presenceChanged({type: "presence", watchers: 0,
              standin: "bot", seats: [{seat: 1, connected: false, grace_ms: 0, bot: false,
              away: false}]})"""
        )
        expect(host.locator("#presence")).to_have_text("Luis: se fue")
        # no grace running: not at this table yet (a new game, the page on its way): nothing
        host.evaluate(
            """() => window.__tapete.presenceChanged({type: "presence", watchers: 0,
              standin: "bot", seats: [{seat: 1, connected: false, grace_ms: null, bot: false,
              away: false}]})"""
        )
        expect(host.locator("#presence li")).to_have_count(0)
        # the host asks for the rematch; then goes back to the room instead
        host.get_by_role("button", name="Revancha").click()
        expect(host.locator("#rematch-status")).to_have_text("Esperando a: Luis")
        expect(host.get_by_role("button", name="Empezar ya")).to_be_visible()
        host.get_by_role("link", name="Volver a la sala").click()
        expect(host).to_have_url(f"{server_url}/sala/{code}?vista=sala")
        between = host.locator("#between")
        expect(between).to_contain_text("La partida ha terminado")
        expect(between).to_contain_text("Esperando a: Luis")
        expect(host.locator("#start")).to_have_text("Empezar ya")
        shot(host, screenshots / "room-between-host-desktop.png", full=True)
        # the host removes Luis; Luis, in the room, may watch but not sit
        host.locator("#seats li").nth(1).get_by_role("button", name="Quitar").click()
        expect(host.locator("#removed")).to_contain_text("Luis")
        luis.get_by_role("link", name="Volver a la sala").tap()
        removed = luis.locator("#you-removed")
        expect(removed).to_have_text("El anfitrión te ha quitado de esta sala.")
        inside_viewport(luis, "#you-removed")
        expect(luis.locator("#sit")).to_be_hidden()
        shot(luis, screenshots / "room-removed-phone.png")
        shot(host, screenshots / "room-removed-host-desktop.png", full=True)
        # «Dejar volver»: he sits again; the host starts the next game at once
        host.get_by_role("button", name="Dejar volver").click()
        expect(host.locator("#removed-box")).to_be_hidden()
        expect(luis.locator("#sit")).to_be_visible()
        expect(removed).to_be_hidden()
        luis.get_by_label("Tu nombre").fill("Luis")
        luis.get_by_role("button", name="Sentarme").tap()
        expect(luis.locator("#seats li.you")).to_contain_text("Luis")
        expect(luis.get_by_role("button", name="Revancha")).to_be_visible()
        no_horizontal_scroll(luis, PHONE["width"])
        shot(luis, screenshots / "room-between-phone.png", full=True)
        host.locator("#start").click()
        for page in (host, luis):
            expect(page).to_have_url(f"{server_url}/sala/{code}")
            expect(page.locator("#turn")).to_be_visible()
        assert luis.evaluate("() => window.__tapete.mySeat") is not None
    finally:
        for c in ctx:
            c.close()


def test_the_end_in_english(browser: Any, server_url: str, screenshots: Path) -> None:
    ctx = contexts(browser, [DESKTOP, PHONE], locale="en-GB")
    try:
        host, luis = (c.new_page() for c in ctx)
        host.goto(f"{server_url}/?lang=en")
        luis.goto(f"{server_url}/?lang=en")
        host.goto(f"{server_url}/guerra")
        host.get_by_role("button", name="Play with friends").click()
        expect(host).to_have_url(re.compile(r"/sala/\d{6}$"))
        deal_room(host, server_url, host.url.rsplit("/", 1)[1], SHORT[2])
        luis.goto(host.url)
        luis.get_by_label("Your name").fill("Luis")
        luis.get_by_role("button", name="Take a seat").click()
        expect(host.locator("#start")).to_be_enabled()
        host.locator("#start").click()
        autoplay_to_the_end(host, luis)
        host.get_by_role("button", name="Rematch").click()
        expect(host.locator("#rematch-status")).to_have_text("Waiting for: Luis")
        expect(host.get_by_role("button", name="Start now")).to_be_visible()
        expect(host.get_by_role("link", name="Back to the room")).to_be_visible()
        shot(host, screenshots / "room-rematch-waiting-desktop-en.png")
        expect(luis.locator("#rematch-status")).to_contain_text("Rematch wanted by")
        shot(luis, screenshots / "room-rematch-asked-phone-en.png")
        luis.keyboard.press("Escape")
        expect(luis.get_by_role("button", name="See the result")).to_be_visible()
        shot(luis, screenshots / "room-end-closed-phone-en.png")
        host.get_by_role("link", name="Back to the room").click()
        expect(host.locator("#between")).to_contain_text("The game is over")
        expect(host.locator("#between")).to_contain_text("Waiting for: Luis")
        expect(host.locator("#start")).to_have_text("Start now")
        expect(host.locator("#seats li").first).to_contain_text("wants a rematch")
        shot(host, screenshots / "room-between-host-desktop-en.png", full=True)
    finally:
        for c in ctx:
            c.close()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_an_invite_on_a_phone_asks_for_a_name_first(
    desktop: Page, phone: Page, server_url: str, screenshots: Path, lang: str
) -> None:
    desktop.goto(f"{server_url}/onecard?lang={lang}")
    friends = {"es": "Jugar con amigos", "en": "Play with friends"}[lang]
    desktop.get_by_role("button", name=friends).click()
    expect(desktop).to_have_url(re.compile(r"/sala/\d{6}$"))
    phone.goto(f"{desktop.url}?lang={lang}")
    inside_viewport(phone, "#sit")  # on arrival, no scrolling: the name and the button
    sit_button = phone.locator("#sit-button")
    expect(sit_button).to_be_visible()
    inside_viewport(phone, "#sit-button")
    shot(phone, screenshots / f"room-invite-phone-{lang}.png")
    name = phone.locator("#name")
    name.click()
    phone.keyboard.type("Mar")
    # someone else opens the link meanwhile: the room changes under her fingers, her typing
    # goes on where it was
    other = desktop.context.browser.new_context(locale="es-ES")  # type: ignore[union-attr]
    try:
        other.new_page().goto(desktop.url)
        expect(phone.locator("#watchers")).to_contain_text("2")
        expect(name).to_be_focused()
        phone.keyboard.type("ta")
        expect(name).to_have_value("Marta")
    finally:
        other.close()
    sit_button.click()
    expect(phone.locator("#seats li.you")).to_contain_text("Marta")
    # seated: the room as before, the form (to change the name) below the seats
    assert phone.evaluate(
        "() => document.getElementById('seats-section').nextElementSibling.id === 'sit'"
    )
    shot(phone, screenshots / f"room-invite-seated-phone-{lang}.png", full=True)
