"""El Peaje's guide pages (``/peaje/guia/{page}``): every page renders, in Spanish, with
its title, links to the others and to the game, and the calculations page shows the
numbers the engine computes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tapete.games.peaje_guide import examples as peaje_examples
from tapete.server.app import create_app
from tapete.store import default_url

PAGES = {
    "index": "La guía de El Peaje",
    "como-jugar": "Cómo jugar",
    "situaciones": "Tres situaciones, resueltas",
    "variantes": "Las variantes",
    "preguntas": "Preguntas frecuentes",
    "calculos": "Los cálculos de mayor o menor",
    "previa": "El Peaje en una previa",
    "responsable": "Juego responsable",
}


@pytest.fixture(scope="module")
def guide(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path: Path = tmp_path_factory.mktemp("guide") / "t.db"
    with TestClient(create_app(default_url(path))) as client:
        yield client


def h1(html: str) -> str:
    found = re.search(r"<h1[^>]*>(.*?)</h1>", html, re.S)
    assert found, "no h1"
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


def text(html: str) -> str:
    """The page's visible words, tags removed and spaces folded."""
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)).replace("\xa0", " ")


@pytest.mark.parametrize(("page", "title"), PAGES.items())
def test_every_guide_page_renders(guide: TestClient, page: str, title: str) -> None:
    r = guide.get(f"/peaje/guia/{page}")
    assert r.status_code == 200, r.text[:500]
    assert r.headers["content-type"].startswith("text/html")
    html = r.text
    assert h1(html) == title
    assert '<html lang="es">' in html and 'name="viewport"' in html
    assert "css/rules.css" in html and "css/guide.css" in html
    assert 'href="/peaje"' in html  # to play
    if page != "index":
        assert 'href="/peaje/guia"' in html  # back to the contents


def test_the_guide_index_links_every_page(guide: TestClient) -> None:
    html = guide.get("/peaje/guia").text
    assert h1(html) == PAGES["index"]
    for page in PAGES:
        if page != "index":
            assert f'href="/peaje/guia/{page}"' in html, page
    assert 'href="/peaje"' in html and 'href="/reglas/peaje"' in html


def test_pages_chain_previous_and_next(guide: TestClient) -> None:
    keys = list(PAGES)
    for i, page in enumerate(keys):
        html = guide.get(f"/peaje/guia/{page}").text
        if i + 1 < len(keys):
            assert f'href="/peaje/guia/{keys[i + 1]}" rel="next"' in html
        else:
            assert 'rel="next"' not in html


def test_calculos_shows_the_engine_numbers(guide: TestClient) -> None:
    """«Los cálculos de mayor o menor»: con un 6 al empezar, 32 mayores, 16 menores y 3
    iguales de 51; y cada ejemplo con las cuentas, fracciones y porcentajes del motor."""
    words = text(guide.get("/peaje/guia/calculos").text)
    for number in ("32", "16", "3", "51"):
        assert re.search(rf"\b{number}\b", words), number
    assert "32 de 51" in words and "16 de 51" in words and "3 de 51" in words
    assert "62,7 %" in words and "31,4 %" in words and "5,9 %" in words
    assert "3/51 = 1/17" in words
    for example in peaje_examples():
        for answer in example["answers"]:
            assert f"{answer['count']} de {example['total']}" in words
            assert answer["percent_text"].replace("\xa0", " ") in words
            assert answer["raw"] in words


def test_peaje_examples_come_from_the_engine() -> None:
    examples = {e["key"]: e for e in peaje_examples()}
    assert list(examples) == ["inicio-6", "vistas-6", "as", "dos", "redonda-picuda", "palo"]
    assert examples["inicio-6"]["counts"] == {"mayor": 32, "menor": 16, "tie": 3}
    assert examples["inicio-6"]["total"] == 51
    assert examples["vistas-6"]["counts"] == {"mayor": 29, "menor": 15, "tie": 3}
    assert examples["as"]["counts"] == {"mayor": 0, "menor": 48, "tie": 3}
    assert examples["dos"]["counts"] == {"mayor": 48, "menor": 0, "tie": 3}
    assert examples["redonda-picuda"]["counts"] == {"redonda": 24, "picuda": 26}
    assert examples["palo"]["counts"] == {"corazones": 12, "diamantes": 12, "treboles": 11,
                                          "picas": 12}  # fmt: skip
    for e in examples.values():
        assert sum(e["counts"].values()) == e["total"] == 52 - len(e["seen"])


def test_situaciones_works_the_three_situations(guide: TestClient) -> None:
    words = text(guide.get("/peaje/guia/situaciones").text)
    for card in ("6♥", "10♣", "6♦", "3♣", "J♠"):
        assert card in words
    assert "51 cartas" in words and "mazo agotado" in words


def test_the_toll_is_never_alcohol(guide: TestClient) -> None:
    """RULES.md: the toll's safe suggestions are un punto, un vaso de agua, una pregunta, un
    reto breve; the app never suggests alcohol. The word only appears to rule it out (or in
    the question that the answer rules it out)."""
    previa = text(guide.get("/peaje/guia/previa").text)
    for idea in ("Un punto", "Un vaso de agua", "Una pregunta", "Un reto breve"):
        assert idea in previa
    for page in PAGES:
        words = text(guide.get(f"/peaje/guia/{page}").text).lower()
        for drink in ("chupito", "cerveza", "cubata", "vino", "licor", "shot", "trago de alcohol"):
            assert not re.search(rf"\b{drink}\b", words), (page, drink)
        for sentence in re.split(r"(?<=[.!?])\s", words):
            if "alcohol" in sentence and not sentence.endswith("?"):
                assert re.search(r"\b(no|nunca|nada de|sin|ni)\b", sentence), (page, sentence)


def test_faq_uses_details(guide: TestClient) -> None:
    html = guide.get("/peaje/guia/preguntas").text
    assert html.count("<details>") >= 10
    assert html.count("<summary>") == html.count("<details>")


def test_unknown_guide_page_is_404(guide: TestClient) -> None:
    assert guide.get("/peaje/guia/trucos").status_code == 404
    assert guide.get("/peaje/guia/_layout").status_code == 404
