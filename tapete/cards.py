"""French playing cards: ranks, suits, colours, round and pointy suits, text codecs.

A card is a small immutable value with a text form that round-trips:

>>> Card.parse("10♥")
Card.parse('10♥')
>>> str(Card.parse("ks"))
'K♠'
>>> Card.parse("AS").name("es")
'as de picas'
>>> [str(c) for c in parse_cards("9H K♠ 2c")]
['9♥', 'K♠', '2♣']

Ranks are numbers: 2..10, J=11, Q=12, K=13, A=14 (the ace is high unless a game
says otherwise, see :func:`rank_value`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

SUITS: Final = ("H", "D", "C", "S")
"""corazones ♥, diamantes ♦, tréboles ♣, picas ♠."""

SUIT_SYMBOL: Final = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}
SYMBOL_SUIT: Final = {v: k for k, v in SUIT_SYMBOL.items()}
RED_SUITS: Final = frozenset({"H", "D"})
ROUND_SUITS: Final = frozenset({"H", "C"})
"""Redondas: ♥ ♣. Picudas: ♦ ♠."""

RANKS: Final = tuple(range(2, 15))
RANK_TEXT: Final = {11: "J", 12: "Q", 13: "K", 14: "A"}
TEXT_RANK: Final = {"J": 11, "Q": 12, "K": 13, "A": 14, "1": 14}

SUIT_NAMES: Final = {
    "es": {"H": "corazones", "D": "diamantes", "C": "tréboles", "S": "picas"},
    "en": {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"},
}
RANK_NAMES: Final = {
    "es": {
        2: "dos",
        3: "tres",
        4: "cuatro",
        5: "cinco",
        6: "seis",
        7: "siete",
        8: "ocho",
        9: "nueve",
        10: "diez",
        11: "jota",
        12: "reina",
        13: "rey",
        14: "as",
    },
    "en": {
        2: "two",
        3: "three",
        4: "four",
        5: "five",
        6: "six",
        7: "seven",
        8: "eight",
        9: "nine",
        10: "ten",
        11: "jack",
        12: "queen",
        13: "king",
        14: "ace",
    },
}


class CardParseError(ValueError):
    """Raised for text that is not a card."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card of the French deck."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if self.rank not in RANKS or self.suit not in SUITS:
            raise CardParseError(f"not a card: rank={self.rank!r} suit={self.suit!r}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"10♥"``, ``"10H"``, ``"th"``, ``"AS"``, ``"q♦"``."""
        s = text.strip()
        if len(s) < 2:
            raise CardParseError(f"not a card: {text!r}")
        rank_text, suit_text = s[:-1].upper(), s[-1]
        suit = SYMBOL_SUIT.get(suit_text, suit_text.upper())
        if suit not in SUITS:
            raise CardParseError(f"not a card: {text!r}")
        if rank_text == "T":
            rank_text = "10"
        if rank_text in TEXT_RANK:
            rank = TEXT_RANK[rank_text]
        elif rank_text.isdigit() and 2 <= int(rank_text) <= 10:
            rank = int(rank_text)
        else:
            raise CardParseError(f"not a card: {text!r}")
        return cls(rank, suit)

    @property
    def red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def round(self) -> bool:
        """Redonda (♥ ♣) rather than picuda (♦ ♠)."""
        return self.suit in ROUND_SUITS

    @property
    def rank_text(self) -> str:
        return RANK_TEXT.get(self.rank, str(self.rank))

    @property
    def code(self) -> str:
        """ASCII form, as used on the wire: ``"10H"``, ``"KS"``."""
        return f"{self.rank_text}{self.suit}"

    def name(self, lang: str = "es") -> str:
        """A spoken name: ``"rey de picas"``, ``"king of spades"``."""
        rank = RANK_NAMES[lang][self.rank]
        suit = SUIT_NAMES[lang][self.suit]
        return f"{rank} de {suit}" if lang == "es" else f"{rank} of {suit}"

    def __str__(self) -> str:
        return f"{self.rank_text}{SUIT_SYMBOL[self.suit]}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def rank_value(card: Card, *, ace_low: bool = False) -> int:
    """The card's value for comparing and adding: 2..10, J 11, Q 12, K 13, A 14 (1 if low)."""
    if ace_low and card.rank == 14:
        return 1
    return card.rank


def full_deck() -> list[Card]:
    """The 52 cards in a fixed order (suit by suit, 2 to ace)."""
    return [Card(rank, suit) for suit in SUITS for rank in RANKS]


def parse_cards(text: str) -> list[Card]:
    """Parse cards separated by spaces or commas; an empty text is no cards."""
    return [Card.parse(part) for part in text.replace(",", " ").split()]


def format_cards(cards: list[Card]) -> str:
    return " ".join(str(c) for c in cards)
