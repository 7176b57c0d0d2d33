"""axe-core on every page of the hall, in Spanish and in English, on a laptop and on a phone:
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
]


@pytest.fixture(params=["es", "en"])
def visitor(browser: Any, request: pytest.FixtureRequest) -> Iterator[Page]:
    context = browser.new_context(
        locale={"es": "es-ES", "en": "en-GB"}[request.param], viewport=PHONE, has_touch=True
    )
    context.set_default_timeout(TIMEOUT)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.mark.parametrize("path", PAGES)
def test_every_page_passes_axe(visitor: Page, server_url: str, path: str) -> None:
    visitor.goto(server_url + path)
    accessible(visitor, path)
    visitor.set_viewport_size({"width": 1280, "height": 800})
    accessible(visitor, f"{path} at 1280×800")
