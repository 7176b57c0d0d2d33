"""The guest cookie: signed with its issue time, old untimed tokens still read, read from
a Cookie header however messy the other cookies of the host, and the database that holds
the signing key readable by its owner only."""

from __future__ import annotations

import asyncio
import os
import stat
import time
from pathlib import Path

from itsdangerous import URLSafeSerializer, URLSafeTimedSerializer
from starlette.testclient import TestClient

from tapete.server.account.guests import COOKIE, Guests, cookies_of
from tapete.server.app import create_app
from tapete.server.edge.limits import Limits
from tapete.store import Store, default_url, migrate

SECRET = "s" * 32


def test_a_token_carries_its_issue_time_and_old_ones_can_be_refused() -> None:
    guests = Guests(SECRET)
    token = guests.sign("a" * 24)
    value, issued = URLSafeTimedSerializer(SECRET, salt="guest").loads(token, return_timestamp=True)
    assert value == "a" * 24 and abs(issued.timestamp() - time.time()) < 5
    assert guests.read(token) == "a" * 24
    assert Guests(SECRET, not_before=time.time() + 10).read(token) is None  # rotated out
    assert Guests("x" * 32).read(token) is None
    assert guests.read(token + "x") is None


def test_an_untimed_token_from_before_still_reads_and_is_reissued(db_url: str) -> None:
    with TestClient(create_app(db_url)) as c:
        c.get("/")
        secret = asyncio.run(_secret(db_url))
        old = str(URLSafeSerializer(secret, salt="guest").dumps("b" * 24))
        assert Guests(secret).read_token(old) == ("b" * 24, True)
        c.cookies.clear()
        c.cookies.set(COOKIE, old)
        r = c.get("/")
        assert r.status_code == 200
        fresh = r.headers["set-cookie"].split(";")[0].split("=", 1)[1]
        assert fresh != old and Guests(secret).read_token(fresh) == ("b" * 24, False)


async def _secret(url: str) -> str:
    store = Store(url)
    try:
        return await store.secret()
    finally:
        await store.close()


def test_a_foreign_cookie_with_json_or_spaces_does_not_lose_ours(client: TestClient) -> None:
    ours = client.cookies[COOKIE]
    messy = f'prefs={{"theme": "dark", "n": [1, 2]}}; a b=c d; {COOKIE}={ours}; x="q"'
    scope = {"headers": [(b"cookie", messy.encode())]}
    assert cookies_of(scope)[COOKIE] == ours
    client.cookies.clear()
    r = client.get("/", headers={"cookie": messy})
    assert "set-cookie" not in r.headers  # still the same guest: no new identity


def test_the_first_valid_of_two_guest_cookies_wins(client: TestClient) -> None:
    ours = client.cookies[COOKIE]
    client.cookies.clear()
    r = client.get("/", headers={"cookie": f"{COOKIE}=forged; {COOKIE}={ours}"})
    assert "set-cookie" not in r.headers


def test_the_database_holding_the_signing_key_is_its_owners_only(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    old = os.umask(0o022)
    try:
        migrate(default_url(path))
    finally:
        os.umask(old)
    for file in [path, *tmp_path.glob("new.db-*")]:
        assert stat.S_IMODE(file.stat().st_mode) == 0o600, file
    path.chmod(0o644)  # a file made before: tightened on the next start
    migrate(default_url(path))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_an_operator_rotates_every_cookie_issued_before_a_time(tmp_path: Path) -> None:
    """``--limit cookies_issued_after=T``: a cookie from before T is no identity any more."""
    url = default_url(tmp_path / "rot.db")
    with TestClient(create_app(url)) as old:
        old.get("/")
        token = old.cookies["tapete_guest"]
    later = Limits().with_text(f"cookies_issued_after={time.time() + 5}")
    with TestClient(create_app(url, limits=later)) as new:
        new.cookies.set("tapete_guest", token)
        r = new.get("/")
        assert "tapete_guest=" in r.headers.get("set-cookie", "")  # a new identity
