"""The end of a game in a private room, and the next one: who has accepted the rematch and
who it still waits for, a player away (past the grace, or gone) counting as accepted with
a stand-in, the host starting without those who have not answered, a room that never gets
stuck (everyone gone but one, the host gone, someone back by the link), the presence a
game shows of those who went, and a removed player who may not sit again until the host
lets them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from tapete.rooms import Live, Settings
from tapete.rooms.private_room import PrivateRoom
from tapete.rooms.table import Table
from tests.lives import Lives
from tests.rooms.conftest import room_action

HOST, ANA, LUIS = "host-" + "h" * 19, "ana-" + "a" * 20, "luis-" + "l" * 19
EVE = "eve-" + "e" * 20
GRACE = 0.2
FAST = Settings(bot_pace=0, grace_seconds=GRACE, watchdog_seconds=0.05)
SLOW = Settings(bot_pace=0)  # (45 s of grace: nobody runs out of it in a test)
COMING = Settings(bot_pace=0, join_seconds=0.1, grace_seconds=GRACE, watchdog_seconds=0.05)
"""A new table's players have 0.1 s to come to it (10 s in play) before their grace."""
NAMES = {HOST: "Host", ANA: "Ana", LUIS: "Luis", EVE: "Eve"}


async def until(check: Callable[[], bool], timeout: float = 3.0) -> None:
    """Wait for ``check()`` to hold (the room's tasks and timers run meanwhile)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, "the room never got there"
        await asyncio.sleep(0.01)


async def act(lobby: PrivateRoom, guest: str, action: str, **fields: Any) -> dict[str, Any] | None:
    return await lobby.act(
        guest, room_action({"action": action, "version": lobby.version, **fields})
    )


class Player:
    """A player's table page: in the room (``enter``) and at its game (``join``), as a
    browser tab is, and what it has been sent."""

    def __init__(self, live: Live, lobby: PrivateRoom, guest: str) -> None:
        self.rooms, self.lobby, self.guest = live, lobby, guest
        self.inbox: list[Any] = []
        self.conn, entered = lobby.enter(guest, self.inbox.append, "es")
        self.inbox.append(entered)
        self.game: tuple[Table, int] | None = None

    async def join(self) -> Table:
        assert self.lobby.record.game_id is not None
        room = await self.rooms.read_table(self.lobby.record.game_id)
        assert isinstance(room, Table)
        conn, joined = room.subscribe(self.guest, self.inbox.append, None)
        self.inbox.append(joined)
        self.game = (room, conn)
        return room

    def close(self) -> None:
        """The tab closes: out of the game and out of the room at once."""
        if self.game is not None:
            self.game[0].unsubscribe(self.game[1])
            self.game = None
        self.lobby.leave_conn(self.conn)

    def last(self, kind: str) -> dict[str, Any]:
        found: dict[str, Any] = [m for m in self.inbox if m["type"] == kind][-1]
        return found


async def room_of(
    lives: Lives, guests: list[str], settings: Settings = FAST, players: int | None = None
) -> tuple[Live, PrivateRoom]:
    """A La guerra room with these guests seated (the first hosts), not started."""
    live = lives(settings)
    n = players or len(guests)
    lobby = await live.rooms.create("guerra", {"config": {"players": n}}, guests[0], "Host")
    for guest in guests[1:]:
        assert await act(lobby, guest, "take", name=NAMES[guest]) is None
    return live, lobby


async def near_the_end(room: Table) -> None:
    """The next duel ends the game: seat 0's king takes every card."""
    players = len(room.record.seats)
    piles = ["KS", "2C", "3D", "4H"][:players]
    room.state = room.game.load({"piles": piles, "config": {"players": players}})


async def play_to_the_end(room: Table, *guests: str) -> None:
    """Each of ``guests`` turns their card (the stand-ins turn theirs after them)."""
    await near_the_end(room)
    for guest in guests:
        assert await room.submit(guest, room.version, {"type": "turn"}) is None
    await room.settled()
    await until(lambda: room.finished)


