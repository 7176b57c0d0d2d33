"""The page budget (issue 14), counted in a real browser from what it transferred (each
response's encoded body and headers, as Chromium reports them): the hall's first load
≤ 15 KB, a table's (its page and every file it loads, after the setup page) ≤ 50 KB, in a
fresh browser with nothing cached. bench/page_weight.py prints the same figures."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser import TIMEOUT
from playwright.sync_api import Page, Response, expect

from tapete.registry import REGISTRY

HALL_BUDGET = 15 * 1024
TABLE_BUDGET = 50 * 1024


class Meter:
    """The bytes a page's responses took on the wire, from when it is started."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.seen: list[Response] = []
        page.on("response", lambda r: self.seen.append(r))

    def reset(self) -> None:
        self.seen.clear()

    def total(self) -> int:
        self.page.wait_for_load_state("networkidle")
        out = 0
        for response in self.seen:
            sizes = response.request.sizes()
            out += sizes["responseBodySize"] + sizes["responseHeadersSize"]
        return out


@pytest.fixture
def fresh(browser: Any) -> Iterator[Page]:
    context = browser.new_context(locale="es-ES", service_workers="block")
    context.set_default_timeout(TIMEOUT)
    try:
        yield context.new_page()
    finally:
        context.close()


def test_the_halls_first_load(fresh: Page, server_url: str) -> None:
    meter = Meter(fresh)
    fresh.goto(server_url + "/")
    expect(fresh.locator(".game-card").first).to_be_visible()
    total = meter.total()
    assert any("gzip" in (r.headers.get("content-encoding") or "") for r in meter.seen)
    assert total <= HALL_BUDGET, f"the hall took {total} bytes"


@pytest.mark.parametrize("kind", sorted(REGISTRY))
def test_a_tables_first_load(fresh: Page, server_url: str, kind: str) -> None:
    fresh.goto(f"{server_url}/{kind}")
    cdp = fresh.context.new_cdp_session(fresh)
    cdp.send("Network.clearBrowserCache")  # (the table's files, all of them, on the wire)
    meter = Meter(fresh)
    fresh.get_by_role("button", name="Empezar partida").click()
    fresh.wait_for_url(f"{server_url}/partida/*")
    fresh.wait_for_function("() => window.__tapete && window.__tapete.view !== null")
    total = meter.total()
    assert total <= TABLE_BUDGET, f"the {kind} table took {total} bytes"
