"""The protocol every game follows, and its shared errors.

A game is a module with these functions (see ``docs/architecture.md``)::

    new(config, seed) -> State
    actors(state) -> list[int]               seats that may act now
    legal_moves(state, seat) -> list[Move]   fixed, sorted order
    apply(state, seat, move) -> list[Event]  mutates state; IllegalMove leaves it untouched
    view(state, seat | None) -> dict         what that seat (None: a spectator) may see
    outcome(state) -> dict | None
    dump(state) -> dict  /  load(data) -> State
    parse_config(data) -> Config             raises IllegalMove("bad_config")
    parse_move(data) -> Move                 raises IllegalMove("bad_move")
    clocks(state) -> [(kind, seat, instance)]  the deadlines the room must run now
    clock_move(kind, seat) -> Move           what a clock does when it runs out

and the constants ``NAME``, ``BOTS_FOLLOW`` (the computer acts after the players, as if at
once: La guerra) and ``CLOCK_MOVES`` (move types only a clock may send). A game whose
players build a draft the server checks as they go (Rummy) is also :class:`Drafting`.

Moves are small frozen values with ``to_json``; events are plain JSON dicts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from tapete.i18n import t

Event = dict[str, Any]
JSON = dict[str, Any]


class IllegalMove(ValueError):
    """A move (or option) the rules refuse. ``code`` is stable; ``message`` is for players.

    >>> e = IllegalMove("not_your_turn")
    >>> e.code, str(e)
    ('not_your_turn', 'No es tu turno.')
    """

    def __init__(self, code: str, message: str | None = None, **params: object) -> None:
        self.code = code
        self.params = params
        self.message = message if message is not None else t(f"error.{code}", "es", **params)
        super().__init__(self.message)

    def localized(self, lang: str) -> str:
        key = f"error.{self.code}"
        text = t(key, lang, **self.params)
        return self.message if text == key else text


class Move(Protocol):
    def to_json(self) -> JSON: ...


@dataclass(frozen=True, slots=True)
class BareMove:
    """A move that is nothing but its type (draw, pass, call, a clock's timeout…): a
    subclass names it in ``TYPE``, its JSON and its text.

    >>> @dataclass(frozen=True, slots=True)
    ... class Knock(BareMove):
    ...     TYPE = "knock"
    >>> Knock().to_json(), str(Knock()), Knock() == Knock()
    ({'type': 'knock'}, 'knock', True)
    """

    TYPE: ClassVar[str] = ""

    def to_json(self) -> JSON:
        return {"type": self.TYPE}

    def __str__(self) -> str:
        return self.TYPE


class Game(Protocol):
    """A game module, seen as a value (mypy checks modules against protocols)."""

    NAME: str
    BOTS_FOLLOW: bool
    CLOCK_MOVES: frozenset[str]

    def new(self, config: Any, seed: int) -> Any: ...
    def actors(self, state: Any) -> list[int]: ...
    def legal_moves(self, state: Any, seat: int) -> list[Any]: ...
    def apply(self, state: Any, seat: int, move: Any) -> list[Event]: ...
    def view(self, state: Any, seat: int | None) -> JSON: ...
    def outcome(self, state: Any) -> JSON | None: ...
    def dump(self, state: Any) -> JSON: ...
    def load(self, data: JSON) -> Any: ...
    def parse_config(self, data: JSON) -> Any: ...
    def config_json(self, config: Any) -> JSON: ...
    def parse_move(self, data: JSON) -> Any: ...
    def seats(self, config: Any) -> int: ...
    def clocks(self, state: Any) -> list[tuple[str, int, Any]]: ...
    def clock_move(self, kind: str, seat: int) -> Any: ...


class Drafting(Protocol):
    """A game whose players build a draft that the server checks without applying it."""

    def parse_layout(self, data: Any) -> Any: ...
    def check(self, state: Any, seat: int, layout: Any) -> JSON: ...
