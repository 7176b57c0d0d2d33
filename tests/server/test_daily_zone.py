"""The daily coins are once a day, whatever time zone the player says they are in: the day
of a claim, and when the next one opens, are fixed when it is made. Changing the zone after a
claim neither opens the next one early nor moves the ``next`` time the refusal gives; hopping
through zones whose midnight is near cannot make a day of a quarter of an hour."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from starlette.testclient import TestClient

from tapete.server.app import create_app
from tests.server.test_account import Clock

ZONES = (
    "Pacific/Pago_Pago", "Pacific/Honolulu", "Pacific/Marquesas", "America/Anchorage",
    "America/Los_Angeles", "America/Denver", "America/Chicago", "America/New_York",
    "America/Caracas", "America/St_Johns", "America/Sao_Paulo", "Atlantic/South_Georgia",
    "Atlantic/Azores", "UTC", "Europe/Madrid", "Europe/Athens", "Europe/Moscow", "Asia/Tehran",
    "Asia/Dubai", "Asia/Kabul", "Asia/Karachi", "Asia/Kolkata", "Asia/Kathmandu", "Asia/Dhaka",
    "Asia/Yangon", "Asia/Bangkok", "Asia/Shanghai", "Australia/Eucla", "Asia/Tokyo",
    "Australia/Darwin", "Australia/Sydney", "Australia/Lord_Howe", "Pacific/Noumea",
    "Pacific/Auckland", "Pacific/Chatham", "Pacific/Tongatapu", "Pacific/Kiritimati",
)  # fmt: skip
"""A zone for each offset from UTC there is (−11 to +14, the half and three-quarter ones)."""


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(db_url: str, clock: Clock) -> Iterator[TestClient]:
    app = create_app(db_url)
    with TestClient(app) as c:
        app.state.account.now = clock
        c.get("/")
        yield c


def zone(client: TestClient, name: str) -> None:
    assert client.post("/api/cuenta/perfil", json={"tz": name}).status_code == 200


def midnights(now: datetime) -> tuple[str, str]:
    """The zone whose last midnight passed latest before ``now``, and the one whose next
    midnight comes first after it: where a day has just begun, and where one is to end."""

    def midnight(name: str) -> tuple[timedelta, timedelta]:
        local = now.astimezone(ZoneInfo(name))
        began = datetime.combine(local.date(), datetime.min.time(), tzinfo=ZoneInfo(name))
        ends = datetime.combine(
            local.date() + timedelta(days=1), datetime.min.time(), tzinfo=ZoneInfo(name)
        )
        return local - began, ends - local

    return min(ZONES, key=lambda z: midnight(z)[0]), min(ZONES, key=lambda z: midnight(z)[1])


def test_a_claim_then_another_zone_is_refused_with_the_same_next(
    client: TestClient, clock: Clock
) -> None:
    clock.now = datetime(2026, 12, 1, 9, 50, tzinfo=UTC)  # 23:50 at Kiritimati (UTC+14)
    zone(client, "UTC")
    assert client.post("/api/monedas/diario").status_code == 200
    refused = client.post("/api/monedas/diario")
    assert refused.status_code == 409 and refused.json()["next"] == "2026-12-02T00:00:00+00:00"
    zone(client, "Pacific/Kiritimati")
    clock.now += timedelta(minutes=20)  # past midnight at Kiritimati: its 2nd of December
    again = client.post("/api/monedas/diario")
    assert again.status_code == 409 and again.json()["error"] == "claimed_today"
    assert again.json()["next"] == refused.json()["next"]
    assert client.get("/api/cuenta").json()["daily"]["next"] == refused.json()["next"]
    assert client.get("/api/cuenta").json()["coins"] == 20


@pytest.mark.slow
def test_hopping_through_the_zones_whose_midnight_is_near_gains_nothing(
    client: TestClient, clock: Clock
) -> None:
    """Every quarter of an hour for two days, a claim in the zone where a day has just
    begun, and one in the zone where a day is about to end: at most one claim a day (and one
    more at the start, as 23:59 and 00:01 are in any one zone)."""
    start = clock.now = datetime(2026, 12, 1, 9, 50, tzinfo=UTC)
    granted: list[datetime] = []
    while clock.now < start + timedelta(days=2):
        for name in midnights(clock.now):
            zone(client, name)
            if client.post("/api/monedas/diario").status_code == 200:
                granted.append(clock.now)
        clock.now += timedelta(minutes=15)
    within = [t for t in granted if t < start + timedelta(minutes=21)]
    assert len(within) <= 2, granted  # (the probe's: 3 in 21 minutes)
    assert len(granted) <= 3, granted
    gaps = [b - a for a, b in itertools.pairwise(granted[1:])]  # (past the first pair)
    assert all(gap >= timedelta(hours=23) for gap in gaps), granted
