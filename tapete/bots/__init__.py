"""Players that choose a move from what their seat may see (a ``view``), never the state.

Every game's bot module has ``choose(view, level) -> (move JSON, delay in seconds) | None``:
the move to make now, taken from ``view["legal"]`` (or, for Rummy, a table it built), and
how long a person would take to make it (the room waits that long, times its pace).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tapete.bots import guerra, onecard, rummy

Decision = tuple[dict[str, Any], float]
Chooser = Callable[[dict[str, Any], str], Decision | None]


def _guerra(view: dict[str, Any], level: str) -> Decision | None:
    move = guerra.choose(view, level)
    return (move, 0.0) if move is not None else None


BOTS: dict[str, Chooser] = {
    "guerra": _guerra,
    "onecard": onecard.choose,
    "rummy": rummy.choose,
}


def choose(game: str, view: dict[str, Any], level: str = "normal") -> Decision | None:
    """Ask ``game``'s bot what to do; None for a game without bots (El Peaje)."""
    bot = BOTS.get(game)
    return bot(view, level) if bot is not None else None
