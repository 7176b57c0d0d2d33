"""One device passed round: a practice game of 2–4 people on one phone («pass-and-play»).

The guest who made the game sits at their seat (``{"kind": "human", "guest", "name"?}``); the
others are people at the same device (``{"kind": "local", "name"?}``), with no guest of their
own. Every connection of that guest to the table — the device — is shown one seat's view at
a time, never another's:

- while the game says a seat holds the turn (:attr:`PassAndPlay.holder`), that seat's view,
  once the device has been handed to them (they tapped «Soy Ana»: :meth:`Device.hand_to`);
  until then nobody's (a spectator's view, under the hand-over screen);
- while it says nobody does (nothing is hidden now: La guerra, Rummy between hands), the
  view of the first of the device's seats that must move (it shows what they may do), and a
  move from the device is made for each of them;
- once the game is over, nobody's (the end names the winner).

A move from the device is the shown seat's; before the hand-over nothing moves.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Final

from tapete.games.protocol import IllegalMove, PassAndPlay
from tapete.registry import Entry

MAX_NAME: Final = 20
"""The longest name of someone at the device (characters)."""


def device_seats(
    found: Entry, players: int, guest: str, names: Sequence[str]
) -> list[dict[str, Any]]:
    """The seats of a game on one device: ``guest`` first, then the others at the device,
    each with the name typed for them (``names``, in seat order; blank: none, read «Jugador
    n»). Raises IllegalMove("bad_config") for a game not played so, or a name too long."""
    if found.game.pass_and_play is None:
        raise IllegalMove("bad_config", field="device")
    cleaned = [" ".join(str(n).split()) for n in names][:players]
    cleaned += [""] * (players - len(cleaned))
    if any(len(n) > MAX_NAME for n in cleaned):
        raise IllegalMove("bad_config", field="name")
    seats: list[dict[str, Any]] = [{"kind": "human", "guest": guest}]
    seats += [{"kind": "local"} for _ in range(players - 1)]
    for seat, name in zip(seats, cleaned, strict=True):
        if name:
            seat["name"] = name
    return seats


@dataclass(slots=True)
class Device:
    """The device of one game: its seats, and the one it was last handed to."""

    rules: PassAndPlay
    owner: int
    """The seat of the guest whose device it is."""
    seats: frozenset[int]
    """Every seat played at the device (the owner's included)."""
    shown: int | None = None
    """The seat the device was last handed to («Soy Ana»)."""

    @classmethod
    def of(cls, found: Entry, seats: Sequence[dict[str, Any]]) -> Device | None:
        """The device of a game with ``seats``, if it is played on one (a game that may be,
        with seats of people at the same device); None otherwise."""
        rules = found.game.pass_and_play
        local = [i for i, s in enumerate(seats) if s.get("kind") == "local"]
        humans = [i for i, s in enumerate(seats) if s.get("kind") == "human"]
        if rules is None or not local or len(humans) != 1:
            return None
        return cls(rules, humans[0], frozenset([humans[0], *local]))

    def holder(self, state: Any, finished: bool) -> int | None:
        return None if finished else self.rules.holder(state)

    def waits_for(self, state: Any, finished: bool) -> int | None:
        """The seat the device must be handed to before it shows or plays anything more
        (None: none)."""
        holder = self.holder(state, finished)
        if holder is None or holder not in self.seats or holder == self.shown:
            return None
        return holder

    def seat(self, state: Any, actors: Collection[int], finished: bool) -> int | None:
        """The seat whose view the device is shown now (None: a spectator's)."""
        if finished:
            return None
        holder = self.holder(state, finished)
        if holder is not None:
            return holder if holder == self.shown and holder in self.seats else None
        return next((s for s in sorted(actors) if s in self.seats), None)

    def movers(self, state: Any, actors: Collection[int], finished: bool) -> list[int]:
        """The seats a move from the device is made for, in order (none: not now)."""
        if finished:
            return []
        holder = self.holder(state, finished)
        if holder is not None:
            return [holder] if holder == self.shown and holder in actors else []
        return [s for s in sorted(actors) if s in self.seats]

    def hand_to(self, seat: int, state: Any, finished: bool) -> bool:
        """The device is handed to ``seat`` («Soy Ana»): True if it is theirs to take now
        (the seat that holds the turn, or holds it already)."""
        if self.holder(state, finished) != seat or seat not in self.seats:
            return False
        self.shown = seat
        return True
