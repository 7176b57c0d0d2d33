"""El Peaje's guided first game: a route in solitario, fácil, where the table says at each
step what is asked and how the cards left stand (counted by the rules' own :func:`odds`),
what a toll is, what a miss costs, and the end (``GameSpec.guided``,
:mod:`tapete.rooms.guide`)."""

from __future__ import annotations

from typing import Final

from tapete.games.peaje.game import TOLL, State, odds, question, route_of
from tapete.games.protocol import JSON, Guided
from tapete.i18n import N_

POSITION: Final[JSON] = {
    "game": "peaje",
    "config": {"variant": "solitario", "difficulty": "facil"},
    "deck": (
        "6C 3H 7D 2H 2S 8D KS 6H QS 5H 5S 3C JH 9H AH 8S 4D JC AS QH 4C 6D JD AC 7H 10D JS "
        "4S 5C AD 8C KH 3S 3D 8H 10S 7C KC 2D QC QD 9D 6S 5D 10C 9C 10H 7S 2C KD 9S"
    ),
    "cards": ["4H"],
}
"""The route (docs/positions.md, «Guided first games»): on the 4♥ the 9♠ comes (most cards
are higher), then the K♦, then the 2♣."""

HIGHER_LOWER: Final = N_(
    "¿La siguiente carta será mayor o menor que {card}? De las {total} que quedan, {mayor} son "
    "mayores y {menor} menores ({tie} iguales, que cuentan como fallo): elige la que tenga más."
)
RED_BLACK: Final = N_(
    "¿Roja o negra? Quedan {roja} rojas (♥ ♦) y {negra} negras (♣ ♠): elige la que tenga más."
)
ROUND_POINTY: Final = N_(
    "¿Redonda (♥ ♣) o picuda (♦ ♠)? Quedan {redonda} redondas y {picuda} picudas."
)
SUIT: Final = N_(
    "¿De qué palo? Quedan {corazones} de corazones, {diamantes} de diamantes, {treboles} de "
    "tréboles y {picas} de picas: acertar es más difícil, una de cuatro."
)
TOLL_STEP: Final = N_(
    "¡Un peaje! Al pasar por él se paga lo acordado (en grupo, lo que digáis; en solitario solo "
    "se cuenta). Confírmalo y sigue."
)
MISS: Final = N_(
    "Fallo: retrocedes una posición y tendrás que ganarla otra vez. Confírmalo y sigue."
)
WON: Final = N_(
    "¡Has llegado al final de la ruta! Fallos: {misses}. Ya sabes jugar a El Peaje: prueba en "
    "grupo."
)
OVER: Final = N_("Se acabó la baraja antes del final. Ya sabes cómo va: prueba otra ruta.")

ASKED: Final = {
    "mayor_menor": HIGHER_LOWER,
    "roja_negra": RED_BLACK,
    "redonda_picuda": ROUND_POINTY,
    "palo": SUIT,
}


def step(state: State, seat: int) -> tuple[str, JSON] | None:
    """What the table says now (one route, one player)."""
    route = route_of(state)
    if state.result is not None:
        if route.done:
            return WON, {"misses": route.misses}
        return OVER, {}
    if state.phase == "toll":
        return TOLL_STEP, {}
    if state.phase == "miss":
        return MISS, {}
    if state.phase != "answer":
        return None
    q = question(state)
    if q == TOLL or q not in ASKED:
        return None
    counted = odds(route, q)
    params: JSON = {k: v["count"] for k, v in counted.items()}
    if q == "mayor_menor":
        params["total"] = counted["mayor"]["total"]
        params["card"] = route.cards[-1].code
    return ASKED[q], params


GUIDED: Final = Guided(
    position=POSITION,
    step=step,
    line=N_("Una ruta en solitario, con las cuentas de cada pregunta explicadas."),
)
