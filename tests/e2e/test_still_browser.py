"""still() (browser.py), the wait every test reads a table after: it waits for what moves,
for a socket that dropped to join again, and for a move on its way; and says which when a
page never gets still."""

from __future__ import annotations

import pytest
from browser import still, version
from playwright.sync_api import Page
from test_onecard_browser import NOTHING_FITS, from_position

RUNNING = """() => document.getAnimations().filter((a) => a.playState === "running")
  .map((a) => a.id)"""


def test_still_waits_for_an_animation_a_reconnection_and_a_move(
    page: Page, server_url: str
) -> None:
    from_position(page, server_url, NOTHING_FITS)
    still(page)

    # a card mid-flip: still once it has ended
    page.evaluate(
        """() => { document.querySelector(".hand .card").animate(
          [{ transform: "rotateY(90deg)" }, { transform: "none" }],
          { duration: 800, id: "flip" }); }"""
    )
    assert page.evaluate(RUNNING) == ["flip"]
    still(page)
    assert page.evaluate(RUNNING) == []

    # the socket drops: not still until it has joined again
    page.evaluate("() => window.__tapete.sock.ws.close()")
    page.wait_for_function("() => !window.__tapete.joined")
    still(page)
    assert page.evaluate("() => window.__tapete.sock.open") is True
    assert page.locator("#conn").is_hidden()

    # a move on its way: not still until the table has answered it
    page.evaluate("() => { window.__tapete.waiting = true; }")
    with pytest.raises(AssertionError, match="waiting true"):
        still(page, timeout=500)
    page.evaluate("() => { window.__tapete.waiting = false; }")
    before = version(page)
    page.locator("#draw").click()
    still(page)
    assert version(page) > before
