"""A player's own place, the whole story (issue 13's «Done when»), in real browsers with the
e-mail through a real SMTP server: Ana plays a game as a guest on a laptop, links her
address with the code the mail server received, claims the day's coins, buys and wears a
card back that Marta, on her phone, sees on Ana's cards in a private room; Ana clears her
browser (a new guest, nothing of hers), recovers the account by e-mail on another phone with
everything there — coins, the back she wears, both games — and opens the finished game's
replay and checks its shuffle there."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import PHONE, TIMEOUT, looks, no_horizontal_scroll, shot, view
from playwright.sync_api import Page, expect
from test_guerra_browser import autoplay_to_end, start_game
from test_shop_browser import room_of, sit

from tests.mailbox import Inbox

pytestmark = pytest.mark.slow  # (whole games in several browsers: started first)


@pytest.fixture
def other_phone(browser: Any) -> Iterator[Page]:
    """Another browser altogether, on a phone (nothing of the laptop's)."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="es-ES")
    context.set_default_timeout(TIMEOUT)
    try:
        yield context.new_page()
    finally:
        context.close()


def test_guest_links_pays_wears_loses_recovers_and_checks_a_game(
    desktop: Page,
    phone: Page,
    other_phone: Page,
    server_url: str,
    mail: Inbox,
    screenshots: Path,
) -> None:
    ana, marta, later = desktop, phone, other_phone
    address = "ana.story@example.com"

    # a game as a guest, to its end
    url = start_game(ana, server_url)
    game = url.rsplit("/", 1)[1]
    autoplay_to_end(ana)

    # her e-mail, linked with the code that came through SMTP
    ana.goto(server_url + "/perfil")
    ana.get_by_label("Nombre en las salas").fill("Ana")
    ana.get_by_role("button", name="Guardar").click()
    expect(ana.get_by_role("heading", level=1)).to_have_text("Ana")  # (the page, saved)
    sent = len(mail.messages)
    ana.locator("#mail-form").get_by_label("Dirección de correo").fill(address)
    ana.locator("#mail-form").get_by_role("button", name="Enviarme un código").click()
    expect(ana.locator("#status")).to_contain_text(f"Te hemos enviado un código a {address}")
    ana.get_by_label("Código de seis cifras").first.fill(mail.code(sent + 1))
    ana.get_by_role("button", name="Vincular").click()
    expect(ana.locator("#mail-title + p")).to_contain_text(f"Vinculado a {address}")

    # the day's coins (a second claim: «vuelve mañana», nothing more)
    ana.get_by_role("button", name="Recoger las monedas de hoy").click()
    expect(ana.locator("#coins")).to_have_text("20")
    again = ana.request.post(f"{server_url}/api/monedas/diario")
    assert again.status == 409 and "next" in again.json()
    ana.reload()
    expect(ana.locator("#coins")).to_have_text("20")

    # a card back bought and worn
    ana.goto(server_url + "/tienda")
    ana.get_by_role("button", name="Comprar Azulejo por 20 monedas").click()
    expect(ana.locator('.item[data-item="azulejo"]')).to_have_class(re.compile("equipped"))
    expect(ana.locator("#coins")).to_have_text("0")

    # Marta, on her phone, sees it on Ana's cards in a private room
    code = room_of(ana, server_url, "onecard")
    marta.goto(server_url + "/")  # (the code, typed in the hall)
    marta.locator("form.join").get_by_label("Código de seis cifras").fill(code)
    marta.locator("form.join").get_by_role("button", name="Unirse").click()
    expect(marta).to_have_url(f"{server_url}/sala/{code}")
    sit(marta, "Marta")
    expect(ana.locator("#start")).to_be_enabled()
    ana.locator("#start").click()
    expect(marta.locator(".hand .card")).to_have_count(7)
    expect(marta.locator(".opp .card.back").first).to_be_visible()
    backs = looks(marta, ".opp .card.back")
    assert backs and all("cos-azulejo" in b["class"] for b in backs), backs
    expect(marta.locator(".opp .opp-who strong")).to_have_text("Ana")
    shot(marta, screenshots / "phone-story-friend-sees-back.png")

    # Ana clears her browser: a new guest, with nothing of hers
    ana.context.clear_cookies()
    ana.goto(server_url + "/perfil")
    expect(ana.get_by_role("heading", level=1)).to_have_text("Invitado")
    expect(ana.locator("#coins")).to_have_text("0")
    expect(ana.locator(".warn")).to_contain_text("vive solo en este navegador")

    # and recovers it on another phone: everything is there
    later.goto(server_url + "/perfil")
    sent = len(mail.messages)
    later.locator("#recover-form").get_by_label("Dirección de correo").fill(address)
    later.locator("#recover-form").get_by_role("button", name="Enviarme un código").click()
    later.locator("#recover-code").fill(mail.code(sent + 1))
    later.get_by_role("button", name="Recuperar", exact=True).click()
    expect(later.get_by_role("heading", level=1)).to_have_text("Ana")
    expect(later.locator("#coins")).to_have_text("0")
    expect(later.locator("#mail-title + p")).to_contain_text(address)
    account = later.request.get(f"{server_url}/api/cuenta").json()
    assert account["equipped"]["back"] == "azulejo" and account["email_linked"] is True
    later.goto(server_url + "/tienda")
    expect(later.locator('.item[data-item="azulejo"]')).to_have_class(re.compile("equipped"))
    later.goto(server_url + "/historial")
    rows = later.locator(".game-row")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("One Card")
    expect(rows.first).to_contain_text("Marta")
    expect(rows.nth(1)).to_contain_text("La guerra")
    no_horizontal_scroll(later, PHONE["width"])
    shot(later, screenshots / "phone-story-history.png", full=True)

    # the finished game's replay, from the history, on the phone
    rows.nth(1).get_by_role("link", name="Ver la repetición").click()
    expect(later).to_have_url(f"{server_url}/partida/{game}/repeticion?asiento=0&paso=0")
    expect(later.locator("#replay-step")).to_contain_text("El reparto")
    later.locator("#replay-last").click()
    expect(later.locator("#end")).to_be_visible()
    assert view(later)["result"] is not None
    later.locator("#again").click()  # «Ver la mesa»
    later.locator("#replay-prev").click()
    assert view(later)["result"] is None
    no_horizontal_scroll(later, PHONE["width"])
    shot(later, screenshots / "phone-story-replay.png")

    # and its shuffle, checked in the browser
    later.locator(".replay-fair").click()
    expect(later).to_have_url(f"{server_url}/partida/{game}/justa")
    expect(later.locator("#verdict")).to_have_attribute("data-ok", "yes")
    expect(later.locator("#deal-verdict")).to_have_attribute("data-ok", "yes")
    expect(later.locator("#redo li.ok")).to_have_count(2)
    expect(later.locator("#redo li").first).to_contain_text("Tu montón")  # (her own seat)
    no_horizontal_scroll(later, PHONE["width"])
    shot(later, screenshots / "phone-story-fair.png", full=True)

    # the replay at 1280×800 too, as the same account (its cookie: a second code for the same
    # address within 30 s is not sent, by design)
    cookies = later.context.cookies()
    ana.context.add_cookies(
        [{"name": c["name"], "value": c["value"], "url": server_url} for c in cookies]
    )
    ana.goto(f"{server_url}/partida/{game}/repeticion?paso=5")
    expect(ana.locator("#replay-step")).to_contain_text("Jugada 5 de")
    expect(ana.locator("#replay-seat")).to_have_value("0")
    shot(ana, screenshots / "desktop-story-replay.png")
