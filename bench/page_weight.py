"""What a first visit costs: the bytes Chromium transferred (encoded bodies and headers) and
the bytes it read (decoded), for the hall's first load and for each game's table (after its
setup page, with the browser's cache emptied: every file of the table on the wire), and the
time from «Empezar partida» to a drawn table, on loopback.

    .venv/bin/python bench/page_weight.py [--runs 5]

Budgets (issue 14): hall ≤ 15 KB, a table ≤ 50 KB transferred; a table drawn ≤ 300 ms.
tests/e2e/test_page_weight_browser.py asserts the byte budgets."""

from __future__ import annotations

import argparse
import contextlib
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from fuzz import Server  # (bench/, the script's own folder)
from playwright.sync_api import Page, Response, sync_playwright

from tapete.registry import REGISTRY

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def weigh(responses: list[Response]) -> tuple[int, int, int]:
    """(transferred bytes, decoded body bytes, responses)."""
    wire = body = 0
    for r in responses:
        sizes = r.request.sizes()
        wire += sizes["responseBodySize"] + sizes["responseHeadersSize"]
        with contextlib.suppress(Exception):  # (a redirect has no body)
            body += len(r.body())
    return wire, body, len(responses)


def first_load(page: Page, url: str) -> tuple[int, int, int]:
    seen: list[Response] = []
    page.on("response", lambda r: seen.append(r))
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return weigh(seen)


CLICKED = """() => document.addEventListener("click", () => sessionStorage.setItem(
  "bench.clicked", String(performance.timeOrigin + performance.now())),
  {capture: true, once: true})"""
"""The setup page notes when the button is clicked (the tab's sessionStorage outlives the
navigation); the table notes when it is first drawn (``Table.drawnAt``)."""
WAITED = "() => window.__tapete.drawnAt - Number(sessionStorage.getItem('bench.clicked'))"


def table(
    page: Page, base: str, kind: str, cold: bool = True
) -> tuple[tuple[int, int, int], float, float]:
    """The table's first load from its setup page (``cold``: with the cache emptied first):
    its weight, the time from the click to the drawn table as the page saw it, and the same
    as the test's clock saw it (which adds Playwright's own work around a click)."""
    page.goto(f"{base}/{kind}")
    if cold:
        page.context.new_cdp_session(page).send("Network.clearBrowserCache")
    page.evaluate(CLICKED)
    seen: list[Response] = []
    page.on("response", lambda r: seen.append(r))
    t0 = time.perf_counter()
    page.get_by_role("button", name="Empezar partida").click()
    page.wait_for_function("() => window.__tapete && window.__tapete.drawnAt")
    outside = time.perf_counter() - t0
    waited = float(page.evaluate(WAITED)) / 1000
    page.wait_for_load_state("networkidle")
    return weigh(seen), waited, outside


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), "--bot-pace", "1")
        try:
            rows: list[tuple[str, Any, list[float], list[float], list[float]]] = []
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)

                def fresh() -> Page:
                    ctx = browser.new_context(locale="es-ES", service_workers="block")
                    return ctx.new_page()

                page = fresh()
                rows.append(("hall (/)", first_load(page, server.base + "/"), [], [], []))
                page.context.close()
                for kind in REGISTRY:
                    times: list[float] = []
                    warm: list[float] = []
                    outside: list[float] = []
                    weight: Any = None
                    page = fresh()  # a first table of this game, unmeasured: a server that
                    table(page, server.base, kind)  # has drawn one (its templates compiled)
                    page.context.close()
                    for _ in range(args.runs):
                        page = fresh()
                        weight, drawn, seen = table(page, server.base, kind)
                        times.append(drawn)
                        outside.append(seen)
                        warm.append(table(page, server.base, kind, cold=False)[1])
                        page.context.close()
                    rows.append((f"{kind} table", weight, times, warm, outside))
                browser.close()
        finally:
            server.stop()
    print(
        "| page | transferred KB | decoded KB | responses "
        "| «Empezar partida» → table drawn, cold cache: median / max ms | warm cache "
        "| cold, by the test's clock |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")

    def ms(xs: list[float]) -> str:
        return f"{1000 * statistics.median(xs):.0f} / {1000 * max(xs):.0f}" if xs else "–"

    for name, (wire, body, n), times, warm_times, outside_times in rows:
        print(
            f"| {name} | {wire / 1024:.1f} | {body / 1024:.1f} | {n} | {ms(times)} "
            f"| {ms(warm_times)} | {ms(outside_times)} |"
        )


if __name__ == "__main__":
    main()
