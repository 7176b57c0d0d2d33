"""The card style each viewer chooses at the French-deck tables (One Card, La guerra): the
select under the table (templates/_card_style.html, js/card_style.js) puts a class
``style-<x>`` on the body, remembered in the browser (localStorage ``tapete.cards``); the
colours are table.css's, which El Peaje's game option uses too.

«Cuatro colores»: ♦ blue, ♣ green, ♥ red, ♠ black, each at least 4.5:1 on every card face
(white, and a hand's greyed card); «Alto contraste»: WCAG AAA (7:1) on every card face,
audited with axe-core's ``color-contrast-enhanced`` rule on the cards alone, and a 3 px black
border. The other two styles pass the ordinary audit (``browser.accessible``, AA).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from browser import AXE_SCRIPT, TIMEOUT, accessible, open_position, shot, still
from playwright.sync_api import Page, expect

KEY = "tapete.cards"

# One Card, four players, our turn on the five of diamonds: the 10♦, 5♠ and Q♦ fit (raised),
# the K♣, 2♥, 9♣ and 4♠ do not (greyed, on #e8e8e8): every suit, both faces, a figure.
ONECARD = {
    "hands": ["10D 5S KC 2H QD 9C 4S", "9H 8C 3H 10S", "4D 3D 6S 10C", "JH 7C 6H 8S"],
    "discard": "5D",
    "stock": "4C AS 8H AC 6C 6D",
    "turn": 0,
    "config": {"players": 4},
}
# La guerra, four players, sums: the three others have turned their two cards (every suit,
# two figures); the table waits for us.
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
# El Peaje in alto contraste, its own game option: the nine of hearts to start from.
PEAJE = {
    "deck": "3S 4S 2H 5D 10C",
    "cards": ["9H"],
    "config": {"variant": "solitario", "difficulty": "facil", "style": "alto_contraste"},
}

# what getComputedStyle says of a card's ink, by suit
CLASSIC = {
    "H": "rgb(198, 40, 40)",
    "D": "rgb(198, 40, 40)",
    "C": "rgb(29, 29, 31)",
    "S": "rgb(29, 29, 31)",
}
FOUR = {
    "H": "rgb(198, 40, 40)",
    "D": "rgb(11, 87, 208)",
    "C": "rgb(27, 110, 32)",
    "S": "rgb(29, 29, 31)",
}
HIGH = {"H": "rgb(139, 0, 0)", "D": "rgb(139, 0, 0)", "C": "rgb(0, 0, 0)", "S": "rgb(0, 0, 0)"}

# the table has its view, and it is our turn (One Card) / it waits for us (La guerra)
OUR_TURN = (
    "() => { const v = window.__tapete && window.__tapete.view; return !!v && v.turn === v.seat; }"
)
WAITS_FOR_US = (
    "() => { const v = window.__tapete && window.__tapete.view; "
    "return !!v && v.actors.includes(v.seat); }"
)

expect.set_options(timeout=TIMEOUT)


# helpers ---------------------------------------------------------------------------------


def open_onecard(page: Page, server_url: str) -> None:
    open_position(page, server_url, "onecard", ONECARD, "facil")
    page.wait_for_function(OUR_TURN)
    expect(page.locator("#hand .card")).to_have_count(7)


def open_guerra(page: Page, server_url: str) -> None:
    open_position(page, server_url, "guerra", GUERRA)
    page.wait_for_function(WAITS_FOR_US)
    expect(page.locator(".played .card.face")).to_have_count(6)


def style_class(page: Page, style: str) -> None:
    """The body carries ``style-<style>`` and no other card style."""
    expect(page.locator("body")).to_have_class(re.compile(rf"(^|\s)style-{style}(\s|$)"))
    others = page.evaluate(
        "() => [...document.body.classList].filter((c) => c.startsWith('style-'))"
    )
    assert others == [f"style-{style}"]


def inks(page: Page) -> dict[str, set[str]]:
    """The computed colour of every face card's suit signs and ranks, by suit (once the
    table is still: no card caught mid-draw)."""
    still(page)
    found: dict[str, list[str]] = page.evaluate(
        """() => {
          const out = {};
          for (const card of document.querySelectorAll('.card.face')) {
            const suit = card.dataset.code.slice(-1);
            for (const el of card.querySelectorAll('b, i')) {
              (out[suit] ||= []).push(getComputedStyle(el).color);
            }
          }
          return out;
        }"""
    )
    return {suit: set(colours) for suit, colours in found.items()}


def drawn_in(page: Page, colours: dict[str, str]) -> None:
    assert inks(page) == {suit: {colour} for suit, colour in colours.items()}


def enhanced_contrast(page: Page) -> dict[str, Any]:
    """axe-core's AAA contrast rule (``color-contrast-enhanced``, 7:1; 4.5:1 for large text)
    on the cards alone: its violations, what it could not decide, and how many texts it
    measured and passed. axe audits only what is in the viewport, so the viewport is made as
    tall as the page for the audit. It leaves out a text of symbols alone (the suit signs)
    and a disabled control's text (One Card's greyed cards): :func:`ratios` measures those."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    still(page)
    size = page.viewport_size
    assert size is not None
    tall = int(page.evaluate("() => document.documentElement.scrollHeight"))
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], tall)})
    try:
        result: dict[str, Any] = page.evaluate(
            """async () => {
              const r = await axe.run({ include: [[".card"]] },
                { runOnly: { type: "rule", values: ["color-contrast-enhanced"] } });
              const nodes = (list) => list.flatMap((v) =>
                v.nodes.map((n) => [n.target.join(" "), n.failureSummary || ""]));
              // a pass with no ratio is a text axe found hidden under another element
              const measured = r.passes.flatMap((v) => v.nodes)
                .filter((n) => n.any.some((c) => c.data && c.data.contrastRatio)).length;
              return { violations: nodes(r.violations), incomplete: nodes(r.incomplete),
                       passes: measured };
            }"""
        )
    finally:
        page.set_viewport_size(size)
    return result


