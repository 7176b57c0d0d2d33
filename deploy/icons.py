"""Draw the app's PNG icons from the favicon's SVG with Chromium (run once when the mark
changes; the PNGs are committed): ``.venv/bin/python deploy/icons.py``.

The installable app's manifest needs square PNGs of 192 and 512 pixels; the maskable one
keeps the mark inside the central 80% (the safe zone a launcher may crop to a circle)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parents[1] / "tapete" / "server" / "static"
MARK = '<text x="50%" y="{y}" font-size="{size}" text-anchor="middle" fill="#fff">♠</text>'


def page(size: int, maskable: bool) -> str:
    radius = 0 if maskable else size // 5
    glyph = int(size * (0.62 if maskable else 0.85))
    mark = MARK.format(y=int(size * (0.7 if maskable else 0.76)), size=glyph)
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}">'
        f'<rect width="{size}" height="{size}" rx="{radius}" fill="#0f5132"/>{mark}</svg>'
    )
    return f"<html><body style='margin:0;background:transparent'>{svg}</body></html>"


def main() -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for size, maskable, name in ((192, False, "icon-192.png"), (512, False, "icon-512.png"),
                                     (512, True, "icon-maskable-512.png")):  # fmt: skip
            tab = browser.new_page(viewport={"width": size, "height": size})
            tab.set_content(page(size, maskable))
            tab.screenshot(path=str(STATIC / "icons" / name), omit_background=True)
            tab.close()
        browser.close()


if __name__ == "__main__":
    main()