async def test_the_end_says_who_accepted_and_whom_it_waits_for(lives: Lives) -> None:
    live, lobby = await room_of(lives, [HOST, ANA, LUIS], SLOW)
    players = [Player(live, lobby, g) for g in (HOST, ANA, LUIS)]
    assert await act(lobby, HOST, "start") is None
    room = await players[0].join()
    for p in players[1:]:
        await p.join()
    state = lobby.state(HOST)
    assert state["over"] is False and state["waiting"] == [] and state["rematch"] == []
    await play_to_the_end(room, HOST, ANA, LUIS)
    # the game's end reaches everyone in the room as a lobby message: over, nobody answered
    await until(lambda: players[1].last("lobby")["over"] is True)
    assert players[1].last("lobby")["waiting"] == [0, 1, 2]
    assert await act(lobby, HOST, "rematch") is None
    seen = players[2].last("lobby")
    assert seen["rematch"] == [0] and seen["waiting"] == [1, 2]
    assert [s["away"] for s in seen["seats"]] == [False, False, False]
    assert await act(lobby, LUIS, "rematch") is None
    assert lobby.state(ANA)["waiting"] == [1] and lobby.record.game_id == room.id
    assert await act(lobby, ANA, "rematch") is None  # the last one: the next game begins
    assert lobby.record.game_id != room.id and lobby.record.games == 2
    state = lobby.state(ANA)
    assert state["over"] is False and state["rematch"] == [] and state["waiting"] == []


async def test_a_player_gone_past_the_grace_counts_as_accepted_and_keeps_the_seat(
    lives: Lives,
) -> None:
    """The issue: one closed the browser mid-game, the stand-in finished for them, the two
    others pressed «Revancha»: the next game begins, the absent one's seat theirs with a bot
    standing in until they come back."""
    live, lobby = await room_of(lives, [HOST, ANA, LUIS])
    host, ana, luis = (Player(live, lobby, g) for g in (HOST, ANA, LUIS))
    assert await act(lobby, HOST, "start") is None
    room = await host.join()
    await ana.join()
    await luis.join()
    luis.close()  # Luis closes the browser mid-game
    await until(lambda: 2 in room.bots.away)  # the grace ran out: a bot plays for him
    await until(lambda: lobby.state(HOST)["seats"][2]["away"] is True)
    presence = host.last("presence")["seats"][2]
    assert presence["away"] is True and presence["bot"] is True
    await play_to_the_end(room, HOST, ANA)
    assert room.finished
    assert await act(lobby, HOST, "rematch") is None
    assert host.last("lobby")["waiting"] == [1]  # Ana; not Luis, who is away
    assert await act(lobby, ANA, "rematch") is None
    second = lobby.record.game_id
    assert second is not None and second != room.id
    new = await live.read_table(second)
    assert isinstance(new, Table)
    assert new.seat_of(LUIS) is not None  # his seat is his...
    seat = new.seat_of(LUIS)
    assert seat in new.bots.away and seat in new.bots.seats()  # ...played by a stand-in
    assert new.presence()["seats"][seat or 0]["away"] is True
    # he comes back by the link: his seat, no stand-in any more
    again = Player(live, lobby, LUIS)
    await again.join()
    assert seat not in new.bots.away and seat not in new.bots.seats()


async def test_a_player_who_drops_at_the_end_is_waited_for_until_the_grace_runs_out(
    lives: Lives,
) -> None:
    live, lobby = await room_of(lives, [HOST, ANA])
    host, ana = Player(live, lobby, HOST), Player(live, lobby, ANA)
    assert await act(lobby, HOST, "start") is None
    room = await host.join()
    await ana.join()
    await play_to_the_end(room, HOST, ANA)
    assert await act(lobby, HOST, "rematch") is None
    # she closes the tab on the end dialog; what follows is read at once, with no await
    # between: her grace (0.2 s) runs on the clock, and a loaded machine once let it run
    # out while the host's «Revancha» was on its way (the game had begun: waiting [0])
    ana.close()
    assert lobby.state(HOST)["waiting"] == [1]  # her grace is running: named
    presence = host.last("presence")["seats"][1]
    assert presence["connected"] is False and presence["grace_ms"] is not None  # counting
    first = room.id
    await until(lambda: lobby.record.game_id != first)  # her grace ran out: it begins
    new = await live.read_table(str(lobby.record.game_id))
    assert isinstance(new, Table)
    assert new.seat_of(ANA) in new.bots.away
    # and the finished game said she went (no «reconectando… 0 s» left behind)
    assert room.presence()["seats"][1]["away"] is True


