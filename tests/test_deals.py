"""Each game's deal, as its descriptor tells a browser to redo it (``GameSpec.deal``): the
steps made with a fresh :class:`Rng` from the seed give every pile of the game's first state
— the check the fair-deck page runs in JavaScript, here in Python, for many seeds and
options. And a deal told wrong is caught."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tapete.cards import full_deck
from tapete.registry import REGISTRY
from tapete.rng import Rng

OPTIONS: dict[str, list[dict[str, Any]]] = {
    "guerra": [{}, {"players": 3}, {"players": 4}],
    "onecard": [{}, {"players": 4}, {"players": 3, "jokers": True}],
    "rummy": [{}, {"players": 3}, {"players": 4}],
    "peaje": [{}, {"variant": "rapidos", "players": ["Ana", "Bea", ""]}],
}


def redo(deal: dict[str, Any], seed: int) -> list[str]:
    """What does not match when the steps are redone (an empty list: all of it matches)."""
    rng = Rng.from_seed(seed)
    piles = {name: list(cards) for name, cards in deal["decks"].items()}
    wrong = []
    for step in deal["steps"]:
        if "shuffle" in step:
            rng.shuffle(piles[step["shuffle"]])
        elif rng.below(step["below"]) != step["want"]:
            wrong.append(step["title"])
    for part in deal["parts"]:
        got = [piles[part["of"]][i] for i in part["take"]]
        want = part["cards"]
        if (Counter(got) != Counter(want)) if part.get("sorted") else (got != want):
            wrong.append(part["title"])
    return wrong


@pytest.mark.parametrize(("kind", "options"), [(k, o) for k, opts in OPTIONS.items() for o in opts])
def test_the_deal_follows_from_the_seed(kind: str, options: dict[str, Any]) -> None:
    spec = REGISTRY[kind].game
    config = spec.parse_config(options)
    assert spec.deal is not None
    for seed in (0, 1, 7, 2**62 - 1, 123_456_789_012):
        deal = spec.deal(config, seed)
        assert redo(deal, seed) == []
        taken = sorted(i for part in deal["parts"] if part["of"] == "deck" for i in part["take"])
        if taken:  # (one deck: every card of it is in exactly one pile)
            assert taken == list(range(len(deal["decks"]["deck"])))


@pytest.mark.parametrize("kind", sorted(OPTIONS))
def test_a_deal_told_wrong_is_caught(kind: str) -> None:
    spec = REGISTRY[kind].game
    assert spec.deal is not None
    deal = spec.deal(spec.parse_config({}), 5)
    assert redo(deal, 6) != []  # (another seed)
    part = max(deal["parts"], key=lambda p: len(p["cards"]))  # (a pile of many cards)
    cards = part["cards"]
    if part.get("sorted"):  # (one card swapped for one of another pile)
        other = next(p for p in deal["parts"] if p is not part)
        part["cards"] = [other["cards"][0], *cards[1:]]
    else:  # (two cards the other way round)
        part["cards"] = [cards[1], cards[0], *cards[2:]]
    assert redo(deal, 5) == [part["title"]]


def test_every_card_of_a_pile_is_where_the_game_put_it() -> None:
    """La guerra, by hand: the first pile is the shuffled deck's cards 0, 2, 4…"""
    spec = REGISTRY["guerra"].game
    config = spec.parse_config({})
    deck = [c.code for c in full_deck()]
    Rng.from_seed(42).shuffle(deck)
    state = spec.rules.new(config, 42)
    assert [c.code for c in state.piles[0]] == deck[0::2]
    assert spec.deal is not None
    assert spec.deal(config, 42)["parts"][0]["cards"] == deck[0::2]
