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


def next_streak(previous: int, last: datetime | None, now: datetime, tz: str | None) -> int | None:
    """The streak after a claim at ``now``; None if a claim was made on this day already.
    Both instants are read in the player's zone of today, so moving the zone does not make
    the same day twice."""
    today = local_day(now, tz)
    if last is None:
        return 1
    before = local_day(last, tz)
    if before >= today:
        return None
    return previous + 1 if before == today - timedelta(days=1) else 1


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
