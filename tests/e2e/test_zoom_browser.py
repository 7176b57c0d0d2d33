"""The four tables at 200 % zoom on a 390×844 phone (a CSS viewport of 195×422), and on that
phone with the browser's font twice its default (a root font of 32 px: every size in rem and
em follows it, as with a reader's larger font): no horizontal scroll, every card or tile of the
player's hand and every main button on screen and within the width, no text cut or spilling
out of its box.

Screenshots: ``artifacts/screenshots/zoom-<table>-<how>.png`` (the whole page).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import TIMEOUT, no_horizontal_scroll, open_position, shot
from playwright.sync_api import Browser, Page, expect
from test_accessibility_browser import MISSING

ZOOMED = {"width": 195, "height": 422}
"""390×844 at 200 %."""
PHONE = {"width": 390, "height": 844}
LARGE_FONT = "32px"
"""Twice the browser's default 16 px."""

# One Card, four players, our turn: seven cards, three opponents.
ONECARD = {
    "hands": ["10D 5S KC 2H QD 9C 4S", "9H 8C 3H 10S", "4D 3D 6S 10C", "JH 7C 6H 8S"],
    "discard": "5D",
    "stock": "4C AS 8H AC 6C 6D",
    "turn": 0,
    "config": {"players": 4},
}
# La guerra, four players with sums: the three others have turned their cards; our turn.
GUERRA = {
    "piles": ["9H 5C 2S 3S", "4H 4D 7C", "8S 8D 6C", "JC JD 2D"],
    "config": {"sums": True},
    "steps": [
        {
            "contenders": [0, 1, 2, 3],
            "placed": {"1": {"up": "KS 2D"}, "2": {"up": "10C 3H"}, "3": {"up": "QH 7S"}},
        }
    ],
}
# Rummy: a full rack of fourteen tiles, our turn.
RUMMY = {
    "racks": [
        "10R 10A 10N 4R 5R 7R 2A 3O 8N 11O 12A 13N 6O 1A",
        "1R 2A 3N 4O 5R 6A 7N 8O 9R 11A 12N 13O 1O 2N",
    ],
    "pool": "2N 3N 4N 5N 6N 7N",
    "melded": [False, False],
    "turn": 0,
}
# El Peaje, difícil (the longest route: four questions, two tolls), at its last question,
# «palo»: three cards earned, four answer buttons.
PEAJE = {
    "deck": "3S 4S",
    "cards": ["9H", "10C", "5D", "2H"],
    "config": {"variant": "solitario", "difficulty": "dificil"},
}

OUR_TURN = (
    "() => { const v = window.__tapete && window.__tapete.view; return !!v && v.turn === v.seat; }"
)
WAITS_FOR_US = (
    "() => { const v = window.__tapete && window.__tapete.view; "
    "return !!v && v.actors.includes(v.seat); }"
)
VIEW = "() => !!(window.__tapete && window.__tapete.view)"


def open_onecard(page: Page, server_url: str) -> None:
    open_position(page, server_url, "onecard", ONECARD, "facil")
    page.wait_for_function(OUR_TURN)
    expect(page.locator("#hand .card")).to_have_count(7)


def open_guerra(page: Page, server_url: str) -> None:
    open_position(page, server_url, "guerra", GUERRA)
    page.wait_for_function(WAITS_FOR_US)
    expect(page.locator(".seat")).to_have_count(4)


def open_rummy(page: Page, server_url: str) -> None:
    open_position(page, server_url, "rummy", RUMMY, "principiante")
    page.wait_for_function(OUR_TURN)
    expect(page.locator("#rack .tile")).to_have_count(14)


def open_peaje(page: Page, server_url: str) -> None:
    open_position(page, server_url, "peaje", PEAJE)
    page.wait_for_function(VIEW)
    expect(page.locator("#answers .btn")).to_have_count(4)


TABLES: dict[str, tuple[Callable[[Page, str], None], list[str]]] = {
    "onecard": (open_onecard, ["#hand .card", "#draw"]),
    "guerra": (open_guerra, ["#turn", ".seat"]),
    "rummy": (open_rummy, ["#rack .tile", "#done", "#draw"]),
    "peaje": (open_peaje, ["#answers .btn", "#route .stop"]),
}
"""How to open each table, and its main controls: the hand's cards or the rack's tiles, the
main buttons (and La guerra's seats, El Peaje's route: what a player must see to play)."""

