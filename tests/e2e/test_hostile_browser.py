"""A hostile page on another origin (the same host, another port: the same *site*, so the
browser sends the player's SameSite=Lax cookie with it) tries to start a game as the player
with an auto-submitting form and to join the player's game over a WebSocket. Both are
refused; the player's cookie and game are as they were (docs/security.md)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from browser import TIMEOUT
from playwright.sync_api import Page, expect

FORM = """<!doctype html><title>Gratis</title><link rel="icon" href="data:,">
<form id="f" method="post" action="{hall}/peaje/nueva">
<input name="variant" value="solitario"></form>
<script>document.getElementById("f").submit();</script>"""

SOCKET = """<!doctype html><title>Gratis</title><link rel="icon" href="data:,"><script>
window.result = {{state: "pending"}};
const ws = new WebSocket("{ws}/ws");
ws.onopen = () => {{
  window.result.state = "open";
  ws.send(JSON.stringify({{type: "join", game: {game}}}));
}};
ws.onmessage = (e) => {{ window.result.message = e.data; }};
ws.onclose = (e) => {{
  if (window.result.state !== "open") window.result.state = "refused";
  window.result.code = e.code;
}};
</script>"""


@pytest.fixture
def hostile(server_url: str) -> Iterator[tuple[str, dict[str, str]]]:
    """Another origin: a tiny HTTP server on a port of its own, serving ``pages``."""
    pages: dict[str, str] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages.get(self.path, "").encode()
            self.send_response(200 if body else 404)
            self.send_header("content-type", "text/html; charset=utf-8")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", pages
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def guest_cookie(page: Page) -> str:
    found = [c["value"] for c in page.context.cookies() if c["name"] == "tapete_guest"]
    assert len(found) == 1
    return found[0]


@pytest.mark.console_errors(  # (both refused, as they must be)
    r"status of 403 \(Forbidden\) @ http://[\d.:]+/peaje/nueva$",
    r"^WebSocket connection to 'ws://[\d.:]+/ws' failed: Error during WebSocket handshake: "
    r"Unexpected response code: 403 @ ",
)
def test_a_hostile_page_can_neither_post_as_the_player_nor_open_their_game(
    page: Page, server_url: str, hostile: tuple[str, dict[str, str]]
) -> None:
    evil, pages = hostile
    page.goto(server_url + "/")
    created = page.request.post(f"{server_url}/api/guerra/nueva", data={"config": {}})
    assert created.status == 201
    game = created.json()["id"]
    cookie = guest_cookie(page)
    # (the player's own games: the hall's count of open tables changes with other tests')
    history = f"{server_url}/api/historial"
    games = [g["id"] for g in page.request.get(history).json()["games"]]
    assert games == [game]

    # the form: the hall refuses it in the player's language, and sets no cookie
    pages["/form.html"] = FORM.format(hall=server_url)
    with page.expect_response(f"{server_url}/peaje/nueva") as answer:
        page.goto(evil + "/form.html")
    assert answer.value.status == 403
    assert "set-cookie" not in answer.value.headers
    expect(page.locator("main")).to_contain_text("otra web", timeout=TIMEOUT)

    # the socket: closed before it opens, never joined
    ws_url = server_url.replace("http://", "ws://")
    pages["/socket.html"] = SOCKET.format(ws=ws_url, game=json.dumps(game))
    page.goto(evil + "/socket.html")
    page.wait_for_function("() => window.result.state !== 'pending'", timeout=TIMEOUT)
    result = page.evaluate("() => window.result")
    assert result["state"] == "refused", result
    assert "message" not in result

    # the player: the same guest, the same game, nothing started in their name
    assert guest_cookie(page) == cookie
    assert [g["id"] for g in page.request.get(history).json()["games"]] == games
    mine = page.request.get(f"{server_url}/api/partidas/{game}")
    assert mine.status == 200 and mine.json()["seat"] == 0 and mine.json()["version"] == 0
    page.goto(f"{server_url}/partida/{game}")
    expect(page.locator("body")).not_to_contain_text("otra web")