# WCAG 2's contrast ratio of a glyph's colour on its card's face (both opaque, as they are)
RATIOS = """() => {
  const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (text) => {
    const [r, g, b] = rgb(text).map((v) => {
      v /= 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const out = [];
  for (const card of document.querySelectorAll('.card.face')) {
    const face = getComputedStyle(card).backgroundColor;
    for (const el of card.querySelectorAll('b, i')) {
      out.push([card.dataset.code, el.textContent, face, ratio(getComputedStyle(el).color, face)]);
    }
  }
  return out;
}"""


def ratios(page: Page) -> list[tuple[str, str, str, float]]:
    """Every face card's rank and suit signs: (card, text, face colour, contrast ratio)."""
    still(page)
    return [tuple(x) for x in page.evaluate(RATIOS)]


def contrast_at_least(page: Page, least: float) -> None:
    found = ratios(page)
    assert found, "no face card on the table"
    low = [x for x in found if x[3] < least]
    assert not low, low


def aaa(page: Page, where: str) -> None:
    """Every card's ranks and suit signs reach AAA, 7:1: axe finds no violation and
    nothing it could not decide, having looked at least at every face card's top-left rank
    (bar a greyed one); and the glyphs axe leaves out measure 7:1 too."""
    still(page)
    faces = page.locator(".card.face:not([aria-disabled='true'])").count()
    result = enhanced_contrast(page)
    report = json.dumps(result, ensure_ascii=False, indent=1)
    assert result["violations"] == [], f"{where}: {report}"
    assert result["incomplete"] == [], f"{where}: {report}"
    assert result["passes"] >= faces > 0, f"{where}: {report}"
    contrast_at_least(page, 7)


# tests -----------------------------------------------------------------------------------


def test_chosen_by_keyboard_remembered_and_at_la_guerra(
    page: Page, server_url: str, screenshots: Path
) -> None:
    """The select, reached by its label, moved with the arrow keys: each style applies at
    once; the last one survives a reload and is the style of the next table, La guerra."""
    open_onecard(page, server_url)
    select = page.get_by_label("Cartas:")
    expect(select).to_have_value("clasico")
    style_class(page, "clasico")
    assert page.locator(".hand .card.dim").count() == 4  # the greyed face is audited too
    drawn_in(page, CLASSIC)
    contrast_at_least(page, 4.5)

    select.focus()
    page.keyboard.press("ArrowDown")
    style_class(page, "cuatro_colores")
    drawn_in(page, FOUR)
    contrast_at_least(page, 4.5)
    assert page.evaluate(f"() => localStorage.getItem('{KEY}')") == "cuatro_colores"
    still(page)
    accessible(page, "onecard cuatro_colores")

    page.keyboard.press("ArrowDown")
    style_class(page, "alto_contraste")
    expect(select).to_have_value("alto_contraste")
    drawn_in(page, HIGH)

    page.reload()
    page.wait_for_function("() => !!(window.__tapete && window.__tapete.view)")
    style_class(page, "alto_contraste")
    expect(page.get_by_label("Cartas:")).to_have_value("alto_contraste")
    expect(page.locator("#hand .card")).to_have_count(7)
    drawn_in(page, HIGH)
    border = page.locator('#hand .card[data-code="KC"]').evaluate(
        "e => ['Width', 'Style', 'Color'].map((k) => getComputedStyle(e)['borderTop' + k])"
    )
    assert border == ["3px", "solid", "rgb(0, 0, 0)"]
    aaa(page, "onecard alto_contraste")
    shot(page, screenshots / "cards-onecard-alto-contraste.png")

    open_guerra(page, server_url)
    style_class(page, "alto_contraste")
    expect(page.get_by_label("Cartas:")).to_have_value("alto_contraste")
    drawn_in(page, HIGH)
    aaa(page, "guerra alto_contraste")
    shot(page, screenshots / "cards-guerra-alto-contraste.png")


