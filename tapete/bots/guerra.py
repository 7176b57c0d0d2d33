"""La guerra has no decisions: the computer turns its card when the table waits for it."""

from __future__ import annotations

from typing import Any

from tapete.bots import BotSpec, Decision, Level
from tapete.i18n import N_


def choose(view: dict[str, Any], level: str = "normal") -> dict[str, Any] | None:
    """Turn when a move is legal for this seat.

    >>> choose({"legal": [{"type": "turn"}]})
    {'type': 'turn'}
    >>> choose({"legal": []}) is None
    True
    """
    legal = view.get("legal") or []
    return dict(legal[0]) if legal else None


def _decide(view: dict[str, Any], level: str) -> Decision | None:
    move = choose(view, level)
    return (move, 0.0) if move is not None else None


BOTS = BotSpec(
    choose=_decide, levels=(Level("normal", N_("Normal")),), instant=frozenset({"normal"})
)
"""The computer: one level, no names (it is «Ordenador»)."""
