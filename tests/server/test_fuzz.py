"""Fuzzing (the hardening issue), bounded for the suite; ``bench/fuzz.py`` is the long run.

Hypothesis makes socket messages and HTTP bodies of every shape. Whatever arrives: no
unhandled exception is logged, no game changes, and the socket still answers ``ping``. Every
game's codecs, fed any JSON, either decode or refuse with a code (``IllegalMove``): nothing
else ever escapes them.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from tapete.games.protocol import IllegalMove
from tapete.registry import REGISTRY
from tapete.server.app import create_app
from tapete.server.edge.limits import Limits

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=30)
    | st.sampled_from(["turn", "play", "draw", "7C", "K♠", "answer", "mayor", "\u202e", "\x00"])
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
KEYS = ["type", "version", "move", "card", "table", "game", "room", "ref", "action", "seat", "name"]
TYPES = ["ping", "join", "enter", "lobby", "move", "check", "hint", "sync", "dance", ""]


@st.composite
def socket_messages(draw: Any) -> str | bytes:
    """A socket frame: JSON of a known type with random fields, or anything at all."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        text: str = draw(st.text(max_size=200))
        return text
    if kind == 1:
        raw: bytes = draw(st.binary(max_size=64))
        return raw
    if kind == 2:
        depth: int = draw(st.integers(20, 3000))
        return "[" * depth + "]" * depth
    if kind == 3:
        return '{"type": "ping", "ref": "\\ud800"}'
    body = draw(st.dictionaries(st.sampled_from(KEYS), json_values, max_size=5))
    body["type"] = draw(st.sampled_from(TYPES) | st.text(max_size=10))
    return json.dumps(body)


def no_errors_logged(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, [r.getMessage() for r in bad]


def test_socket_messages_change_nothing_and_the_socket_answers(
    unlimited: TestClient, h: Any, caplog: pytest.LogCaptureFixture
) -> None:
    client = unlimited
    game_id = h.new_game(client)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "game": game_id})
        assert ws.receive_json()["type"] == "joined"
        before = json.dumps(h.room(client, game_id).game.dump(h.room(client, game_id).state))

        @FUZZ
        @given(socket_messages())
        def send(frame: str | bytes) -> None:
            if isinstance(frame, str) and '"move": {"type": "turn"}' in frame:
                return  # the one legal move changes the game: it is not junk
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
            ws.send_json({"type": "ping", "ref": "after"})
            while True:  # every frame gets at most one answer; then the pong
                reply = ws.receive_json()
                if reply.get("type") == "pong" and reply.get("ref") == "after":
                    return
                assert reply.get("type") in ("error", "pong", "sync", "joined", "lobby"), reply

        send()
        room = h.room(client, game_id)
        assert room.version == 0 and json.dumps(room.game.dump(room.state)) == before
    no_errors_logged(caplog)


@pytest.fixture
def unlimited(db_url: str) -> Iterator[TestClient]:
    """A hall that lets one guest make any number of games and send any number of messages
    (the fuzzer makes many: the limits have tests of their own)."""
    limits = Limits(
        games_per_minute_guest=10**9,
        games_per_minute_address=10**9,
        socket_rate=10.0**9,
        socket_burst=10**9,
    )
    with TestClient(create_app(db_url, limits=limits)) as c:
        c.get("/")
        yield c


@pytest.mark.parametrize("path", ["/api/guerra/nueva", "/api/salas", "/api/salas/123456/unirse"])
def test_http_bodies_of_any_shape_are_refused_in_words(
    unlimited: TestClient, path: str, caplog: pytest.LogCaptureFixture
) -> None:
    client = unlimited

    deep = client.post(path, content="[" * 5000 + "]" * 5000)
    assert deep.status_code in (400, 404, 413)  # (a wrong room code is looked up first)

    @FUZZ
    @given(json_values | st.text(max_size=60).map(lambda t: {"raw": t}))
    def post(body: Any) -> None:
        r = client.post(
            path, content=json.dumps(body), headers={"content-type": "application/json"}
        )
        assert r.status_code < 500, (body, r.status_code, r.text[:200])

    post()
    no_errors_logged(caplog)


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_every_codec_decodes_or_refuses_with_a_code(key: str) -> None:
    spec = REGISTRY[key].game

    @settings(max_examples=300, deadline=None)
    @given(json_values, st.sampled_from(sorted(spec.moves.tags)) | st.text(max_size=6))
    def decode(value: Any, tag: str) -> None:
        for data in (
            value,
            {"type": tag, "x": value},
            {"type": tag, **(value if isinstance(value, dict) else {})},
        ):
            for parse in (spec.parse_move, spec.parse_config):
                try:
                    parse(data)
                except IllegalMove as exc:
                    assert isinstance(exc.code, str) and exc.code

    decode()
