"""A table's page carries the words its ES modules name the pieces with
(``<script type="application/json" id="tapete-words">``), built from the game's descriptor
(``GameSpec.page_words``) in the page's language: the French deck's from ``tapete.cards``,
Rummy's tiles from its ``names``. The modules hold no copy of them (tests/test_page_copies.py)
and put them together as the Python model does (tests/test_cards.py)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from tapete.games.protocol import deck_words
from tapete.registry import REGISTRY

WORDS = re.compile(r'<script type="application/json" id="tapete-words">(.*?)</script>')
CARD_GAMES = [k for k, e in REGISTRY.items() if e.game.page_words is deck_words]

# what a card game's page reads, in each language: how a name is made, two ranks (the
# name, and the article it takes), a suit
DECK = {
    "es": ("{rank} de {suit}", {"Q": ("reina", "la {card}"), "A": ("as", "el {card}")}, "picas"),
    "en": ("{rank} of {suit}", {"Q": ("queen", "the {card}"), "A": ("ace", "the {card}")},
           "spades"),
}  # fmt: skip


def words_of(client: TestClient, kind: str, lang: str) -> dict[str, Any]:
    r = client.post(f"/api/{kind}/nueva", json={"config": {}})
    assert r.status_code == 201, r.text
    page = client.get(r.json()["url"], params={"lang": lang})
    assert page.status_code == 200
    found = WORDS.search(page.text)
    assert found is not None, f"{kind}: no tapete-words"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_the_card_games_are_found() -> None:
    assert set(CARD_GAMES) == set(REGISTRY) - {"rummy"}  # (some games: those of the deck)


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("kind", list(REGISTRY))
def test_the_table_page_carries_its_games_words(client: TestClient, kind: str, lang: str) -> None:
    words = words_of(client, kind, lang)
    assert words == json.loads(json.dumps(REGISTRY[kind].game.words(lang)))
    # a page's words name ranks, suits, colours: never a card or a tile (hidden ones neither)
    assert not re.search(r'"(?:10|[2-9JQKA])[HDCS]"|"(?:1[0-3]|[1-9])[RANO]"|"J[12]"|"JK[12]"',
                         json.dumps(words))  # fmt: skip


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("kind", CARD_GAMES)
def test_a_card_games_page_names_the_deck(client: TestClient, kind: str, lang: str) -> None:
    words = words_of(client, kind, lang)
    card, ranks, spades = DECK[lang]
    assert words["card"] == card and words["suits"]["S"] == spades
    for rank, (name, the) in ranks.items():
        assert (words["ranks"][rank], words["the_card"][rank]) == (name, the)
    assert len(words["ranks"]) == len(words["the_card"]) == 13 and len(words["suits"]) == 4


@pytest.mark.parametrize(
    ("lang", "tile", "the_tile", "joker", "the_joker"),
    [("es", "{n} rojo", "el {n} rojo", "comodín", "el comodín"),
     ("en", "red {n}", "the red {n}", "joker", "the joker")],
)  # fmt: skip
def test_rummys_page_names_the_tiles(
    client: TestClient, lang: str, tile: str, the_tile: str, joker: str, the_joker: str
) -> None:
    words = words_of(client, "rummy", lang)
    assert (words["tile"]["R"], words["the_tile"]["R"]) == (tile, the_tile)
    assert (words["joker"], words["the_joker"]) == (joker, the_joker)
    assert words["marks"] == {"R": "●", "A": "■", "N": "▲", "O": "◆"}
    assert words["colours"] == "RANO"
