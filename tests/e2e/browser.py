"""What every browser test shares: sizes, screenshots, layout checks, starting from a position.

Imported by the test modules (``tests/e2e`` is put on ``sys.path`` by its conftest).
"""

from __future__ import annotations

import json
import os
from importlib.resources import files
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

TIMEOUT = 10_000  # ms, for expect() and waits on a table
SCREENSHOTS = os.environ.get("TAPETE_SCREENSHOTS") == "1"
"""Whether :func:`shot` saves its PNGs (``make screenshots``, or ``TAPETE_SCREENSHOTS=1``):
a person looks at them, no test reads them, and `make test` spares their ~20 CPU seconds
(0.05–0.16 CPU s each: bench/RESULTS.md)."""
PHONE = {"width": 390, "height": 844}


def view(page: Page) -> dict[str, Any]:
    """The table's current view, as the page holds it (``window.__tapete``)."""
    result = page.evaluate("() => window.__tapete.view")
    assert isinstance(result, dict)
    return result


def version(page: Page) -> int:
    """The version of the view the page holds."""
    return int(page.evaluate("() => window.__tapete.version"))


UNSTILL = """() => {
  if (document.readyState !== "complete") return "loading";
  // a finite CSS animation or transition under way (an infinite one never ends, nor does
  // the turn clock's bar, which moves every quarter second while the clock runs, nor is the
  // glow of a button waiting for a press, a few pulses before it stays lit: ignored)
  const moving = document.getAnimations().filter((a) =>
    (a.pending || a.playState === "running")
    && a.effect?.getTiming().iterations !== Infinity
    && a.animationName !== "pulse"
    && !a.effect?.target?.closest?.(".turnclock"));
  if (moving.length) {
    return "moving: " + moving.map((a) => `${a.animationName || a.transitionProperty
      || "animation"} on ${a.effect?.target?.id || a.effect?.target?.className}`).join(", ");
  }
  const conn = document.getElementById("conn"); // «Sin conexión. Reconectando…»
  if (conn && !conn.hidden) return "offline: " + conn.textContent;
  if (!document.querySelector("[data-game]")) return "";
  // a table: its socket joined, its view drawn, no move of ours on its way (table.js)
  const t = window.__tapete;
  if (!t) return "no table yet";
  return t.still ? "" : `not still: view ${!!t.view}, joined ${t.joined}, waiting ${t.waiting}`;
}"""
"""What keeps the page from being still ("" once it is)."""


def still(page: Page, timeout: float = TIMEOUT) -> None:
    """Wait until the page is at rest: loaded, no finite CSS animation or transition
    running, no «Sin conexión» banner, and on a table (``window.__tapete.still``) the
    socket joined, the view drawn, no move of ours on its way and a replay not playing.

    Read the page right after an action only once it is still: a card caught mid-flip, a
    seat's style read while it is drawn again, a dialog's focus before it has opened."""
    try:
        page.wait_for_function(f"() => !({UNSTILL})()", timeout=timeout, polling="raf")
    except PlaywrightTimeoutError:
        raise AssertionError(f"{page.url} never still: {page.evaluate(UNSTILL)}") from None


def looks(page: Page, selector: str, *properties: str) -> list[dict[str, str]]:
    """Each element matching ``selector``, once the page is :func:`still`: its class and the
    computed value of each CSS property named (``backgroundImage``…), read in one go. (A
    locator's ``evaluate`` finds the element first and reads it later: a table drawn again
    in between leaves it detached, and a detached element's computed style is empty.)"""
    still(page)
    found = page.evaluate(
        """([selector, properties]) => [...document.querySelectorAll(selector)].map((e) => {
             const style = getComputedStyle(e);
             return Object.fromEntries([["class", e.className],
               ...properties.map((p) => [p, style[p]])]);
           })""",
        [selector, list(properties)],
    )
    assert isinstance(found, list)
    return found


def shot(page: Page, path: Path, *, full: bool = False) -> None:
    """A screenshot of a state the test reached (saved with :data:`SCREENSHOTS`), which
    must also pass the accessibility audit (:func:`accessible`): every state worth looking
    at is worth auditing. Taken once the page is :func:`still`."""
    still(page)
    if SCREENSHOTS:
        page.screenshot(path=str(path), full_page=full, animations="disabled")
    accessible(page, path.stem)


def part_shot(part: Locator, path: Path) -> None:
    """A screenshot of one part of a page (saved with :data:`SCREENSHOTS`), once the page
    is :func:`still`."""
    still(part.page)
    if SCREENSHOTS:
        part.screenshot(path=str(path))


AXE_SCRIPT = (files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")
"""axe-core, as the ``axe-playwright-python`` package ships it (a file: no CDN)."""
SERIOUS = ("serious", "critical")


def accessible(page: Page, where: str = "") -> None:
    """Run axe-core on the page once it is :func:`still`: no serious or
    critical violation (WCAG 2.x A and AA rules, and axe's best practices). Evaluated through
    the DevTools protocol, so the page's own CSP (no inline scripts) stays as it is."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    still(page)  # the page as it rests: a card caught mid-flip has colours of neither face
    found = page.evaluate(
        """async () => {
          const r = await axe.run(document, { resultTypes: ["violations"] });
          return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map((n) => [n.target.join(" "), n.failureSummary]) }));
        }"""
    )
    bad = [v for v in found if v["impact"] in SERIOUS]
    assert not bad, f"{where or page.url}: " + json.dumps(bad, ensure_ascii=False, indent=1)


def no_horizontal_scroll(page: Page, width: int = PHONE["width"]) -> None:
    """The page is no wider than ``width`` once :func:`still` (a card dealt in from the
    side is wider while it flies)."""
    still(page)
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= width, f"{page.url}: page is {scroll}px wide on a {width}px screen"


def inside_viewport(page: Page, selector: str) -> None:
    """``selector``'s box is whole on the screen once the page is :func:`still`."""
    still(page)
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["x"] >= 0 and box["y"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= size["width"], (selector, box, size)
    assert box["y"] + box["height"] <= size["height"], (selector, box, size)


def open_position(
    page: Page, server_url: str, kind: str, position: dict[str, Any], level: str | None = None
) -> None:
    """Start a ``kind`` game from ``position`` (the server runs with --test-api) and open it.

    The request goes from the page's own context, so the game belongs to that guest.
    """
    body: dict[str, Any] = {"position": position}
    if level is not None:
        body["level"] = level
    response = page.request.post(
        f"{server_url}/api/{kind}/nueva",
        data=json.dumps(body),
        headers={"content-type": "application/json"},
    )
    assert response.status == 201, response.text()
    page.goto(server_url + response.json()["url"])


def deal_room(host: Page, server_url: str, code: str, position: dict[str, Any]) -> None:
    """Every later game of the room ``code`` is dealt from ``position`` (the server runs
    with --test-api; ``host`` is the room's host): a short game, played to its end in a few
    moves."""
    response = host.request.post(
        f"{server_url}/api/salas/{code}/reparto",
        data=json.dumps({"position": position}),
        headers={"content-type": "application/json"},
    )
    assert response.status == 204, response.text()
