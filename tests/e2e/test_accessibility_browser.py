"""axe-core on every page of the hall, in Spanish (on a phone) and in English (on a laptop):
no serious or critical violation. The table states the other browser tests reach (mid-game,
dialogs, ends, replays) are audited where they take their screenshots (``browser.shot``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser import PHONE, TIMEOUT, accessible
from playwright.sync_api import Page

from tapete.registry import REGISTRY

PAGES = [
    "/",
    "/reglas",
    *(f"/reglas/{key}" for key in REGISTRY),
    *(f"/{key}" for key in REGISTRY),
    *(
        f"/{key}/guia/{slug}" if i else f"/{key}/guia"
        for key, e in REGISTRY.items()
        if e.game.guide is not None
        for i, slug in enumerate(e.game.guide.pages)
    ),
    "/perfil",
    "/tienda",
    "/historial",
    "/unirse?codigo=000000",
    "/no-existe",
    "/sin-conexion",
]
MISSING = r"status of 404 \(Not Found\) @ http://[\d.:]+/(unirse\?codigo=000000|no-existe)$"
"""The console error of the two pages above that answer 404 on purpose (a wrong code, a
page that does not exist): Chromium logs a document's error status."""


@pytest.fixture(scope="module", params=["es", "en"])
def visitor(browser: Any, request: pytest.FixtureRequest) -> Iterator[Page]:
    """Spanish on a phone, English on a laptop (each page's two layouts, each language; the
    table states are audited at both sizes where the tests take their screenshots). One
    visitor goes from page to page (these pages are only read), as a person would: a new
    browser context for each cost more than the page's audit."""
    size = PHONE if request.param == "es" else {"width": 1280, "height": 800}
    context = browser.new_context(
        locale={"es": "es-ES", "en": "en-GB"}[request.param],
        viewport=size,
        has_touch=request.param == "es",
        service_workers="block",
    )
    context.set_default_timeout(TIMEOUT)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.console_errors(MISSING)
def test_every_page_passes_axe(visitor: Page, server_url: str, path: str) -> None:
    visitor.goto(server_url + path)
    accessible(visitor, path)


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_reduced_motion_stops_the_flips_and_pulses(
    browser: Any, server_url: str, motion: str
) -> None:
    """With «reduce motion» asked by the system, a card turned at La guerra lands at once
    and a pulsing button pulses once, in a few hundredths of a millisecond; without it they
    move."""
    context = browser.new_context(locale="es-ES", reduced_motion=motion, service_workers="block")
    context.set_default_timeout(TIMEOUT)
    try:
        page = context.new_page()
        page.goto(server_url + "/guerra")
        page.get_by_role("button", name="Empezar partida").click()
        page.locator("#turn").click()
        # the card just turned (it has «flip»), read in one go in the page: the table draws
        # its cards again when the next view comes (a card read by a locator in two steps was
        # once already replaced, and a replaced element has no computed style: '')
        times = page.wait_for_function(
            """() => {
              const e = document.querySelector(".played .card.face.flip");
              if (!e) return null;
              const s = getComputedStyle(e);
              return [s.animationDuration, s.animationName];
            }"""
        ).json_value()
        if motion == "reduce":
            assert float(times[0].rstrip("s")) < 0.001, times
        else:
            assert times[1] != "none" and float(times[0].rstrip("s")) >= 0.1, times
    finally:
        context.close()


def test_the_glow_of_a_button_waiting_for_a_press_moves_only_its_opacity(
    page: Page, server_url: str
) -> None:
    """«Dar la vuelta» glows for as long as it waits for the player: three pulses, then it
    stays lit (a pulse for ever cost a tenth of a CPU core, without a GPU). The glow changes
    only its opacity, which the compositor animates on its own: a glow that changed the
    button's shadow painted the page again at every frame (a quarter of a core)."""
    page.goto(server_url + "/guerra")
    page.get_by_role("button", name="Empezar partida").click()
    page.locator("#turn").wait_for()
    page.wait_for_function(
        "() => document.getAnimations().some((a) => a.animationName === 'pulse')"
    )
    changed = page.evaluate(
        """() => document.getAnimations().filter((a) => a.playState === "running"
             && (a.effect.getTiming().iterations === Infinity || a.animationName === "pulse"))
           .map((a) => [a.effect.target.id, a.effect.pseudoElement,
                        ...new Set(a.effect.getKeyframes().flatMap((k) => Object.keys(k)))])"""
    )
    assert changed, "nothing glows"
    for target, pseudo, *properties in changed:
        assert set(properties) <= {
            "offset",
            "easing",
            "composite",
            "computedOffset",
            "opacity",
            "transform",
        }, (target, pseudo, properties)
    assert ["turn", "::after"] in [c[:2] for c in changed]
    # three pulses, then lit for as long as it waits: the animation ends at full glow
    glow = page.evaluate(
        """() => { const a = document.getAnimations().find((a) => a.animationName === "pulse");
             const t = a.effect.getTiming();
             return [t.iterations, t.fill]; }"""
    )
    assert glow == [3.5, "forwards"], glow
    page.evaluate(
        """() => document.getAnimations().filter((a) => a.animationName === "pulse")
             .forEach((a) => a.finish())"""
    )
    lit = page.evaluate(
        '() => getComputedStyle(document.getElementById("turn"), "::after").opacity'
    )
    assert lit == "1", lit
    assert not page.evaluate(
        "() => document.getAnimations().some((a) => a.playState === 'running'"
        " && a.animationName === 'pulse')"
    )
