"""The rules of every game, pure, behind one protocol (see :mod:`tapete.games.protocol`).

The hall's list of games is :mod:`tapete.registry`; this package only holds them.
"""

from __future__ import annotations

from tapete.games.protocol import Codec, Drafting, Event, GameSpec, IllegalMove, Move, Rules

__all__ = ["Codec", "Drafting", "Event", "GameSpec", "IllegalMove", "Move", "Rules"]
