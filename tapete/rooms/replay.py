"""A finished game, move by move, from its log: what a seat saw after each move, with what
the table hid (the game's ``reveal``) shown too, for the replay viewer.

The views are the very ones the table drew (``view(state, seat)``), so the page draws them
with the table's own renderer; only the moves a seat could have made are left out.
"""

from __future__ import annotations

from typing import Any

from tapete.games.protocol import JSON, GameSpec
from tapete.store import GameRecord, LoggedMove


class NotOver(Exception):
    """The game is still being played: its replay would show what the table hides."""


def steps(
    spec: GameSpec[Any, Any, Any], record: GameRecord, log: list[LoggedMove], seat: int
) -> list[JSON]:
    """Step 0 is the deal; step ``k`` the table after the ``k``-th move of the log: its
    number (the game's version), who moved, the move, and ``seat``'s view of the table."""
    rules = spec.rules
    state = first(spec, record)
    out = [{"n": 0, "seat": None, "move": None, "view": _view(spec, state, seat)}]
    for logged in log:
        rules.apply(state, logged.seat, spec.parse_move(logged.move))
        out.append(
            {
                "n": logged.n,
                "seat": logged.seat,
                "move": logged.move,
                "view": _view(spec, state, seat),
            }
        )
    if rules.outcome(state) is None:
        raise NotOver(record.id)
    return out


def first(spec: GameSpec[Any, Any, Any], record: GameRecord) -> Any:
    """The game as it began: its set position, or the deal of its seed."""
    if record.position is not None:
        return spec.rules.load(record.position)
    return spec.rules.new(spec.parse_config(record.config), record.seed)


def _view(spec: GameSpec[Any, Any, Any], state: Any, seat: int) -> JSON:
    view = spec.rules.view(state, seat)
    view["legal"] = []  # (a replay is watched, not played)
    if spec.reveal is not None:
        view["revealed"] = spec.reveal(state)
    return view
