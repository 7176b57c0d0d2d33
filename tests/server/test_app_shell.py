"""The installable app: a manifest a browser accepts (name, start URL, standalone, PNG icons
of 192 and 512 pixels that are served), a service worker at the root that is told this
build and what to keep, every page it keeps answering, and the offline page in both
languages."""

from __future__ import annotations

import json
import re

from starlette.testclient import TestClient

from tapete.registry import REGISTRY
from tapete.server.pages.app_shell import OFFLINE, readable_offline

PNG = b"\x89PNG\r\n\x1a\n"


def test_the_manifest(client: TestClient) -> None:
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/manifest+json")
    m = r.json()
    assert (m["short_name"], m["start_url"], m["scope"], m["display"]) == (
        "Tapete",
        "/",
        "/",
        "standalone",
    )
    assert m["name"] == "Tapete: juegos de cartas y fichas" and m["lang"] == "es"
    sizes = {i["sizes"] for i in m["icons"] if i.get("purpose") != "maskable"}
    assert {"192x192", "512x512"} <= sizes
    for icon in m["icons"]:
        png = client.get(icon["src"])
        assert png.status_code == 200 and png.content.startswith(PNG)
        width, height = (
            int.from_bytes(png.content[16:20], "big"),
            int.from_bytes(png.content[20:24], "big"),
        )
        assert f"{width}x{height}" == icon["sizes"]
    english = client.get("/manifest.webmanifest", headers={"accept-language": "en"}).json()
    assert english["name"] == "Tapete: card and tile games" and english["lang"] == "en"


def test_every_page_links_the_manifest_and_the_worker(client: TestClient) -> None:
    page = client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert re.search(r'<script type="module" src="/static/js/app\.js\?v=\w+"></script>', page)


def test_the_worker_keeps_what_can_be_read_offline(client: TestClient) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "no-cache"
    build = re.search(r'^const BUILD = "(\w+)";$', r.text, re.M)
    keep = re.search(r"^const KEEP = (\[.*\]);$", r.text, re.M)
    assert build and keep
    kept = json.loads(keep.group(1))
    assert OFFLINE in kept and "/reglas" in kept
    assert {f"/reglas/{k}" for k in REGISTRY} <= set(kept)
    assert set(readable_offline()) <= set(kept)
    assert not any(u.startswith(("/api", "/ws", "/partida", "/sala")) for u in kept)
    for url in kept:  # (one that failed would make the worker's install fail)
        assert client.get(url).status_code == 200, url


def test_the_offline_page(client: TestClient) -> None:
    es = client.get(OFFLINE)
    assert es.status_code == 200 and "Para jugar hace falta conexión" in es.text
    assert all(f'href="/reglas/{k}"' in es.text for k in REGISTRY)
    en = client.get(OFFLINE, headers={"accept-language": "en"})
    assert "Playing needs a connection" in en.text


def test_the_worker_keeps_every_file_the_pages_it_keeps_load(client: TestClient) -> None:
    """Offline, a kept page loads only files the worker kept: its scripts and style sheets
    (the rules' step-by-step examples, js/steps.js, and the modules each imports)."""
    keep = re.search(r"^const KEEP = (\[.*\]);$", client.get("/sw.js").text, re.M)
    assert keep
    kept = set(json.loads(keep.group(1)))
    loads = re.compile(
        r'<(?:script[^>]*\ssrc|link[^>]*\shref)="(/static/[^"?]+\.(?:js|css)(?:\?v=\w+)?)"'
    )
    wanted: set[str] = set()
    for page in readable_offline():
        wanted |= set(loads.findall(client.get(page).text))
    todo = sorted(u for u in wanted if ".js?" in u)
    while todo:  # a module's imports, as it is served (each versioned)
        url = todo.pop()
        folder = url.rsplit("/", 1)[0]
        for spec in re.findall(
            r"""\bfrom\s*["']\./([\w./-]+\.js\?v=\w+)["']""", client.get(url).text
        ):
            imported = f"{folder}/{spec}"
            if imported not in wanted:
                wanted.add(imported)
                todo.append(imported)
    assert "/static/js/steps.js" in {u.split("?")[0] for u in wanted}
    assert wanted <= kept, sorted(wanted - kept)
