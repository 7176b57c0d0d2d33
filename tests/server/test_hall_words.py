"""The house's words (DESIGN.md, «Words»): the home page is the hall, «inicio» in Spanish;
«sala» is only a private room. Every link back to the home page on the hall's pages says
«Volver al inicio» / "Back to the hall", never «sala»."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from starlette.testclient import TestClient

from tapete.registry import REGISTRY

EVIL = "https://evil.example"
PAGES = ["/", "/reglas", "/no-existe", "/perfil", "/tienda", "/historial", "/sin-conexion"]
for _key, _found in REGISTRY.items():
    PAGES += [f"/{_key}", f"/reglas/{_key}"]
    if _found.game.guide is not None:
        PAGES += [
            f"/{_key}/guia/{p}" if p != "index" else f"/{_key}/guia"
            for p in _found.game.guide.pages
        ]
BACK = {
    "es": {"Volver al inicio", "← Volver al inicio"},
    "en": {"Back to the hall", "← Back to the hall"},
}
"""How a link back to the hall reads (the header's «Tapete» aside)."""
BACK_TO = re.compile(r"^(←\s*)?(Volver (a la|al) |Back (to|home))")
"""A link that says where it goes (not «Volver a intentarlo», "Try again")."""
BUTTON = {"es": "Volver al inicio", "en": "Back to the hall"}


class _Links(HTMLParser):
    """The text of every ``<a href="/">`` of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.home: list[str] = []
        self._open: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a" and dict(attrs).get("href") == "/":
            self._open = []

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._open is not None:
            self.home.append(re.sub(r"\s+", " ", "".join(self._open)).strip())
            self._open = None


def home_links(html: str) -> list[str]:
    parser = _Links()
    parser.feed(html)
    return [t for t in parser.home if not t.endswith("Tapete")]  # (the header's «♠ Tapete»)


def _check(html: str, lang: str, where: str) -> None:
    links = home_links(html)
    assert all("sala" not in t.lower() for t in links), (where, links)
    back = [t for t in links if BACK_TO.match(t)]
    assert set(back) <= BACK[lang], (where, links)


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("url", PAGES)
def test_every_link_home_says_inicio_never_sala(client: TestClient, url: str, lang: str) -> None:
    r = client.get(url, params={"lang": lang})
    assert r.status_code in (200, 404)
    _check(r.text, lang, url)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_refusal_page_leads_back_to_the_hall(client: TestClient, lang: str) -> None:
    r = client.post(
        f"/peaje/nueva?lang={lang}",
        data={"variant": "solitario"},
        headers={"origin": EVIL, "accept": "text/html"},
        follow_redirects=False,
    )
    assert r.status_code == 403
    assert home_links(r.text) == [BUTTON[lang]]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_not_found_page_leads_back_to_the_hall(client: TestClient, lang: str) -> None:
    r = client.get("/no-existe", params={"lang": lang})
    assert r.status_code == 404 and home_links(r.text) == [BUTTON[lang]]


@pytest.mark.parametrize(
    ("lang", "alone", "friends"),
    [("es", "Tú contra el ordenador", "con amigos"), ("en", "You against the computer", "friends")],
)
def test_la_guerras_card_in_the_hall_says_it_is_played_with_friends_too(
    client: TestClient, lang: str, alone: str, friends: str
) -> None:
    html = client.get("/", params={"lang": lang}).text
    card = re.search(
        r'<article class="game-card" aria-labelledby="game-guerra">(.*?)</article>', html, re.S
    )
    assert card is not None
    assert alone not in card.group(1) and friends in card.group(1)
