"""What an operator reads: /metrics in Prometheus' format, /salud with the database's
answer (asked from loopback: anyone else reads less, tests/server/test_operator.py)."""

from __future__ import annotations

from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient


def operator(client: TestClient) -> TestClient:
    """The same hall, asked from loopback (the operator's)."""
    them = TestClient(client.app, client=("127.0.0.1", 40000))
    them.portal = client.portal
    return them


def samples(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    r = operator(client).get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    out = {}
    for family in text_string_to_metric_families(r.text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def test_metrics_count_sockets_games_moves_commits_and_refusals(client: TestClient, h: Any) -> None:
    before = samples(client)
    moves = ("tapete_moves_total", (("game", "guerra"),))
    batches = ("tapete_commit_batch_moves_count", ())
    refused = ("tapete_errors_total", (("code", "bad_json"),))
    game_id = h.new_game(client)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "game": game_id})
        assert ws.receive_json()["type"] == "joined"
        ws.send_json({"type": "move", "version": 0, "move": {"type": "turn"}})
        assert ws.receive_json()["version"] == 1
        assert ws.receive_json()["version"] == 2  # the computer's card
        ws.send_text("{not json")
        assert ws.receive_json()["code"] == "bad_json"
        now = samples(client)
        assert now[("tapete_sockets", ())] == 1
        assert now[("tapete_games_open", (("game", "guerra"),))] >= 1
        assert now[("tapete_watchers", (("game", "guerra"),))] == 1
    assert now[moves] - before.get(moves, 0) == 2  # the player's and the computer's
    assert now[batches] - before.get(batches, 0) >= 1
    for timed in ("tapete_commit_seconds_count", "tapete_commit_queue_seconds_count"):
        assert now[(timed, ())] - before.get((timed, ()), 0) >= 1
    assert now[refused] - before.get(refused, 0) == 1
    latency = ("tapete_move_seconds_count", (("game", "guerra"),))
    assert now[latency] - before.get(latency, 0) == 1  # the player's move only
    bot = ("tapete_bot_decision_seconds_count", (("game", "guerra"), ("level", "normal")))
    assert now[bot] - before.get(bot, 0) >= 1  # the computer's card, asked and answered
    assert ("process_resident_memory_bytes", ()) in now
    assert samples(client)[("tapete_sockets", ())] == 0


def test_salud_says_whether_the_database_answers(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    r = operator(client).get("/salud")
    assert r.status_code == 200 and r.json()["ok"] is True
    assert r.json()["database"]["ok"] is True
    store = client.app.state.hall.store  # type: ignore[attr-defined]

    async def down() -> None:
        raise ConnectionError("the database went away")

    monkeypatch.setattr(store, "ping", down)
    r = operator(client).get("/salud")
    assert r.status_code == 503
    assert r.json()["ok"] is False
    assert r.json()["database"] == {"ok": False, "error": "ConnectionError"}
