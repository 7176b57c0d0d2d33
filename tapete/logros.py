"""Logros: achievements. Each game declares its own (:attr:`GameSpec.logros`, rules over a
finished game replayed from its log: :class:`~tapete.games.protocol.Finished`); the hall's
own are here: the deal of the day, its streaks, the four games, a rated win against the
odds. Pure: what counts, and how progress reads; the rooms layer counts the games
(:mod:`tapete.rooms.logros`), the store keeps the progress.

>>> from datetime import date, timedelta
>>> d = date(2026, 12, 4)
>>> best_streak([d, d - timedelta(1), d - timedelta(2), d - timedelta(5), d - timedelta(6)])
3
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Final

from tapete.games.protocol import Logro
from tapete.i18n import N_
from tapete.registry import REGISTRY

HALL: Final = (
    Logro("hall.reto", N_("Primer reto"), N_("Termina un reto del día."), "☀",
          lambda f: int(f.daily)),
    Logro("hall.mejores", N_("Contra los mejores"),
          N_("Gana una partida puntuada a una mesa de más puntuación que la tuya."), "✪",
          lambda f: int(f.won and f.upset)),
)  # fmt: skip
"""The hall's logros counted game by game."""


@dataclass(frozen=True, slots=True)
class Kept:
    """A logro whose progress is a number the hall reads, not a sum over games."""

    key: str
    title: str
    rule: str
    icon: str
    goal: int


STREAKS: Final = (
    Kept("hall.racha3", N_("Tres días seguidos"), N_("Juega el reto del día {goal} días seguidos."),
         "③", 3),
    Kept("hall.racha7", N_("Una semana de retos"),
         N_("Juega el reto del día {goal} días seguidos."), "⑦", 7),
)  # fmt: skip
"""Days in a row playing the deal of the day: progress is the best run so far."""
KINDS: Final = Kept(
    "hall.cuatro",
    N_("Todos los juegos"),
    N_("Termina una partida de cada juego."),
    "✤",
    len(REGISTRY),
)
"""Games tried: progress is how many of the hall's games the player finished one of."""
KEPT: Final = (*STREAKS, KINDS)


def best_streak(days: Iterable[date]) -> int:
    """The longest run of days in a row among ``days``."""
    have = set(days)
    best = 0
    for d in have:
        if d - timedelta(days=1) in have:
            continue  # (not the start of a run)
        n = 1
        while d + timedelta(days=n) in have:
            n += 1
        best = max(best, n)
    return best
