"""The pages hold no copy of the words the server writes: a refusal, a set's reason, a
tile's or a card's name is written once, in Python and the catalogs, and reaches the page
already in the player's language (a ``checked`` report, the page's words). A copy in an ES
module would drift from the catalog unseen: these fail if one comes back."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from tapete import cards
from tapete.games import rummy
from tapete.games.rummy import names
from tapete.games.rummy.sets import MESSAGES as SET_MESSAGES
from tapete.tiles import COLOUR_MARKS, COLOURS

JS = Path(__file__).resolve().parents[1] / "tapete" / "server" / "static" / "js"


def copies(source: str, msgids: Iterable[str]) -> list[str]:
    """The message ids found in ``source``: a sentence anywhere, a word as a string."""
    found = []
    for msgid in msgids:
        if " " in msgid.strip("{}") and len(msgid) > 12:
            hit = msgid in source
        else:
            hit = any(f"{q}{msgid}{q}" in source for q in "\"'`")
        if hit:
            found.append(msgid)
    return found


def test_copies_finds_a_sentence_and_a_quoted_word() -> None:
    source = 'const R = { a: _("La escalera {run_colour} {shown} repite un número."), b: "rojo" };'
    msgids = ["La escalera {run_colour} {shown} repite un número.", "rojo", "azul"]
    assert copies(source, msgids) == msgids[:2]
    assert copies("// a rojo tile", ["rojo"]) == []


@pytest.mark.parametrize(
    "msgids",
    [SET_MESSAGES.values(), rummy.SPEC.messages.values()],
    ids=["sets.MESSAGES", "SPEC.messages"],
)
def test_rummy_page_has_no_copy_of_the_refusals(msgids: Iterable[str]) -> None:
    """Why a set is not valid and which rule a draft breaks come worded in the room's
    ``checked`` report (``GameSpec.word_draft``)."""
    assert copies((JS / "rummy.js").read_text(), [m for m in msgids if m != "{reason}"]) == []


def test_rummy_page_has_no_copy_of_the_tiles_names() -> None:
    """A tile's name, its colour's mark and the colours' order come in the page's words
    (``SPEC.page_words``: :func:`tapete.games.rummy.names.page_words`)."""
    msgids = [
        *names.COLOUR.values(), *names.RUN_COLOUR.values(), *names.TILE.values(),
        *names.THE_TILE.values(), names.JOKER, names.THE_JOKER, names.NEXT_IN_SET,
        names.EITHER, *COLOUR_MARKS, COLOURS,
    ]  # fmt: skip
    assert copies((JS / "rummy.js").read_text(), msgids) == []


def test_cards_module_has_no_copy_of_the_decks_names() -> None:
    """Ranks, suits, how a card's name is made and its article come in the page's words
    (``GameSpec.page_words``: :func:`tapete.games.protocol.deck_words`, from
    :mod:`tapete.cards`); ``cards.js`` draws."""
    msgids = [
        *cards.RANK_NAMES.values(), *cards.SUIT_NAMES.values(), cards.CARD_NAME,
        cards.THE_CARD, cards.THE_CARD_FEMININE,
    ]  # fmt: skip
    assert copies((JS / "cards.js").read_text(), msgids) == []
