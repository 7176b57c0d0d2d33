"""A code's wrong tries are counted by the statement that judges them: a hundred wrong
guesses sent at once have at most :data:`CODE_TRIES` judged, the rest are ``too_many``, and
the right code after them is refused — on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime

from tapete.accounts import CODE_TRIES, code_digest
from tapete.store import Store, migrate

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
SECRET = "s" * 32
EMAIL = "ana@example.com"


def typed(purpose: str, code: str) -> Callable[[str], str]:
    return lambda to: code_digest(SECRET, purpose, to, code)


async def test_a_hundred_wrong_guesses_at_once_have_five_judged(any_db: str) -> None:
    migrate(any_db)
    store = Store(any_db)
    try:
        await store.ensure_guest("g1")
        digest = code_digest(SECRET, "link", EMAIL, "123456")
        await store.accounts.add_code("link", EMAIL, "g1", digest, NOW)
        guesses = [f"{n:06d}" for n in range(200_000, 200_100)]
        verdicts = await asyncio.gather(
            *(store.accounts.check_code("link", typed("link", g), NOW, guest="g1") for g in guesses)
        )
        counted = Counter(v for v, _ in verdicts)
        assert counted == {"wrong": CODE_TRIES, "too_many": 100 - CODE_TRIES}, counted
        right = await store.accounts.check_code("link", typed("link", "123456"), NOW, guest="g1")
        assert right == ("too_many", None)
    finally:
        await store.close()


async def test_a_recovery_code_guessed_at_once_by_its_address(any_db: str) -> None:
    migrate(any_db)
    store = Store(any_db)
    try:
        digest = code_digest(SECRET, "recover", EMAIL, "654321")
        await store.accounts.add_code("recover", EMAIL, None, digest, NOW)
        verdicts = await asyncio.gather(
            *(
                store.accounts.check_code("recover", typed("recover", f"{n:06d}"), NOW, email=EMAIL)
                for n in range(300_000, 300_100)
            )
        )
        counted = Counter(v for v, _ in verdicts)
        assert counted == {"wrong": CODE_TRIES, "too_many": 100 - CODE_TRIES}, counted
        right = await store.accounts.check_code(
            "recover", typed("recover", "654321"), NOW, email=EMAIL
        )
        assert right == ("too_many", None)
    finally:
        await store.close()
