"""Players that choose a move from what their seat may see (a ``view``), never the state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tapete.bots import guerra

Chooser = Callable[[dict[str, Any], str], dict[str, Any] | None]
"""``choose(view, level) -> move JSON`` (None: nothing to do now)."""

BOTS: dict[str, Chooser] = {"guerra": guerra.choose}


def choose(game: str, view: dict[str, Any], level: str = "normal") -> dict[str, Any] | None:
    return BOTS[game](view, level)
