"""Every page in both languages: with ?lang=en no Spanish sentence is left (read from the
HTML actually sent, labels included), and the page says which language it is in; a first
visit follows the browser's Accept-Language; the choice is remembered."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from tapete.registry import REGISTRY

from .english import spanish, spanish_lines

PAGES = ["/", "/reglas", "/no-existe"]
for _key, _found in REGISTRY.items():
    PAGES += [f"/{_key}", f"/reglas/{_key}"]
    if _found.game.guide is not None:
        PAGES += [
            f"/{_key}/guia/{p}" if p != "index" else f"/{_key}/guia"
            for p in _found.game.guide.pages
        ]
TABLES = list(REGISTRY)


def test_the_detector_tells_spanish_from_english() -> None:
    assert spanish("Tienes una partida a medias.")
    assert spanish("Reglas de la guerra")
    assert not spanish("You have a game in progress.")
    assert not spanish("Rules of El Peaje")
    assert not spanish("Sofía plays the 7 of hearts")
    assert spanish("higher: 62,7 %") and not spanish("higher: 62.7%")


@pytest.mark.parametrize("url", PAGES)
def test_every_page_in_english_has_no_spanish_left(client: TestClient, url: str) -> None:
    r = client.get(url, params={"lang": "en"})
    assert r.status_code in (200, 404)
    assert '<html lang="en">' in r.text
    left = spanish_lines(r.text)
    assert not left, f"{url}: still Spanish:\n" + "\n".join(left[:40])


@pytest.mark.parametrize("url", PAGES)
def test_a_page_read_in_spanish_first_is_all_english_after(client: TestClient, url: str) -> None:
    """One process renders for every reader: what a page worked out for a Spanish one (its
    numbers, «62,7 %») is not what the next English one reads («62.7%»)."""
    assert client.get(url, params={"lang": "es"}).status_code in (200, 404)
    r = client.get(url, params={"lang": "en"})
    left = spanish_lines(r.text)
    assert not left, f"{url} after Spanish: still Spanish:\n" + "\n".join(left[:40])


@pytest.mark.parametrize("kind", TABLES)
def test_every_table_in_english_has_no_spanish_left(client: TestClient, kind: str) -> None:
    r = client.post(f"/api/{kind}/nueva", json={"config": {}})
    page = client.get(r.json()["url"], params={"lang": "en"})
    assert page.status_code == 200 and '<html lang="en">' in page.text
    left = spanish_lines(page.text)
    assert not left, f"{kind} table: still Spanish:\n" + "\n".join(left[:40])


@pytest.mark.parametrize("url", PAGES)
def test_every_page_in_spanish_says_so(client: TestClient, url: str) -> None:
    r = client.get(url, params={"lang": "es"})
    assert '<html lang="es">' in r.text


def test_a_first_visit_follows_accept_language(db_url: str) -> None:
    from tapete.server.app import create_app

    with TestClient(create_app(db_url)) as c:
        en = c.get("/", headers={"accept-language": "en-GB,en;q=0.9,es;q=0.5"})
        assert '<html lang="en">' in en.text and "Choose a game" in en.text
        es = c.get("/", headers={"accept-language": "es-ES,es;q=0.9"})
        assert '<html lang="es">' in es.text
        other = c.get("/", headers={"accept-language": "de-DE,de;q=0.9"})
        assert '<html lang="es">' in other.text  # Spanish otherwise


def test_the_choice_is_remembered_over_the_browser(client: TestClient) -> None:
    client.get("/", params={"lang": "en"})
    again = client.get("/reglas", headers={"accept-language": "es"})
    assert '<html lang="en">' in again.text
    client.get("/", params={"lang": "es"})
    back = client.get("/reglas", headers={"accept-language": "en"})
    assert '<html lang="es">' in back.text
