"""The fair deck in a real browser: a La guerra game shows its commitment in the footer from
the start; played to the end, its «¿Qué es esto?» page reveals the seed, and the browser's own
SHA-256 (Web Crypto) says it matches; the history links the same check."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from browser import PHONE, no_horizontal_scroll, shot
from playwright.sync_api import Page, Route, expect
from test_guerra_browser import autoplay_to_end, start_game


def test_the_commitment_from_the_start_matches_the_seed_at_the_end(
    page: Page, phone: Page, server_url: str, screenshots: Path
) -> None:
    url = start_game(page, server_url)
    game = url.rsplit("/", 1)[1]
    footer = page.locator(".fair code")
    expect(footer).to_be_visible()
    start = footer.inner_text().rstrip("…")
    assert re.fullmatch(r"[0-9a-f]{16}", start), start
    # before the end, the page says the seed will come, and shows none
    page.goto(f"{server_url}/partida/{game}/justa")
    expect(page.locator(".done")).to_contain_text("cuando termine la partida")
    expect(page.locator("#seed")).to_have_count(0)
    page.goto(url)
    autoplay_to_end(page)
    page.locator("#end-fair").click()  # (the end dialog links the check)
    expect(page).to_have_url(f"{server_url}/partida/{game}/justa")
    expect(page.locator("#verdict")).to_have_text(
        "Coincide: la huella del principio es la de esta semilla."
    )
    assert page.locator("#verdict").get_attribute("data-ok") == "yes"
    # the deal, redone here: the browser's shuffle gives both piles as the game dealt them
    expect(page.locator("#deal-verdict")).to_have_attribute("data-ok", "yes")
    expect(page.locator("#redo li.ok")).to_have_count(2)
    expect(page.locator("#redo li").first).to_contain_text("Tu montón")
    commitment = page.locator("#commitment").inner_text()
    assert commitment.startswith(start)
    text = page.locator("#preimage").inner_text()
    assert hashlib.sha256(text.encode()).hexdigest() == commitment
    shot(page, screenshots / "desktop-fairness.png", full=True)
    # the history links it
    page.goto(server_url + "/historial")
    page.get_by_role("link", name="Comprobar la baraja").first.click()
    expect(page).to_have_url(f"{server_url}/partida/{game}/justa")
    # the player's phone (the same guest: only those who sat at it see the deal) sees it fit
    phone.context.add_cookies(
        [
            {"name": c["name"], "value": c["value"], "url": server_url}
            for c in page.context.cookies()
        ]
    )
    phone.goto(f"{server_url}/partida/{game}/justa")
    expect(phone.locator("#verdict")).to_have_attribute("data-ok", "yes")
    no_horizontal_scroll(phone, PHONE["width"])
    shot(phone, screenshots / "phone-fairness.png", full=True)


def test_a_deal_that_is_not_the_seeds_is_caught_in_the_browser(page: Page, server_url: str) -> None:
    """The page's own check, not the server's word: the same page with two cards of one pile
    the other way round (as a server that changed the deal would send it) says so."""
    url = start_game(page, server_url)
    game = url.rsplit("/", 1)[1]
    autoplay_to_end(page)
    fair = page.request.get(f"{server_url}/api/partidas/{game}/justa").json()
    pile = fair["redo"]["parts"][1]["cards"]
    swapped = json.dumps([pile[1], pile[0], *pile[2:]], ensure_ascii=False)
    original = json.dumps(pile, ensure_ascii=False)

    def tamper(route: Route) -> None:
        body = route.fetch().text()
        assert original in body
        route.fulfill(body=body.replace(original, swapped), content_type="text/html")

    page.route(f"{server_url}/partida/{game}/justa", tamper)
    page.goto(f"{server_url}/partida/{game}/justa")
    expect(page.locator("#deal-verdict")).to_have_attribute("data-ok", "no")
    expect(page.locator("#deal-verdict")).to_have_text(
        "No coincide: este reparto no es el que da la semilla."
    )
    expect(page.locator("#redo li.bad")).to_have_count(1)
    expect(page.locator("#verdict")).to_have_attribute("data-ok", "yes")  # (the seed is right)
