"""«Jugar ahora» on a hall of two processes (one PostgreSQL, one redis-server, Caddy in front
as an operator runs it): four strangers in four browsers — one on each process directly, two
through the proxy, whose round robin sends each request to either — land at one One Card
table and play it, every move seen by all four."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import PHONE, TIMEOUT, shot, still
from playwright.sync_api import Page, expect
from test_onecard_browser import play_or_draw

from tests.cluster.conftest import RedisServer
from tests.cluster.hall import Process, caddy

pytestmark = pytest.mark.slow  # (two servers, a proxy and four browsers: started first)

DESKTOP = {"width": 1280, "height": 800}
TABLE = re.compile(r"/sala/(\d{6})$")


@pytest.fixture
def hall(tmp_path: Path, fresh_postgres: str) -> Iterator[tuple[list[Process], str]]:
    """Two processes on one database and one Redis, and Caddy in front of them."""
    redis = RedisServer(tmp_path)
    redis.start()
    made = [Process(tmp_path, name, fresh_postgres, redis.url) for name in "ab"]
    try:
        for p in made:
            p.launch()
        for p in made:
            p.wait()
        with caddy(tmp_path, [p.port for p in made]) as url:
            yield made, url
    finally:
        for p in made:
            p.stop()
        redis.stop()


def code_of(page: Page) -> str:
    found = TABLE.search(page.url)
    assert found is not None, page.url
    return found.group(1)


def test_four_strangers_on_two_processes_land_at_one_table_and_play_it(
    browser: Any, hall: tuple[list[Process], str], screenshots: Path
) -> None:
    (a, b), proxy = hall
    where = [a.url, b.url, proxy, proxy]
    sizes = [PHONE, DESKTOP, PHONE, DESKTOP]
    contexts = []
    for size in sizes:
        phone = size == PHONE
        made = browser.new_context(
            locale="es-ES", viewport=size, has_touch=phone, is_mobile=phone,
            service_workers="block",
        )  # fmt: skip
        made.set_default_timeout(TIMEOUT)
        contexts.append(made)
    try:
        pages = [c.new_page() for c in contexts]
        for page, base in zip(pages, where, strict=True):
            page.goto(f"{base}/onecard")
            form = page.locator("#quick-form")
            form.get_by_label("4", exact=True).check()
            form.get_by_role("button").click()
            expect(page.locator("#quick-wait")).to_be_visible()
        for page in pages:
            expect(page).to_have_url(TABLE)  # (within the wait: four asked for four)
        assert len({code_of(page) for page in pages}) == 1, [p.url for p in pages]
        for page in pages:
            still(page)
            seats = page.evaluate("() => window.__tapete.seats")
            assert [s["kind"] for s in seats] == ["human"] * 4
        mine = [page.evaluate("() => window.__tapete.mySeat") for page in pages]
        assert sorted(mine) == [0, 1, 2, 3]

        # the one whose turn it is plays (a card that fits, or draws): all four see it
        before = max(page.evaluate("() => window.__tapete.version") for page in pages)
        turn = pages[0].evaluate("() => window.__tapete.view.turn")
        actor = pages[mine.index(turn)]
        play_or_draw(actor)
        for page in pages:
            page.wait_for_function("v => window.__tapete.version > v", arg=before)
        shot(pages[1], screenshots / "quick-two-processes-1280.png")
    finally:
        for c in contexts:
            c.close()
