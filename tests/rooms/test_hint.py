"""Rummy's hint: the expert's play for the player whose turn it is, read-only; refused
with a clear error to a spectator, out of turn, and in a game without drafts."""

from __future__ import annotations

from tapete.games import rummy
from tests.lives import Lives

G0, OTHER = "a" * 24, "z" * 24
# our rack holds the three 10s (an initial meld of 30); Sofía's makes no set
MELD = {
    "racks": ["10R 10A 10N 4R 5R 7R 2A 3O", "1R 2A 3N 4O 5R 6A 7N 8O 9R 11A 12N 13O 1O 2N"],
    "pool": "2N 3N 4N 5N 6N 7N",
    "melded": [False, False],
    "turn": 0,
}


async def test_the_hint_is_the_experts_play_and_changes_nothing(lives: Lives) -> None:
    live = lives()
    room = await live.tables.create("rummy", {}, G0, position=MELD)
    before, version = rummy.dump(room.state), room.version
    hint = await room.hint(G0)
    assert hint["type"] == "hint" and hint["version"] == version
    assert hint["move"]["type"] == "play"
    assert sorted(map(sorted, hint["move"]["table"])) == [["10A", "10N", "10R"]]
    assert rummy.dump(room.state) == before and room.version == version


async def test_no_hint_for_a_spectator_or_out_of_turn(lives: Lives) -> None:
    live = lives()
    room = await live.tables.create("rummy", {}, G0, position={**MELD, "turn": 1})
    out_of_turn = await room.hint(G0)
    assert out_of_turn["type"] == "error" and out_of_turn["code"] == "not_your_turn"
    spectator = await room.hint(OTHER)
    assert spectator["type"] == "error" and spectator["code"] == "spectator"


async def test_no_hint_in_a_game_without_drafts(lives: Lives) -> None:
    live = lives()
    position = {"hands": ["5H 9C", "5S 2D 3D"], "discard": "5D", "stock": "4C 4D", "turn": 0}
    room = await live.tables.create("onecard", {}, G0, position=position)
    refused = await room.hint(G0)
    assert refused["type"] == "error" and refused["code"] == "unknown_type"
    assert "hint" in refused["message"]
