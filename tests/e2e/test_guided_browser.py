"""The guided first game of each game in a real browser: a newcomer finds it first on the
game's page, the table says what to do and why, the next step comes after each move, a
screen reader hears each one, and the guide can be skipped with the keyboard. At 390×844
and 1280×800, in Spanish and English; screenshots looked at."""

from __future__ import annotations

from pathlib import Path

from browser import TIMEOUT, accessible, no_horizontal_scroll, shot, still
from playwright.sync_api import Page, expect

expect.set_options(timeout=TIMEOUT)


def start(page: Page, server_url: str, kind: str, lang: str, first: str, play: str) -> None:
    page.goto(f"{server_url}/{kind}?lang={lang}")
    offer = page.locator(".guided-offer.first")
    expect(offer).to_contain_text(first)
    offer.get_by_role("button", name=play).click()
    page.wait_for_url("**/partida/*")
    still(page)


def guide(page: Page) -> str:
    return page.locator("#guide-text").inner_text()


def test_a_newcomer_learns_one_card_on_a_phone(
    phone: Page, server_url: str, screenshots: Path
) -> None:
    page = phone
    start(page, server_url, "onecard", "es", "¿Es tu primera vez?", "Jugar la partida guiada")
    box = page.locator("#guide")
    expect(box).to_be_visible()
    expect(page.locator("#guide-text")).to_have_text(
        "Sobre el cinco de tréboles puedes echar una carta de tréboles o un cinco. Tu 7 sirve: "
        "al echarlo eliges el palo que sigue."
    )
    expect(page.locator("#announce")).to_contain_text("Sobre el cinco de tréboles")
    no_horizontal_scroll(page)
    accessible(page, "a guided One Card game")
    shot(page, screenshots / "guided-onecard-phone.png")
    page.locator('#hand .card[data-code="5H"]').tap()
    expect(page.locator("#guide-text")).not_to_contain_text("Sobre el cinco de tréboles")
    said = guide(page)
    expect(page.locator("#announce")).to_contain_text(said)
    # skipped with the keyboard: it goes, and says so
    page.locator("#guide-skip").focus()
    page.keyboard.press("Enter")
    expect(box).to_be_hidden()
    expect(page.locator("#announce")).to_contain_text("Guía desactivada")
    page.reload()
    still(page)
    expect(box).to_be_hidden()  # (skipped for this game, on this device)


def test_a_newcomer_learns_rummy_on_a_laptop_in_english(
    desktop: Page, server_url: str, screenshots: Path
) -> None:
    page = desktop
    start(page, server_url, "rummy", "en", "First time?", "Play the guided game")
    expect(page.locator("#guide-text")).to_contain_text(
        "With red 10, red 11, red 12 you have 33: put them in “New set” and press “End turn”."
    )
    accessible(page, "a guided Rummy game")
    shot(page, screenshots / "guided-rummy-desktop.png")
    # every text the guide takes from now on (the bots' turns after a draw are short: the
    # guide may say «With red 10…» again before a check that polls sees the step between)
    page.evaluate(
        """() => {
          window.guideSaid = [];
          const el = document.querySelector("#guide-text");
          new MutationObserver(() => window.guideSaid.push(el.textContent))
            .observe(el, { childList: true, characterData: true, subtree: true });
        }"""
    )
    page.locator("#draw").click()  # (drawing instead: the guide follows the game)
    page.wait_for_function("() => window.guideSaid.some((said) => !said.includes('With red 10'))")


def test_la_guerra_and_el_peaje_guided_in_both_languages(
    phone: Page, desktop: Page, server_url: str, screenshots: Path
) -> None:
    page = phone
    start(page, server_url, "guerra", "en", "First time?", "Play the guided game")
    expect(page.locator("#guide-text")).to_have_text(
        "Press “Turn over”: each player turns the top card of their pile and the higher one "
        "takes both."
    )
    page.locator("#turn").tap()  # the K♥ against the 5♣
    expect(page.locator("#guide-text")).to_have_text(
        "You take 2 cards: they go to the bottom of your pile. Turn over the next one."
    )
    shot(page, screenshots / "guided-guerra-phone.png")

    page = desktop
    start(page, server_url, "peaje", "es", "¿Es tu primera vez?", "Jugar la partida guiada")
    expect(page.locator("#guide-text")).to_contain_text(
        "¿La siguiente carta será mayor o menor que el cuatro de corazones? De las 51 que "
        "quedan, 40 son mayores y 8 menores"
    )
    shot(page, screenshots / "guided-peaje-desktop.png")
    page.locator("#answers .btn").first.click()  # «Mayor»: the 9♠ comes, then the toll
    expect(page.locator("#guide-text")).to_contain_text("¡Un peaje!")
