"""A player's own place over HTTP, with a real SMTP server (aiosmtpd) on loopback: linking an
e-mail address by a code that arrives by mail, recovering the account on another browser,
the daily coins; and every refusal (wrong, expired, too many tries, too many mails, an
address another account has, a second claim the same day) changing nothing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from starlette.testclient import TestClient

from tapete.accounts import DAILY
from tapete.mail import SmtpMailer, SmtpSettings
from tapete.server.app import create_app
from tapete.server.edge.limits import Limits
from tests.mailbox import Inbox, mail_server

START = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


@pytest.fixture
def smtp() -> Iterator[tuple[str, Inbox]]:
    with mail_server() as running:
        yield running


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(db_url: str, smtp: tuple[str, Inbox], clock: Clock) -> Iterator[TestClient]:
    url, _ = smtp
    app = create_app(db_url, mailer=SmtpMailer(SmtpSettings.parse(url), "Tapete <t@test>"))
    with TestClient(app) as c:
        app.state.account.now = clock
        c.get("/")
        yield c


@pytest.fixture
def inbox(smtp: tuple[str, Inbox]) -> Inbox:
    return smtp[1]


def browser(client: TestClient, lang: str = "es") -> TestClient:
    """Another browser on the same running hall (its own guest)."""
    other = TestClient(client.app)
    other.portal = client.portal
    other.get("/", params={"lang": lang})
    return other


def account(client: TestClient) -> dict[str, Any]:
    r = client.get("/api/cuenta")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def link(client: TestClient, inbox: Inbox, email: str) -> None:
    n = len(inbox.messages) + 1
    assert client.post("/api/cuenta/correo", json={"email": email}).status_code == 202
    r = client.post("/api/cuenta/correo/confirmar", json={"code": inbox.code(n)})
    assert r.status_code == 200, r.text


def test_a_new_guest_has_an_account_with_nothing_required(client: TestClient) -> None:
    me = account(client)
    assert me["coins"] == 0 and me["email_linked"] is False
    assert me["equipped"] == {
        "back": "clasico",
        "felt": "verde",
        "tiles": "marfil",
        "frame": "sin-marco",
    }
    assert set(me) >= {"name", "coins", "email_linked", "equipped"}


def test_linking_an_address_by_the_code_the_mail_server_received(
    client: TestClient, inbox: Inbox
) -> None:
    r = client.post("/api/cuenta/correo", json={"email": "Ana@Example.com"})
    assert r.status_code == 202 and r.json()["email"] == "Ana@example.com"
    message = inbox.wait(1)
    assert message["To"] == "Ana@example.com" and message["From"] == "Tapete <t@test>"
    assert inbox.envelopes[0].rcpt_tos == ["Ana@example.com"]
    code = inbox.code(1)
    assert code in message["Subject"] and "Tapete" in message["Subject"]
    html = message.get_body(("html",))
    assert html is not None and code in html.get_content()
    plain = message.get_body(("plain",))
    assert plain is not None and "10 minutos" in plain.get_content()
    assert account(client)["email_linked"] is False  # (not before the code)
    r = client.post("/api/cuenta/correo/confirmar", json={"code": code})
    assert r.status_code == 200 and r.json()["email_linked"] is True
    assert account(client)["email"] == "Ana@example.com"


def test_the_mail_is_in_the_players_language(client: TestClient, inbox: Inbox) -> None:
    english = browser(client, "en")
    assert english.post("/api/cuenta/correo", json={"email": "bo@example.com"}).status_code == 202
    message = inbox.wait(1)
    plain = message.get_body(("plain",))
    assert plain is not None and "expires in 10 minutes" in plain.get_content()
    assert message["Content-Language"] == "en"


def test_a_wrong_code_is_refused_and_after_five_the_code_is_dead(
    client: TestClient, inbox: Inbox
) -> None:
    client.post("/api/cuenta/correo", json={"email": "ana@example.com"})
    right = inbox.code(1)
    wrong = f"{(int(right) + 1) % 10**6:06d}"
    for _ in range(5):
        r = client.post("/api/cuenta/correo/confirmar", json={"code": wrong})
        assert r.status_code == 400 and r.json()["error"] == "wrong_code"
        assert r.json()["message"].startswith("Ese código no es correcto")
    r = client.post("/api/cuenta/correo/confirmar", json={"code": right})
    assert r.status_code == 429 and r.json()["error"] == "too_many_tries"
    assert account(client)["email_linked"] is False


def test_a_code_expires_after_ten_minutes(client: TestClient, inbox: Inbox, clock: Clock) -> None:
    client.post("/api/cuenta/correo", json={"email": "ana@example.com"})
    code = inbox.code(1)
    clock.now += timedelta(minutes=10)
    r = client.post("/api/cuenta/correo/confirmar", json={"code": code})
    assert r.status_code == 410 and r.json()["error"] == "code_expired"
    assert account(client)["email_linked"] is False


def test_only_the_newest_code_works(client: TestClient, inbox: Inbox, clock: Clock) -> None:
    client.post("/api/cuenta/correo", json={"email": "ana@example.com"})
    first = inbox.code(1)
    clock.now += timedelta(seconds=31)
    client.post("/api/cuenta/correo", json={"email": "ana@example.com"})
    second = inbox.code(2)
    if first != second:
        r = client.post("/api/cuenta/correo/confirmar", json={"code": first})
        assert r.status_code == 400
    assert client.post("/api/cuenta/correo/confirmar", json={"code": second}).status_code == 200


def test_bad_input_is_refused_clearly(client: TestClient) -> None:
    for body in ({"email": "not-an-address"}, {"email": 5}, {}):
        r = client.post("/api/cuenta/correo", json=body)
        assert r.status_code == 400 and r.json()["error"] == "bad_email", body
    r = client.post("/api/cuenta/correo/confirmar", json={"code": "12a456"})
    assert r.status_code == 400 and r.json()["error"] == "wrong_code"
    r = client.post("/api/cuenta/correo/confirmar", json={"code": "123456"})  # none asked
    assert r.status_code == 400
    r = client.post(
        "/api/cuenta/correo", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400 and r.json()["error"] == "bad_json"


def test_codes_to_one_address_are_throttled(client: TestClient, inbox: Inbox, clock: Clock) -> None:
    assert client.post("/api/cuenta/correo", json={"email": "a@example.com"}).status_code == 202
    r = client.post("/api/cuenta/correo", json={"email": "a@example.com"})
    assert r.status_code == 429 and r.json()["error"] == "too_many_mails"  # (within 30 s)
    for _ in range(2):
        clock.now += timedelta(seconds=31)
        assert client.post("/api/cuenta/correo", json={"email": "a@example.com"}).status_code == 202
    clock.now += timedelta(seconds=31)
    assert client.post("/api/cuenta/correo", json={"email": "a@example.com"}).status_code == 429
    clock.now += timedelta(minutes=15)
    assert client.post("/api/cuenta/correo", json={"email": "a@example.com"}).status_code == 202
    inbox.wait(4)
    assert len(inbox.messages) == 4


def test_an_address_another_account_has_is_not_taken_over(
    client: TestClient, inbox: Inbox, clock: Clock
) -> None:
    link(client, inbox, "ana@example.com")
    other = browser(client)
    clock.now += timedelta(seconds=31)
    assert other.post("/api/cuenta/correo", json={"email": "ANA@example.com"}).status_code == 202
    r = other.post("/api/cuenta/correo/confirmar", json={"code": inbox.code(2)})
    assert r.status_code == 409 and r.json()["error"] == "email_taken"
    assert account(other)["email_linked"] is False
    assert account(client)["email"] == "ana@example.com"


def test_unlinking(client: TestClient, inbox: Inbox) -> None:
    link(client, inbox, "ana@example.com")
    r = client.delete("/api/cuenta/correo")
    assert r.status_code == 200 and r.json()["email_linked"] is False


def test_recovering_the_account_on_another_browser(
    client: TestClient, inbox: Inbox, clock: Clock
) -> None:
    client.post("/api/cuenta/perfil", json={"name": "Ana", "avatar": "luna"})
    assert client.post("/api/monedas/diario").status_code == 200
    link(client, inbox, "ana@example.com")
    mine = account(client)
    other = browser(client)
    assert account(other)["name"] != "Ana"
    clock.now += timedelta(seconds=31)  # (the link's code was just sent)
    r = other.post("/api/cuenta/recuperar", json={"email": "ana@example.com"})
    assert r.status_code == 202
    code = inbox.code(2)
    subject = inbox.wait(2)["Subject"]
    assert "Recupera" in subject
    r = other.post(
        "/api/cuenta/recuperar/confirmar", json={"email": "ana@example.com", "code": code}
    )
    assert r.status_code == 200, r.text
    assert "tapete_guest=" in r.headers["set-cookie"]
    theirs = account(other)
    assert (theirs["name"], theirs["coins"], theirs["avatar"], theirs["email"]) == (
        "Ana",
        DAILY[0],
        "luna",
        "ana@example.com",
    )
    assert theirs == mine
    assert account(client) == mine  # (the first browser keeps working)


def test_recovering_says_the_same_for_an_unknown_address_and_mails_nothing(
    client: TestClient, inbox: Inbox, clock: Clock
) -> None:
    link(client, inbox, "ana@example.com")
    other = browser(client)
    clock.now += timedelta(seconds=31)  # (the link's code was just sent)
    known = other.post("/api/cuenta/recuperar", json={"email": "ana@example.com"})
    unknown = other.post("/api/cuenta/recuperar", json={"email": "nadie@example.com"})
    assert (known.status_code, set(known.json())) == (unknown.status_code, set(unknown.json()))
    inbox.wait(2)
    time.sleep(0.3)
    assert [m["To"] for m in inbox.messages] == ["ana@example.com", "ana@example.com"]
    r = other.post(
        "/api/cuenta/recuperar/confirmar", json={"email": "nadie@example.com", "code": "000000"}
    )
    assert r.status_code == 400 and r.json()["error"] == "wrong_code"
    again = other.post("/api/cuenta/recuperar", json={"email": "nadie@example.com"})
    assert again.status_code == 429  # (throttled the same as a known address)


def test_a_recovery_code_is_for_its_address_only(
    client: TestClient, inbox: Inbox, clock: Clock
) -> None:
    link(client, inbox, "ana@example.com")
    other = browser(client)
    clock.now += timedelta(seconds=31)  # (the link's code was just sent)
    other.post("/api/cuenta/recuperar", json={"email": "ana@example.com"})
    code = inbox.code(2)
    r = other.post(
        "/api/cuenta/recuperar/confirmar", json={"email": "bea@example.com", "code": code}
    )
    assert r.status_code == 400
    assert account(other)["email_linked"] is False


def test_daily_coins_once_a_day_with_a_streak(client: TestClient, clock: Clock) -> None:
    r = client.post("/api/monedas/diario")
    assert r.status_code == 200 and r.json() == {
        "coins": DAILY[0],
        "granted": DAILY[0],
        "streak": 1,
    }
    again = client.post("/api/monedas/diario")
    assert again.status_code == 409 and again.json()["error"] == "claimed_today"
    assert again.json()["next"] == "2026-12-02T00:00:00+00:00"
    assert account(client)["coins"] == DAILY[0]
    daily = account(client)["daily"]
    assert daily["claimed_today"] is True and daily["week"][0] == {
        "day": 1,
        "coins": DAILY[0],
        "claimed": True,
        "today": True,
    }
    total = DAILY[0]
    for day in range(2, 9):  # a week and a day in a row: the eighth starts a new week
        clock.now += timedelta(days=1)
        r = client.post("/api/monedas/diario")
        total += DAILY[(day - 1) % 7]
        assert r.json() == {"coins": total, "granted": DAILY[(day - 1) % 7], "streak": day}
    clock.now += timedelta(days=2)  # a day missed: the streak starts again
    r = client.post("/api/monedas/diario")
    assert r.json()["streak"] == 1 and r.json()["granted"] == DAILY[0]


def test_the_day_is_the_players_own(client: TestClient, clock: Clock) -> None:
    clock.now = datetime(2026, 12, 1, 22, 30, tzinfo=UTC)  # 23:30 in Madrid
    client.post("/api/cuenta/perfil", json={"tz": "Europe/Madrid"})
    assert client.post("/api/monedas/diario").status_code == 200
    clock.now = datetime(2026, 12, 1, 23, 10, tzinfo=UTC)  # 00:10 on the 2nd in Madrid
    r = client.post("/api/monedas/diario")
    assert r.status_code == 200 and r.json()["streak"] == 2
    r = client.post("/api/monedas/diario")
    assert r.status_code == 409 and r.json()["next"] == "2026-12-02T23:00:00+00:00"
    # moving the zone does not make the same day twice
    client.post("/api/cuenta/perfil", json={"tz": "Pacific/Kiritimati"})
    assert client.post("/api/monedas/diario").status_code == 409


def test_the_profile_refuses_what_it_does_not_know(client: TestClient) -> None:
    for body, field in (
        ({"avatar": "dragon"}, "avatar"),
        ({"tz": "Mars/Olympus"}, "tz"),
        ({"lang": "fr"}, "lang"),
        ({"name": "   "}, "name"),
    ):
        r = client.post("/api/cuenta/perfil", json=body)
        assert r.status_code == 400 and r.json()["error"] == "bad_profile", body
        assert field in r.json()["message"]
    me = account(client)
    assert (me["avatar"], me["tz"], me["lang"]) == (None, None, None)
    r = client.post("/api/cuenta/perfil", json={"name": "Bea", "avatar": "gato", "lang": "en"})
    assert r.status_code == 200 and (r.json()["name"], r.json()["avatar"]) == ("Bea", "gato")


def test_export_holds_what_is_kept_of_the_player(client: TestClient, inbox: Inbox) -> None:
    client.post("/api/cuenta/perfil", json={"name": "Ana"})
    client.post("/api/monedas/diario")
    link(client, inbox, "ana@example.com")
    game = client.post("/api/guerra/nueva", json={"config": {}}).json()["id"]
    r = client.get("/api/cuenta/datos")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    data = r.json()
    assert data["account"]["name"] == "Ana" and data["account"]["email"] == "ana@example.com"
    assert [e["reason"] for e in data["coins"]] == ["daily"]  # (no game ever paid or cost)
    assert [g["id"] for g in data["games"]] == [game] and data["games"][0]["seat"] == 0


def test_erasing_forgets_the_player_and_leaves_the_games_to_the_others(
    client: TestClient, inbox: Inbox
) -> None:
    from tests.server.test_rooms_api import make_room

    client.post("/api/cuenta/perfil", json={"name": "Ana"})
    client.post("/api/monedas/diario")
    link(client, inbox, "ana@example.com")
    code = make_room(client, "guerra", name="Ana")["code"]
    friend = browser(client)
    friend.post(f"/api/salas/{code}/unirse", json={"name": "Luis"})
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "enter", "room": code})
        state = ws.receive_json()
        ws.send_json({"type": "lobby", "action": "start", "version": state["version"]})
        for _ in range(10):
            msg = ws.receive_json()
            if msg.get("type") == "lobby" and msg.get("game_id"):
                game_id = msg["game_id"]
                break
    old = client.cookies.get("tapete_guest")
    refused = client.request("DELETE", "/api/cuenta", json={})
    assert refused.status_code == 400 and refused.json()["error"] == "confirm_erase"
    assert account(client)["name"] == "Ana"
    r = client.request("DELETE", "/api/cuenta", json={"confirm": True})
    assert r.status_code == 200 and "tapete_guest=" in r.headers["set-cookie"]
    assert client.cookies.get("tapete_guest") != old
    me = account(client)  # a new guest here
    assert (me["name"], me["coins"], me["email_linked"]) == (None, 0, False)
    # the address is free again, and recovering by it finds nobody
    other = browser(client)
    assert other.post("/api/cuenta/recuperar", json={"email": "ana@example.com"}).status_code == 202
    time.sleep(0.3)
    assert len(inbox.messages) == 1  # (only the link's code ever went out)
    # the friend's game is still there, the host's seat without a name
    hall = client.app.state.hall  # type: ignore[attr-defined]
    assert client.portal is not None
    record = client.portal.call(hall.store.game, game_id)
    assert record is not None and "name" not in record.seats[0]
    assert record.seats[1]["name"] == "Luis"


def test_codes_from_one_client_are_throttled_as_the_limits_say(
    db_url: str, smtp: tuple[str, Inbox]
) -> None:
    """Two codes a network address (``Limits.mail_codes_per_address``), whatever the
    addresses asked for: the third is refused and nothing more is sent."""
    url, inbox = smtp
    mailer = SmtpMailer(SmtpSettings.parse(url), "Tapete <t@test>")
    limits = Limits(mail_codes_per_address=2)
    before = len(inbox.messages)
    with TestClient(create_app(db_url, limits=limits, mailer=mailer)) as c:
        c.get("/")
        for n in (1, 2):
            r = c.post("/api/cuenta/correo", json={"email": f"c{n}@example.com"})
            assert r.status_code == 202
        r = c.post("/api/cuenta/correo", json={"email": "c3@example.com"})
        assert r.status_code == 429 and r.json()["error"] == "too_many_mails"
        inbox.wait(before + 2)
        time.sleep(0.2)
        assert len(inbox.messages) == before + 2
