"""Recovering an account by its e-mail address, against someone who is not its owner:

- asking for codes to another's address neither voids the code its owner asked for nor keeps
  the owner from asking for another (codes belong to the browser that asked for them, and the
  limits per address count per requester), within a cap per address against mail bombing;
- a code works only in the browser that asked for it;
- a known address and an unknown one take the same path: the same store calls, the same
  answer (the mail is built and sent after it). Their timing is measured by
  ``bench/recovery_timing.py``, never here."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from starlette.testclient import TestClient

from tapete.mail import SmtpMailer, SmtpSettings
from tapete.server.app import create_app
from tapete.server.edge.limits import Limits
from tests.mailbox import Inbox, mail_server
from tests.server.test_account import Clock, account, browser, link

EMAIL = "ana@example.com"
LIMITS = Limits(mail_codes_per_guest=50, mail_codes_per_address=50, mail_codes_per_email=6)
"""The client's own limits out of the way (every test browser has one address): what is
tested here is the limits per e-mail address."""


@pytest.fixture
def smtp() -> Iterator[tuple[str, Inbox]]:
    with mail_server() as running:
        yield running


@pytest.fixture
def inbox(smtp: tuple[str, Inbox]) -> Inbox:
    return smtp[1]


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(db_url: str, smtp: tuple[str, Inbox], clock: Clock) -> Iterator[TestClient]:
    url, _ = smtp
    mailer = SmtpMailer(SmtpSettings.parse(url), "Tapete <t@test>")
    app = create_app(db_url, limits=LIMITS, mailer=mailer)
    with TestClient(app) as c:
        app.state.account.now = clock
        c.get("/")
        yield c


def recover(them: TestClient, email: str = EMAIL) -> int:
    return them.post("/api/cuenta/recuperar", json={"email": email}).status_code


def confirm(them: TestClient, code: str, email: str = EMAIL) -> Any:
    return them.post("/api/cuenta/recuperar/confirmar", json={"email": email, "code": code})


def test_asking_for_someones_codes_leaves_their_code_and_their_asking_alone(
    client: TestClient, inbox: Inbox, clock: Clock
) -> None:
    client.post("/api/cuenta/perfil", json={"name": "Ana"})
    link(client, inbox, EMAIL)
    owner, attacker = browser(client), browser(client)
    clock.now += timedelta(seconds=31)
    assert recover(owner) == 202
    owners_code = inbox.code(2)
    asked = [recover(attacker)]  # as fast as they may: three, then refused
    for _ in range(3):
        clock.now += timedelta(seconds=31)
        asked.append(recover(attacker))
    assert asked == [202, 202, 202, 429]
    inbox.wait(5)
    r = confirm(owner, owners_code)  # the owner's code still works
    assert r.status_code == 200, r.text
    assert account(owner)["name"] == "Ana"
    other_owner = browser(client)  # and the owner may still ask for another, elsewhere
    assert recover(other_owner) == 202
    r = confirm(other_owner, inbox.code(6))
    assert r.status_code == 200 and account(other_owner)["name"] == "Ana"


def test_the_owner_asks_again_after_someone_asked(
    client: TestClient, inbox: Inbox, clock: Clock
) -> None:
    link(client, inbox, EMAIL)
    owner, attacker = browser(client), browser(client)
    clock.now += timedelta(seconds=31)
    for _ in range(3):
        recover(attacker)
        clock.now += timedelta(seconds=31)
    assert recover(owner) == 202  # (not 429 too_many_mails)
    assert confirm(owner, inbox.code(5)).status_code == 200


def test_a_code_works_only_in_the_browser_that_asked_for_it(
    client: TestClient, inbox: Inbox, clock: Clock
) -> None:
    link(client, inbox, EMAIL)
    asker, elsewhere = browser(client), browser(client)
    clock.now += timedelta(seconds=31)
    assert recover(asker) == 202
    code = inbox.code(2)
    r = confirm(elsewhere, code)
    assert r.status_code == 400 and r.json()["error"] == "wrong_code"
    assert account(elsewhere)["email_linked"] is False
    assert confirm(asker, code).status_code == 200


def test_an_address_is_sent_at_most_its_cap_whoever_asks(
    client: TestClient, inbox: Inbox, clock: Clock
) -> None:
    link(client, inbox, EMAIL)
    clock.now += timedelta(seconds=31)
    statuses = [recover(browser(client)) for _ in range(LIMITS.mail_codes_per_email + 1)]
    assert statuses == [202] * (LIMITS.mail_codes_per_email - 1) + [429, 429]  # (+ the link's)
    r = browser(client).post("/api/cuenta/recuperar", json={"email": EMAIL})
    assert r.json()["error"] == "too_many_mails"
    inbox.wait(LIMITS.mail_codes_per_email)
    time.sleep(0.2)
    assert len(inbox.messages) == LIMITS.mail_codes_per_email
    clock.now += timedelta(minutes=15)
    assert recover(browser(client)) == 202


def test_a_known_address_and_an_unknown_one_make_the_same_store_calls(
    client: TestClient, inbox: Inbox, clock: Clock
) -> None:
    link(client, inbox, EMAIL)
    clock.now += timedelta(seconds=31)
    accounts = client.app.state.hall.store.accounts  # type: ignore[attr-defined]
    calls: list[tuple[str, tuple[str, ...]]] = []
    for name in ("by_email", "may_send", "add_code", "check_code", "link", "get"):
        real = getattr(accounts, name)

        def spy(*args: Any, _name: str = name, _real: Any = real, **kw: Any) -> Any:
            shape = tuple(type(a).__name__ for a in args) + tuple(sorted(kw))
            calls.append((_name, shape))
            return _real(*args, **kw)

        setattr(accounts, name, spy)
    them = browser(client)
    known = them.post("/api/cuenta/recuperar", json={"email": EMAIL})
    known_calls = list(calls)
    calls.clear()
    unknown = them.post("/api/cuenta/recuperar", json={"email": "nadie@example.com"})
    assert known.status_code == unknown.status_code == 202
    assert set(known.json()) == set(unknown.json())
    assert [name for name, _ in known_calls] == ["by_email", "may_send", "add_code"]
    assert [name for name, _ in calls] == [name for name, _ in known_calls]
    # (the owner, None for an unknown address, is one argument among the same ones)
    assert len(calls[2][1]) == len(known_calls[2][1])


def test_the_message_is_built_off_the_answers_path_for_both(
    client: TestClient, inbox: Inbox, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What differs between a known address and an unknown one (building the message,
    sending it) happens in the task each of them starts, never in the request's own (the
    task that keeps the code)."""
    from tapete.server.account import account as module

    link(client, inbox, EMAIL)
    clock.now += timedelta(seconds=31)
    api = client.app.state.account  # type: ignore[attr-defined]
    accounts = api.accounts
    answering: list[asyncio.Task[Any] | None] = []
    building: list[asyncio.Task[Any] | None] = []
    started: list[bool] = []
    real_add, real_mail, real_build = accounts.add_code, api._mail, module.code_mail

    async def add_code(*args: Any, **kw: Any) -> Any:
        answering.append(asyncio.current_task())
        return await real_add(*args, **kw)

    def mail(*args: Any) -> Any:
        started.append(args[-1])
        return real_mail(*args)

    def build(*args: Any) -> Any:
        building.append(asyncio.current_task())
        return real_build(*args)

    monkeypatch.setattr(accounts, "add_code", add_code)
    monkeypatch.setattr(api, "_mail", mail)
    monkeypatch.setattr(module, "code_mail", build)
    them = browser(client)
    assert recover(them) == 202
    inbox.wait(2)
    assert recover(them, "nadie@example.com") == 202
    assert started == [True, False]  # (one task each: to send, or not)
    assert len(answering) == 2 and len(building) == 2  # (built the same, sent or not)
    assert not {id(t) for t in building} & {id(t) for t in answering}
