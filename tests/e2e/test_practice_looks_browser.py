"""What a player bought in the shop shows in their own practice games against bots, not
only among friends: La guerra's face-down piles and played cards of their own wear their
card back, with their avatar beside their name; a One Card table knows it for their seat."""

from __future__ import annotations

import re
from pathlib import Path

from browser import PHONE, looks, no_horizontal_scroll, shot
from playwright.sync_api import Page, expect
from test_guerra_browser import start_game
from test_onecard_browser import start_from_setup
from test_shop_browser import cat_with_coins


def bought_azulejo(page: Page, server_url: str) -> None:
    """The cat avatar, and the «Azulejo» card back bought with the day's coins (worn)."""
    cat_with_coins(page, server_url)
    page.goto(server_url + "/tienda")
    page.get_by_role("button", name="Comprar Azulejo por 20 monedas").click()
    expect(page.locator('.item[data-item="azulejo"]')).to_have_class(re.compile("equipped"))


def test_a_bought_back_is_on_the_players_own_cards_in_practice(
    phone: Page, server_url: str, screenshots: Path
) -> None:
    page = phone
    bought_azulejo(page, server_url)

    start_game(page, server_url)
    expect(page.locator(".seat.me .pile .card.back").first).to_be_visible()
    mine = looks(page, ".seat.me .pile .card.back", "backgroundImage")
    assert mine and all("cos-azulejo" in b["class"] for b in mine), mine
    # (the Azulejo pattern, drawn by cosmetics.css)
    assert all("radial-gradient" in b["backgroundImage"] for b in mine), mine
    expect(page.locator(".seat:not(.me) .pile .card.back").first).to_be_visible()
    theirs = looks(page, ".seat:not(.me) .pile .card.back")
    assert theirs and not any("cos-" in b["class"] for b in theirs), theirs
    expect(page.locator(".seat.me .seat-avatar .avatar-gato")).to_have_count(1)
    no_horizontal_scroll(page, PHONE["width"])
    shot(page, screenshots / "phone-guerra-practice-back.png")

    start_from_setup(page, server_url)
    worn = page.evaluate("() => window.__tapete.seats[window.__tapete.mySeat].worn")
    assert worn["back"] == "azulejo" and worn["avatar"] == "gato", worn
