"""Words a new player met in the wrong language or for the wrong thing, read from the pages
sent: El Peaje's toll sign («PEAJE») and its variant «La patata» in English; Rummy's tiles
called a deck of cards («baraja») on the fair-deck page, its links and the table; and a
seat's own pile on the fair-deck page called «Montón de Tú» ("You's pile")."""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from tapete.registry import REGISTRY

from .english import texts

PEAJE_PAGES = ["/peaje", "/reglas/peaje"] + [
    f"/peaje/guia/{p}" if p != "index" else "/peaje/guia"
    for p in (REGISTRY["peaje"].game.guide.pages if REGISTRY["peaje"].game.guide else ())
]


def _visible(client: TestClient, url: str, lang: str) -> str:
    """The text and labels of the page's main part (not the hall's header and footer)."""
    r = client.get(url, params={"lang": lang})
    assert r.status_code == 200, url
    main = r.text[r.text.index('<main id="main">') : r.text.index("</main>")]
    return "\n".join(texts(main))


def _play_out(room: Any) -> None:
    """Play the game in memory to its end, each actor's first legal move."""
    for _ in range(20_000):
        if room.game.outcome(room.state) is not None:
            return
        seat = room.game.actors(room.state)[0]
        room.game.apply(room.state, seat, room.game.legal_moves(room.state, seat)[0])
    raise AssertionError("the game did not end")


def _over(client: TestClient, h: Any, kind: str, **config: Any) -> str:
    """A practice game of ``kind``, played to its end in memory: its id."""
    r = client.post(f"/api/{kind}/nueva", json={"config": config})
    assert r.status_code == 201, r.text
    game = str(r.json()["id"])
    _play_out(h.room(client, game))
    return game


# El Peaje ---------------------------------------------------------------------------------


@pytest.mark.parametrize("url", PEAJE_PAGES)
def test_the_toll_sign_is_in_the_players_language(client: TestClient, url: str) -> None:
    english = _visible(client, url, "en")
    assert "PEAJE" not in english
    spanish = _visible(client, url, "es")
    if "PEAJE" in spanish:  # (a page that shows the sign shows it in English too)
        assert "TOLL" in english


def test_the_toll_dialogs_sign_is_in_the_players_language(client: TestClient) -> None:
    r = client.post("/api/peaje/nueva", json={"config": {}})
    url = r.json()["url"]
    english = client.get(url, params={"lang": "en"}).text
    sign = re.search(r'<div class="barrier"[^>]*>([^<]*)</div>', english)
    assert sign is not None and sign.group(1) == "TOLL"
    assert 'data-word="TOLL"' in english  # (what the dialog's sign draws)
    spanish = client.get(url, params={"lang": "es"}).text
    assert 'data-word="PEAJE"' in spanish


@pytest.mark.parametrize("url", ["/peaje", "/reglas/peaje"])
def test_la_patata_is_hot_potato_in_english(client: TestClient, url: str) -> None:
    english = _visible(client, url, "en")
    assert "patata" not in english.lower()
    assert "Hot Potato" in english or "Hot potato" in english


# the fair-deck page -------------------------------------------------------------------------

CARD_WORDS = {
    "es": re.compile(r"\b(baraja|barajando|barajar|mazo|cartas?)\b", re.I),
    "en": re.compile(r"\b(deck|cards?)\b", re.I),
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_rummys_fair_page_speaks_of_tiles_not_of_a_deck(
    client: TestClient, h: Any, lang: str
) -> None:
    game = _over(client, h, "rummy")
    page = _visible(client, f"/partida/{game}/justa", lang)
    assert not CARD_WORDS[lang].search(page), CARD_WORDS[lang].findall(page)
    assert ("fichas" if lang == "es" else "tiles") in page
    table = client.get(f"/partida/{game}", params={"lang": lang}).text
    fair = re.search(r'<p class="fair">(.*?)</p>', table, re.S)  # (the table's footer)
    assert fair is not None
    said = "\n".join(texts(fair.group(1)))
    assert not CARD_WORDS[lang].search(said), said
    assert ("Fichas" if lang == "es" else "Tiles") in said


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_card_games_fair_page_still_speaks_of_its_deck(
    client: TestClient, h: Any, lang: str
) -> None:
    game = _over(client, h, "guerra", players=2, length="corta")
    page = _visible(client, f"/partida/{game}/justa", lang)
    assert ("Una baraja justa" if lang == "es" else "A fair deck") in page


def test_the_history_checks_the_tiles_of_a_rummy_game_and_the_deck_of_others(
    client: TestClient,
) -> None:
    hall = client.app.state.hall  # type: ignore[attr-defined]
    me = hall.guests.read(client.cookies.get("tapete_guest"))
    assert client.portal is not None
    client.portal.call(hall.store.ensure_guest, me)
    seats = [{"kind": "human", "guest": me}, {"kind": "bot", "level": "normal"}]
    for kind, outcome in (("rummy", {"winners": [0]}), ("guerra", {"winner": 0})):
        record = client.portal.call(hall.store.create_game, kind, {}, 7, seats, me)
        client.portal.call(hall.store.append_move, record.id, 1, 0, {"type": "x"}, outcome)
    for lang, tiles, deck in (
        ("es", "Comprobar las fichas", "Comprobar la baraja"),
        ("en", "Check the tiles", "Check the deck"),
    ):
        page = client.get("/historial", params={"lang": lang}).text
        rows = page.split('class="game-row')[1:]
        rummy = next(r for r in rows if "Rummy" in r)
        guerra = next(r for r in rows if ("La guerra" if lang == "es" else "War") in r)
        assert tiles in rummy and deck not in rummy
        assert deck in guerra and tiles not in guerra


SOMEONE_CALLED_YOU = re.compile(r"de Tú|Empieza Tú|You's|You starts")
"""A title about a seat by its name, with the viewer's own name («Tú», "You") in it."""


@pytest.mark.parametrize(
    ("kind", "config", "es", "en"),
    [
        ("guerra", {"players": 2, "length": "corta"}, "Tu montón", "Your pile"),
        ("onecard", {}, "Tu mano", "Your hand"),
        ("rummy", {}, "Tu atril", "Your rack"),
    ],
)
def test_the_fair_page_calls_the_viewers_own_pile_theirs(
    client: TestClient, h: Any, kind: str, config: dict[str, Any], es: str, en: str
) -> None:
    game = _over(client, h, kind, **config)
    for lang, yours in (("es", es), ("en", en)):
        client.get("/", params={"lang": lang})
        redo = client.get(f"/api/partidas/{game}/justa").json()["redo"]
        titles = [x["title"] for x in redo["steps"] + redo["parts"] if "title" in x]
        assert yours in titles, titles
        assert not any(SOMEONE_CALLED_YOU.search(t) for t in titles), titles
