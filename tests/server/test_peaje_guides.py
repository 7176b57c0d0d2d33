"""El Peaje's guide pages (``/peaje/guia/{page}``): every page renders, in Spanish and in
English, with its title, links to the others and to the game, and the calculations page
shows the numbers the engine computes, written the way the reader's language writes them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tapete.games.peaje import SPEC
from tapete.games.peaje.guide import examples as peaje_examples
from tapete.i18n import text as translate
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
ENGLISH = {
    "index": "The guide to El Peaje",
    "como-jugar": "How to play",
    "situaciones": "Three situations",
    "variantes": "The variants",
    "preguntas": "Frequently asked questions",
    "calculos": "The odds of higher or lower",
    "previa": "El Peaje before a night out",
    "responsable": "Responsible play",
}
"""The pages' titles in English (as the breadcrumbs, the pager and the contents show them)."""
ES = {"lang": "es"}
"""Every request says its language: the client keeps the last one in a cookie."""
H1_EN = {**ENGLISH, "situaciones": "Three situations, worked through"}


@pytest.fixture(scope="module")
def guide(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path: Path = tmp_path_factory.mktemp("guide") / "t.db"
    with TestClient(create_app(default_url(path))) as client:
        yield client


def h1(html: str) -> str:
    found = re.search(r"<h1[^>]*>(.*?)</h1>", html, re.S)
    assert found, "no h1"
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


def url(page: str) -> str:
    return "/peaje/guia" if page == "index" else f"/peaje/guia/{page}"


def plain(fragment: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", fragment)).strip()


def text(html: str) -> str:
    """The page's visible words, tags removed and spaces folded."""
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)).replace("\xa0", " ")


@pytest.mark.parametrize(("page", "title"), PAGES.items())
def test_every_guide_page_renders(guide: TestClient, page: str, title: str) -> None:
    r = guide.get(url(page), params=ES)
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
    html = guide.get("/peaje/guia", params=ES).text
    assert h1(html) == PAGES["index"]
    for page in PAGES:
        if page != "index":
            assert f'href="/peaje/guia/{page}"' in html, page
    assert 'href="/peaje"' in html and 'href="/reglas/peaje"' in html


def test_pages_chain_previous_and_next(guide: TestClient) -> None:
    keys = list(PAGES)
    for i, page in enumerate(keys):
        html = guide.get(f"/peaje/guia/{page}", params=ES).text
        if i + 1 < len(keys):
            assert f'href="/peaje/guia/{keys[i + 1]}" rel="next"' in html
        else:
            assert 'rel="next"' not in html


def test_calculos_shows_the_engine_numbers(guide: TestClient) -> None:
    """«Los cálculos de mayor o menor»: con un 6 al empezar, 32 mayores, 16 menores y 3
    iguales de 51; y cada ejemplo con las cuentas, fracciones y porcentajes del motor."""
    html = guide.get("/peaje/guia/calculos", params=ES).text
    assert "62,7\xa0%" in html  # Spanish keeps a no-break space before the sign
    words = text(html)
    for number in ("32", "16", "3", "51"):
        assert re.search(rf"\b{number}\b", words), number
    assert "32 de 51" in words and "16 de 51" in words and "3 de 51" in words
    assert "62,7 %" in words and "31,4 %" in words and "5,9 %" in words
    assert "62.7" not in words
    assert "3/51 = 1/17" in words
    for example in peaje_examples():
        for answer in example["answers"]:
            assert f"{answer['count']} de {example['total']}" in words
            spanish = f"{answer['share'] * 100:.1f}".replace(".", ",") + " %"
            assert spanish in words, spanish
            assert answer["raw"] in words


def test_calculos_in_english_writes_numbers_english_style(guide: TestClient) -> None:
    """The same engine figures, in English: «62,7 %» reads 62.7%, «32 de 51» reads 32 of 51;
    fractions and counts are the same numbers."""
    html = guide.get("/peaje/guia/calculos", params={"lang": "en"}).text
    words = text(html)
    assert "62.7%" in words and "31.4%" in words and "5.9%" in words
    assert "32 of 51" in words and "3/51 = 1/17" in words
    assert "Calling “higher” is right 32 times out of 51, or 62.7%" in words
    assert not re.search(r"\d,\d", words), "a Spanish decimal comma in English"
    assert " de " not in words
    for example in peaje_examples():
        for answer in example["answers"]:
            assert f"{answer['count']} of {example['total']}" in words
            assert f"{answer['share'] * 100:.1f}%" in words
            assert answer["raw"] in words
    # the bars are as wide as the odds panel's percentage, in CSS's own notation
    assert 'style="width: 62.7%"' in html


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


