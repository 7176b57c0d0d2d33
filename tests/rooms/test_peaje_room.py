"""El Peaje among friends, at the rooms layer: a phone for each player, the room's «Jugadores»
as phones, no bots, the optional 30 s clock, a player away skipped (dos jugadores waits), and
the two roles of dos jugadores swapped on the rematch."""

from __future__ import annotations

import asyncio
from typing import Any

from tapete.rooms import Live, Settings, Table
from tapete.rooms.private_room import PrivateRoom
from tests.lives import Lives
from tests.rooms.conftest import room_action
from tests.waiting import until

HOST, ANA, LUIS = ("host-" + "h" * 19, "ana-" + "a" * 20, "luis-" + "l" * 19)
FAST = Settings(bot_pace=0, grace_seconds=0.15, watchdog_seconds=0.05)
PRESENT = Settings(bot_pace=0, grace_seconds=3600, watchdog_seconds=0.05)
"""For a test whose players are not connected but must not be skipped: with FAST's 0.15 s
grace, a loaded machine once skipped the host's turn before the test's first move."""


async def act(lobby: PrivateRoom, guest: str, action: str, **fields: Any) -> dict[str, Any] | None:
    return await lobby.act(
        guest, room_action({"action": action, "version": lobby.version, **fields})
    )


async def playing(live: Live, options: dict[str, Any], *friends: str) -> tuple[PrivateRoom, Table]:
    """A room of El Peaje made by the host with these options, the friends seated (Ana,
    Luis…), its game started; the lobby and the game. Everyone is in the room meanwhile
    (each on its page), as players are: the new table then gives them the join window to
    come to it. (A player not in the room is told to the table as gone, whose grace — FAST's
    0.15 s — begins with the game: a loaded machine once skipped the host's turn before the
    test had subscribed.)"""
    lobby = await live.rooms.create("peaje", options, HOST, "Host")
    lobby.enter(HOST, lambda m: None, "es")  # (no await since the creation: nobody is away)
    for guest in friends:
        lobby.enter(guest, lambda m: None, "es")
        assert await act(lobby, guest, "take", name=guest.split("-")[0].title()) is None
    assert await act(lobby, HOST, "start") is None
    assert lobby.record.game_id is not None
    room = await live.read_table(lobby.record.game_id)
    assert room is not None
    return lobby, room


def config(**fields: Any) -> dict[str, Any]:
    return {"config": {"variant": "cooperativo", "players": 3, **fields}}


async def test_a_room_has_a_seat_for_each_phone_and_no_bots(lives: Lives) -> None:
    live = lives(FAST)
    lobby = await live.rooms.create("peaje", config(), HOST, "Host")
    assert len(lobby.seats) == 3 and lobby.record.options["config"]["phones"] == 3
    state = lobby.state(HOST)
    assert state["seat_range"] == [2, 8] and state["bots"] is False
    assert lobby.record.options["clock"] is None  # a party game: no clock unless chosen
    bot = await act(lobby, HOST, "bot", seat=1, level="normal")
    assert bot is not None and bot["code"] == "no_bots"
    assert await act(lobby, HOST, "options", options={**config(), "seats": 5}) is None
    assert len(lobby.seats) == 5 and len(lobby.record.options["config"]["players"]) == 5
    wrong = await act(lobby, HOST, "options", options={**config(), "seats": 9})
    assert wrong is not None and wrong["code"] == "bad_config"
    rapidos = {"config": {"variant": "rapidos", "players": 2, "phones": 2}}
    assert await act(lobby, HOST, "options", options=rapidos) is None
    assert lobby.state(HOST)["seat_range"] == [2, 4] and len(lobby.seats) == 2


