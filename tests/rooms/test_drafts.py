"""A Rummy draft survives a reload: the room keeps each seat's last checked draft for the
turn it was made on and gives it back to that seat only, never to others or spectators."""

from __future__ import annotations

from typing import Any

from tests.lives import Lives

G0, G1 = "guest-zero-000", "guest-one-1111"
POSITION = {"racks": ["10R 10A 10N 2O", "1R 2R 3R"], "pool": "5N 6N 7N", "turn": 0}


async def test_the_draft_comes_back_to_its_seat_only(lives: Lives) -> None:
    live = lives()
    room = await live.tables.create("rummy", {}, G0, position=POSITION)
    draft = [["10R", "10A"]]
    report = room.check_draft(G0, draft)
    assert report["type"] == "checked"
    inbox: list[Any] = []
    _, mine = room.subscribe(G0, inbox.append, None)
    assert mine["draft"] == draft
    _, theirs = room.subscribe(None, inbox.append, None)  # a spectator
    assert theirs["draft"] is None


async def test_a_draft_of_an_earlier_turn_is_not_given_back(lives: Lives) -> None:
    live = lives(idle_seconds=60)
    room = await live.tables.create("rummy", {}, G0, position=POSITION)
    room.check_draft(G0, [["10R", "10A", "10N"]])
    assert await room.submit(G0, room.version, {"type": "draw"}) is None
    _, joined = room.subscribe(G0, lambda m: None, None)
    assert joined["draft"] is None


async def test_a_malformed_draft_is_not_kept(lives: Lives) -> None:
    live = lives()
    room = await live.tables.create("rummy", {}, G0, position=POSITION)
    assert room.check_draft(G0, "not a table")["type"] == "error"
    _, joined = room.subscribe(G0, lambda m: None, None)
    assert joined["draft"] is None