def test_the_titles_come_from_the_descriptor() -> None:
    """The guide's pages are the descriptor's, in reading order, and each title has its
    English in the game's catalog."""
    assert dict(SPEC.guide.pages) == {**PAGES, "situaciones": "Tres situaciones"}  # type: ignore[union-attr]
    for page, title in SPEC.guide.pages.items():  # type: ignore[union-attr]
        assert translate("peaje", "en", title) == ENGLISH[page]
        assert translate("peaje", "es", title) == title


@pytest.mark.parametrize("page", list(ENGLISH))
def test_every_guide_page_in_english(guide: TestClient, page: str) -> None:
    """In English, a page has its English title (h1, the window's title), the breadcrumbs
    and the pager name the pages in English and link where the Spanish ones do."""
    keys = list(ENGLISH)
    i = keys.index(page)
    html = guide.get(url(page), params={"lang": "en"}).text
    assert '<html lang="en">' in html and '<article class="wrap rules guide" lang="en">' in html
    assert h1(html) == H1_EN[page]
    title = plain(re.search(r"<title>(.*?)</title>", html, re.S).group(1))  # type: ignore[union-attr]
    suffix = "" if page == "index" else " · El Peaje guide"
    assert title == f"{H1_EN[page]}{suffix} · Tapete"
    assert re.search(r'<meta name="description" content="[^"]{40,}">', html)
    # where you are
    crumbs = re.search(r'<nav class="crumbs" aria-label="You are here">(.*?)</nav>', html, re.S)
    assert crumbs, "no breadcrumbs"
    assert '<a href="/peaje">El Peaje</a>' in crumbs.group(1)
    if page == "index":
        assert '<span aria-current="page">Guide</span>' in crumbs.group(1)
    else:
        assert '<a href="/peaje/guia">Guide</a>' in crumbs.group(1)
        assert f'<span aria-current="page">{ENGLISH[page]}</span>' in crumbs.group(1)
    assert '<p class="kicker">El Peaje guide</p>' in html
    # the way on
    pager = re.search(r'<nav class="pager" aria-label="Guide pages">(.*?)</nav>', html, re.S)
    assert pager, "no pager"
    links = re.findall(
        r'<a class="(prev|next)" href="([^"]+)" rel="\1">'
        r"<small>([^<]+)</small><span>([^<]+)</span></a>",
        pager.group(1),
    )
    want = []
    if i > 0:
        want.append(("prev", url(keys[i - 1]), "Previous", ENGLISH[keys[i - 1]]))
    if i + 1 < len(keys):
        want.append(("next", url(keys[i + 1]), "Next", ENGLISH[keys[i + 1]]))
    assert links == want
    assert '<a class="btn play-big" href="/peaje">Play El Peaje</a>' in html
    assert '<a href="/reglas/peaje">Full rules</a>' in html
    assert '<a href="/">Back to the hall</a>' in html
    assert ('<a href="/peaje/guia">Guide contents</a>' in html) == (page != "index")


def test_the_english_index_lists_every_page_by_its_english_title(guide: TestClient) -> None:
    html = guide.get("/peaje/guia", params={"lang": "en"}).text
    cards = re.findall(
        r'<a href="(/peaje/guia/[^"]+)"><span class="toc-n">(\d+)</span><strong>([^<]+)</strong>'
        r"<span>([^<]+)</span></a>",
        html,
    )
    assert [(href, n, title) for href, n, title, _ in cards] == [
        (url(page), str(n), ENGLISH[page]) for n, page in enumerate(list(ENGLISH)[1:], 1)
    ]
    assert all(blurb.endswith(".") and len(blurb) > 20 for *_, blurb in cards)
    assert '<a href="/reglas/peaje">full rules</a>' in html