async def test_friends_play_each_on_their_phone(lives: Lives) -> None:
    live = lives(PRESENT)
    _, room = await playing(live, config(), ANA)  # two of three seats taken
    assert room.config.phones == 2 and len(room.config.names) == 2
    assert room.state.config.questions[0] == "mayor_menor"
    off_turn = await room.submit(ANA, room.version, {"type": "answer", "choice": "mayor"})
    assert off_turn is not None and off_turn["code"] == "not_your_turn"
    skip = await room.submit(HOST, room.version, {"type": "skip"})  # only the room skips
    assert skip is not None and skip["code"] == "unknown_move" and room.version == 0
    assert await room.submit(HOST, room.version, {"type": "answer", "choice": "mayor"}) is None
    assert room.version == 1 and room.history[0].seat == 0


async def test_an_away_players_turn_is_skipped_after_the_grace(lives: Lives) -> None:
    live = lives(FAST)
    _, room = await playing(live, config(players=2), ANA)
    inbox: list[Any] = []
    room.subscribe(ANA, inbox.append, None)
    conn, _ = room.subscribe(HOST, lambda m: None, None)
    room.unsubscribe(conn)  # the host's phone drops, on the host's turn
    # the table waits out the grace (read at once: a fixed sleep shorter than the grace
    # once outlasted it on a loaded machine, and the turn was skipped before the check)
    [host] = [s for s in room.presence()["seats"] if s["seat"] == 0]
    assert room.state.current == 0 and host["grace_ms"] > 0 and not host["away"]
    await until(lambda: room.state.current == 1)  # past it, the turn is skipped
    await room.settled()
    assert room.state.current == 1 and room.history[-1].move == {"type": "skip"}
    skipped = [m for m in inbox if m["type"] == "update"][-1]
    assert [e["t"] for e in skipped["events"]] == ["skipped", "turn"]


async def test_dos_jugadores_waits_for_both_phones_and_swaps_roles_on_the_rematch(
    lives: Lives,
) -> None:
    live = lives(FAST)
    lobby, room = await playing(live, {"config": {"variant": "dos", "players": 2}}, ANA)
    assert room.game.actors(room.state) == [1]  # Ana reveals and marks; the host answers aloud
    conn, _ = room.subscribe(ANA, lambda m: None, None)
    room.unsubscribe(conn)
    await asyncio.sleep(0.3)
    await room.settled()
    assert room.version == 0  # nothing is played for an away validator
    room.state.result = {"winner": 0, "reason": "route"}
    await lobby.act(HOST, room_action({"action": "rematch"}))
    await lobby.act(ANA, room_action({"action": "rematch"}))
    second = lobby.record.game_id
    assert second is not None and second != room.id
    new = await live.read_table(second)
    assert new is not None
    assert [new.seat_of(g) for g in (ANA, HOST)] == [0, 1]  # Ana answers now


async def test_the_rooms_30_second_clock_skips_a_turn(lives: Lives) -> None:
    live = lives(Settings(bot_pace=0, clocks={"turn": 0.1}))
    options = {**config(players=2), "clock": 30.0}
    lobby, room = await playing(live, options, ANA)
    assert lobby.record.options["clock"] == 30.0
    if room.version == 0:  # (a loaded machine may already be past the 0.1 s)
        assert [c["seat"] for c in room.clocks.json()] == [0]
    await until(lambda: room.history)
    await room.settled()
    assert room.history[0].move == {"type": "skip"} and room.history[0].seat == 0


async def test_in_turnos_rapidos_one_who_leaves_is_out(lives: Lives) -> None:
    """RULES.md, leaving: «El Peaje: their route ends, out.»"""
    live = lives(PRESENT)
    options = {"config": {"variant": "rapidos", "players": 3}}
    lobby, room = await playing(live, options, ANA, LUIS)
    inbox: list[Any] = []
    room.subscribe(ANA, inbox.append, None)
    assert await act(lobby, HOST, "leave") is None  # on the host's own turn
    await room.settled()
    assert room.state.routes[0].out and room.state.current == 1
    assert room.history[-1].move == {"type": "retire"}
    presence = [m for m in inbox if m["type"] == "presence"][-1]
    assert presence["seats"][0]["away"] is True and presence["seats"][1]["away"] is False
    assert lobby.record.host == ANA  # the room passes on
