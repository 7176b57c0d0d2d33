"""A refusal's parameters in the player's words (the catalog's ``onecard`` domain, which
falls back to the shared one for the names of the French deck, :mod:`tapete.cards`).

The rules write codes (a card's, a suit's, a rank's); these name them for a sentence, each
through the language's ``gettext``:

>>> from tapete.i18n import translations
>>> es, en = translations("es", "onecard").gettext, translations("en", "onecard").gettext
>>> card_words("QS", es), card_words("9C", en), card_words("JK1", es)
('la reina de picas', 'the nine of clubs', 'el comodín')
>>> name_param("rank", "A", en), name_param("attacker", "K", es), name_param("suit", "*", es)
('an ace', 'rey', 'cualquier palo')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from tapete import cards as french
from tapete.games.onecard.pieces import RANK_CODES
from tapete.i18n import N_

Gettext = Callable[[str], str]

A_RANK: Final = (
    N_("un dos"), N_("un tres"), N_("un cuatro"), N_("un cinco"), N_("un seis"),
    N_("un siete"), N_("un ocho"), N_("un nueve"), N_("un diez"), N_("una jota"),
    N_("una reina"), N_("un rey"), N_("un as"),
)  # fmt: skip
"""A card of each rank (by ``rank - 2``), as in «o un cinco» (the article goes with the
word: "an ace")."""
ANY_SUIT: Final = N_("cualquier palo")
JOKER: Final = N_("comodín")
A_JOKER: Final = N_("un comodín")
THE_JOKER: Final = N_("el comodín")


def card_words(text: str, gettext: Gettext) -> str:
    """A card code as a sentence names it, with its article: «el nueve de tréboles», "the
    nine of clubs" (:meth:`tapete.cards.Card.the_words`); a joker is «el comodín»."""
    if text.startswith("JK"):
        return gettext(THE_JOKER)
    return french.Card.parse(text).the_words(gettext)


def name_param(name: str, value: Any, gettext: Gettext) -> str:
    """A refusal's parameter in the player's language (``SPEC.params``): ``card`` a card code
    with its article (:func:`card_words`); ``suit`` a suit code, or ``*`` («cualquier
    palo»); ``rank`` the top card's rank code as a card of it («un cinco», «una reina»);
    ``attacker`` the attacking rank's name («rey»)."""
    try:
        if name == "card":
            return card_words(str(value), gettext)
        if name == "suit":
            if value == "*":
                return gettext(ANY_SUIT)
            return gettext(french.SUIT_NAMES[value])
        if name == "rank":
            a_rank = A_JOKER if value == "JK" else A_RANK[RANK_CODES.index(value)]
            return gettext(a_rank)
        if name == "attacker":
            rank = JOKER if value == "JK" else french.RANK_NAMES[RANK_CODES.index(value) + 2]
            return gettext(rank)
    except (KeyError, ValueError, TypeError):
        pass
    return str(value)
