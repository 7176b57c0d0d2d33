"""Ratings of the games of skill strangers play («Jugar ahora»): Weng and Lin's Bayesian
model with Plackett–Luce likelihoods, as `openskill` implements it (docs/ratings.md says why
this model and these parameters).

A rating is a belief about a player's skill: a mean ``mu`` and an uncertainty ``sigma``.
A game's result is each seat's *place* (1 first; equal places are a tie), from the game's
descriptor (``GameSpec.quick.places``); this module knows no game. Whom a result moves:

- a seat played by a bot from the start is left out (a bot's strength moves nobody's rating:
  the humans are rated among themselves, in their order);
- a human who left, or whose seat a bot took after timeouts, is last (tied with any other
  such);
- a game with fewer than two rated humans moves nobody.

What a player reads is :func:`shown` (an integer around 1500) and, while the uncertainty is
high, a «?» (:func:`provisional`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

MU: Final = 25.0
"""A new player's mean."""
SIGMA: Final = MU / 3
"""A new player's uncertainty."""
BETA: Final = MU / 6
"""How much one game's performance varies around a player's skill."""
TAU: Final = MU / 300
"""Added to the uncertainty before each game: skills change."""
PROVISIONAL_SIGMA: Final = 5.0
"""Above this uncertainty a rating is provisional (shown with «?», on no leaderboard):
about a dozen games of two to four players (docs/ratings.md)."""
SHOWN_BASE: Final = 1500
SHOWN_SCALE: Final = 40.0
"""What a player reads: ``1500 + 40 × (mu − 25)``, so a new player reads 1500."""

MODEL: Final = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    """Rated games played."""


NEW: Final = Rating()


def shown(rating: Rating) -> int:
    """The number a player reads: 1500 for a new player."""
    return round(SHOWN_BASE + SHOWN_SCALE * (rating.mu - MU))


def provisional(rating: Rating) -> bool:
    """Whether the rating is still too uncertain to rank (shown with «?»)."""
    return rating.sigma > PROVISIONAL_SIGMA


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a finished rated game, as the rating sees it."""

    rating: Rating | None
    """The human's rating before the game; None: a bot played the seat from the start."""
    place: int
    """The seat's place in the game's result (1 first; equal places tie)."""
    left: bool = False
    """The human left (or a bot took the seat after timeouts): they are last."""


def places(seats: Sequence[Seat]) -> list[int | None]:
    """The places the ratings use, by seat: the humans' in their order, one who left last
    (tied with any other who left), a bot's seat None."""
    stayed = sorted({s.place for s in seats if s.rating is not None and not s.left})
    rank = {place: i + 1 for i, place in enumerate(stayed)}
    last = len(stayed) + 1
    return [None if s.rating is None else last if s.left else rank[s.place] for s in seats]


def rate(seats: Sequence[Seat]) -> list[Rating | None]:
    """Every seat's rating after the game (None for a bot's seat). Fewer than two humans:
    nothing moves (a human's rating is returned as it was)."""
    order = places(seats)
    humans = [i for i, p in enumerate(order) if p is not None]
    if len(humans) < 2:
        return [s.rating for s in seats]
    rated = [(i, r, p) for i in humans if (r := seats[i].rating) and (p := order[i])]
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for _, r, _ in rated]
    after = MODEL.rate(teams, ranks=[float(p) for _, _, p in rated])
    out: list[Rating | None] = [None] * len(seats)
    for (i, before, _), team in zip(rated, after, strict=True):
        out[i] = Rating(team[0].mu, team[0].sigma, before.games + 1)
    return out
