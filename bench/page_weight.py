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


def table(
    page: Page, base: str, kind: str, cold: bool = True
) -> tuple[tuple[int, int, int], float]:
    """The table's first load from its setup page (``cold``: with the cache emptied first)."""
    page.goto(f"{base}/{kind}")
    if cold:
        page.context.new_cdp_session(page).send("Network.clearBrowserCache")
    seen: list[Response] = []
    page.on("response", lambda r: seen.append(r))
    t0 = time.perf_counter()
    page.get_by_role("button", name="Empezar partida").click()
    page.wait_for_function("() => window.__tapete && window.__tapete.view !== null")
    drawn = time.perf_counter() - t0
    page.wait_for_load_state("networkidle")
    return weigh(seen), drawn


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), "--bot-pace", "1")
        try:
            rows: list[tuple[str, Any, list[float], list[float]]] = []
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)

                def fresh() -> Page:
                    ctx = browser.new_context(locale="es-ES", service_workers="block")
                    return ctx.new_page()

                page = fresh()
                rows.append(("hall (/)", first_load(page, server.base + "/"), [], []))
                page.context.close()
                for kind in REGISTRY:
                    times: list[float] = []
                    warm: list[float] = []
                    weight: Any = None
                    for _ in range(args.runs):
                        page = fresh()
                        weight, drawn = table(page, server.base, kind)
                        times.append(drawn)
                        warm.append(table(page, server.base, kind, cold=False)[1])
                        page.context.close()
                    rows.append((f"{kind} table", weight, times, warm))
                browser.close()
        finally:
            server.stop()
    print(
        "| page | transferred KB | decoded KB | responses "
        "| «Empezar partida» → table drawn, cold cache: median / max ms | warm cache |"
    )
    print("|---|---:|---:|---:|---:|---:|")

    def ms(xs: list[float]) -> str:
        return f"{1000 * statistics.median(xs):.0f} / {1000 * max(xs):.0f}" if xs else "–"

    for name, (wire, body, n), times, warm_times in rows:
        print(
            f"| {name} | {wire / 1024:.1f} | {body / 1024:.1f} | {n} | {ms(times)} "
            f"| {ms(warm_times)} |"
        )


if __name__ == "__main__":
    main()
