"""One Card's pieces: the cards of :mod:`tapete.cards` as the engine's integers, plus the
house rule's two jokers, and the types that carry them on the wire.

A card is its index in the French deck (:attr:`tapete.cards.Card.index`: ``suit * 13 +
rank - 2``, suits ♥ ♦ ♣ ♠, ace 14), so ``0..51``; ``52`` and ``53`` are the jokers, One
Card's own. On the wire and in positions a card is its code: ``"7H"``, ``"AS"``, ``"JK1"``.
Everything about the 52 is read from :mod:`tapete.cards` (codes, parsing); this module only
adds the jokers and keeps tables by integer for the engine's hot paths.

>>> card("10♥"), code(8), code(52), [code(c) for c in cards("as, jk2 1d")]
(8, '10H', 'JK1', ['AS', 'JK2', 'AD'])
"""

from __future__ import annotations

from typing import Final, Literal

from tapete import cards as french
from tapete.games.protocol import IllegalMove

SUIT_CODES: Final = french.SUIT_CODES
SUIT_SYMBOLS: Final = french.SUIT_SYMBOLS
RANK_CODES: Final = french.RANK_CODES
JOKERS: Final = (52, 53)
JOKER_CODES: Final = ("JK1", "JK2")
ANY_SUIT: Final = -1
"""The suit to follow after a joker: anything goes."""


def rank_of(c: int) -> int:
    """2..14; jokers are 0."""
    return 0 if c >= 52 else c % 13 + 2


def suit_of(c: int) -> int:
    """0..3 (♥ ♦ ♣ ♠); jokers are -1."""
    return -1 if c >= 52 else c // 13


def code(c: int) -> str:
    """``code(card("10H")) == "10H"``"""
    if c >= 52:
        return JOKER_CODES[c - 52]
    return french.CODES[c]


CODES: Final = tuple(code(c) for c in range(54))
"""``code`` by card, for the hot paths (which only ever see cards ``0..53``)."""
_BY_TEXT: Final = {t: c for c, t in enumerate(CODES)}


def card(text: str) -> int:
    """Parse ``"10H"``, ``"10♥"``, ``"as"`` (ace of spades), ``"JK1"``: a joker's code or
    any text :meth:`tapete.cards.Card.parse` reads; anything else is
    ``IllegalMove("bad_move", field="card")``."""
    t = text.strip().upper()
    found = _BY_TEXT.get(t)
    if found is not None:
        return found
    try:
        return french.Card.parse(t).index
    except french.CardParseError:
        raise IllegalMove("bad_move", field="card") from None


def cards(text: str) -> list[int]:
    return [card(x) for x in text.replace(",", " ").split()]


def fmt(cs: list[int]) -> str:
    return " ".join(code(c) for c in cs)


VOIDS: Final = tuple(tuple(SUIT_CODES[s] for s in range(4) if v >> s & 1) for v in range(16))
"""The suit codes of each 4-bit voids mask."""
_SUIT_OF: Final = {s: i for i, s in enumerate(SUIT_CODES)} | {
    s.lower(): i for i, s in enumerate(SUIT_CODES)
}


# --- the pieces on the wire ------------------------------------------------------------


class Card(int):
    """A card, as the engine keeps it (an ``int``, see above), that is its code on the wire.

    >>> Card.from_wire("10♥"), Card(8).to_wire()
    (8, '10H')
    """

    __slots__ = ()

    @classmethod
    def from_wire(cls, obj: object) -> Card:
        if not isinstance(obj, str):
            raise IllegalMove("bad_move", field="card")
        found = _BY_CODE.get(obj)  # the code as the page sends it, else any form
        return found if found is not None else CARD_VALUES[card(obj)]

    def to_wire(self) -> str:
        return CODES[self]


CARD_VALUES: Final = tuple(Card(c) for c in range(54))
"""Every card as a :class:`Card`, by integer."""
_BY_CODE: Final = {c.to_wire(): c for c in CARD_VALUES}


class Suit(int):
    """The suit a 7 names: 0..3 (♥ ♦ ♣ ♠) in the engine, ``"H"`` … ``"S"`` (any case) on
    the wire; anything else is ``IllegalMove("seven_needs_suit")``."""

    __slots__ = ()

    @classmethod
    def from_wire(cls, obj: object) -> Suit:
        found = _SUIT_OF.get(obj) if isinstance(obj, str) else None
        if found is None:
            raise IllegalMove("seven_needs_suit")
        return SUIT_VALUES[found]

    def to_wire(self) -> str:
        return SUIT_CODES[self]


SUIT_VALUES: Final = tuple(Suit(s) for s in range(4))
"""Every suit as a :class:`Suit`, by integer."""
NO_SUIT: Final = Suit(-1)
"""A play that names no suit (never on the wire)."""


FollowCode = Literal["H", "D", "C", "S", "*"]
"""The suit to follow in a position: a suit's code, or ``*`` (:data:`ANY_SUIT`) after a
joker."""
FOLLOW: Final[dict[str, int]] = {"*": ANY_SUIT, **{s: i for i, s in enumerate(SUIT_CODES)}}
FOLLOW_CODES: Final[tuple[FollowCode, ...]] = ("H", "D", "C", "S", "*")
"""By suit (``-1``, any, last)."""


Pile = str | list[int]
"""Cards in a position: ``"4C 5D"`` (any form :func:`card` reads, top last; what ``dump``
writes) or a list of the engine's integers."""


def pile_cards(pile: Pile) -> list[int]:
    return cards(pile) if isinstance(pile, str) else pile
