"""The hall's pages: what a new player sees before the table."""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.testclient import TestClient


def test_home_lists_the_four_games(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200
    html = r.text
    assert '<html lang="es">' in html
    for title in ("La guerra", "One Card", "Rummy de fichas", "El Peaje"):
        assert title in html
    assert "Próximamente" not in html
    assert all(f'href="/{g}"' in html for g in ("guerra", "onecard", "rummy", "peaje"))
    for game in ("guerra", "onecard", "rummy", "peaje"):
        assert f'href="/reglas/{game}"' in html


def test_guest_cookie_is_signed_and_http_only(db_url: str) -> None:
    from tapete.server.app import create_app

    with TestClient(create_app(db_url)) as c:
        r = c.get("/")
        cookie = r.headers["set-cookie"]
        assert cookie.startswith("tapete_guest=") and "HttpOnly" in cookie
        assert "." in cookie.split(";")[0]  # value.signature
        assert "set-cookie" not in c.get("/").headers  # kept, not renewed


@pytest.mark.parametrize("game", ["guerra", "onecard", "rummy", "peaje"])
def test_rules_pages(client: TestClient, game: str) -> None:
    r = client.get(f"/reglas/{game}")
    assert r.status_code == 200
    assert re.search(r"<h1[^>]*>", r.text)
    assert 'name="viewport"' in r.text


def test_guerra_rules_work_the_seed_examples(client: TestClient) -> None:
    text = client.get("/reglas/guerra").text
    assert "Jugar a La guerra" in text
    assert "10 cartas" in text
    assert "80" in text and "200" in text


def test_unknown_rules_page_is_404(client: TestClient) -> None:
    assert client.get("/reglas/poker").status_code == 404


def test_setup_form_starts_a_game_and_the_hall_offers_to_resume(client: TestClient) -> None:
    setup = client.get("/guerra")
    assert setup.status_code == 200 and "Continuar partida" not in setup.text
    r = client.post(
        "/guerra/nueva",
        data={
            "players": "3",
            "length": "media",
            "down": "1",
            "ace_low": "1",
            "sums": "0",
            "order": "fixed",
        },
        follow_redirects=False,
    )
    assert r.status_code == 303
    url = r.headers["location"]
    assert url.startswith("/partida/")
    table = client.get(url)
    assert table.status_code == 200 and 'id="guerra"' in table.text
    state: dict[str, Any] = client.get("/api/partidas/" + url.rsplit("/", 1)[1]).json()
    assert state["view"]["config"] == {
        "players": 3,
        "length": "media",
        "down": 1,
        "ace_low": True,
        "sums": False,
        "order": "fixed",
    }
    assert [s["name"] for s in state["seats"]] == ["Tú", "Ordenador 1", "Ordenador 2"]
    assert "Continuar partida" in client.get("/").text
    assert url in client.get("/guerra").text


@pytest.mark.parametrize(
    "form", [{"players": "7"}, {"length": "larga"}, {"down": "2"}, {"players": "dos"}]
)
def test_bad_setup_is_refused_with_a_message(client: TestClient, form: dict[str, str]) -> None:
    r = client.post("/guerra/nueva", data=form, follow_redirects=False)
    assert r.status_code == 400
    assert "Opción no válida" in r.text
    assert "Continuar partida" not in client.get("/").text  # no game was made


def test_api_refuses_bad_json_and_unknown_games(client: TestClient) -> None:
    r = client.post("/api/guerra/nueva", content=b"{", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "bad_json"
    assert client.post("/api/poker/nueva", json={}).status_code == 404
    assert client.post("/api/guerra/nueva", json={"config": {"players": 9}}).json()["code"] == (
        "bad_config"
    )


def test_english_on_request(client: TestClient) -> None:
    r = client.get("/?lang=en")
    assert '<html lang="en">' in r.text and "Rules" in r.text
    assert '<html lang="en">' in client.get("/").text  # remembered in a cookie
    assert '<html lang="es">' in client.get("/?lang=es").text
