"""Players that choose a move from what their seat may see (a ``view``), never the state.

Every game with bots declares a :class:`BotSpec`: its levels (as the seeds name them), the
names its bots sit under, the level that stands in for an absent player and the one that
gives hints, and ``choose(view, level) -> (move JSON, delay in seconds) | None``: the move to
make now, taken from ``view["legal"]`` (or, for Rummy, a table it built), and how long a
person would take to make it (the room waits that long, times its pace). None: nothing to
do now.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tapete.i18n import N_

Decision = tuple[dict[str, Any], float]
Chooser = Callable[[dict[str, Any], str], Decision | None]
Advice = dict[str, Any]
"""What the coach says of one move (:attr:`BotSpec.coach`): ``best`` (the move it would
have made), ``loss`` (what the move made cost, in the game's own unit: ``unit``, 0 when it
was as good), and ``code`` with ``params`` for the words a player reads."""
Coach = Callable[[dict[str, Any], dict[str, Any]], Advice | None]
Timed = Callable[[dict[str, Any], str, float], Decision | None]
"""``choose`` with the seconds a searching level may think about the move
(:attr:`BotSpec.timed`)."""

COMPUTER = N_("Ordenador")
"""What the seeds call a bot without a name."""
COMPUTER_N = N_("Ordenador {n}")


@dataclass(frozen=True, slots=True)
class Level:
    key: str
    """As stored in a seat (``facil``, ``experto``)."""
    label: str
    """A Spanish message id: «Fácil», «Experto»."""


@dataclass(frozen=True, slots=True)
class BotSpec:
    choose: Chooser
    levels: tuple[Level, ...]
    default: str = "normal"
    names: tuple[str, ...] = ()
    """The names bots sit under, in seat order; none: «Ordenador» («Ordenador 1», … with
    several)."""
    standin: str | None = "normal"
    """The level that plays for an absent or timed-out player (None: nobody stands in)."""
    hint: str | None = None
    """The level whose play is a hint (None: no hints)."""
    coach: Coach | None = None
    """``coach(view, move)``: the move the strongest level would have made from ``view``
    (the seat's own view before it moved, never a hidden card), next to ``move``, the one
    made (the replay's «Análisis»); None: nothing to say of that move."""
    coach_words: Mapping[str, str] = field(default_factory=dict)
    """The coach's sentences by code (Spanish message ids of the game's catalog), filled
    with the advice's ``params`` (named as the game's refusals are: ``GameSpec.params``)."""
    searching: frozenset[str] = frozenset()
    """Levels whose decisions search for a while (One Card's maestro): the rooms compute
    them in their own processes (``Settings.search_workers``), the others in a thread —
    but for the ``instant`` ones."""
    instant: frozenset[str] = frozenset()
    """Levels whose every decision is a few tens of microseconds (a rule of thumb over the
    seat's legal moves, no search: One Card's fácil and normal, La guerra's computer): the
    room decides them on the event loop, at once — a thread's hop cost more than the
    decision (bench/RESULTS.md, «Practice tables»)."""
    timed: Timed | None = None
    """``timed(view, level, seconds)``: a searching level's decision given the seconds it
    may think (``Settings.search_seconds``); None: ``choose``, with the level's own."""

    def level(self, key: str) -> Level | None:
        return next((lv for lv in self.levels if lv.key == key), None)

    def seat_name(self, index: int, count: int) -> tuple[str, dict[str, Any]]:
        """The name (a message id and its parameters) of the ``index``-th of ``count`` bots,
        from 1."""
        if self.names:
            return self.names[index - 1], {}
        if count == 1:
            return COMPUTER, {}
        return COMPUTER_N, {"n": index}
