"""Sounds and turn alerts (static/js/alerts.js) in a real browser: a move sounds; when the
tab is hidden and it becomes your turn, the title and the icon say so, and they go back as
you return; «Sonido: no» silences the table and is remembered on the device."""

from __future__ import annotations

import re

from browser import TIMEOUT, still
from playwright.sync_api import Page, expect

expect.set_options(timeout=TIMEOUT)

# Count every sound the page starts (an oscillator or a burst of noise), from the start.
COUNT_SOUNDS = """
window.__sounds = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  createOscillator() { window.__sounds++; return super.createOscillator(); }
  createBufferSource() { window.__sounds++; return super.createBufferSource(); }
};
"""
HIDE = """() => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""
SHOW = """() => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => false });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def sounds(page: Page) -> int:
    return int(page.evaluate("() => window.__sounds"))


def start_guerra(page: Page, server_url: str) -> None:
    page.goto(f"{server_url}/guerra")
    page.get_by_role("button", name="Empezar partida").click()
    page.wait_for_url(re.compile(r"/partida/[^/?#]+$"))
    expect(page.locator("#turn")).to_be_enabled()
    still(page)


def turn(page: Page) -> None:
    """Turn our card and wait until it is our turn again (the computer turns after us)."""
    before = int(page.evaluate("() => window.__tapete.version"))
    page.locator("#turn").click()
    page.wait_for_function(
        """v => { const t = window.__tapete, w = t.view;
                  return t.version >= v + 2 && (w.result || w.actors.includes(t.mySeat)); }""",
        arg=before,
    )


def test_a_move_sounds_and_a_hidden_tab_is_told_its_turn(page: Page, server_url: str) -> None:
    page.add_init_script(COUNT_SOUNDS)
    start_guerra(page, server_url)
    sound = page.locator("#sound-toggle")
    expect(sound).to_have_text("Sonido: sí")
    expect(sound).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#tick-toggle")).to_have_attribute("aria-pressed", "false")
    title = page.title()
    icon = page.locator('link[rel="icon"]').get_attribute("href")

    # the sounds load at the first touch (the table's first load stays light), and sound
    # from then on: the moves, and the turn coming back
    assert page.evaluate("() => window.__tapete.alerts") is None
    page.locator("#duel-label").click()
    page.wait_for_function("() => window.__tapete.alerts !== null")
    turn(page)
    assert sounds(page) > 0

    page.evaluate(HIDE)  # the player is in another tab when the computer turns
    turn(page)
    expect(page).to_have_title(f"● Te toca · {title}")
    assert (page.locator('link[rel="icon"]').get_attribute("href") or "").startswith("data:")
    page.evaluate(SHOW)
    expect(page).to_have_title(title)
    assert page.locator('link[rel="icon"]').get_attribute("href") == icon

    # silenced, and still so after a reload: nothing sounds
    sound.click()
    expect(sound).to_have_text("Sonido: no")
    expect(sound).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#tick-toggle")).to_be_hidden()
    page.reload()
    still(page)
    expect(page.locator("#sound-toggle")).to_have_text("Sonido: no")
    heard = sounds(page)
    turn(page)
    turn(page)
    assert sounds(page) == heard == 0