async def test_the_host_starts_the_next_game_without_waiting(lives: Lives) -> None:
    live, lobby = await room_of(lives, [HOST, ANA, LUIS], SLOW)
    players = [Player(live, lobby, g) for g in (HOST, ANA, LUIS)]
    assert await act(lobby, HOST, "start") is None
    room = await players[0].join()
    early = await act(lobby, HOST, "start")
    assert early is not None and early["code"] == "room_started"
    await play_to_the_end(room, HOST, ANA, LUIS)
    assert await act(lobby, HOST, "rematch") is None
    refused = await act(lobby, ANA, "start")
    assert refused is not None and refused["code"] == "not_host"
    assert await act(lobby, HOST, "start") is None  # «Empezar ya»
    new = await live.read_table(str(lobby.record.game_id))
    assert isinstance(new, Table) and new.id != room.id
    # everyone keeps a seat, and the next player starts, as in a rematch
    assert [new.seat_of(g) for g in (ANA, LUIS, HOST)] == [0, 1, 2]


async def test_the_room_never_dies(lives: Lives) -> None:
    """Everyone gone but one: that one's «Revancha» starts the next game. Everyone gone from
    the room: whoever comes back sits, hosts, and starts."""
    live, lobby = await room_of(lives, [HOST, ANA, LUIS])
    host, ana, luis = (Player(live, lobby, g) for g in (HOST, ANA, LUIS))
    assert await act(lobby, HOST, "start") is None
    room = await host.join()
    await ana.join()
    await luis.join()
    host.close()
    luis.close()
    await until(lambda: {0, 2} <= room.bots.away)
    await play_to_the_end(room, ANA)
    assert await act(lobby, ANA, "rematch") is None
    assert lobby.record.game_id != room.id  # the two away: it begins at once
    second = await live.read_table(str(lobby.record.game_id))
    assert isinstance(second, Table)
    # everyone leaves the room for good; the game goes on with stand-ins to its end
    for guest in (ANA, HOST, LUIS):
        assert await act(lobby, guest, "leave") is None
    assert all(s["kind"] == "empty" for s in lobby.seats)
    await play_to_the_end(second)
    await until(lambda: second.finished)
    # Eve comes by the link: she sits, she hosts now, and she can start with a bot
    eve = Player(live, lobby, EVE)
    assert await act(lobby, EVE, "take", name="Eve") is None
    assert lobby.state(EVE)["host"] is True and lobby.record.host == EVE
    assert await act(lobby, EVE, "bot", seat=1, level="normal") is None
    assert lobby.state(EVE)["can_start"] is True
    assert await act(lobby, EVE, "start") is None
    assert lobby.record.game_id != second.id
    assert eve.last("lobby")["over"] is False


async def test_a_player_back_after_the_end_sees_it_and_can_accept(lives: Lives) -> None:
    live, lobby = await room_of(lives, [HOST, ANA])
    host, ana = Player(live, lobby, HOST), Player(live, lobby, ANA)
    assert await act(lobby, HOST, "start") is None
    room = await host.join()
    await ana.join()
    await play_to_the_end(room, HOST, ANA)
    host.close()
    await until(lambda: lobby.state(ANA)["seats"][0]["away"] is True)
    # nobody accepted: nothing starts by itself while everyone is away or silent
    ana.close()
    await until(lambda: lobby.state(None)["seats"][1]["away"] is True)
    assert lobby.record.game_id == room.id
    back = Player(live, lobby, HOST)  # the host opens the link again
    state = back.last("lobby")
    assert state["over"] is True and state["seats"][0]["away"] is False
    assert state["waiting"] == [0]
    assert await act(lobby, HOST, "rematch") is None  # Ana is away: it begins
    assert lobby.record.game_id != room.id


