"""The card codec: parsing and printing French cards, names, colours and shapes, each
card's index — and the pages' words and their tables of symbols, checked against this one
model of the French deck."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tapete.cards import (
    CODES,
    DECK,
    RANK_CODES,
    RANK_NAMES,
    SUIT_CODES,
    SUIT_NAMES,
    SUIT_SYMBOL,
    Card,
    CardParseError,
    format_cards,
    full_deck,
    parse_cards,
    rank_value,
)
from tapete.games.protocol import deck_words
from tapete.i18n import translations

SERVER = Path(__file__).resolve().parents[1] / "tapete" / "server"


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
    assert card.words(translations("en").gettext) == en


@pytest.mark.parametrize(
    ("text", "es", "en"),
    [
        ("QS", "la reina de picas", "the queen of spades"),
        ("JC", "la jota de tréboles", "the jack of clubs"),
        ("AH", "el as de corazones", "the ace of hearts"),
        ("10D", "el diez de diamantes", "the ten of diamonds"),
    ],
)
def test_a_card_named_in_a_sentence_takes_its_article(text: str, es: str, en: str) -> None:
    card = Card.parse(text)
    assert card.the_words(translations("es").gettext) == es
    assert card.the_words(translations("en").gettext) == en


def test_the_index_is_suit_times_13_plus_rank_minus_2() -> None:
    """One Card's integers: ``suit * 13 + rank - 2``, suits ♥ ♦ ♣ ♠."""
    assert [c.index for c in DECK] == list(range(52))
    assert Card.parse("2H").index == 0 and Card.parse("AH").index == 12
    assert Card.parse("2D").index == 13 and Card.parse("AS").index == 51
    for card in full_deck():
        assert Card.from_index(card.index) == card
        assert CODES[card.index] == card.code
    for bad in (-1, 52):
        with pytest.raises(CardParseError):
            Card.from_index(bad)


@pytest.mark.parametrize(
    "text",
    ["", "K", "1", "11H", "0H", "1H0", "KX", "ZZ", "10", "♥", "KH♥", "AHS", "-2H", "99",
     "02H", "010S", "+5D", "٣H", "JK1"],
)  # fmt: skip
def test_bad_text_raises_card_parse_error(text: str) -> None:
    with pytest.raises(CardParseError):
        Card.parse(text)


def test_every_rank_is_read_from_its_code_t_or_1_only() -> None:
    """The ranks a card's text may start with are the codes (and ``T``, ``1``): no other
    spelling of a number (``02``, ``010``, another script's digits)."""
    for rank, code in zip(range(2, 15), RANK_CODES, strict=True):
        for suit in SUIT_CODES:
            assert Card.parse(code + suit) == Card.parse(code.lower() + suit.lower())
            assert Card.parse(code + suit) == Card(rank, suit)


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


# --- the pages: the model's words, and the page's own tables checked against it ----------


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("domain", ["tapete", "guerra", "onecard", "peaje"])  # some games
def test_the_pages_words_name_every_card_as_the_model_does(domain: str, lang: str) -> None:
    """A page names a card from its words (``GameSpec.page_words``, :func:`deck_words`) as
    ``static/js/cards.js`` does — ``card`` with the rank's and the suit's names, then the
    rank's article — and that is the model's name for it, in the page's domain."""
    gettext = translations(lang, domain).gettext
    words = deck_words(gettext)
    for card in DECK:
        rank = card.code[:-1]  # (cards.js: the code but its last letter)
        name = words["card"].format(rank=words["ranks"][rank], suit=words["suits"][card.suit])
        assert name == card.words(gettext)
        assert words["the_card"][rank].format(card=name) == card.the_words(gettext)
    source = (SERVER / "static" / "js" / "cards.js").read_text()
    assert "fmt(WORDS.card, { rank: WORDS.ranks[rank], suit: WORDS.suits[suit] })" in source
    assert "fmt(WORDS.the_card[parse(code).rank], { card: cardName(code) })" in source


def test_every_other_table_of_suits_or_ranks_on_the_pages_is_the_model() -> None:
    """Any other ES module's table of suit symbols, and the small cards of the rules pages
    (``templates/_cards.html``: a rank's name by its code, a suit's by its symbol)."""
    tables = 0
    for path in sorted((SERVER / "static" / "js").glob("*.js")):
        for match in re.finditer(r"\{ H: (?:_\()?\"[^}]*\}", path.read_text()):
            pairs = dict(re.findall(r'(\w): (?:_\()?"([^"]*)"\)?', match.group(0)))
            assert pairs in (SUIT_SYMBOL, SUIT_NAMES), f"{path.name}: {match.group(0)}"
            tables += 1
    assert tables >= 2  # (cards.js and fairness.js: the symbols)
    html = (SERVER / "templates" / "_cards.html").read_text()
    names = re.search(r"set names = \{(.*?)\}", html)
    suits = re.search(r"set suits = \{(.*?)\}", html)
    assert names and suits
    assert dict(re.findall(r'"(\w+)": _\("([^"]+)"\)', names.group(1))) == {
        RANK_CODES[r - 2]: name for r, name in RANK_NAMES.items()
    }
    assert dict(re.findall(r'"(.)": _\("([^"]+)"\)', suits.group(1))) == {
        SUIT_SYMBOL[s]: name for s, name in SUIT_NAMES.items()
    }
