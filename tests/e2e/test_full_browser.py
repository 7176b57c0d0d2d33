"""A full process, as a newcomer sees it: «Empezar partida» on a game's page answers with a
page of its own — «Hay mucha gente», what to do, and a way back to the form — in the
player's language, on a phone and on a laptop, and nothing was made."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import PHONE, TIMEOUT, no_horizontal_scroll, shot
from playwright.sync_api import expect
from servers import serve


@pytest.fixture(scope="module")
def full_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A `tapete serve` that counts itself full at once (its door's limit below what an idle
    process spends)."""
    with serve(tmp_path_factory.mktemp("tapete-full"), ["--limit", "full_cpu=0.000001"]) as url:
        yield url


@pytest.mark.console_errors(  # (the refusal itself: the page a 503 carries)
    r"status of 503 \(Service Unavailable\) @ http://[\d.:]+/onecard/nueva$"
)
@pytest.mark.parametrize(
    ("lang", "size", "title", "button"),
    [
        ("es", PHONE, "Hay mucha gente", "Volver a intentarlo"),
        ("en", {"width": 1280, "height": 800}, "It's very busy", "Try again"),
    ],
)
def test_a_newcomer_to_a_full_hall_is_told_to_come_back(
    browser: Any,
    full_url: str,
    screenshots: Path,
    lang: str,
    size: dict[str, int],
    title: str,
    button: str,
) -> None:
    context = browser.new_context(viewport=size, locale="es-ES", service_workers="block")
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    try:
        page.goto(f"{full_url}/onecard?lang={lang}")
        page.locator(".start-buttons button[type=submit]:not([formaction])").click()
        expect(page.get_by_role("heading", level=1)).to_have_text(title)
        lead = page.locator(".lead")
        expect(lead).to_contain_text("momento" if lang == "es" else "moment")
        back = page.get_by_role("link", name=button)
        expect(back).to_have_attribute("href", "/onecard")
        assert "/partida/" not in page.url  # nothing was made
        no_horizontal_scroll(page, size["width"])
        shot(page, screenshots / f"full-{lang}-{size['width']}.png")
        back.click()
        expect(page).to_have_url(f"{full_url}/onecard")
    finally:
        context.close()
