"""The tables' controls where a player needs them: One Card's suit picker starts on a suit
the player holds; the keyboard's hints (on the felt, and the footer's key help) are not on a
touch phone, and are on a laptop; La guerra's main button is on the screen, whole, with two,
three or four players, on a laptop and on a phone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser import PHONE, inside_viewport, open_position, shot, version
from playwright.sync_api import Page, expect

from tapete.registry import REGISTRY

SETTLED = (
    "() => { const v = window.__tapete?.view; return !!v && (!!v.result || v.turn === v.seat); }"
)
"""One Card waits for the player (or is over)."""
GUERRA_SETTLED = """() => { const v = window.__tapete?.view;
  return !!v && (!!v.result || v.actors.includes(v.seat)); }"""
"""La guerra waits for the player (the bots follow at once), or is over."""


# Sorted by suit (♥ ♦ ♣ ♠): 7D 9C 5S. The seven fits the five of diamonds; no heart and,
# besides the seven, no diamond in hand: clubs is the first suit held.
SEVEN_NO_HEARTS = {
    "hands": ["7D 5S 9C", "9H 8H 3H", "2D 3D 6S"],
    "discard": "5D",
    "stock": "4C 4D 4S 8H 8S 6C",
    "turn": 0,
    "config": {"players": 3},
}


def test_the_suit_picker_starts_on_a_suit_the_player_holds(desktop: Page, server_url: str) -> None:
    open_position(desktop, server_url, "onecard", SEVEN_NO_HEARTS, "facil")
    desktop.wait_for_function(SETTLED)
    seven = desktop.locator('.hand .card[data-code="7D"]')
    seven.focus()
    desktop.keyboard.press("Enter")  # (the keyboard's way: the picker takes the focus)
    expect(desktop.locator("#suits")).to_be_visible()
    expect(desktop.locator('#suits [data-suit="H"] small')).to_have_text("corazones (0)")
    expect(desktop.locator('#suits [data-suit="C"]')).to_be_focused()
    before = version(desktop)
    desktop.keyboard.press("Enter")  # the suit in focus: clubs
    expect(desktop.locator("#suits")).to_be_hidden()
    desktop.wait_for_function("v => window.__tapete.version > v", arg=before)
    expect(desktop.locator("#log")).to_contain_text("Echas el siete de diamantes y pides tréboles")


# keyboard hints: on a laptop, not on a touch phone


def practice(page: Page, server_url: str, kind: str) -> None:
    """A practice game of ``kind`` with its default options, open at its table."""
    response = page.request.post(
        f"{server_url}/api/{kind}/nueva",
        data=json.dumps({}),
        headers={"content-type": "application/json"},
    )
    assert response.status == 201, response.text()
    page.goto(server_url + response.json()["url"])
    page.wait_for_function("() => !!window.__tapete?.view")


HINTED = ("onecard", "rummy", "guerra")  # some games: those whose felt hints keys
"""The tables whose felt says which keys play (``.keyhint``)."""


def test_every_table_with_hints_is_here() -> None:
    assert set(HINTED) <= set(REGISTRY)


@pytest.mark.parametrize("kind", list(REGISTRY))
def test_no_keyboard_hints_on_a_touch_phone(
    phone: Page, server_url: str, screenshots: Path, kind: str
) -> None:
    practice(phone, server_url, kind)
    assert phone.evaluate("() => matchMedia('(pointer: coarse)').matches")
    assert phone.evaluate("() => document.documentElement.classList.contains('touch')")
    expect(phone.locator(".keyhint").filter(visible=True)).to_have_count(0)
    expect(phone.locator("#keys-open")).to_be_hidden()  # (the key help: keys only)
    assert phone.locator(".keyhint").count() == (kind in HINTED)
    if kind == "rummy":  # how to play by touch stays: it is not about keys
        expect(phone.locator(".playhint")).to_be_visible()
        expect(phone.locator(".playhint")).to_contain_text("tócalas para elegirlas")
    shot(phone, screenshots / f"phone-{kind}-no-keyhints.png", full=True)


@pytest.mark.parametrize("kind", list(REGISTRY))
def test_keyboard_hints_on_a_laptop(desktop: Page, server_url: str, kind: str) -> None:
    practice(desktop, server_url, kind)
    hints = desktop.locator(".keyhint")
    expect(hints).to_have_count(int(kind in HINTED))
    for i in range(hints.count()):
        expect(hints.nth(i)).to_be_visible()
    expect(desktop.locator("#keys-open")).to_be_visible()
    assert not desktop.evaluate("() => document.documentElement.classList.contains('touch')")
    expect(desktop.locator(".playhint")).to_have_count(int(kind == "rummy"))


# La guerra's main button, whole on the screen without scrolling

RANKS = ["2", "3", "4", "5", "7", "8", "9", "10", "J", "Q", "K", "A"]
WARS = [" ".join(f"{rank}{suit}" for rank in RANKS) for suit in "HSCD"]
"""Every pile in the same order: the duel is a war, the war another, and another — each seat's
cards piling up on the felt."""


def guerra_wars(page: Page, server_url: str, players: int) -> None:
    position = {"piles": WARS[:players], "config": {"players": players}}
    open_position(page, server_url, "guerra", position)
    page.wait_for_function(GUERRA_SETTLED)
    expect(page.locator("#seats .seat")).to_have_count(players)


def button_on_screen_through_the_wars(page: Page, screenshots: Path, name: str) -> None:
    """The button is whole on the screen, unscrolled, as the wars pile up (three turns)."""
    for turn in range(4):
        assert page.evaluate("() => window.scrollY") == 0
        inside_viewport(page, "#turn")
        if turn == 3:
            break
        before = version(page)
        page.locator("#turn").click()
        page.wait_for_function("v => window.__tapete.version > v", arg=before)
        page.wait_for_function(GUERRA_SETTLED)
    assert page.evaluate("() => window.__tapete.view.table.length") == 4  # (three wars)
    shot(page, screenshots / name)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_main_button_is_on_a_laptops_screen(
    desktop: Page, server_url: str, screenshots: Path, players: int
) -> None:
    guerra_wars(desktop, server_url, players)
    button_on_screen_through_the_wars(desktop, screenshots, f"desktop-guerra-{players}p-wars.png")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_main_button_is_on_a_phones_screen(
    phone: Page, server_url: str, screenshots: Path, players: int
) -> None:
    assert phone.viewport_size == PHONE
    guerra_wars(phone, server_url, players)
    button_on_screen_through_the_wars(phone, screenshots, f"phone-guerra-{players}p-wars.png")
