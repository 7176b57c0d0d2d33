"""Static files: compressed, linked with a version, kept by browsers for a year when
versioned and revalidated otherwise."""

from __future__ import annotations

import re

from starlette.testclient import TestClient

from tapete.server.assets import version


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