async def test_presence_says_who_went_and_what_stands_in(lives: Lives) -> None:
    live, lobby = await room_of(lives, [HOST, ANA])
    host, ana = Player(live, lobby, HOST), Player(live, lobby, ANA)
    assert await act(lobby, HOST, "start") is None
    room = await host.join()
    await ana.join()
    assert host.last("presence")["standin"] == "bot"
    assert lobby.state(HOST)["standin"] == "bot"
    ana.close()
    await until(lambda: host.last("presence")["seats"][1]["away"] is True)
    await play_to_the_end(room, HOST)
    assert room.presence()["standin"] is None  # over: nobody plays for anyone now


async def started(lives: Lives, settings: Settings) -> tuple[Live, PrivateRoom, Player, Player]:
    """A La guerra game of the host and Luis, begun while both were in the room (neither
    page at its table yet)."""
    live, lobby = await room_of(lives, [HOST, LUIS], settings)
    host, luis = Player(live, lobby, HOST), Player(live, lobby, LUIS)
    assert await act(lobby, HOST, "start") is None
    return live, lobby, host, luis


async def test_one_who_never_comes_to_the_new_table_gets_the_grace_then_a_stand_in(
    lives: Lives,
) -> None:
    # both are in the room when the game starts; Luis closes his tab before his page has
    # joined the new table: once the time to come to it is up, his grace runs, then a bot
    _, _, host, luis = await started(lives, COMING)
    room = await host.join()
    luis.close()
    await until(lambda: host.last("presence")["seats"][1]["away"] is True)
    seen = [m["seats"][1] for m in host.inbox if m["type"] == "presence"]
    counting = [i for i, s in enumerate(seen) if s["grace_ms"] is not None and not s["away"]]
    gone = [i for i, s in enumerate(seen) if s["away"]]
    assert counting and counting[0] < gone[0]  # «reconectando… N s», then «se fue»
    assert 1 in room.bots.seats()
    assert await room.submit(HOST, room.version, {"type": "turn"}) is None
    await room.settled()
    assert room.history[-1].seat == 1  # the stand-in turned his card


async def test_one_who_comes_in_time_has_no_grace_at_all(lives: Lives) -> None:
    settings = Settings(bot_pace=0, join_seconds=1.0, grace_seconds=GRACE, watchdog_seconds=0.05)
    _, _, host, luis = await started(lives, settings)
    room = await host.join()
    seen = host.last("joined")["presence"]["seats"][1]
    assert seen["connected"] is False and seen["grace_ms"] is None  # on his way: no badge
    await luis.join()
    await asyncio.sleep(1.0 + GRACE + 0.1)  # past both: nothing was running for him
    assert all(m["seats"][1]["grace_ms"] is None for m in host.inbox if m["type"] == "presence")
    assert not room.bots.away and not room.bots.seats()


async def test_after_a_restart_the_players_who_do_not_come_back_get_the_grace(
    lives: Lives,
) -> None:
    live, _, host, luis = await started(lives, COMING)
    game = (await host.join()).id
    await luis.join()
    await live.close()  # the server restarts; only the host comes back
    again = lives(COMING)
    await again.start()
    room = await again.read_table(game)
    assert room is not None
    inbox: list[Any] = []
    room.subscribe(HOST, inbox.append, None)
    await until(lambda: 1 in room.bots.away)
    assert 0 not in room.bots.away and 1 in room.bots.seats()


async def test_el_peaje_skips_the_turn_of_one_who_went(lives: Lives) -> None:
    live = lives(FAST)
    config = {"variant": "rapidos", "players": 2}
    lobby = await live.rooms.create("peaje", {"config": config}, HOST, "Host")
    assert await act(lobby, ANA, "take", name="Ana") is None
    assert lobby.state(HOST)["standin"] == "skip"
    assert await act(lobby, HOST, "start") is None
    host = Player(live, lobby, HOST)
    await host.join()
    assert host.last("joined")["presence"]["standin"] == "skip"


