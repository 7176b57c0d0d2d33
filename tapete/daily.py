"""The deal of the day («Reto del día»): pure functions, no state (docs/fairness.md).

Every day (the hall's day: midnight in Madrid), each game with a :class:`~tapete.games.
protocol.Daily` has one deal for everyone. Its seed is an HMAC of the day and the game under
the hall's secret: the same in every process, unpredictable without the secret, and fixed
before the day begins — nobody, the hall included, picks it once people play. The day's
commitment (``SHA-256("reto:<day>:<game>:<seed>:<salt>")``, the salt another HMAC) is shown
from the start of the day; the seed and the salt are shown once the day is over, so anyone
can check that everybody had the cards of the seed committed to.

>>> from datetime import date
>>> a = seed("secret", date(2026, 12, 4), "onecard")
>>> day = date(2026, 12, 4)
>>> a == seed("secret", day, "onecard"), a == seed("other", day, "onecard")
(True, False)
>>> 0 <= a < 2**62
True
>>> len(commitment("secret", date(2026, 12, 4), "onecard"))
64
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Final
from zoneinfo import ZoneInfo

ZONE: Final = ZoneInfo("Europe/Madrid")
"""The hall's day: a new deal at midnight in Spain."""


def day_of(now: datetime) -> date:
    """The hall's day at ``now`` (aware).

    >>> day_of(datetime(2026, 12, 4, 22, 59, tzinfo=UTC)).isoformat()
    '2026-12-04'
    >>> day_of(datetime(2026, 12, 4, 23, 0, tzinfo=UTC)).isoformat()  # (midnight in Madrid)
    '2026-12-05'
    """
    return now.astimezone(ZONE).date()


def ends(day: date) -> datetime:
    """When ``day`` ends (the next midnight in Madrid), in UTC."""
    nxt = datetime.combine(day + timedelta(days=1), datetime.min.time(), ZONE)
    return nxt.astimezone(UTC)


def _mac(secret: str, what: str) -> bytes:
    return hmac.new(secret.encode(), what.encode(), hashlib.sha256).digest()


def seed(secret: str, day: date, kind: str) -> int:
    """The day's seed for the game ``kind``: 62 bits of an HMAC under the hall's secret."""
    return int.from_bytes(_mac(secret, f"reto-seed:{day.isoformat()}:{kind}")[:8], "big") >> 2


def salt(secret: str, day: date, kind: str) -> str:
    """The salt of the day's commitment (so the seed cannot be searched for from it)."""
    return _mac(secret, f"reto-salt:{day.isoformat()}:{kind}").hex()


def preimage(day: date, kind: str, seed_: int, salt_: str) -> str:
    return f"reto:{day.isoformat()}:{kind}:{seed_}:{salt_}"


def commitment(secret: str, day: date, kind: str) -> str:
    """``SHA-256`` of :func:`preimage`, in hex: shown from the day's start."""
    text = preimage(day, kind, seed(secret, day, kind), salt(secret, day, kind))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Attempt:
    """One player's attempt at a day's deal, as the day's table reads it."""

    guest: str
    name: str
    """The player's public name (its key: :mod:`tapete.public_names`)."""
    done: bool
    won: bool = False
    value: int = 0
    seconds: float = 0.0
    game_id: str = ""


@dataclass(frozen=True, slots=True)
class Ranked:
    rank: int
    attempt: Attempt


def rank(attempts: Iterable[Attempt], lower: bool) -> list[Ranked]:
    """The day's table: the finished attempts, those who won first, then by the number
    (``lower``: fewer first), then by time; equal on all three share a rank.

    >>> rows = [Attempt("a", "A", True, True, 30, 50.0), Attempt("b", "B", True, True, 20, 90.0),
    ...         Attempt("c", "C", True, False, 5, 10.0), Attempt("d", "D", False),
    ...         Attempt("e", "E", True, True, 30, 50.0)]
    >>> [(r.rank, r.attempt.guest) for r in rank(rows, lower=True)]
    [(1, 'b'), (2, 'a'), (2, 'e'), (4, 'c')]
    """
    done = [a for a in attempts if a.done]

    def key(a: Attempt) -> tuple[bool, int, float]:
        return (not a.won, a.value if lower else -a.value, round(a.seconds, 1))

    done.sort(key=lambda a: (key(a), a.name))
    out: list[Ranked] = []
    for i, a in enumerate(done):
        same = i > 0 and key(done[i - 1]) == key(a)
        out.append(Ranked(out[-1].rank if same else i + 1, a))
    return out


def streak(days: Sequence[date], today: date) -> int:
    """Days played in a row up to today (or up to yesterday, when today is not played yet).

    >>> d = date(2026, 12, 4)
    >>> streak([d, d - timedelta(1), d - timedelta(2), d - timedelta(4)], d)
    3
    >>> streak([d - timedelta(1), d - timedelta(2)], d), streak([d - timedelta(2)], d)
    (2, 0)
    """
    have = set(days)
    at = today if today in have else today - timedelta(days=1)
    n = 0
    while at in have:
        n += 1
        at -= timedelta(days=1)
    return n
