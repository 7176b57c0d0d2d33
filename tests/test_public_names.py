"""The names strangers see (tapete/public_names.py): two words from fixed lists, in the
viewer's language, the same for a guest until they choose another."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from tapete.public_names import ADJECTIVES, ANIMALS, PublicName, drawn, of, parse


def test_a_name_in_each_language() -> None:
    name = PublicName("zorro", "azul")
    assert name.words("es") == "Zorro Azul"
    assert name.words("en") == "Blue Fox"
    assert PublicName("ardilla", "veloz").words("es") == "Ardilla Veloz"
    assert PublicName("ardilla", "veloz").words("en") == "Swift Squirrel"


def test_every_pair_is_correct_spanish_the_adjectives_agree_with_either_gender() -> None:
    # no adjective ends in -o or -a: «Ardilla Valiente» and «Zorro Valiente» alike
    assert [a for a in ADJECTIVES.values() if a.endswith(("o", "a", "os", "as"))] == []


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_name_is_short_and_distinct(lang: str) -> None:
    names = [PublicName(a, b).words(lang) for a, b in itertools.product(ANIMALS, ADJECTIVES)]
    assert len(set(names)) == len(ANIMALS) * len(ADJECTIVES)
    assert max(len(n) for n in names) <= 24  # as long as a name typed for friends


def test_stored_keys_round_trip_and_nothing_else_parses() -> None:
    for animal, adjective in itertools.product(ANIMALS, ADJECTIVES):
        name = PublicName(animal, adjective)
        assert parse(name.key) == name
    for bad in ("", "zorro", "zorro-", "-azul", "azul-zorro", "zorro-azul-x", "Zorro-Azul",
                "zorro azul", None, 7, ["zorro", "azul"]):  # fmt: skip
        assert parse(bad) is None, bad


def test_the_drawn_name_is_the_guests_own_and_spread() -> None:
    assert drawn("g1") == drawn("g1")
    names = {drawn(f"guest-{i}") for i in range(500)}
    assert len(names) > 300  # 672 pairs: 500 guests rarely share one
    assert len({n.animal for n in names}) == len(ANIMALS)
    assert len({n.adjective for n in names}) == len(ADJECTIVES)


def test_a_chosen_name_wins_unless_it_left_the_lists() -> None:
    assert of("g1", "lince-leal") == PublicName("lince", "leal")
    assert of("g1", None) == drawn("g1")
    assert of("g1", "unicornio-azul") == drawn("g1")


def test_a_strangers_seat_reads_its_public_name_never_the_typed_one() -> None:
    from tapete.registry import REGISTRY
    from tapete.rooms.seats import seat_names

    seats: list[dict[str, Any]] = [
        {"kind": "human", "guest": "g1", "name": "María López", "public": "zorro-azul"},
        {"kind": "human", "guest": "g2", "name": "Ana"},
        {"kind": "bot", "level": "normal", "n": 2},
    ]
    assert seat_names(REGISTRY["onecard"], seats, 1, "es") == ["Zorro Azul", "Ana", "Luis"]
    assert seat_names(REGISTRY["onecard"], seats, 0, "en") == ["Blue Fox", "Ana", "Luis"]
