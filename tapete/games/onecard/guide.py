"""One Card's guided first game: its deal and what the table says at each step
(``GameSpec.guided``, :mod:`tapete.rooms.guide`). The steps read the state as it is — the
bot's plays may vary — so the guide follows whatever happens: what fits on the top card and
why, drawing when nothing does, an attack, calling «One Card», the end."""

from __future__ import annotations

from typing import Final

from tapete.games.onecard.game import State, playable
from tapete.games.onecard.pieces import RANK_CODES, SUIT_CODES, code
from tapete.games.protocol import JSON, Guided
from tapete.i18n import N_

POSITION: Final[JSON] = {
    "game": "onecard",
    "hands": ["9H 5H 7C KS 3S QD", "8C 2C QH 4D JS 10H"],
    "discard": "5C",
    "stock": "6D 10C 4S 2H 9D 8S 3H 6C 10S AH 4C JD",
    "turn": 0,
}
"""The deal (docs/positions.md, «Guided first games»): on the 5♣ the player holds a five, a
7 of clubs (it fits: its suit) and cards that do not fit; against one bot."""

MATCH: Final = N_(
    "Sobre {card} puedes echar una carta de {suit} o {rank}: son las resaltadas. Toca una."
)
MATCH_SEVEN: Final = N_(
    "Sobre {card} puedes echar una carta de {suit} o {rank}. Tu 7 sirve: al echarlo eliges el "
    "palo que sigue."
)
ASKED: Final = N_("Con un 7 han pedido {suit}: echa una carta de {suit} u otro 7.")
DRAW: Final = N_("Ninguna de tus cartas sirve sobre {card}: pulsa «Robar».")
ATTACK: Final = N_(
    "Te atacan con +{attack}: pásalo con una de las cartas resaltadas o pulsa «Robar» y te "
    "llevas {attack}."
)
CALL: Final = N_(
    "Te quedan dos cartas: pulsa «¡One Card!» y luego echa una. Si te quedas con una sin "
    "cantar, te pueden pillar y robas."
)
EXPOSED: Final = N_(
    "¡Te has quedado con una carta sin cantar! Pulsa «¡One Card!» antes de que te pillen."
)
OTHERS: Final = N_(
    "Ahora juega el otro. Las cartas especiales: la J salta un turno, la Q cambia el "
    "sentido, el rey ataca con +2 y el as con +3."
)
WON: Final = N_("¡Has ganado! Ya sabes jugar a One Card: prueba una partida normal.")
LOST: Final = N_("Esta vez gana el otro. Ya sabes cómo va: prueba una partida normal.")


def step(state: State, seat: int) -> tuple[str, JSON] | None:
    """What the table says to ``seat`` now."""
    if state.result is not None:
        return (WON, {}) if state.result.get("winner") == seat else (LOST, {})
    if seat in state.exposed and not state.called[seat]:
        return EXPOSED, {}
    if state.turn != seat:
        return OTHERS, {}
    top = state.discard[-1]
    rank = RANK_CODES[top % 13] if top < 52 else "JK"
    fits = playable(state, seat)
    if state.attack:
        return ATTACK, {"attack": state.attack}
    if not fits:
        return DRAW, {"card": code(top)}
    if len(state.hands[seat]) == 2 and not state.called[seat]:
        return CALL, {}
    suit = "*" if state.suit < 0 else SUIT_CODES[state.suit]
    if rank == "7" and top < 52 and state.suit != top // 13:
        return ASKED, {"suit": suit}
    sevens = any(c < 52 and RANK_CODES[c % 13] == "7" for c in fits)
    return (MATCH_SEVEN if sevens else MATCH), {"card": code(top), "suit": suit, "rank": rank}


GUIDED: Final = Guided(
    position=POSITION,
    step=step,
    level="facil",
    line=N_("Una mano contra un bot, con la mesa explicándote cada jugada."),
)
