"""The card codec: parsing and printing French cards, names, colours and shapes."""

from __future__ import annotations

import pytest

from tapete.cards import (
    Card,
    CardParseError,
    format_cards,
    full_deck,
    parse_cards,
    rank_value,
)


def test_full_deck_has_52_distinct_cards() -> None:
    deck = full_deck()
    assert len(deck) == 52 == len(set(deck))
    assert deck[0] == Card(2, "H") and deck[-1] == Card(14, "S")


@pytest.mark.parametrize("card", full_deck())
def test_str_repr_code_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(card.code) == card
    assert eval(repr(card), {"Card": Card}) == card
    assert card.code.isascii()


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("10♥", 10, "H"),
        ("10H", 10, "H"),
        ("th", 10, "H"),
        ("T♣", 10, "C"),
        ("AS", 14, "S"),
        ("1s", 14, "S"),
        ("as", 14, "S"),
        ("q♦", 12, "D"),
        ("Jc", 11, "C"),
        ("kd", 13, "D"),
        ("2h", 2, "H"),
        ("  9S ", 9, "S"),
    ],
)
def test_parse_accepts_symbols_letters_and_case(text: str, rank: int, suit: str) -> None:
    assert Card.parse(text) == Card(rank, suit)


def test_text_forms() -> None:
    card = Card.parse("10h")
    assert str(card) == "10♥"
    assert card.code == "10H"
    assert repr(card) == "Card.parse('10♥')"
    assert card.rank_text == "10"
    assert Card.parse("ks").rank_text == "K"


@pytest.mark.parametrize(
    ("text", "es", "en"),
    [
        ("KS", "rey de picas", "king of spades"),
        ("AH", "as de corazones", "ace of hearts"),
        ("QD", "reina de diamantes", "queen of diamonds"),
        ("JC", "jota de tréboles", "jack of clubs"),
        ("10S", "diez de picas", "ten of spades"),
        ("2H", "dos de corazones", "two of hearts"),
        ("7C", "siete de tréboles", "seven of clubs"),
    ],
)
def test_spanish_and_english_names(text: str, es: str, en: str) -> None:
    card = Card.parse(text)
    assert card.name() == es
    assert card.name("es") == es
    assert card.name("en") == en


@pytest.mark.parametrize(
    "text",
    ["", "K", "1", "11H", "0H", "1H0", "KX", "ZZ", "10", "♥", "KH♥", "AHS", "-2H", "99"],
)
def test_bad_text_raises_card_parse_error(text: str) -> None:
    with pytest.raises(CardParseError):
        Card.parse(text)


def test_card_parse_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="not a card"):
        Card.parse("XX")


def test_invalid_card_values_refused() -> None:
    with pytest.raises(CardParseError):
        Card(1, "H")
    with pytest.raises(CardParseError):
        Card(15, "S")
    with pytest.raises(CardParseError):
        Card(10, "X")


def test_colours_and_shapes() -> None:
    """RULES.md: rojas ♥ ♦; redondas ♥ ♣, picudas ♦ ♠."""
    assert [c.red for c in parse_cards("2H 2D 2C 2S")] == [True, True, False, False]
    assert [c.round for c in parse_cards("2H 2D 2C 2S")] == [True, False, True, False]


def test_rank_value_ace_high_or_low() -> None:
    assert rank_value(Card.parse("AS")) == 14
    assert rank_value(Card.parse("AS"), ace_low=True) == 1
    assert rank_value(Card.parse("KS"), ace_low=True) == 13
    assert rank_value(Card.parse("2S")) == 2


def test_ordering_is_by_rank_then_suit() -> None:
    assert Card.parse("2S") < Card.parse("3H")
    assert sorted(parse_cards("AS 2H KD")) == parse_cards("2H KD AS")


def test_parse_cards_and_format_cards() -> None:
    cards = parse_cards("9H K♠, 2c  10d")
    assert cards == [Card(9, "H"), Card(13, "S"), Card(2, "C"), Card(10, "D")]
    assert format_cards(cards) == "9♥ K♠ 2♣ 10♦"
    assert parse_cards(format_cards(cards)) == cards
    assert parse_cards("") == [] and parse_cards("  ") == []
    assert format_cards([]) == ""
    with pytest.raises(CardParseError):
        parse_cards("9H XX")


def test_cards_are_hashable_and_immutable() -> None:
    card = Card.parse("QH")
    assert {card, Card.parse("Q♥")} == {card}
    with pytest.raises(AttributeError):
        card.rank = 3  # type: ignore[misc]