async def test_a_removed_player_may_not_sit_again_until_the_host_lets_them(
    lives: Lives,
) -> None:
    live, lobby = await room_of(lives, [HOST, ANA], SLOW, players=3)
    watcher: list[Any] = []
    lobby.enter(ANA, watcher.append, "es")
    assert await act(lobby, HOST, "remove", seat=1) is None
    assert lobby.seat_of(ANA) is None
    assert lobby.state(HOST)["removed"] == ["Ana"]
    assert lobby.state(ANA)["removed"] == [] and lobby.state(ANA)["you_removed"] is True
    version, seats = lobby.version, [dict(s) for s in lobby.seats]
    refused = await act(lobby, ANA, "take", name="Ana")
    assert refused is not None and refused["code"] == "removed"
    assert refused["message"] == "El anfitrión te ha quitado de esta sala."
    assert lobby.version == version and lobby.seats == seats  # nothing changed
    # she may still watch: she is in the room, counted among those watching
    assert lobby.state(HOST)["watchers"] == 1
    # kept with the room: another process (or a restart) refuses her too
    await live.close()
    again = lives(SLOW)
    back = await again.read_room(lobby.code)
    assert back is not None and back.state(HOST)["removed"] == ["Ana"]
    refused = await act(back, ANA, "take", name="Ana")
    assert refused is not None and refused["code"] == "removed"
    not_host = await act(back, ANA, "readmit", index=0)
    assert not_host is not None and not_host["code"] == "not_host"
    bad = await act(back, HOST, "readmit", index=3)
    assert bad is not None and bad["code"] == "bad_message"
    assert await act(back, HOST, "readmit", index=0) is None  # «Dejar volver»
    assert back.state(HOST)["removed"] == [] and back.state(ANA)["you_removed"] is False
    assert await act(back, ANA, "take", name="Ana") is None
    assert back.seat_of(ANA) == 1


async def test_removing_a_bot_or_an_empty_seat_bars_nobody(lives: Lives) -> None:
    _, lobby = await room_of(lives, [HOST], SLOW, players=3)
    assert await act(lobby, HOST, "bot", seat=1, level="normal") is None
    assert await act(lobby, HOST, "remove", seat=1) is None
    assert await act(lobby, HOST, "remove", seat=2) is None
    assert lobby.state(HOST)["removed"] == [] and lobby.record.removed == []


async def test_the_host_changing_the_table_between_games_starts_nothing(lives: Lives) -> None:
    """Between games the host may go back to the room and change it: that is not an answer
    to the rematch (whoever asked asks again, or the host starts), and a room with too few
    players never starts by itself."""
    live, lobby = await room_of(lives, [HOST, ANA, LUIS], SLOW)
    for guest in (HOST, ANA, LUIS):
        Player(live, lobby, guest)
    assert await act(lobby, HOST, "start") is None
    room = await live.read_table(str(lobby.record.game_id))
    assert isinstance(room, Table)
    await play_to_the_end(room, HOST, ANA, LUIS)
    assert await act(lobby, HOST, "rematch") is None
    assert await act(lobby, ANA, "rematch") is None
    assert await act(lobby, HOST, "remove", seat=2) is None  # Luis, who had not answered
    state = lobby.state(HOST)
    assert lobby.record.game_id == room.id and state["over"] is True
    assert state["rematch"] == [] and state["waiting"] == [0, 1]
    assert await act(lobby, ANA, "leave") is None
    assert await act(lobby, HOST, "rematch") is None  # alone: nothing to start
    assert lobby.record.game_id == room.id and lobby.state(HOST)["can_start"] is False
    assert await act(lobby, HOST, "bot", seat=1, level="normal") is None
    assert await act(lobby, HOST, "start") is None
    assert lobby.record.game_id != room.id
