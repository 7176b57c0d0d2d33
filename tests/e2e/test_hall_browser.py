"""The hall as a first-time visitor sees it: in the browser's language (Spanish or English),
switching language and keeping the choice, «Reglas» going where it should, and no keyboard
hints on a touch-only phone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import PHONE, TIMEOUT, no_horizontal_scroll, shot
from playwright.sync_api import Page, expect


@pytest.fixture
def english(browser: Any) -> Iterator[Page]:
    """A desktop browser whose language is English."""
    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 800})
    context.set_default_timeout(TIMEOUT)
    try:
        yield context.new_page()
    finally:
        context.close()


def test_an_english_browser_gets_the_hall_in_english(
    english: Page, server_url: str, screenshots: Path
) -> None:
    english.goto(server_url + "/")
    expect(english.locator("html")).to_have_attribute("lang", "en")
    expect(english.locator("h1")).to_have_text("Card games in your browser")
    games = english.locator(".games")
    for title in ("War", "One Card", "Tile Rummy", "El Peaje"):
        expect(games.get_by_role("heading", name=title, exact=True)).to_be_visible()
    boards = english.locator(".boards")  # (each rated game's week: nobody yet here)
    expect(boards.get_by_role("heading", level=2)).to_have_text("This week's best")
    expect(boards.get_by_role("heading", level=3)).to_have_text(["One Card", "Tile Rummy"])
    expect(english.get_by_role("link", name="Play", exact=True)).to_have_count(4)
    shot(english, screenshots / "desktop-hall-en.png", full=True)
    # the header's «Rules» goes to the rules of every game here, of the game on its page
    english.get_by_role("navigation").get_by_role("link", name="Rules").click()
    expect(english).to_have_url(f"{server_url}/reglas")
    expect(english.get_by_role("link", name="Rules of Tile Rummy")).to_be_visible()
    english.goto(server_url + "/onecard")
    english.get_by_role("navigation").get_by_role("link", name="Rules").click()
    expect(english).to_have_url(f"{server_url}/reglas/onecard")


def test_switching_language_is_remembered(english: Page, server_url: str) -> None:
    english.goto(server_url + "/")
    english.get_by_role("link", name="Español").click()
    expect(english.locator("html")).to_have_attribute("lang", "es")
    expect(english.locator("h1")).to_have_text("Juegos de cartas en tu navegador")
    english.goto(server_url + "/reglas")  # no ?lang: the cookie decides, not the browser
    expect(english.locator("html")).to_have_attribute("lang", "es")
    english.get_by_role("link", name="English").click()
    expect(english.locator("h1")).to_have_text("The rules of the games")


@pytest.mark.console_errors(r"status of 404 \(Not Found\) @ http://[\d.:]+/no-such-page$")
def test_a_missing_page_says_so_in_english(english: Page, server_url: str) -> None:
    response = english.goto(server_url + "/no-such-page")
    assert response is not None and response.status == 404
    expect(english.locator("h1")).to_have_text("We couldn't find it")
    expect(english.get_by_role("link", name="Back to the hall")).to_be_visible()


def test_no_keyboard_hints_on_a_touch_phone(
    phone: Page, server_url: str, screenshots: Path
) -> None:
    phone.goto(server_url + "/guerra")
    phone.get_by_role("button", name="Empezar partida").click()
    expect(phone.locator("#turn")).to_be_visible()
    expect(phone.locator(".keyhint")).to_be_hidden()
    no_horizontal_scroll(phone, PHONE["width"])
    shot(phone, screenshots / "phone-guerra-no-keyhint.png")


def test_keyboard_hints_on_a_laptop(page: Page, server_url: str) -> None:
    page.goto(server_url + "/guerra")
    page.get_by_role("button", name="Empezar partida").click()
    expect(page.locator(".keyhint")).to_be_visible()
