"""The fair deck in a real browser: a La guerra game shows its commitment in the footer from
the start; played to the end, its «¿Qué es esto?» page reveals the seed, and the browser's own
SHA-256 (Web Crypto) says it matches; the history links the same check."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from browser import PHONE, no_horizontal_scroll, shot
from playwright.sync_api import Page, expect
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
    commitment = page.locator("#commitment").inner_text()
    assert commitment.startswith(start)
    text = page.locator("#preimage").inner_text()
    assert hashlib.sha256(text.encode()).hexdigest() == commitment
    shot(page, screenshots / "desktop-fairness.png", full=True)
    # the history links it
    page.goto(server_url + "/historial")
    page.get_by_role("link", name="Comprobar la baraja").first.click()
    expect(page).to_have_url(f"{server_url}/partida/{game}/justa")
    # a phone opening the page of that game sees it fit
    phone.goto(f"{server_url}/partida/{game}/justa")
    expect(phone.locator("#verdict")).to_have_attribute("data-ok", "yes")
    no_horizontal_scroll(phone, PHONE["width"])
    shot(phone, screenshots / "phone-fairness.png", full=True)