def test_la_guerra_in_each_style(page: Page, server_url: str, screenshots: Path) -> None:
    """At La guerra the choice applies at once too, and each style passes its audit."""
    open_guerra(page, server_url)
    style_class(page, "clasico")
    drawn_in(page, CLASSIC)
    still(page)
    accessible(page, "guerra clasico")

    page.get_by_label("Cartas:").select_option("cuatro_colores")
    style_class(page, "cuatro_colores")
    drawn_in(page, FOUR)
    contrast_at_least(page, 4.5)
    shot(page, screenshots / "cards-guerra-cuatro-colores.png")

    page.get_by_label("Cartas:").select_option("alto_contraste")
    style_class(page, "alto_contraste")
    aaa(page, "guerra alto_contraste")
    assert page.evaluate(f"() => localStorage.getItem('{KEY}')") == "alto_contraste"


def test_another_tab_follows(page: Page, server_url: str) -> None:
    """A second tab of the same table, in the same browser, follows the choice made in the
    first one."""
    open_guerra(page, server_url)
    other = page.context.new_page()
    other.goto(page.url)
    other.wait_for_function(WAITS_FOR_US)
    style_class(other, "clasico")
    page.get_by_label("Cartas:").select_option("alto_contraste")
    style_class(other, "alto_contraste")
    expect(other.get_by_label("Cartas:")).to_have_value("alto_contraste")
    drawn_in(other, HIGH)


def test_an_unknown_stored_style_is_the_classic_one(page: Page, server_url: str) -> None:
    """A value the page does not know (an older version's, or typed by hand) draws the
    classic cards, and the select says so."""
    page.add_init_script(f"localStorage.setItem('{KEY}', 'neon')")
    open_guerra(page, server_url)
    style_class(page, "clasico")
    expect(page.get_by_label("Cartas:")).to_have_value("clasico")
    drawn_in(page, CLASSIC)


def test_the_audit_sees_a_card_too_pale(page: Page, server_url: str) -> None:
    """The AAA checks fail where they should: alto contraste with the red it used to have
    (#d50000, 5.5:1 on white). axe finds the red ranks it audits (the cards that fit, raised),
    the measure every red glyph, the greyed 2♥'s too."""
    page.add_init_script(f"localStorage.setItem('{KEY}', 'alto_contraste')")
    open_onecard(page, server_url)
    # (through the CSSOM: the page's CSP refuses an inline <style>)
    page.evaluate(
        """() => {
          const last = document.styleSheets[document.styleSheets.length - 1];
          last.insertRule('.style-alto_contraste .card.face.red { color: #d50000 }',
                          last.cssRules.length);
        }"""
    )
    drawn_in(page, {**HIGH, "H": "rgb(213, 0, 0)", "D": "rgb(213, 0, 0)"})
    still(page)
    # 5.5:1 fails AAA's 7:1 for small text (the ranks in the 10♦'s and Q♦'s corners); the
    # pile's bigger 5♦ and the Q♦'s middle letter are large text, for which 4.5:1 is enough.
    # axe calls a one-letter text that fails «incomplete» (too short to be sure it is text).
    found = enhanced_contrast(page)
    pale = sorted(target for target, _ in found["violations"] + found["incomplete"])
    assert len(pale) == 4 and all("de diamantes" in t for t in pale), found
    low = {code for code, _, _, ratio in ratios(page) if ratio < 7}
    assert low == {"5D", "10D", "QD", "2H"}


def test_el_peaje_keeps_its_option(phone: Page, server_url: str) -> None:
    """El Peaje's style is its game option (no select there): table.css draws it."""
    page = phone
    open_position(page, server_url, "peaje", PEAJE)
    page.wait_for_function("() => !!(window.__tapete && window.__tapete.view)")
    style_class(page, "alto_contraste")
    expect(page.locator("#card-style")).to_have_count(0)
    expect(page.locator("#reference .card.face")).to_have_count(1)
    drawn_in(page, {"H": HIGH["H"]})
    aaa(page, "peaje alto_contraste")
