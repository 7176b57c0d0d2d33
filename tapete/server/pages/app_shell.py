"""The hall as an installable app: its manifest, its service worker, its offline page.

- ``GET /manifest.webmanifest``: name, icons (PNG, ``deploy/icons.py``), colours, start URL,
  in the visitor's language;
- ``GET /sw.js``: the service worker (``static/js/sw.js``), at the root so that it may serve
  every page; it is told the version of this build (its cache is named after it, so a new
  build replaces the old cache) and what to keep for reading offline: the rules and guides,
  the offline page and the static files they use;
- ``GET /sin-conexion``: what the worker shows for a page that needs the connection.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tapete.i18n import N_, SHARED, text
from tapete.registry import REGISTRY
from tapete.server.pages.assets import STATIC, preloads, static
from tapete.server.pages.games import Pages
from tapete.server.pages.render import lang_of

THEME = "#0f5132"
NAME = N_("Tapete: juegos de cartas y fichas")
ABOUT = N_(
    "La guerra, One Card, Rummy de fichas y El Peaje en el navegador: contra bots o con "
    "amigos en una sala privada."
)
OFFLINE = "/sin-conexion"


def readable_offline() -> list[str]:
    """The pages a player can read without the connection once the app has them."""
    pages = ["/reglas", *(f"/reglas/{key}" for key in REGISTRY)]
    for key, e in REGISTRY.items():
        if e.game.guide is not None:
            slugs = list(e.game.guide.pages)
            pages += [f"/{key}/guia", *(f"/{key}/guia/{s}" for s in slugs[1:])]
    return pages


SHELL_FILES = ("css/tapete.css", "css/rules.css", "css/guide.css", "favicon.svg")
SHELL_MODULES = ("js/app.js", "js/steps.js")
"""The scripts of the pages kept (each with the modules it imports): the rules' worked
examples step by step (steps.js) work offline too."""


@cache
def worker_source() -> str:
    """``static/js/sw.js`` with this build's version and what it keeps, set at its top."""
    body = (STATIC / "js" / "sw.js").read_text(encoding="utf-8")
    modules = dict.fromkeys(url for entry in SHELL_MODULES for url in preloads(entry))
    keep = [OFFLINE, *readable_offline(), *(static(f) for f in SHELL_FILES), *modules]
    build = hashlib.sha256(("\n".join(keep) + body).encode()).hexdigest()[:12]
    head = f"const BUILD = {json.dumps(build)};\nconst KEEP = {json.dumps(keep)};\n"
    return head + f"const OFFLINE = {json.dumps(OFFLINE)};\n" + body


class AppShell:
    def __init__(self, pages: Pages) -> None:
        self.pages = pages

    async def manifest(self, request: Request) -> Response:
        lang = lang_of(request)
        icons: list[dict[str, Any]] = [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ]
        body = {
            "id": "/",
            "name": text(SHARED, lang, NAME),
            "short_name": "Tapete",
            "description": text(SHARED, lang, ABOUT),
            "lang": lang,
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "orientation": "any",
            "background_color": THEME,
            "theme_color": THEME,
            "categories": ["games"],
            "icons": icons,
        }
        return JSONResponse(
            body,
            media_type="application/manifest+json",
            headers={"cache-control": "no-cache", "vary": "accept-language, cookie"},
        )

    async def worker(self, request: Request) -> Response:
        return Response(
            worker_source(),
            media_type="text/javascript",
            headers={"cache-control": "no-cache", "service-worker-allowed": "/"},
        )

    async def offline(self, request: Request) -> Response:
        return self.pages.render(request, "offline.html")
