"""French playing cards, the one model of the deck: ranks and suits, their codes, symbols
and colours, the text codec, each card's index, and the names (message ids of the shared
catalog, in the player's language).

A card is a small immutable value with a text form that round-trips:

>>> Card.parse("10♥")
Card.parse('10♥')
>>> str(Card.parse("ks"))
'K♠'
>>> Card.parse("AS").name("es"), Card.parse("AS").name("en")
('as de picas', 'ace of spades')
>>> [str(c) for c in parse_cards("9H K♠ 2c")]
['9♥', 'K♠', '2♣']

Ranks are numbers: 2..10, J=11, Q=12, K=13, A=14 (the ace is high unless a game
says otherwise, see :func:`rank_value`). A card's index is ``suit * 13 + rank - 2`` with the
suits in the order ♥ ♦ ♣ ♠ (0..51; One Card keeps its cards as these integers):

>>> Card.parse("10H").index, Card.from_index(51), CODES[8]
(8, Card.parse('A♠'), '10H')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from tapete.i18n import N_, translations

SUIT_CODES: Final = "HDCS"
"""The suits' codes in the deck's order: corazones ♥, diamantes ♦, tréboles ♣, picas ♠."""
SUITS: Final = tuple(SUIT_CODES)
SUIT_SYMBOLS: Final = "♥♦♣♠"
"""Each suit's symbol, in the order of :data:`SUIT_CODES`."""
SUIT_SYMBOL: Final = dict(zip(SUIT_CODES, SUIT_SYMBOLS, strict=True))
SYMBOL_SUIT: Final = {v: k for k, v in SUIT_SYMBOL.items()}
SUIT_INDEX: Final = {s: i for i, s in enumerate(SUIT_CODES)}
RED_SUITS: Final = frozenset({"H", "D"})
ROUND_SUITS: Final = frozenset({"H", "C"})
"""Redondas: ♥ ♣. Picudas: ♦ ♠."""

RANKS: Final = tuple(range(2, 15))
RANK_CODES: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Each rank's code, by ``rank - 2``: what a card's code starts with."""
TEXT_RANK: Final = {code: rank for rank, code in zip(RANKS, RANK_CODES, strict=True)} | {
    "T": 10,
    "1": 14,
}
"""Every text a rank is read from (upper case): its code, ``T`` for ten, ``1`` for the ace."""

Gettext = Callable[[str], str]

RANK_NAMES: Final = {
    2: N_("dos"), 3: N_("tres"), 4: N_("cuatro"), 5: N_("cinco"), 6: N_("seis"),
    7: N_("siete"), 8: N_("ocho"), 9: N_("nueve"), 10: N_("diez"), 11: N_("jota"),
    12: N_("reina"), 13: N_("rey"), 14: N_("as"),
}  # fmt: skip
"""Each rank's name (a message id), as in «otro rey»."""
SUIT_NAMES: Final = {
    "H": N_("corazones"), "D": N_("diamantes"), "C": N_("tréboles"), "S": N_("picas"),
}  # fmt: skip
"""Each suit's name (a message id), by code."""
CARD_NAME: Final = N_("{rank} de {suit}")
"""A card's name from its rank's and its suit's: «rey de picas», "king of spades"."""
THE_CARD: Final = N_("el {card}")
THE_CARD_FEMININE: Final = N_("la {card}")
"""A card's name in a sentence, with its article: «la jota», «la reina»; every other is «el»."""
FEMININE: Final = frozenset({11, 12})


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
        """Parse ``"10♥"``, ``"10H"``, ``"th"``, ``"AS"``, ``"1s"``, ``"q♦"``: a rank of
        :data:`TEXT_RANK` and a suit's code or symbol, in any case."""
        s = text.strip()
        if len(s) < 2:
            raise CardParseError(f"not a card: {text!r}")
        rank = TEXT_RANK.get(s[:-1].upper())
        suit = SYMBOL_SUIT.get(s[-1], s[-1].upper())
        if rank is None or suit not in SUIT_SYMBOL:
            raise CardParseError(f"not a card: {text!r}")
        return cls(rank, suit)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card of an index (0..51), see :attr:`index`."""
        if not 0 <= index < 52:
            raise CardParseError(f"not a card: index {index!r}")
        return DECK[index]

    @property
    def index(self) -> int:
        """``suit * 13 + rank - 2``, suits in the order ♥ ♦ ♣ ♠: 0..51."""
        return SUIT_INDEX[self.suit] * 13 + self.rank - 2

    @property
    def red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def round(self) -> bool:
        """Redonda (♥ ♣) rather than picuda (♦ ♠)."""
        return self.suit in ROUND_SUITS

    @property
    def rank_text(self) -> str:
        return RANK_CODES[self.rank - 2]

    @property
    def code(self) -> str:
        """ASCII form, as used on the wire: ``"10H"``, ``"KS"``."""
        return f"{RANK_CODES[self.rank - 2]}{self.suit}"

    def name(self, lang: str = "es") -> str:
        """A spoken name in ``lang``: ``"rey de picas"``, ``"king of spades"``."""
        return self.words(translations(lang).gettext)

    def words(self, gettext: Gettext) -> str:
        """The name through a catalog's ``gettext``: «rey de picas»."""
        return gettext(CARD_NAME).format(
            rank=gettext(RANK_NAMES[self.rank]), suit=gettext(SUIT_NAMES[self.suit])
        )

    def the_words(self, gettext: Gettext) -> str:
        """The name with its article, for a sentence: «el rey de picas», «la reina de
        picas», "the king of spades"."""
        the = THE_CARD_FEMININE if self.rank in FEMININE else THE_CARD
        return gettext(the).format(card=self.words(gettext))

    def __str__(self) -> str:
        return f"{RANK_CODES[self.rank - 2]}{SUIT_SYMBOL[self.suit]}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


DECK: Final = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
"""The 52 cards by index: suit by suit, 2 to ace."""
CODES: Final = tuple(c.code for c in DECK)
"""Each card's code, by index."""


def rank_value(card: Card, *, ace_low: bool = False) -> int:
    """The card's value for comparing and adding: 2..10, J 11, Q 12, K 13, A 14 (1 if low)."""
    if ace_low and card.rank == 14:
        return 1
    return card.rank


def full_deck() -> list[Card]:
    """The 52 cards in a fixed order (suit by suit, 2 to ace: by index)."""
    return list(DECK)


def parse_cards(text: str) -> list[Card]:
    """Parse cards separated by spaces or commas; an empty text is no cards."""
    return [Card.parse(part) for part in text.replace(",", " ").split()]


def format_cards(cards: list[Card]) -> str:
    return " ".join(str(c) for c in cards)
