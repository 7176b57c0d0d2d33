"""One Card in a room: clocks the room runs, secrets only for their seat, clock moves
refused from players, a bot standing in after three timeouts."""

from __future__ import annotations

import asyncio
from typing import Any

from tapete.games import onecard
from tapete.rooms import Settings, Table
from tapete.store import Store
from tests.lives import Tables

G0, G1 = "a" * 24, "b" * 24


async def open_room(
    store: Store,
    tables: Tables,
    position: dict[str, Any],
    settings: Settings,
    seats: list[dict[str, Any]],
) -> tuple[Table, dict[int, list[dict[str, Any]]]]:
    """A room whose game is set to ``position`` (tests only: the log is not replayed)."""
    record = await store.create_game("onecard", {"players": len(seats)}, 1, seats, G0)
    room = await tables(record, settings)
    room.state = onecard.load(position)
    room.clocks.sync()
    inbox: dict[int, list[Any]] = {}
    for seat, info in enumerate(seats):
        if info["kind"] == "human":
            inbox[seat] = []
            room.subscribe(info["guest"], inbox[seat].append, None)
    return room, inbox


HUMANS = [
    {"kind": "human", "guest": G0, "name": "Ana"},
    {"kind": "human", "guest": G1, "name": "Luis"},
]


async def test_a_window_closes_by_itself_and_players_cannot_close_it(
    store: Store, tables: Tables
) -> None:
    pos = {"hands": ["5H 9C", "5S 2D 3D"], "discard": "5D", "stock": "4C 4D 4S 8H 8S"}
    room, inbox = await open_room(store, tables, pos, Settings(clocks={"window": 0.15}), HUMANS)
    assert await room.submit(G0, 0, {"type": "play", "card": "5H"}) is None
    assert room.state.exposed == [0]
    assert [c["kind"] for c in room.clocks_json()] == ["window"]
    before = onecard.dump(room.state)
    err = await room.submit(G1, 1, {"type": "close_window", "target": 0})
    assert err is not None and err["code"] == "unknown_move"
    assert onecard.dump(room.state) == before
    await asyncio.sleep(0.4)
    assert room.state.exposed == []
    last = inbox[1][-1]
    assert last["move"] == {"type": "close_window", "target": 0}
    assert last["events"] == [{"t": "window_closed", "seat": 0}]


async def test_a_catch_shows_the_drawn_cards_only_to_the_one_who_draws(
    store: Store, tables: Tables
) -> None:
    pos = {"hands": ["5H 9C", "5S 2D 3D"], "discard": "5D", "stock": "4C 4D 4S 8H 8S"}
    room, inbox = await open_room(store, tables, pos, Settings(clocks={"window": 30}), HUMANS)
    await room.submit(G0, 0, {"type": "play", "card": "5H"})
    assert await room.submit(G1, 1, {"type": "catch", "target": 0}) is None
    mine = inbox[0][-1]["events"][0]
    theirs = inbox[1][-1]["events"][0]
    assert mine["t"] == theirs["t"] == "caught"
    assert sorted(mine["secret"]) == ["8H", "8S"]
    assert "secret" not in theirs and theirs["n"] == 2
    # and no view of seat 1 holds seat 0's cards
    view1 = inbox[1][-1]["view"]
    assert sorted(view1["hand"]) == ["2D", "3D", "5S"]
    text = str(view1)
    for code in ("9C", "8H", "8S"):
        assert f"'{code}'" not in text
    assert inbox[0][-1]["view"]["counts"] == [3, 3]


async def test_the_turn_clock_plays_for_an_absent_player(store: Store, tables: Tables) -> None:
    pos = {"hands": ["9C KS 2H", "5S 2D 3D"], "discard": "5D", "stock": "4C 4D 4S 8H 8S 6C"}
    _, inbox = await open_room(store, tables, pos, Settings(clocks={"turn": 0.1}), HUMANS)
    await asyncio.sleep(0.35)
    moves = [m["move"] for m in inbox[1] if m["type"] == "update"]
    assert moves and moves[0] == {"type": "timeout"}
    first = inbox[1][0]["events"][0]
    assert first["t"] == "draw" and first["seat"] == 0 and first.get("timeout") is True


async def test_after_three_timeouts_a_bot_plays_the_seat(store: Store, tables: Tables) -> None:
    seats = [HUMANS[0], {"kind": "bot", "name": "Luis", "level": "normal"}]
    pos = {
        "hands": ["9C KS 2H 4H", "5S 2D 3D 9S"],
        "discard": "5D",
        "stock": "4C 4D 4S 8H 8S 6C 6H 6S 7C 7D",
        "timeouts": [3, 0],
    }
    room, inbox = await open_room(
        store, tables, pos, Settings(bot_pace=0, clocks={"turn": 30}), seats
    )
    room.bots.schedule()
    await asyncio.sleep(0.3)
    seats_moved = [m["seat"] for m in inbox[0] if m["type"] == "update"]
    assert 0 in seats_moved  # the stand-in played seat 0 without waiting for its clock
    # the player comes back: a move of theirs resets the count and the stand-in stops


async def test_a_refusal_reaches_the_player_in_their_language(store: Store, tables: Tables) -> None:
    """The rules give codes; the room words them for whoever sent the move."""
    pos = {"hands": ["9C 2D", "5S 3S"], "discard": "4C 5D", "stock": "4S 8H"}
    room, _ = await open_room(store, tables, pos, Settings(), HUMANS)
    move = {"type": "play", "card": "9C"}
    en = await room.submit(G0, 0, move, "en")
    es = await room.submit(G0, 0, move, "es")
    assert en is not None and es is not None and en["code"] == es["code"] == "no_match"
    assert en["message"] == "The nine of clubs doesn't fit: play diamonds or a five."
    assert es["message"] == "El nueve de tréboles no sirve: hay que echar diamantes o un cinco."
    late = await room.submit(G1, 0, {"type": "play", "card": "5S"}, "en")
    assert late is not None and late["message"] == "It's not your turn."
