"""The coach of a finished game («Análisis»): for every move a seat made, what the game's
strongest bot would have made from that seat's view at that moment — never from a card or
tile the seat could not see — and what the move made cost (the game's ``BotSpec.coach``);
the costliest moves marked, for the replay to step to.

Pure: the game's record and its move log in, the advice out. Computing it is slow (a search
per move): the rooms run it off the loop, once, after the game.
"""

from __future__ import annotations

from typing import Any, Final

from tapete.games.protocol import JSON
from tapete.registry import Entry
from tapete.rooms.replay import NotOver, first
from tapete.store import GameRecord, LoggedMove

COSTLIEST: Final = 3
"""How many of a seat's costliest moves are marked."""


class NoCoach(Exception):
    """The game has no coach (no bots, or none that can say what it would have played)."""


def analyse(found: Entry, record: GameRecord, log: list[LoggedMove], seat: int) -> JSON:
    """``{"seat", "unit", "moves": [{"n", "move", "best", "loss", "code", "params"}],
    "costliest": [n, …]}``: each move of ``seat`` (``n``: the game's version after it, as in
    the replay), the coach's advice on it from the view the seat had just before, and the
    versions of the :data:`COSTLIEST` moves that cost most (a loss above 0; the earlier
    first among equals). Raises :class:`NoCoach`, or ``NotOver`` for a game still played."""
    bots = found.bots
    if bots is None or bots.coach is None:
        raise NoCoach(found.key)
    spec = found.game
    rules = spec.rules
    state: Any = first(spec, record)
    moves: list[JSON] = []
    unit = None
    for logged in log:
        if logged.seat == seat:
            advice = bots.coach(rules.view(state, seat), logged.move)
            if advice is not None:
                unit = unit or advice.get("unit")
                said = {k: v for k, v in advice.items() if k != "unit"}
                moves.append({"n": logged.n, "move": logged.move, **said})
        rules.apply(state, logged.seat, spec.parse_move(logged.move))
    if rules.outcome(state) is None:
        raise NotOver(record.id)
    costly = sorted((m for m in moves if m["loss"] > 0), key=lambda m: (-m["loss"], m["n"]))
    return {
        "seat": seat,
        "unit": unit,
        "moves": moves,
        "costliest": [m["n"] for m in costly[:COSTLIEST]],
    }
