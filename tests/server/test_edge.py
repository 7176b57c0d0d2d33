"""The edge (docs/security.md): state changes only from the hall's own pages, sockets only
from its origin, the security headers on every response, bodies within their limits."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tapete.server.account.guests import COOKIE
from tapete.server.app import create_app
from tapete.server.edge.limits import Limits
from tapete.store import default_url

OWN = "http://testserver"
EVIL = "http://evil.example"


@pytest.fixture
def public(tmp_path: Path) -> Iterator[TestClient]:
    """A hall behind a proxy: its public origin allowed, the proxy trusted."""
    limits = Limits(origins=("https://tapete.example",), trusted_proxies=("testclient",))
    with TestClient(create_app(default_url(tmp_path / "p.db"), limits=limits)) as c:
        c.get("/")
        yield c


# --- cross-site requests ---------------------------------------------------------------


def test_a_form_posted_from_another_site_is_refused_and_starts_nothing(
    client: TestClient,
) -> None:
    before = client.cookies[COOKIE]
    r = client.post(
        "/peaje/nueva",
        data={"variant": "solitario"},
        headers={"origin": EVIL, "accept": "text/html"},
        follow_redirects=False,
    )
    assert r.status_code == 403
    assert "text/html" in r.headers["content-type"]
    assert "otra web" in r.text
    assert "set-cookie" not in r.headers  # the guest's cookie is never replaced
    assert client.cookies[COOKIE] == before
    assert client.app.state.hall.live.tables.loaded() == []  # type: ignore[attr-defined]


def test_the_refusal_is_json_for_the_api_and_in_the_players_language(
    client: TestClient,
) -> None:
    r = client.post(
        "/api/guerra/nueva",
        json={},
        headers={"origin": EVIL, "accept-language": "en"},
    )
    assert r.status_code == 403
    assert code_of(r.json()) == "cross_site"
    assert "another site" in r.json()["message"]


def test_sec_fetch_site_decides_when_there_is_no_origin(client: TestClient) -> None:
    r = client.post("/api/guerra/nueva", json={}, headers={"sec-fetch-site": "cross-site"})
    assert r.status_code == 403
    r = client.post("/api/guerra/nueva", json={}, headers={"sec-fetch-site": "same-site"})
    assert r.status_code == 403
    r = client.post("/api/guerra/nueva", json={}, headers={"sec-fetch-site": "same-origin"})
    assert r.status_code == 201


@pytest.mark.parametrize(
    "origin",
    ["null", "http://testserver:8080", "https://testserver", "http://testserver.evil.example"],
)
def test_an_origin_that_is_not_exactly_ours_is_refused(client: TestClient, origin: str) -> None:
    r = client.post("/api/guerra/nueva", json={}, headers={"origin": origin})
    assert r.status_code == 403


def test_our_own_origin_and_no_origin_at_all_are_accepted(client: TestClient) -> None:
    assert client.post("/api/guerra/nueva", json={}, headers={"origin": OWN}).status_code == 201
    assert client.post("/api/guerra/nueva", json={}).status_code == 201  # curl, a script


def test_a_configured_public_origin_is_accepted(public: TestClient) -> None:
    r = public.post("/api/guerra/nueva", json={}, headers={"origin": "https://tapete.example"})
    assert r.status_code == 201
    r = public.post("/api/guerra/nueva", json={}, headers={"origin": "https://other.example"})
    assert r.status_code == 403


def test_a_cross_site_image_or_fetch_gets_no_new_cookie(db_url: str) -> None:
    with TestClient(create_app(db_url)) as c:
        r = c.get("/", headers={"sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors"})
        assert r.status_code == 200 and "set-cookie" not in r.headers
        r = c.get("/", headers={"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate"})
        assert COOKIE in r.headers["set-cookie"]  # a link from elsewhere: a first visit


# --- sockets ----------------------------------------------------------------------------


def test_a_socket_from_another_origin_is_closed_before_it_is_accepted(
    client: TestClient,
    h: type,
) -> None:
    for origin in (EVIL, "http://testserver:9999", "null"):
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect("/ws", headers={"origin": origin}) as ws,
        ):
            ws.send_json({"type": "ping"})
        assert refused.value.code == 4003


def test_a_socket_from_our_origin_or_a_configured_one_is_accepted(
    client: TestClient, public: TestClient
) -> None:
    with client.websocket_connect("/ws", headers={"origin": OWN}) as ws:
        ws.send_json({"type": "ping", "ref": 1})
        assert ws.receive_json() == {"type": "pong", "ref": 1}
    with public.websocket_connect("/ws", headers={"origin": "https://tapete.example"}) as ws:
        ws.send_json({"type": "ping", "ref": 2})
        assert ws.receive_json()["type"] == "pong"


# --- headers ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/peaje", "/reglas/rummy", "/nada", "/static/js/ui.js"])
def test_every_response_sends_the_security_headers(client: TestClient, path: str) -> None:
    r = client.get(path)
    csp = r.headers["content-security-policy"]
    for directive in (
        "script-src 'self'",
        "img-src 'self' data:",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "connect-src 'self'",
    ):
        assert directive in csp
    assert "unsafe-inline" not in csp.split("script-src", 1)[1].split(";", 1)[0]
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "same-origin"
    assert "strict-transport-security" not in r.headers  # plain HTTP


def test_https_sends_hsts_and_secure_cookies_only_when_it_really_is_https(
    public: TestClient, db_url: str
) -> None:
    public.cookies.clear()
    r = public.get("/", headers={"x-forwarded-proto": "https"})
    assert r.headers["strict-transport-security"].startswith("max-age=")
    assert "Secure" in r.headers["set-cookie"]
    assert "wss://tapete.example" in r.headers["content-security-policy"]
    with TestClient(create_app(db_url)) as untrusted:  # the header from just anyone
        r = untrusted.get("/", headers={"x-forwarded-proto": "https"})
        assert "strict-transport-security" not in r.headers
        assert "Secure" not in r.headers["set-cookie"]
    with TestClient(create_app(db_url), base_url="https://testserver") as tls:
        r = tls.get("/")
        assert "strict-transport-security" in r.headers
        assert "Secure" in r.headers["set-cookie"]


def test_no_page_has_an_inline_script(client: TestClient, h: type) -> None:
    game_id = h.new_game(client)  # type: ignore[attr-defined]
    room = client.post("/api/salas", json={"game": "onecard", "options": {}}).json()
    pages = ["/", "/peaje", "/rummy", "/reglas/rummy", f"/partida/{game_id}", room["url"]]
    for path in pages:
        html = client.get(path).text
        for tag in html.split("<script")[1:]:
            opening = tag.split(">", 1)[0]
            assert "src=" in opening or 'type="application/json"' in opening, (path, opening)


def test_assets_never_come_from_the_host_header(client: TestClient) -> None:
    room = client.post("/api/salas", json={"game": "onecard", "options": {}}).json()
    for path in ("/", room["url"]):
        html = client.get(path, headers={"host": "evil.example"}).text
        assert 'href="/static/css/tapete.css?v=' in html
        assert "evil.example/static" not in html


def test_the_room_link_is_the_public_origin_when_one_is_configured(public: TestClient) -> None:
    room = public.post("/api/salas", json={"game": "onecard", "options": {}}).json()
    html = public.get(room["url"], headers={"host": "evil.example"}).text
    assert f"https://tapete.example/sala/{room['code']}" in html
    assert "evil.example" not in html
    qr = public.get(f"/sala/{room['code']}/qr.svg", headers={"host": "evil.example"}).text
    assert "evil.example" not in qr and "tapete.example" in qr


# --- bodies -----------------------------------------------------------------------------


def test_a_body_over_the_limit_is_refused_at_the_edge(client: TestClient) -> None:
    big = b'{"config": {}, "x": "' + b"a" * (70 * 1024) + b'"}'
    r = client.post("/api/guerra/nueva", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert code_of(r.json()) == "too_large"


def test_a_chunked_body_over_the_limit_is_refused_too(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            yield b"a" * 1024

    form = {"accept": "text/html", "content-type": "application/x-www-form-urlencoded"}
    r = client.post("/guerra/nueva", content=chunks(), headers=form)
    assert r.status_code == 413


def code_of(body: dict[str, str]) -> str:
    """The API's refusals say their code as ``code`` (games) or ``error`` (rooms)."""
    return body.get("code") or body["error"]


@pytest.mark.parametrize("path", ["/api/guerra/nueva", "/api/salas", "join"])
def test_json_nested_too_deep_is_bad_json_not_a_crash(client: TestClient, path: str) -> None:
    if path == "join":
        code = client.post("/api/salas", json={"game": "onecard", "options": {}}).json()["code"]
        path = f"/api/salas/{code}/unirse"
    deep = "[" * 5000 + "]" * 5000
    r = client.post(path, content=deep, headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert code_of(r.json()) == "bad_json"
    nested = json.dumps({"config": {"a": json.loads("[" * 20 + "1" + "]" * 20)}})
    r = client.post(path, content=nested, headers={"content-type": "application/json"})
    assert r.status_code == 400 and code_of(r.json()) == "bad_json"