expect.set_options(timeout=TIMEOUT)


@pytest.fixture
def zoomed(browser: Browser) -> Iterator[Page]:
    """A 390×844 phone at 200 % zoom: a 195×422 CSS viewport at four device pixels each."""
    context = browser.new_context(
        viewport=ZOOMED,  # type: ignore[arg-type]
        device_scale_factor=4,
        is_mobile=True,
        has_touch=True,
        locale="es-ES",
        service_workers="block",
    )
    context.set_default_timeout(TIMEOUT)
    try:
        yield context.new_page()
    finally:
        context.close()


# Every element that holds text of its own, whose text is wider or taller than its box
# (clipped, or spilling out), or that reaches past the viewport's right edge.
CUT = """(width) => {
  const out = [];
  for (const el of document.querySelectorAll('main *')) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length || el.closest('[hidden], .sr, .sr-only')) continue;
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden') continue;
    const r = el.getBoundingClientRect();
    const what = `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${el.className}: `
      + el.textContent.trim().slice(0, 40);
    if (r.right > width + 0.5 || r.left < -0.5) {
      out.push(['off screen', what, Math.round(r.left), Math.round(r.right)]);
    }
    if (s.display === 'inline') continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      out.push(['too wide', what, el.scrollWidth, el.clientWidth]);
    }
    if (s.overflowY !== 'visible' && el.scrollHeight > el.clientHeight + 1) {
      out.push(['too tall', what, el.scrollHeight, el.clientHeight]);
    }
  }
  return out;
}"""


def fits(page: Page, controls: list[str], width: int, where: str) -> None:
    """No horizontal scroll; each of ``controls`` visible, and whole on screen once scrolled to
    (within half a pixel: a zoomed page's boxes fall between device pixels); no text cut."""
    no_horizontal_scroll(page, width)
    size = page.viewport_size
    assert size is not None and size["width"] == width
    for selector in controls:
        items = page.locator(selector)
        assert items.count() > 0, selector
        for i in range(items.count()):
            item = items.nth(i)
            expect(item).to_be_visible()
            item.scroll_into_view_if_needed()
            box = item.bounding_box()
            assert box is not None
            inside = (
                box["x"] >= -0.5
                and box["x"] + box["width"] <= width + 0.5
                and box["y"] >= -0.5
                and box["y"] + box["height"] <= size["height"] + 0.5
            )
            assert inside, (where, selector, i, box, size)
    page.evaluate("() => window.scrollTo(0, 0)")
    cut: list[Any] = page.evaluate(CUT, width)
    assert cut == [], f"{where}: " + json.dumps(cut, ensure_ascii=False, indent=1)


@pytest.mark.parametrize("table", list(TABLES))
def test_at_200_percent_zoom(zoomed: Page, server_url: str, screenshots: Path, table: str) -> None:
    page = zoomed
    opening, controls = TABLES[table]
    opening(page, server_url)
    fits(page, controls, ZOOMED["width"], f"{table} at 200 %")
    shot(page, screenshots / f"zoom-{table}-195.png", full=True)


@pytest.mark.parametrize("table", list(TABLES))
def test_with_a_larger_font(phone: Page, server_url: str, screenshots: Path, table: str) -> None:
    page = phone
    opening, controls = TABLES[table]
    opening(page, server_url)
    before = page.evaluate("() => getComputedStyle(document.body).fontSize")
    page.evaluate(f"() => {{ document.documentElement.style.fontSize = '{LARGE_FONT}'; }}")
    # the body's text follows the root's (rem), so the page's sizes can follow it too
    after = page.evaluate("() => getComputedStyle(document.body).fontSize")
    assert (before, after) == ("16px", LARGE_FONT)
    fits(page, controls, PHONE["width"], f"{table} with a 32 px font")
    shot(page, screenshots / f"zoom-{table}-font32.png", full=True)


@pytest.mark.console_errors(MISSING)
def test_every_page_fits_at_200_percent_zoom(zoomed: Page, server_url: str) -> None:
    """The hall's other pages at 195 px: the header's links wrap under the brand, and no page
    scrolls sideways (one visit each, no audit: the accessibility sweep audits them)."""
    from test_accessibility_browser import PAGES

    for path in PAGES:
        zoomed.goto(server_url + path)
        no_horizontal_scroll(zoomed, ZOOMED["width"])
