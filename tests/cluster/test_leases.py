"""Leases on a real redis-server: one owner at a time, renewal, expiry, take-over."""

from __future__ import annotations

import asyncio
from typing import Any

from tapete.cluster import Leases


async def test_one_owner_at_a_time_and_a_lease_given_back_is_free(redis_client: Any) -> None:
    a, b = Leases(redis_client, "proc-a"), Leases(redis_client, "proc-b")
    assert await a.take("game:1") is True
    assert await a.take("game:1") is True  # (already its own: renewed)
    assert await b.take("game:1") is False
    assert await a.owner_of("game:1") == "proc-a"
    assert await b.give_back("game:1") is False  # not b's to give
    assert await a.owner_of("game:1") == "proc-a"
    assert await a.give_back("game:1") is True
    assert await b.take("game:1") is True and await b.owner_of("game:1") == "proc-b"


async def test_a_lease_not_renewed_expires_and_another_takes_it_over(redis_client: Any) -> None:
    """game:1 is renewed for a long life, game:2 is left to its short one: once game:2's
    key has expired (waited for, not slept for), another takes it and not game:1."""
    short = Leases(redis_client, "proc-a", ttl=0.3)
    long = Leases(redis_client, "proc-a", ttl=60)  # (the same owner, renewing for longer)
    b = Leases(redis_client, "proc-b", ttl=60)
    assert await short.take("game:1") and await short.take("game:2")
    assert await long.renew(["game:1"]) == []  # game:1 is kept alive, game:2 is not
    for _ in range(200):
        if await short.owner_of("game:2") is None:
            break
        await asyncio.sleep(0.01)
    assert await short.owner_of("game:2") is None, "game:2's lease never expired"
    assert await b.take("game:1") is False
    assert await b.take("game:2") is True  # the dead owner's lease, taken over
    assert await long.renew(["game:1", "game:2"]) == ["game:2"]  # a learns it lost game:2
    assert await short.owner_of("game:2") == "proc-b"
