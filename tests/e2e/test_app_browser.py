"""The hall as an app, in a real Chromium: installable by the browser's own criteria (the
DevTools protocol's Page.getInstallabilityErrors: none), its service worker running; and
offline, the rules and guides still read while a page that needs the server says so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browser import PHONE, TIMEOUT, shot
from conftest import ARGS, CHROMIUM
from playwright.sync_api import Browser, Page, Playwright, expect

from tapete.registry import REGISTRY


def worker_ready(page: Page) -> None:
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null || true")


def test_the_hall_installs_as_an_app(
    playwright: Playwright, server_url: str, tmp_path: Path
) -> None:
    """In Debian's Chromium itself (the browser a player installs from), in a profile of its
    own (an incognito one, as a test's context is, never offers to install)."""
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS, locale="es-ES"
    )
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(server_url + "/")
        worker_ready(page)
        cdp = context.new_cdp_session(page)
        errors: dict[str, Any] = cdp.send("Page.getInstallabilityErrors")
        assert errors["installabilityErrors"] == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [] and json.loads(manifest["data"])["short_name"] == "Tapete"
    finally:
        context.close()


def test_offline_the_rules_read_and_play_says_it_needs_the_connection(
    browser: Browser, server_url: str, screenshots: Path
) -> None:
    context = browser.new_context(
        viewport={"width": PHONE["width"], "height": PHONE["height"]},
        has_touch=True,
        is_mobile=True,
        locale="es-ES",
    )
    context.set_default_timeout(TIMEOUT)
    try:
        offline(context.new_page(), server_url, screenshots)
    finally:
        context.close()


def offline(page: Page, server_url: str, screenshots: Path) -> None:
    page.goto(server_url + "/")
    worker_ready(page)
    page.reload()  # (now the worker controls the page)
    page.context.set_offline(True)
    try:
        page.goto(server_url + "/reglas/rummy")
        expect(page.get_by_role("heading", level=1)).to_contain_text("Rummy")
        page.goto(server_url + "/peaje/guia")
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        page.goto(server_url + "/guerra")
        expect(page.get_by_role("heading", level=1)).to_have_text("Sin conexión")
        guides = sum(e.game.guide is not None for e in REGISTRY.values())
        links = page.locator(".offline-list a")
        expect(links).to_have_count(1 + len(REGISTRY) + guides)  # (all rules, each, guides)
        shot(page, screenshots / "phone-offline.png", full=True)
    finally:
        page.context.set_offline(False)
    page.goto(server_url + "/guerra")
    expect(page.get_by_role("button", name="Empezar partida")).to_be_visible()
