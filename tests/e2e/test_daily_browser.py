"""The deal of the day («Reto del día») in a real browser: a new player on a phone plays
the day's El Peaje to its end and finds their place in the day's table; another player, on
a laptop and in English, sees it there; the page at 390×844 and 1280×800, audited."""

from __future__ import annotations

import re
from pathlib import Path

from browser import TIMEOUT, no_horizontal_scroll, shot, still
from playwright.sync_api import Page, expect

expect.set_options(timeout=TIMEOUT)


def play_to_the_end(page: Page) -> None:
    """Answer El Peaje's questions (the first answer each time) and count the tolls until
    the route ends."""
    end = page.locator("#end")
    for _ in range(400):
        still(page)
        if end.is_visible():
            return
        toll = page.locator("#toll-ok")
        if toll.is_visible():
            toll.tap()
        else:
            page.locator("#answers .btn").first.tap()
    raise AssertionError("the route did not end")


def test_a_new_player_plays_the_days_deal_and_finds_their_place(
    phone: Page, desktop: Page, server_url: str, screenshots: Path
) -> None:
    page = phone
    page.goto(f"{server_url}/reto")
    expect(page.locator("h1")).to_have_text("Reto del día")
    expect(page.locator(".streak")).to_have_text("Juega hoy y empieza tu racha de días.")
    expect(page.locator("section.daily-deal")).to_have_count(4)
    no_horizontal_scroll(page)
    shot(page, screenshots / "daily-phone.png", full=True)

    page.get_by_role("button", name="Jugar el reto de El Peaje").tap()
    page.wait_for_url(re.compile(r"/partida/[^/?#]+$"))
    game = page.url.rsplit("/", 1)[1]
    expect(page.locator(".dailybar")).to_contain_text("Reto del día")
    shot(page, screenshots / "daily-phone-table.png")
    play_to_the_end(page)
    back = page.locator("#end #again")
    expect(back).to_have_text("Ver tu puesto en el reto")
    # the game earned logros: the end dialog shows them, the screen reader hears them
    logros = page.locator("#end-logros")
    expect(logros).to_be_visible()
    expect(logros).to_contain_text("Primer reto")
    expect(page.locator("#announce")).to_contain_text("Primer reto")
    shot(page, screenshots / "daily-phone-end.png")
    back.tap()

    page.wait_for_url(f"{server_url}/reto")
    peaje = page.locator('section.daily-deal[data-daily="peaje"]')
    expect(peaje.locator(".you-place")).to_contain_text("puesto 1.º de 1")
    expect(peaje.locator("tr.you")).to_contain_text("(tú)")
    expect(peaje.get_by_role("link", name="Ver tu partida")).to_have_attribute(
        "href", f"/partida/{game}/repeticion"
    )
    expect(peaje.locator("form")).to_have_count(0)  # (one attempt a day)
    expect(page.locator(".streak")).to_have_text("Llevas 1 día seguido jugando el reto.")
    no_horizontal_scroll(page)
    shot(page, screenshots / "daily-phone-played.png", full=True)

    # another player, on a laptop and in English: the same deal to play, the first one's
    # result in the day's table under their public name
    other = desktop
    other.goto(f"{server_url}/reto?lang=en")
    expect(other.locator("h1")).to_have_text("Daily challenge")
    theirs = other.locator('section.daily-deal[data-daily="peaje"]')
    expect(theirs.get_by_role("button", name="Play the El Peaje challenge")).to_be_visible()
    expect(theirs.locator("caption")).to_have_text("Today: 1 try")
    expect(theirs.locator("tbody tr")).to_have_count(1)
    expect(theirs.locator("tbody tr")).to_contain_text(re.compile(r"\d+ miss(es)?"))
    shot(other, screenshots / "daily-desktop-en.png", full=True)

    # the first player's logros: the one the deal earned, among all of them
    page.goto(f"{server_url}/logros")
    expect(page.locator('[data-logro="hall.reto"]')).to_have_class(re.compile(r"\bearned\b"))
    expect(page.locator('[data-logro="onecard.diez"] .logro-state')).to_have_text(
        "Progreso: 0 / 10"
    )
    no_horizontal_scroll(page)
    shot(page, screenshots / "logros-phone.png", full=True)
