"""The player's own place in a real browser, with the e-mail going through a real SMTP server:
a guest claims the day's coins, names themselves and picks an avatar, links an address with
the code the mail server received (a wrong code first: a clear error, nothing linked); then,
on a phone as another browser, recovers that account by e-mail and finds everything there."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser import PHONE, no_horizontal_scroll, shot
from playwright.sync_api import Page, expect

from tests.mailbox import Inbox


@pytest.mark.console_errors(  # (a wrong code: refused)
    r"status of 400 \(Bad Request\) @ http://[\d.:]+/api/cuenta/correo/confirmar$"
)
def test_link_an_address_then_recover_the_account_on_a_phone(
    desktop: Page, phone: Page, server_url: str, mail: Inbox, screenshots: Path
) -> None:
    address = "ana.e2e@example.com"
    page = desktop
    page.goto(server_url + "/")
    page.get_by_role("navigation").get_by_role("link", name="Perfil").click()
    expect(page).to_have_url(f"{server_url}/perfil")
    expect(page.locator(".warn")).to_contain_text("vive solo en este navegador")
    expect(page.locator("#coins")).to_have_text("0")
    shot(page, screenshots / "desktop-profile-new.png", full=True)

    # the day's coins
    page.get_by_role("button", name="Recoger las monedas de hoy").click()
    expect(page.locator("#coins")).to_have_text("20")
    expect(page.locator("#daily-done")).to_contain_text("vuelve mañana")
    expect(page.locator(".day.claimed")).to_have_count(1)

    # a name and an avatar
    page.get_by_label("Nombre en las salas").fill("Ana")
    page.locator(".avatar-choice", has_text="Luna").click()
    page.get_by_role("button", name="Guardar").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ana")

    # an address, a wrong code, then the right one
    sent = len(mail.messages)
    page.locator("#mail-form").get_by_label("Dirección de correo").fill(address)
    page.locator("#mail-form").get_by_role("button", name="Enviarme un código").click()
    expect(page.locator("#status")).to_contain_text(f"Te hemos enviado un código a {address}")
    code = mail.code(sent + 1)
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    page.get_by_label("Código de seis cifras").first.fill(wrong)
    page.get_by_role("button", name="Vincular").click()
    expect(page.locator("#status")).to_contain_text("Ese código no es correcto")
    expect(page.locator(".warn")).to_be_visible()  # (nothing linked)
    page.get_by_label("Código de seis cifras").first.fill(code)
    page.get_by_role("button", name="Vincular").click()
    expect(page.locator("#mail-title + p")).to_contain_text(f"Vinculado a {address}")
    shot(page, screenshots / "desktop-profile-linked.png", full=True)

    # another browser, on a phone: recover the account
    phone.goto(server_url + "/perfil")
    expect(phone.locator("#coins")).to_have_text("0")
    no_horizontal_scroll(phone, PHONE["width"])
    shot(phone, screenshots / "phone-profile-new.png", full=True)
    sent = len(mail.messages)
    phone.locator("#recover-form").get_by_label("Dirección de correo").fill(address)
    phone.locator("#recover-form").get_by_role("button", name="Enviarme un código").click()
    expect(phone.locator("#recover-code-form")).to_be_visible()
    recovery = mail.wait(sent + 1)
    assert recovery["To"] == address and "Recupera" in recovery["Subject"]
    phone.locator("#recover-code").fill(mail.code(sent + 1))
    phone.get_by_role("button", name="Recuperar", exact=True).click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Ana")
    expect(phone.locator("#coins")).to_have_text("20")
    expect(phone.locator("#daily-done")).to_be_visible()
    expect(phone.locator("input[name=avatar][value=luna]")).to_be_checked()
    expect(phone.locator("#mail-title + p")).to_contain_text(address)
    no_horizontal_scroll(phone, PHONE["width"])
    shot(phone, screenshots / "phone-profile-recovered.png", full=True)

    # the first browser keeps working, as the same account
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ana")

    # the data, downloaded; then the account deleted from the phone
    data = phone.request.get(f"{server_url}/api/cuenta/datos").json()
    assert data["account"]["email"] == address and data["account"]["coins"] == 20
    phone.goto(server_url + "/perfil")
    phone.get_by_role("button", name="Borrar mi cuenta").click()  # (not confirmed: nothing)
    expect(phone.get_by_role("heading", level=1)).to_have_text("Ana")
    phone.get_by_label("Entiendo que se borran para siempre").check()
    phone.get_by_role("button", name="Borrar mi cuenta").click()
    expect(phone).to_have_url(f"{server_url}/")
    phone.goto(server_url + "/perfil")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Invitado")
    expect(phone.locator("#coins")).to_have_text("0")
    expect(phone.locator(".warn")).to_be_visible()
