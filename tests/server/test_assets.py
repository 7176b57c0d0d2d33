"""Static files: compressed, linked with a version, kept by browsers for a year when
versioned and revalidated otherwise."""

from __future__ import annotations

import re
from functools import cache

import pytest
from starlette.testclient import TestClient

from tapete.server.pages import assets
from tapete.server.pages.assets import version


def test_pages_link_versioned_assets_that_are_cached_for_good(client: TestClient) -> None:
    page = client.get("/guerra").text
    links = re.findall(r'(/static/[^"?]+\?v=[0-9a-f]{10})"', page)
    assert any(link.startswith("/static/css/tapete.css?v=") for link in links)
    for link in links:
        r = client.get(link, headers={"accept-encoding": "gzip"})
        assert r.status_code == 200
        assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
        path = link.split("/static/", 1)[1].split("?")[0]
        assert link.endswith(version(path))


def test_an_asset_without_its_version_is_revalidated(client: TestClient) -> None:
    r = client.get("/static/js/ui.js")
    assert r.status_code == 200 and r.headers["cache-control"] == "no-cache"
    again = client.get("/static/js/ui.js", headers={"if-none-match": r.headers["etag"]})
    assert again.status_code == 304


def test_text_is_served_compressed(client: TestClient) -> None:
    for url in ("/", "/static/css/table.css", "/static/js/table.js"):
        r = client.get(url, headers={"accept-encoding": "gzip"})
        assert r.headers.get("content-encoding") == "gzip", url
        raw = client.get(url, headers={"accept-encoding": "identity"})
        assert "content-encoding" not in raw.headers
        assert r.content == raw.content  # the client decompressed the same bytes


def test_a_module_imports_its_modules_by_version_and_a_table_preloads_them(
    client: TestClient,
) -> None:
    """A module's imports carry the versions of the modules they name (so the whole graph
    is cached for good), and a table's page preloads every module its game's imports
    reach, so a first visit asks for them at once rather than one import after another."""
    text = client.get(f"/static/js/table.js?v={version('js/table.js')}").text
    imports = re.findall(r'from "\./([\w.]+\.js)\?v=([0-9a-f]{10})"', text)
    assert {name for name, _v in imports} == {"net.js", "rematch.js", "replay.js", "ui.js"}
    # the modules a table loads later (the sounds at a first touch, the end's extras at the
    # end) are versioned as well, and not preloaded: a first visit does not fetch them
    later = re.findall(r'import\("\./([\w.]+\.js)\?v=([0-9a-f]{10})"\)', text)
    assert {name for name, _v in later} == {"alerts.js", "end_extras.js"}
    for name, v in imports + later:
        assert v == version(f"js/{name}")
    page = client.post("/onecard/nueva", data={"players": "2", "level": "facil"})
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/js/([\w.]+)\?v=', page.text)
    assert preloaded[0] == "onecard.js"
    assert set(preloaded) == {
        "onecard.js", "table.js", "ui.js", "cards.js", "net.js", "rematch.js", "replay.js",
        "touch.js",
    }  # fmt: skip


def test_a_version_follows_the_modules_under_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A module's version is its served text's: one that imports another changes with it."""
    table, ui, net = (assets.version(f"js/{n}.js") for n in ("table", "ui", "net"))
    real = assets.source.__wrapped__

    def edited(path: str) -> bytes:
        data = real(path)
        return data + b"\n// edited\n" if path == "js/ui.js" else data

    monkeypatch.setattr(assets, "source", cache(edited))
    assets.version.cache_clear()
    try:
        assert assets.version("js/ui.js") != ui
        assert assets.version("js/table.js") != table  # (it imports ui.js)
        assert assets.version("js/net.js") == net  # (it imports nothing)
    finally:
        assets.version.cache_clear()
