"""Who sits with whom («Jugar ahora»): one game's queue of people waiting, and the tables it
makes of them — by rating, with a window that widens as they wait, and with bots in the
empty seats once the wait runs out (RULES.md «Quick play»).

Pure and in memory: the time is given (``now``, seconds), nothing is stored or sent. The
matchmaker that owns a game's queue (one process at a time) calls :meth:`Queue.match`
when someone arrives and on every tick, and seats whom it returns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

WINDOW: Final = 100.0
"""The rating difference two people accept at once (rating points, as shown)."""
WIDEN: Final = 50.0
"""How much each one's window widens per second of waiting: after the whole wait of 20 s
it is ±1,100 — anyone."""


@dataclass(frozen=True, slots=True)
class Ticket:
    """One person waiting."""

    guest: str
    players: int | None
    """The table size they asked for; None: «me da igual» (any the game allows)."""
    rating: float
    """Their rating in this game, as shown (1500 for everyone in a game never rated)."""
    since: float
    """When they began to wait."""
    avoid: frozenset[str] = frozenset()
    """Guests never to be seated with: whom they blocked, and who blocked them."""

    def window(self, now: float) -> float:
        return WINDOW + WIDEN * max(0.0, now - self.since)

    def accepts(self, other: Ticket, now: float) -> bool:
        """Whether ``other`` may sit with this one now (both ways)."""
        gap = abs(self.rating - other.rating)
        return (
            other.guest not in self.avoid
            and self.guest not in other.avoid
            and gap <= self.window(now)
            and gap <= other.window(now)
        )


@dataclass(frozen=True, slots=True)
class Match:
    """A table to make: the people to seat (in the order they came) and the bots."""

    guests: tuple[str, ...]
    bots: int
    """Seats the game's bots take (0: a table of people only)."""
    rating: float
    """The people's mean rating (the bots' level follows it)."""

    @property
    def seats(self) -> int:
        return len(self.guests) + self.bots


@dataclass(slots=True)
class Queue:
    """One game's people waiting, oldest first."""

    seats: tuple[int, int]
    """The table sizes the game allows."""
    wait: float
    """Seconds anyone waits at most: then bots fill the empty seats."""
    bots: bool
    """Whether the game has bots to fill seats; a game without them (El Peaje) seats the
    people there are after the wait, or one alone at a table of their own."""
    tickets: dict[str, Ticket] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.tickets)

    def add(self, ticket: Ticket) -> None:
        self.tickets[ticket.guest] = ticket

    def remove(self, guest: str) -> Ticket | None:
        return self.tickets.pop(guest, None)

    def seconds_left(self, guest: str, now: float) -> float | None:
        """How long ``guest`` waits at most from now (None: not waiting)."""
        ticket = self.tickets.get(guest)
        if ticket is None:
            return None
        return max(0.0, self.wait - (now - ticket.since))

    def match(self, now: float) -> list[Match]:
        """The tables to make now, their people taken out of the queue: every full table
        that can be made, oldest first, and for everyone whose wait ran out, a table of
        whom there is — as large as asked, the empty seats bots; «me da igual»: as large
        as the people there (one alone: the smallest table, against bots). A game without
        bots seats whom there is once the wait runs out, whatever size each asked for; one
        alone, alone (:class:`Match` with no bots and one guest)."""
        low, high = self.seats
        made: list[Match] = []
        for oldest in sorted(self.tickets.values(), key=lambda t: t.since):
            if oldest.guest not in self.tickets:
                continue  # seated meanwhile
            group, size = self._group(oldest, now)
            if len(group) == (size or high):
                made.append(self._seat(group, size or high))
            elif now - oldest.since >= self.wait:
                if not self.bots:  # nobody to fill the seats: whoever waits, any size
                    group, size = self._group(oldest, now, any_size=True)
                made.append(self._seat(group, size or max(low, len(group))))
        return made

    def _group(
        self, oldest: Ticket, now: float, any_size: bool = False
    ) -> tuple[list[Ticket], int | None]:
        """The people who may sit with ``oldest`` now, in the order they came, and the
        table size one of them asked for (None: all of them «me da igual»). ``any_size``:
        the others' sizes do not matter (a game without bots, once ``oldest``'s wait ran
        out: a smaller table than one asked for beats none), at most ``oldest``'s own."""
        high = self.seats[1]
        group = [oldest]
        size = oldest.players
        for other in sorted(self.tickets.values(), key=lambda t: t.since):
            if other is oldest:
                continue
            if len(group) == (size or high):
                break
            wants = None if any_size else other.players
            if wants is not None and (size not in (None, wants) or len(group) >= wants):
                continue
            if not all(member.accepts(other, now) for member in group):
                continue
            group.append(other)
            size = size or wants
        return group, size

    def _seat(self, group: list[Ticket], size: int) -> Match:
        group = sorted(group, key=lambda t: t.since)
        for ticket in group:
            del self.tickets[ticket.guest]
        rating = sum(t.rating for t in group) / len(group)
        guests = tuple(t.guest for t in group)
        return Match(guests, size - len(group) if self.bots else 0, rating)


def bot_level(levels: tuple[str, ...], default: str, rating: float, median: float) -> str:
    """The level of the bots that fill a table (RULES.md «Quick play»): the game's strongest
    above the median rating of its players, its default (normal) at or below it.

    >>> bot_level(("facil", "normal", "dificil"), "normal", 1620.0, 1540.0)
    'dificil'
    >>> bot_level(("facil", "normal", "dificil"), "normal", 1500.0, 1540.0)
    'normal'
    """
    return levels[-1] if rating > median else default
