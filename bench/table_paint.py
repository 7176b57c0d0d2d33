"""What a table costs to paint, move by move: La guerra played on by itself («Juego
automático», no pause) in Chromium's headless shell at 1280×800, traced for a few seconds;
per move, the milliseconds of the renderer's main thread, its raster workers, its compositor
and the GPU process's compositor. The peer, in the same run: the same table with the felt's
rim and blurred shadow painted in the felt itself, as before (CSS injected).

    tapete serve --port 8765 --db /tmp/paint.db --test-api &
    python bench/table_paint.py --url http://127.0.0.1:8765 [--seconds 4] [--rounds 2]

Figures go in bench/RESULTS.md."""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))
from browser import still
from conftest import ARGS, HEADLESS_SHELL

BEFORE = """.felt { box-shadow: inset 0 0 0 6px #5b3a1e, inset 0 0 0 9px #3f2714,
  inset 0 10px 40px rgba(0, 0, 0, .35) !important; }
.felt::before { display: none !important; }"""
"""The felt as it was painted before (table.css): its rim and shadow in the felt itself."""
THREADS = {
    "CrRendererMain": "main",
    "ThreadPoolForegroundWorker": "raster",
    "Compositor": "compositor",
    "VizCompositorThread": "viz",
}


def measure(browser: Browser, url: str, css: str, seconds: float) -> dict[str, float]:
    """Milliseconds a move of each thread (and the moves made), for one table."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, locale="es-ES", bypass_csp=True
    )
    try:
        page = context.new_page()
        page.goto(url + "/")
        made = page.request.post(
            url + "/api/guerra/nueva", data="{}", headers={"content-type": "application/json"}
        )
        page.goto(url + made.json()["url"])
        still(page)
        if css:
            page.add_style_tag(content=css)
        page.locator("#speed").select_option("0")
        trace = Path(tempfile.mkdtemp()) / "trace.json"
        browser.start_tracing(page=page, path=str(trace), categories=["toplevel"])
        before = int(page.evaluate("() => window.__tapete.version"))
        page.locator("#autoplay").check()
        time.sleep(seconds)
        page.evaluate(
            "() => { const a = document.getElementById('autoplay'); a.checked && a.click(); }"
        )
        browser.stop_tracing()
        moves = max(1, int(page.evaluate("() => window.__tapete.version")) - before)
    finally:
        context.close()
    loaded: Any = json.loads(trace.read_text())
    events = loaded["traceEvents"] if isinstance(loaded, dict) else loaded
    names = {
        (e["pid"], e["tid"]): e["args"]["name"]
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name"
    }
    spent: collections.Counter[str] = collections.Counter()
    for e in events:
        if e.get("ph") == "X" and "tdur" in e:
            thread = THREADS.get(names.get((e["pid"], e["tid"]), ""))
            if thread:
                spent[thread] += e["tdur"]
    return {"moves": moves, **{k: spent[k] / 1000 / moves for k in THREADS.values()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="a tapete serve started with --test-api")
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    totals: dict[str, list[float]] = {"now": [], "before": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=HEADLESS_SHELL, args=ARGS)
        for _ in range(args.rounds):
            for label, css in (("now", ""), ("before", BEFORE)):
                found = measure(browser, args.url.rstrip("/"), css, args.seconds)
                total = sum(v for k, v in found.items() if k != "moves")
                totals[label].append(total)
                parts = "  ".join(f"{k} {v:5.2f}" for k, v in found.items() if k != "moves")
                print(
                    f"{label:7s} {found['moves']:4.0f} moves  ms a move: {parts}  all {total:5.2f}"
                )
        browser.close()
    now, before = (sum(v) / len(v) for v in (totals["now"], totals["before"]))
    print(f"a move painted: {now:.2f} ms now, {before:.2f} ms before: ratio {now / before:.2f}")


if __name__ == "__main__":
    main()
