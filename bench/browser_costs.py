"""What a browser test's Chromium costs: a new context and its first page, and a game page at
rest whose main button glows, in CPU seconds of the whole machine (every Chromium process, the
server, this script), with the browser suite's flags (tests/e2e/conftest.py) and, in the same
run, with Chromium's as Playwright launches it (the peer): their ratio; and a new context in
the headless shell most browser tests run in, with the suite's flags.

Run from the project root with the dev extras and Debian's Chromium, on a machine at rest (the
figures are the machine's, from /proc/stat)::

    python bench/browser_costs.py [--contexts 10] [--seconds 5] [--rounds 2]

Results go in ``bench/RESULTS.md``; a timing is never a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]
from conftest import ARGS, CHROMIUM, HEADLESS_SHELL, SERVER_FLAGS  # noqa: E402
from servers import serve  # noqa: E402

PEER_ARGS = [a for a in ARGS if not a.startswith("--disable-features=")]
"""The suite's flags but for its `--disable-features` (Playwright's own list then holds)."""


def machine_cpu() -> float:
    """CPU seconds the machine has spent (user, nice, system) since it booted."""
    with open("/proc/stat") as f:
        fields = f.readline().split()
    return (int(fields[1]) + int(fields[2]) + int(fields[3])) / 100


def new_context(browser: Any, motion: str = "no-preference") -> Any:
    return browser.new_context(
        locale="es-ES",
        viewport={"width": 1280, "height": 800},
        service_workers="block",
        reduced_motion=motion,
        bypass_csp=True,  # (the glow as before is a style added to the page)
    )


def contexts(browser: Any, url: str, n: int) -> float:
    """CPU seconds per new context with its first page loaded (the hall), closed."""
    warm = new_context(browser)
    warm.new_page().goto(url + "/")
    warm.close()
    time.sleep(1)
    start = machine_cpu()
    for _ in range(n):
        context = new_context(browser)
        context.new_page().goto(url + "/")
        context.close()
    time.sleep(1)  # (what the closed renderers still do)
    return (machine_cpu() - start) / n


SHADOW_GLOW = """
.my-turn .btn.big:not([disabled]):not([aria-disabled="true"])::after { animation: none; }
.my-turn .btn.big:not([disabled]):not([aria-disabled="true"]) {
  animation: shadow-pulse 1.6s ease-in-out infinite; }
@keyframes shadow-pulse {
  50% { box-shadow: 0 0 0 8px rgba(224, 165, 38, .25), var(--shadow); } }
"""
"""The glow as it was before (bench/RESULTS.md): the button's own box-shadow animated."""


def glowing(browser: Any, url: str, seconds: float, motion: str, css: str = "") -> float:
    """CPU seconds per second of a La guerra table at rest, its «Dar la vuelta» glowing
    (with ``css`` added to the page)."""
    context = new_context(browser, motion)
    try:
        page = context.new_page()
        page.goto(url + "/guerra")
        page.get_by_role("button", name="Empezar partida").click()
        page.locator("#turn").wait_for()
        if css:
            page.add_style_tag(content=css)
        time.sleep(1)
        start, began = machine_cpu(), time.monotonic()
        time.sleep(seconds)
        return (machine_cpu() - start) / (time.monotonic() - began)
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--contexts", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=2)
    options = parser.parse_args()
    found: dict[str, list[float]] = {}
    with (
        tempfile.TemporaryDirectory() as work,
        serve(Path(work), SERVER_FLAGS) as url,
        sync_playwright() as p,
    ):
        for _ in range(options.rounds):  # alternated, so that a busy moment hits both
            for name, binary, args in (
                ("suite", CHROMIUM, ARGS),
                ("peer", CHROMIUM, PEER_ARGS),
                ("headless shell", HEADLESS_SHELL, ARGS),
            ):
                browser = p.chromium.launch(executable_path=binary, args=args)
                try:
                    found.setdefault(f"context {name}", []).append(
                        contexts(browser, url, options.contexts)
                    )
                    if name == "suite":
                        for key, motion, css in (
                            ("glow", "no-preference", ""),
                            ("glow as before", "no-preference", SHADOW_GLOW),
                            ("glow, reduced motion", "reduce", ""),
                        ):
                            found.setdefault(key, []).append(
                                glowing(browser, url, options.seconds, motion, css)
                            )
                finally:
                    browser.close()
    for key, values in found.items():
        each = ", ".join(f"{v:.3f}" for v in values)
        print(f"{key:22} {statistics.median(values):.3f} CPU s  ({each})")
    ratio = statistics.median(found["context suite"]) / statistics.median(found["context peer"])
    print(f"a new context and its page, suite / peer: {ratio:.2f}")
    ratio = statistics.median(found["context headless shell"]) / statistics.median(
        found["context suite"]
    )
    print(f"a new context and its page, headless shell / chromium (both the suite's): {ratio:.2f}")
    ratio = statistics.median(found["glow"]) / statistics.median(found["glow as before"])
    print(f"a glowing table at rest, now / before: {ratio:.2f}")


if __name__ == "__main__":
    main()
