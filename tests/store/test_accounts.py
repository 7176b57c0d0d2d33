"""The account's changes that must not happen twice, on SQLite and PostgreSQL: the day's coins
claimed from two tabs at once, a code tried twice at once, an address linked to two accounts."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from tapete.accounts import CODE_TRIES, DAILY, code_digest
from tapete.store import Store, migrate

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
SECRET = "s" * 32


async def test_two_claims_at_once_grant_the_day_once(any_db: str) -> None:
    migrate(any_db)
    store = Store(any_db)
    try:
        await store.ensure_guest("g1")
        claims = await asyncio.gather(*(store.accounts.claim_daily("g1", NOW) for _ in range(8)))
        granted = [c for c in claims if c is not None]
        assert len(granted) == 1 and granted[0].coins == DAILY[0]
        account = await store.accounts.get("g1")
        assert account is not None and account.coins == DAILY[0] and account.streak == 1
        later = await store.accounts.claim_daily("g1", NOW + timedelta(days=1))
        assert later is not None and (later.coins, later.streak) == (DAILY[0] + DAILY[1], 2)
    finally:
        await store.close()


async def test_wrong_tries_count_and_the_right_code_is_spent_once(any_db: str) -> None:
    migrate(any_db)
    store = Store(any_db)
    try:
        await store.ensure_guest("g1")
        email = "ana@example.com"
        await store.accounts.add_code(
            "link", email, "g1", code_digest(SECRET, "link", email, "123456"), NOW
        )

        def typed(code: str):  # type: ignore[no-untyped-def]
            return lambda to: code_digest(SECRET, "link", to, code)

        right = await asyncio.gather(
            *(store.accounts.check_code("link", typed("123456"), NOW, guest="g1") for _ in range(4))
        )
        assert sorted(v for v, _ in right) == ["ok", "wrong", "wrong", "wrong"]
        await store.accounts.add_code(
            "link", email, "g1", code_digest(SECRET, "link", email, "654321"), NOW
        )
        wrong = await asyncio.gather(
            *(
                store.accounts.check_code("link", typed("000000"), NOW, guest="g1")
                for _ in range(CODE_TRIES)
            )
        )
        assert [v for v, _ in wrong] == ["wrong"] * CODE_TRIES
        verdict, _ = await store.accounts.check_code("link", typed("654321"), NOW, guest="g1")
        assert verdict == "too_many"
    finally:
        await store.close()


async def test_an_address_belongs_to_one_account(any_db: str) -> None:
    migrate(any_db)
    store = Store(any_db)
    try:
        for g in ("g1", "g2"):
            await store.ensure_guest(g)
        assert await store.accounts.link("g1", "ana@example.com")
        assert not await store.accounts.link("g2", "ANA@example.com")
        assert await store.accounts.by_email("Ana@Example.com") == "g1"
        await store.accounts.unlink("g1")
        assert await store.accounts.link("g2", "ana@example.com")
    finally:
        await store.close()


async def test_two_tabs_buying_at_once_pay_once(any_db: str) -> None:
    migrate(any_db)
    store = Store(any_db)
    try:
        await store.ensure_guest("g1")
        await store.accounts.claim_daily("g1", NOW)  # DAILY[0] coins
        price = DAILY[0] // 2
        same = await asyncio.gather(
            *(store.accounts.buy("g1", "azulejo", price, NOW) for _ in range(3))
        )
        assert sorted(same) == ["ok", "owned", "owned"]
        account = await store.accounts.get("g1")
        assert account is not None and account.coins == DAILY[0] - price
        assert account.owned == ["azulejo"]
        # two things, coins for one of them
        both = await asyncio.gather(
            store.accounts.buy("g1", "rayas", DAILY[0] - price, NOW),
            store.accounts.buy("g1", "dorado", DAILY[0] - price, NOW),
        )
        assert sorted(both) == ["ok", "poor"]
        account = await store.accounts.get("g1")
        assert account is not None and account.coins == 0 and len(account.owned) == 2
        assert await store.accounts.buy("g1", "oro", 1, NOW) == "poor"
    finally:
        await store.close()
