"""The rules of a player's own place that are not a game's: e-mail codes and daily coins.

Pure functions and constants; the store keeps the state, the server speaks to people.

>>> daily_grant(1), daily_grant(7), daily_grant(8)
(20, 80, 20)
>>> normal_email("  Ana.Lopez@Example.COM ")
'Ana.Lopez@example.com'
>>> normal_email("no-at-sign") is None
True
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

CODE_SECONDS: Final = 600
"""A code sent by e-mail is good for 10 minutes."""
CODE_TRIES: Final = 5
"""Wrong tries a code allows; past them it is dead and a new one must be asked for."""
MAILS_PER_ADDRESS: Final = 3
"""Codes sent to one address within :data:`MAIL_WINDOW_SECONDS`."""
MAIL_WINDOW_SECONDS: Final = 900
MAIL_GAP_SECONDS: Final = 30
"""The least time between two codes for the same purpose sent to one address."""

DAILY: Final = (20, 25, 30, 35, 40, 50, 80)
"""Coins of the daily claim by day of the streak's week (day 7 is the week's bonus); the
eighth day in a row starts a new week."""

_EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]+\.[^@\s.]{2,}$")


def normal_email(value: object) -> str | None:
    """The address as it is kept (trimmed, its domain in lower case), or None if it is not
    one. The local part keeps its case: it is the mail server's to compare."""
    if not isinstance(value, str):
        return None
    value = value.strip()
    if len(value) > 254 or not _EMAIL.match(value):
        return None
    local, domain = value.rsplit("@", 1)
    if ".." in domain or domain.startswith(".") or domain.startswith("-"):
        return None
    return f"{local}@{domain.lower()}"


def new_code() -> str:
    """Six random digits."""
    return f"{secrets.randbelow(10**6):06d}"


def code_digest(secret: str, purpose: str, email: str, code: str) -> str:
    """What is kept of a code: keyed by the hall's secret, bound to its purpose and
    address (a code for one address is no use for another)."""
    message = f"{purpose}\n{email.lower()}\n{code.strip()}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def same_digest(a: str, b: str) -> bool:
    return hmac.compare_digest(a, b)


def zone(name: str | None) -> ZoneInfo | timezone:
    """The player's time zone (UTC when none is known or the name is not one)."""
    if not name:
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def valid_zone(name: object) -> bool:
    if not isinstance(name, str) or not 0 < len(name) <= 64:
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def local_day(instant: datetime, tz: str | None) -> date:
    """The calendar day ``instant`` falls on where the player is."""
    return instant.astimezone(zone(tz)).date()


def daily_grant(streak: int) -> int:
    """The coins of the claim that makes the streak ``streak`` days long."""
    return DAILY[(streak - 1) % len(DAILY)]


DAY_FLOOR: Final = timedelta(hours=23)
"""The least time between the openings of two claims in a row: no day is shorter in any one
zone (23 hours when the clocks go forward), so only a change of zone could make one shorter —
and hopping through the zones whose midnight is near would make a day of a quarter of an
hour."""


def fix_day(now: datetime, tz: str | None, opened: datetime | None) -> tuple[datetime, datetime]:
    """What a claim made at ``now`` by a player in ``tz`` fixes, whatever zone they say they
    are in later: when the next claim opens (the start of the next day there, and at least
    :data:`DAY_FLOOR` after ``opened``, when the claim before it opened), and until when a
    claim continues the streak (the end of the day it opens).

    >>> opens, keeps = fix_day(datetime(2026, 12, 1, 22, 30, tzinfo=UTC), "Europe/Madrid", None)
    >>> opens.isoformat(), keeps.isoformat()
    ('2026-12-01T23:00:00+00:00', '2026-12-02T23:00:00+00:00')
    """
    opens = next_claim(now, tz)
    if opened is not None:
        opens = max(opens, opened + DAY_FLOOR)
    return opens, next_claim(opens, tz)


def claim_window(
    claimed_at: datetime | None,
    opens: datetime | None,
    keeps: datetime | None,
    tz: str | None,
) -> tuple[datetime | None, datetime | None]:
    """When the next claim opens and until when it continues the streak, as the last claim
    fixed them (None, None: no claim yet). A claim from before they were kept is read in the
    player's zone now."""
    if opens is not None:
        return opens, keeps
    if claimed_at is None:
        return None, None
    return fix_day(claimed_at, tz, None)


def streak_after(
    previous: int, opens: datetime | None, keeps: datetime | None, now: datetime
) -> int | None:
    """The streak after a claim at ``now``: None if the next claim is not open yet; one more
    if it is made before ``keeps``; else a new streak of 1."""
    if opens is None:
        return 1
    if now < opens:
        return None
    return previous + 1 if keeps is None or now < keeps else 1


def next_claim(now: datetime, tz: str | None) -> datetime:
    """When the next day begins where the player is (UTC)."""
    where = zone(tz)
    tomorrow = local_day(now, tz) + timedelta(days=1)
    return datetime(tomorrow.year, tomorrow.month, tomorrow.day, tzinfo=where).astimezone(UTC)


def week_strip(streak: int, claimed_today: bool) -> list[dict[str, object]]:
    """The seven days of the streak's week as the page shows them: each day's coins, and
    whether it is claimed, today's, or to come. ``streak``: the streak today has if claimed,
    or would have once claimed (:func:`next_streak`)."""
    today = (max(streak, 1) - 1) % len(DAILY) + 1
    return [
        {
            "day": n,
            "coins": DAILY[n - 1],
            "claimed": n < today or (n == today and claimed_today),
            "today": n == today,
        }
        for n in range(1, len(DAILY) + 1)
    ]
