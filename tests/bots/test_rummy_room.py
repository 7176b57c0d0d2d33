"""Rummy at a practice table: after a hand that is not the last, the next hand waits for
the player. The bots say ``next`` at once; the table keeps the hand's final sets and its
scores in view until the player presses «Siguiente mano»."""

from __future__ import annotations

import asyncio
from typing import Any

from tapete.bots import rummy as bots
from tapete.games import rummy
from tests.lives import Lives

G0 = "guest-zero-000"
# hand 1 of 3: our 7 azul and 7 negro take the 7 rojo off the run and empty our rack
LAST_TILES = {
    "racks": ["7A 7N", "5R J1 2N 9O"],
    "table": ["4R 5R 6R 7R"],
    "melded": [True, False],
    "pool": "2N 3N 4N",
    "config": {"hands": 3},
    "turn": 0,
}
OUT = {"type": "play", "table": [["4R", "5R", "6R"], ["7R", "7A", "7N"]]}


async def until(check: Any, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("never happened")


def test_a_bot_says_next_at_once() -> None:
    s = rummy.load({**LAST_TILES})
    rummy.apply(s, 0, rummy.parse_move(OUT))
    for level in bots.LEVELS:
        assert bots.choose(rummy.view(s, 1), level) == ({"type": "next"}, 0.0)
    assert bots.choose(rummy.view(s, None), "normal") is None


async def test_the_next_hand_waits_for_the_player(lives: Lives) -> None:
    live = lives(idle_seconds=60)
    room = await live.tables.create("rummy", {"hands": 3}, G0, position=LAST_TILES)
    assert await room.submit(G0, room.version, OUT) is None
    await until(lambda: room.state.waiting == [0])  # the bot has said next; we have not
    await asyncio.sleep(0.3)
    assert room.state.hand == 1 and room.state.waiting == [0], "nothing dealt behind us"
    _, joined = room.subscribe(G0, lambda m: None, None)
    view = joined["view"]
    assert view["table"] == [["4R", "5R", "6R"], ["7R", "7A", "7N"]]
    assert view["last_hand"]["delta"] == [46, -46] and view["legal"] == [{"type": "next"}]
    assert await room.submit(G0, room.version, {"type": "next"}) is None
    assert room.state.hand == 2 and room.state.waiting == []
    assert [len(r) for r in room.state.racks] == [14, 14] and room.state.starter == 1
