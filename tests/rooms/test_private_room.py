"""Private rooms at the rooms layer: joining by code, seats that two people can never both
take, the host's actions, starting a game with the room's seats and clocks, rematch, leaving,
a dropped player's grace and the bot that stands in, and a room that survives a restart."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from tapete.rooms import Settings
from tapete.rooms.private_room import PrivateRoom, clean_name
from tapete.store import Store
from tests.lives import Lives
from tests.rooms.conftest import room_action
from tests.waiting import until

HOST, ANA, LUIS, MARTA, EVE = ("host-" + "h" * 19, "ana-" + "a" * 20, "luis-" + "l" * 19,
                               "marta-" + "m" * 18, "eve-" + "e" * 20)  # fmt: skip
FAST = Settings(bot_pace=0, grace_seconds=0.15, watchdog_seconds=0.05)


async def act(lobby: PrivateRoom, guest: str, action: str, **fields: Any) -> dict[str, Any] | None:
    return await lobby.act(
        guest, room_action({"action": action, "version": lobby.version, **fields})
    )


async def test_friends_join_by_code_and_the_room_fills(store: Store, lives: Lives) -> None:
    live = lives(FAST)
    lobby = await live.rooms.create("onecard", {"config": {"players": 3}}, HOST, "Host")
    assert len(lobby.code) == 6 and lobby.code.isdigit()
    assert [s["kind"] for s in lobby.seats] == ["human", "empty", "empty"]
    assert await live.read_room(lobby.code) is lobby
    assert await live.read_room("12345") is None and await live.read_room("abcdef") is None
    assert await act(lobby, ANA, "take", name=" Ana ") is None
    assert await act(lobby, LUIS, "take", name="Luis") is None
    assert [s.get("name") for s in lobby.seats] == ["Host", "Ana", "Luis"]
    full = await act(lobby, MARTA, "take", name="Marta")
    assert full is not None and full["code"] == "room_full"
    assert await act(lobby, ANA, "take", name="Anita") is None  # already in: a new name
    assert lobby.seats[1]["name"] == "Anita" and lobby.seat_of(ANA) == 1
    assert await store.guest_name(ANA) == "Anita"
    bad = await act(lobby, MARTA, "take", name="   ")
    assert bad is not None and bad["code"] == "bad_name"


async def test_two_people_can_never_take_one_seat(lives: Lives) -> None:
    live = lives(FAST)
    lobby = await live.rooms.create("guerra", {"config": {"players": 2}}, HOST, "Host")
    results = await asyncio.gather(
        act(lobby, ANA, "take", name="Ana"), act(lobby, LUIS, "take", name="Luis")
    )
    assert sorted(r["code"] if r else "ok" for r in results) == ["ok", "room_full"]
    assert sum(1 for s in lobby.seats if s["kind"] == "human") == 2


async def test_only_the_host_runs_the_room_and_versions_are_checked(lives: Lives) -> None:
    live = lives(FAST)
    lobby = await live.rooms.create("onecard", {"config": {"players": 4}}, HOST, "Host")
    await act(lobby, ANA, "take", name="Ana")
    refused = await act(lobby, ANA, "bot", seat=2, level="normal")
    assert refused is not None and refused["code"] == "not_host"
    stale = await lobby.act(
        HOST, room_action({"action": "bot", "seat": 2, "level": "normal", "version": 0})
    )
    assert stale is not None and stale["code"] == "stale_version" and "lobby" in stale
    assert await act(lobby, HOST, "bot", seat=2, level="dificil") is None
    assert lobby.seats[2]["kind"] == "bot" and lobby.seats[2]["level"] == "dificil"
    taken = await act(lobby, HOST, "bot", seat=1, level="normal")
    assert taken is not None and taken["code"] == "seat_taken"
    bad = await act(lobby, HOST, "bot", seat=3, level="imposible")
    assert bad is not None and bad["code"] == "bad_config"
    assert await act(lobby, HOST, "remove", seat=1) is None
    assert lobby.seats[1] == {"kind": "empty"} and lobby.seat_of(ANA) is None
    myself = await act(lobby, HOST, "remove", seat=0)
    assert myself is not None and myself["code"] == "not_yourself"
    # fewer players: the seats follow, everyone sitting keeps a seat
    assert await act(lobby, HOST, "options", options={"config": {"players": 2}}) is None
    assert [s["kind"] for s in lobby.seats] == ["human", "bot"]
    await act(lobby, ANA, "take", name="Ana")  # no seat left for her
    assert lobby.seat_of(ANA) is None
    wrong = await act(lobby, HOST, "options", options={"config": {"players": 9}})
    assert wrong is not None and wrong["code"] == "bad_config"


async def test_the_host_leaving_passes_the_room_on(lives: Lives) -> None:
    live = lives(FAST)
    lobby = await live.rooms.create("rummy", {"config": {"players": 3}}, HOST, "Host")
    await act(lobby, ANA, "take", name="Ana")
    assert await act(lobby, HOST, "leave") is None
    assert lobby.record.host == ANA and lobby.seat_of(HOST) is None
    assert lobby.state(ANA)["host"] is True


async def test_start_plays_the_room_seats_with_the_rooms_clock(lives: Lives) -> None:
    live = lives(Settings(bot_pace=0))
    options = {"config": {"players": 3, "hands": 3}, "clock": 30.0}
    lobby = await live.rooms.create("rummy", options, HOST, "Host")
    too_few = await act(lobby, HOST, "start")
    assert too_few is not None and too_few["code"] == "too_few_players"
    await act(lobby, ANA, "take", name="Ana")
    assert await act(lobby, HOST, "start") is None
    assert lobby.record.status == "playing" and lobby.record.game_id is not None
    room = await live.read_table(lobby.record.game_id)
    assert room is not None and room.online
    assert room.config.players == 2 and room.config.hands == 3  # the empty seat is not played
    assert [room.seat_of(g) for g in (HOST, ANA)] == [0, 1]
    assert room.clocks.seconds("turn") == 30.0  # the room's choice, not practice's none
    again = await act(lobby, ANA, "take", name="Ana")
    assert again is None  # (only a new name for someone seated)
    late = await act(lobby, LUIS, "take", name="Luis")
    assert late is not None and late["code"] == "room_started"


async def test_a_bad_clock_is_refused_and_every_game_knows_its_online_clock(lives: Lives) -> None:
    live = lives(FAST)
    from tapete.games.protocol import IllegalMove

    with pytest.raises(IllegalMove) as err:
        await live.rooms.create("rummy", {"config": {}, "clock": 45}, HOST, "Host")
    assert err.value.code == "bad_config" and err.value.params["field"] == "clock"
    with pytest.raises(IllegalMove) as err:  # El Peaje solitario: one player, no room
        await live.rooms.create("peaje", {"config": {}}, HOST, "Host")
    assert (err.value.code, err.value.params) == ("bad_config", {"field": "variant"})
    lobby = await live.rooms.create("onecard", {"config": {}}, HOST, "Host")
    assert lobby.record.options["clock"] == 30.0  # One Card online: 30 s a turn


async def test_rematch_when_every_human_accepts_the_next_player_starts(lives: Lives) -> None:
    live = lives(Settings(bot_pace=0))
    lobby = await live.rooms.create("guerra", {"config": {"players": 3}}, HOST, "Host")
    await act(lobby, ANA, "take", name="Ana")
    await act(lobby, HOST, "bot", seat=2, level="normal")
    await act(lobby, HOST, "start")
    first = lobby.record.game_id
    assert first is not None
    early = await lobby.act(ANA, room_action({"action": "rematch"}))
    assert early is not None and early["code"] == "not_over"
    room = await live.read_table(first)
    assert room is not None
    room.state.result = {"winner": 0, "reason": "all_cards", "counts": [52, 0, 0],
                         "duels": 1, "wars": 0, "tied": []}  # fmt: skip
    assert await lobby.act(HOST, room_action({"action": "rematch"})) is None
    assert lobby.record.game_id == first  # Ana has not accepted yet
    assert lobby.state(ANA)["rematch"] == [0]
    assert await lobby.act(ANA, room_action({"action": "rematch"})) is None
    second = lobby.record.game_id
    assert second is not None and second != first and lobby.record.games == 2
    new = await live.read_table(second)
    assert new is not None
    assert [s["name"] for s in new.seats_json(None)] == ["Ana", "Ordenador 1", "Host"]


async def test_leaving_mid_game_a_bot_plays_the_seat_to_the_end(lives: Lives) -> None:
    live = lives(Settings(bot_pace=0))
    lobby = await live.rooms.create("guerra", {"config": {"players": 2}}, HOST, "Host")
    await act(lobby, ANA, "take", name="Ana")
    await act(lobby, HOST, "start")
    assert lobby.record.game_id is not None
    room = await live.read_table(lobby.record.game_id)
    assert room is not None
    assert await lobby.act(ANA, room_action({"action": "leave", "version": lobby.version})) is None
    assert 1 in room.bots.seats()
    assert await room.submit(HOST, room.version, {"type": "turn"}) is None
    await room.settled()
    assert room.history[-1].seat == 1  # the bot turned Ana's card


async def test_a_dropped_player_keeps_the_seat_for_the_grace_then_a_bot_plays(
    lives: Lives,
) -> None:
    live = lives(FAST)
    lobby = await live.rooms.create("guerra", {"config": {"players": 2}}, HOST, "Host")
    await act(lobby, ANA, "take", name="Ana")
    await act(lobby, HOST, "start")
    assert lobby.record.game_id is not None
    room = await live.read_table(lobby.record.game_id)
    assert room is not None
    host_inbox: list[Any] = []
    ana_inbox: list[Any] = []
    room.subscribe(HOST, host_inbox.append, None)
    conn, joined = room.subscribe(ANA, ana_inbox.append, None)
    assert [s["connected"] for s in joined["presence"]["seats"]] == [True, True]
    room.unsubscribe(conn)  # Ana's phone drops
    presence = [m for m in host_inbox if m["type"] == "presence"][-1]
    assert presence["seats"][1]["connected"] is False
    assert 0 < presence["seats"][1]["grace_ms"] <= 150 and presence["seats"][1]["bot"] is False
    assert 1 not in room.bots.seats()
    await asyncio.sleep(0.3)  # the grace runs out
    assert 1 in room.bots.seats()
    assert [m for m in host_inbox if m["type"] == "presence"][-1]["seats"][1]["bot"] is True
    assert await room.submit(HOST, room.version, {"type": "turn"}) is None
    await room.settled()
    assert room.history[-1].seat == 1  # the stand-in turned her card
    _, back = room.subscribe(ANA, ana_inbox.append, None)  # she reloads
    assert back["presence"]["seats"][1] == {"seat": 1, "connected": True, "grace_ms": None,
                                            "bot": False, "away": False}  # fmt: skip


async def test_a_spectator_is_counted_and_sees_no_hand(lives: Lives) -> None:
    live = lives(FAST)
    lobby = await live.rooms.create("onecard", {"config": {"players": 2}}, HOST, "Host")
    await act(lobby, ANA, "take", name="Ana")
    await act(lobby, HOST, "start")
    assert lobby.record.game_id is not None
    room = await live.read_table(lobby.record.game_id)
    assert room is not None
    inbox: list[Any] = []
    room.subscribe(HOST, inbox.append, None)
    _, watching = room.subscribe(EVE, lambda m: None, None)
    assert watching["seat"] is None and not watching["view"].get("hand")
    assert [m for m in inbox if m["type"] == "presence"][-1]["watchers"] == 1


async def test_a_room_survives_a_restart(lives: Lives) -> None:
    live = lives(FAST)
    lobby = await live.rooms.create("onecard", {"config": {"players": 3}}, HOST, "Host")
    await act(lobby, ANA, "take", name="Ana")
    await act(lobby, HOST, "bot", seat=2, level="facil")
    await act(lobby, HOST, "start")
    code, game_id, version = lobby.code, lobby.record.game_id, lobby.version
    await live.close()

    again = lives(FAST)
    await again.start()
    back = await again.read_room(code)
    assert back is not None and back.version == version and back.record.game_id == game_id
    assert [s.get("name") for s in back.seats] == ["Host", "Ana", "Ana"]  # One Card's bot
    assert back.seats[2]["level"] == "facil"
    room = await again.read_table(str(game_id))
    assert room is not None and room.online and room.clocks.seconds("turn") == 30.0


def test_names_are_cleaned() -> None:
    assert clean_name("  Ana  ") == "Ana"
    assert clean_name("A\u0000na\n") == "Ana"
    assert clean_name("x" * 40) == "x" * 24
    assert clean_name("   ") is None and clean_name(7) is None


async def test_reactions_are_preset_throttled_and_reach_the_room(lives: Lives) -> None:
    live = lives(FAST)
    lobby = await live.rooms.create("onecard", {"config": {"players": 2}}, HOST, "Host")
    await act(lobby, ANA, "take", name="Ana")
    inbox: list[Any] = []
    lobby.enter(HOST, inbox.append, "es")
    assert await lobby.act(ANA, room_action({"action": "react", "key": "bien"})) is None
    assert {"type": "reaction", "seat": 1, "key": "bien"} in inbox
    free_text = await lobby.act(ANA, room_action({"action": "react", "key": "hola a todos"}))
    assert free_text is not None and free_text["code"] == "bad_message"
    stranger = await lobby.act(EVE, room_action({"action": "react", "key": "uy"}))
    assert stranger is not None and stranger["code"] == "not_in_room"
    await lobby.act(ANA, room_action({"action": "react", "key": "uy"}))
    await lobby.act(ANA, room_action({"action": "react", "key": "risa"}))
    too_fast = await lobby.act(ANA, room_action({"action": "react", "key": "aplauso"}))
    assert too_fast is not None and too_fast["code"] == "too_fast"
    assert sum(1 for m in inbox if m["type"] == "reaction") == 3
    assert lobby.version == 1  # reactions change nothing in the room


async def test_no_hints_in_a_game_among_friends(lives: Lives) -> None:
    live = lives(FAST)
    lobby = await live.rooms.create("rummy", {"config": {"players": 2}}, HOST, "Host")
    await act(lobby, ANA, "take", name="Ana")
    await act(lobby, HOST, "start")
    assert lobby.record.game_id is not None
    room = await live.read_table(lobby.record.game_id)
    assert room is not None
    turn = room.state.turn
    reply = await room.hint([HOST, ANA][turn])
    assert reply["type"] == "error" and reply["code"] == "no_hints_online"


async def test_a_maestro_bot_plays_a_whole_game_in_a_room(lives: Lives) -> None:
    """The host seats a maestro (One Card's searching level) and plays it heads-up to the
    end, their first legal move each time: maestro's decisions come from its search (here
    on a thread: ``search_workers=0``)."""
    live = lives(Settings(bot_pace=0, clocks={"window": 0.05}, search_workers=0))
    lobby = await live.rooms.create("onecard", {"config": {"players": 2}}, HOST, "Host")
    assert await act(lobby, HOST, "bot", seat=1, level="maestro") is None
    assert (lobby.seats[1]["kind"], lobby.seats[1]["level"]) == ("bot", "maestro")
    assert await act(lobby, HOST, "start") is None
    assert lobby.record.game_id is not None
    room = await live.read_table(lobby.record.game_id)
    assert room is not None and room.record.seats[1]["level"] == "maestro"
    changed = asyncio.Event()
    conn, _ = room.subscribe(HOST, lambda message: changed.set(), None)
    loop = asyncio.get_running_loop()
    end = loop.time() + 60
    while not room.finished and loop.time() < end:
        legal = room.game.view(room.state, 0)["legal"] if 0 in room.game.actors(room.state) else []
        if legal:  # (maestro's move may come first: then it is read again, as a page does)
            reply = await room.submit(HOST, room.version, legal[0])
            assert reply is None or reply["code"] in ("stale_version", "not_your_turn")
            continue
        changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), 5)
    room.unsubscribe(conn)
    assert room.finished
    assert sum(entry.seat == 1 for entry in room.history) >= 3  # maestro played its turns


async def test_the_room_keeps_a_running_score_across_rematches(lives: Lives) -> None:
    """«Ana 3 – 2 Leo»: each game's winner, by person (the starters rotate, the score stays
    with whoever won), read again from the store when the room opens anew."""
    live = lives(Settings(bot_pace=0))
    lobby = await live.rooms.create(
        "guerra", {"config": {"players": 2, "length": "corta"}}, HOST, "Host"
    )
    await act(lobby, HOST, "bot", seat=1, level="normal")
    await act(lobby, HOST, "start")
    assert lobby.state(HOST)["series"] == []  # (no game over yet: no score to show)
    won: dict[str, int] = {}
    for game in range(2):
        assert lobby.record.game_id is not None
        room = await live.read_table(lobby.record.game_id)
        assert room is not None
        host = room.seat_of(HOST)
        while not room.finished:
            await room.settled()
            if not room.finished and host in room.game.actors(room.state):
                refused = await room.submit(HOST, room.version, {"type": "turn"})
                assert refused is None or refused["code"] == "stale_version", refused
        outcome = room.game.outcome(room.state)
        assert outcome is not None
        winner = outcome["winner"]
        key = "host" if winner == host else "bot" if winner is not None else "nobody"
        won[key] = won.get(key, 0) + 1
        scored = game + 1 - won.get("nobody", 0)

        def counted(n: int = scored) -> bool:
            return bool(sum(r["wins"] for r in lobby.state(HOST)["series"]) == n)

        await until(counted)
        if game == 0:
            assert await lobby.act(HOST, room_action({"action": "rematch"})) is None
    series = {r["seat"]: r["wins"] for r in lobby.state(ANA)["series"]}
    expected = {0: won.get("host", 0), 1: won.get("bot", 0)}
    assert series == (expected if sum(expected.values()) else {})  # (two draws: no score)
    score = lobby.state(ANA)["score"]  # (the bar's words: «Host 1 – 1 Ordenador 1»)
    assert score == (f"Host {expected[0]} – {expected[1]} Ordenador 1" if series else "")
    code = lobby.code
    await live.close()
    again = lives(Settings(bot_pace=0))
    await again.start()
    reopened = await again.read_room(code)
    assert reopened is not None
    assert {r["seat"]: r["wins"] for r in reopened.state(HOST)["series"]} == series