def test_the_spanish_pager_and_breadcrumbs(guide: TestClient) -> None:
    html = guide.get("/peaje/guia/variantes", params=ES).text
    assert '<nav class="crumbs" aria-label="Estás en">' in html
    assert '<span aria-current="page">Las variantes</span>' in html
    assert (
        '<a class="prev" href="/peaje/guia/situaciones" rel="prev"><small>Anterior</small>'
        "<span>Tres situaciones</span></a>"
    ) in html
    assert (
        '<a class="next" href="/peaje/guia/preguntas" rel="next"><small>Siguiente</small>'
        "<span>Preguntas frecuentes</span></a>"
    ) in html
    assert "<title>Las variantes · Guía de El Peaje · Tapete</title>" in html


def test_english_pages_link_within_the_guide(guide: TestClient) -> None:
    """Every link of an English guide page goes somewhere that answers, and anchors
    within the guide point at an element that exists."""
    for page in ENGLISH:
        html = guide.get(url(page), params={"lang": "en"}).text
        for href in set(re.findall(r'href="(/[^"?#]*)(?:#[^"]*)?"', html)):
            if href.startswith("/static/"):
                continue
            assert guide.get(href, params={"lang": "en"}).status_code == 200, (page, href)
        for target, anchor in re.findall(r'href="(/peaje/guia/[^"#]+)?#([^"]+)"', html):
            other = guide.get(target, params={"lang": "en"}).text if target else html
            assert f'id="{anchor}"' in other, (page, target, anchor)


def test_situaciones_works_the_three_situations(guide: TestClient) -> None:
    words = text(guide.get("/peaje/guia/situaciones", params=ES).text)
    for card in ("6♥", "10♣", "6♦", "3♣", "J♠"):
        assert card in words
    assert "51 cartas" in words and "mazo agotado" in words


def test_the_toll_is_never_alcohol(guide: TestClient) -> None:
    """RULES.md: the toll's safe suggestions are un punto, un vaso de agua, una pregunta, un
    reto breve; the app never suggests alcohol. The word only appears to rule it out (or in
    the question that the answer rules it out)."""
    previa = text(guide.get("/peaje/guia/previa", params=ES).text)
    for idea in ("Un punto", "Un vaso de agua", "Una pregunta", "Un reto breve"):
        assert idea in previa
    for page in PAGES:
        words = text(guide.get(f"/peaje/guia/{page}", params=ES).text).lower()
        for drink in ("chupito", "cerveza", "cubata", "vino", "licor", "shot", "trago de alcohol"):
            assert not re.search(rf"\b{drink}\b", words), (page, drink)
        for sentence in re.split(r"(?<=[.!?])\s", words):
            if "alcohol" in sentence and not sentence.endswith("?"):
                assert re.search(r"\b(no|nunca|nada de|sin|ni)\b", sentence), (page, sentence)


def test_the_toll_is_never_alcohol_in_english(guide: TestClient) -> None:
    """The English pages are as careful: the safe suggestions are there, no drink is named,
    and alcohol is only mentioned to rule it out."""
    previa = text(guide.get("/peaje/guia/previa", params={"lang": "en"}).text)
    for idea in ("A point", "A glass of water", "A question", "A quick challenge"):
        assert idea in previa
    for page in ENGLISH:
        words = text(guide.get(url(page), params={"lang": "en"}).text).lower()
        for drink in ("shot", "shots", "beer", "wine", "spirits", "cocktail", "booze", "chug"):
            assert not re.search(rf"\b{drink}\b", words), (page, drink)
        for sentence in re.split(r"(?<=[.!?])\s", words):
            if "alcohol" in sentence and not sentence.endswith("?"):
                negated = re.search(r"\b(no|not|never|without)\b|-free|n’t", sentence)
                assert negated, (page, sentence)


def test_faq_uses_details(guide: TestClient) -> None:
    html = guide.get("/peaje/guia/preguntas", params=ES).text
    assert html.count("<details>") >= 10
    assert html.count("<summary>") == html.count("<details>")


def test_unknown_guide_page_is_404(guide: TestClient) -> None:
    assert guide.get("/peaje/guia/trucos", params=ES).status_code == 404
    assert guide.get("/peaje/guia/_layout", params=ES).status_code == 404
