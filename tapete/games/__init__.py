"""The rules of every game, pure, behind one protocol (see :mod:`tapete.games.protocol`)."""

from __future__ import annotations

from tapete.games import guerra, onecard, peaje, rummy
from tapete.games.protocol import Drafting, Event, Game, IllegalMove

GAMES: dict[str, Game] = {"guerra": guerra, "onecard": onecard, "rummy": rummy, "peaje": peaje}
"""The playable games by name. A new game adds its module here."""
DRAFTS: dict[str, Drafting] = {"rummy": rummy}
"""The games whose drafts the server checks as they are built."""


def get(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        raise IllegalMove("bad_config", detail=f"juego «{name}»") from None


__all__ = ["DRAFTS", "GAMES", "Drafting", "Event", "Game", "IllegalMove", "get"]
