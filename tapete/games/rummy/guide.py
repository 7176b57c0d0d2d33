"""Rummy's guided first game: its deal and what the table says at each step
(``GameSpec.guided``, :mod:`tapete.rooms.guide`): the first meld of 30 points (which tiles
make it, read from the rack), what a run and a group are, drawing when it cannot be made,
playing on the table once it is, the end. One hand against one bot."""

from __future__ import annotations

from typing import Final

from tapete.games.protocol import JSON, Guided
from tapete.games.rummy.game import State
from tapete.i18n import N_
from tapete.tiles import colour, is_joker, make, number, points, text

POSITION: Final[JSON] = {
    "game": "rummy",
    "config": {"hands": 1},
    "racks": [
        "10R 11R 12R 4A 4N 4O 7A 2N 9O 13N 1R 6A 8N 5O",
        "3R 3A 5N 6N 8R 9R 11A 12O 2A 7O 10N 1N 13R 6O",
    ],
    "pool": (
        "1A 2R 3N 5A 7R 8A 9N 10A 11N 12A 13A 1O 2O 3O 4R 5R 6R 7N 8O 9A 10O 11O 12N 13O "
        "1N 2A 3A 4A 5N 6N 7A 8N 9O 10R 11R 12R"
    ),
    "turn": 0,
}
"""The deal (docs/positions.md, «Guided first games»): the player's rack holds a run of 33
points (10, 11, 12 rojo) and a group of three 4s; against one bot, one hand."""

MELD: Final = N_(
    "Tu primera bajada tiene que sumar 30 puntos o más con combinaciones de tu atril: una "
    "escalera (números seguidos del mismo color) o un grupo (el mismo número en colores "
    "distintos). Con {set} sumas {points}: ponlas en «Nueva combinación» y pulsa «Terminar "
    "turno»."
)
MELD_MORE: Final = N_(
    "Tu primera bajada tiene que sumar 30 puntos o más: con las escaleras y grupos de tu atril "
    "llegas a {points}. Ponlos en la mesa y pulsa «Terminar turno»."
)
NO_MELD: Final = N_(
    "Aún no llegas a 30 puntos con escaleras (números seguidos del mismo color) o grupos (el "
    "mismo número en colores distintos) de tu atril: pulsa «Robar»."
)
MELDED: Final = N_(
    "Ya has bajado: ahora puedes añadir fichas a las combinaciones de la mesa, o formar otras. "
    "Si no puedes poner nada, pulsa «Robar»."
)
WAIT: Final = N_("Ahora juega el otro: mira qué pone en la mesa.")
WON: Final = N_("¡Has ganado la mano! Ya sabes jugar: prueba una partida normal.")
LOST: Final = N_("Esta vez gana el otro. Ya sabes cómo va: prueba una partida normal.")


def meld(rack: list[int]) -> list[list[int]]:
    """Runs and groups in ``rack`` (no joker), the most points first, each tile used once —
    a first meld's sets, or none if they make less than 30 points."""
    left = sorted(t for t in rack if not is_joker(t))
    chosen: list[list[int]] = []
    while True:
        found = _runs(left) + _groups(left)
        if not found:
            break
        best = max(found, key=lambda s: sum(points(t) for t in s))
        for t in best:
            left.remove(t)
        chosen.append(best)
    return chosen if sum(points(t) for s in chosen for t in s) >= 30 else []


def _runs(tiles: list[int]) -> list[list[int]]:
    out = []
    for c in range(4):
        numbers = sorted({number(t) for t in tiles if colour(t) == c})
        run: list[int] = []
        for n in [*numbers, 99]:
            if run and n == run[-1] + 1:
                run.append(n)
                continue
            if len(run) >= 3:
                out.append([make(c, m) for m in run])
            run = [n]
    return out


def _groups(tiles: list[int]) -> list[list[int]]:
    out = []
    for n in range(1, 14):
        colours = sorted({colour(t) for t in tiles if number(t) == n})
        if len(colours) >= 3:
            out.append([make(c, n) for c in colours])
    return out


def step(state: State, seat: int) -> tuple[str, JSON] | None:
    """What the table says to ``seat`` now."""
    if state.result is not None:
        return (WON, {}) if seat in state.result.get("winners", []) else (LOST, {})
    if state.waiting or state.turn != seat:
        return WAIT, {}
    if state.melded[seat]:
        return MELDED, {}
    sets = meld(state.racks[seat])
    if not sets:
        return NO_MELD, {}
    total = sum(points(t) for s in sets for t in s)
    if sum(points(t) for t in sets[0]) >= 30:
        first = sets[0]
        return MELD, {"set": [text(t) for t in first], "points": sum(points(t) for t in first)}
    return MELD_MORE, {"points": total}


GUIDED: Final = Guided(
    position=POSITION,
    step=step,
    level="principiante",
    line=N_("Una mano contra un bot, con tu primera bajada explicada paso a paso."),
)
