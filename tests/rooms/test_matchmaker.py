"""«Jugar ahora» at the rooms layer (tapete/rooms/matchmaker.py): who may queue, whom they
sit with, the table they land at, bots after the wait, the leaving penalty."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from tapete.games.protocol import IllegalMove
from tapete.public_names import drawn
from tapete.registry import REGISTRY
from tapete.rooms import Live, Settings
from tapete.rooms.matchmaker import Matchmaker, quick_games
from tapete.store import Store, utcnow
from tests.lives import Lives
from tests.ratings_seed import seed_rating

ANA, BEA, CARLA = "ana-" + "a" * 20, "bea-" + "b" * 20, "carla-" + "c" * 18
WAIT = 20.0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def live(store: Store, lives: Lives) -> Live:
    for guest in (ANA, BEA, CARLA):
        await store.ensure_guest(guest)
    return lives(Settings(bot_pace=0, grace_seconds=5, watchdog_seconds=0.05))


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def mm(live: Live, store: Store, clock: Clock) -> AsyncIterator[Matchmaker]:
    matchmaker = Matchmaker(live.rooms, store, wait=WAIT, clock=clock, tables=live.tables)
    yield matchmaker
    await matchmaker.close()


async def refused(mm: Matchmaker, guest: str, game: object, players: object = 2) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        await mm.join(guest, game, players)
    return caught.value


def test_the_games_strangers_play() -> None:
    assert sorted(quick_games()) == ["guerra", "onecard", "peaje", "rummy"]
    # (a game strangers play needs bots for the empty seats, or a game alone: never dropped)
    assert quick_games() == [k for k, e in REGISTRY.items() if e.game.quick is not None]


async def test_open_tables_name_the_table_most_wait_for(mm: Matchmaker) -> None:
    assert set((await mm.open_tables()).values()) == {None}
    await mm.join(ANA, "onecard", 4)
    await mm.join(BEA, "onecard", 4)
    await mm.join(CARLA, "onecard", 3)
    tables = await mm.open_tables()
    assert tables["onecard"] == (4, 2) and tables["rummy"] is None
    await mm.cancel(BEA)
    assert (await mm.open_tables())["onecard"] == (4, 1)  # (a tie: the larger table)


async def test_el_peaje_seats_strangers_at_turnos_rapidos_a_phone_each(
    mm: Matchmaker, live: Live, store: Store, clock: Clock
) -> None:
    await mm.join(ANA, "peaje", 3)
    await mm.join(BEA, "peaje", 2)  # (another size: together only once the wait runs out)
    assert await mm.match() == 0
    assert (await refused(mm, CARLA, "peaje", 5)).params == {"low": 2, "high": 4}
    clock.now += WAIT
    assert await mm.match() == 1
    ana, bea = await mm.status(ANA), await mm.status(BEA)
    assert ana is not None and ana == bea and ana["url"].startswith("/sala/") and not ana["alone"]
    room = live.rooms.get(ana["url"].removeprefix("/sala/"))
    assert room is not None and room.record.quick and room.record.status == "playing"
    assert [(s["kind"], s["guest"]) for s in room.seats] == [("human", ANA), ("human", BEA)]
    options = room.record.options
    assert not options["rated"] and options["clock"] == 30.0
    config = options["config"]
    assert (config["variant"], config["difficulty"], config["toll"], config["phones"]) == (
        "rapidos", "media", "nada", 2,
    )  # fmt: skip
    record = await store.game(room.record.game_id or "")
    assert record is not None and not record.rated


async def test_el_peaje_alone_after_the_wait_plays_its_route_alone(
    mm: Matchmaker, live: Live, store: Store, clock: Clock
) -> None:
    await mm.join(ANA, "peaje", None)
    clock.now += WAIT - 0.5
    assert await mm.match() == 0
    clock.now += 0.5
    assert await mm.match() == 1
    seated = await mm.status(ANA)
    assert seated is not None and seated["state"] == "seated"
    assert seated["url"].startswith("/partida/") and seated["alone"]
    record = await store.game(seated["url"].removeprefix("/partida/"))
    assert record is not None and record.kind == "peaje" and not record.rated
    assert record.config["variant"] == "solitario" and record.config["toll"] == "nada"
    assert [s["guest"] for s in record.seats] == [ANA]
    assert await mm.board.waiting(ANA) is None


async def test_two_who_want_the_same_table_land_at_one(
    mm: Matchmaker, live: Live, store: Store
) -> None:
    await mm.join(ANA, "onecard", 2)
    assert await mm.status(ANA) == {"state": "waiting", "game": "onecard", "waiting": 1,
                              "seconds_left": WAIT}  # fmt: skip
    await mm.join(BEA, "onecard", None)
    assert await mm.match() == 1
    ana, bea = await mm.status(ANA), await mm.status(BEA)
    assert ana is not None and ana["state"] == "seated" and ana == bea
    code = ana["url"].removeprefix("/sala/")
    room = live.rooms.get(code)
    assert room is not None and room.record.quick and room.record.status == "playing"
    assert [s["guest"] for s in room.seats] == [ANA, BEA]
    assert [s["public"] for s in room.seats] == [drawn(ANA).key, drawn(BEA).key]
    record = await store.game(room.record.game_id or "")
    assert record is not None and record.rated
    assert (await mm.counts())["onecard"] == 0 and await mm.board.waiting(ANA) is None


async def test_alone_after_the_wait_bots_fill_the_table(
    mm: Matchmaker, live: Live, clock: Clock
) -> None:
    await mm.join(ANA, "rummy", 3)
    clock.now += 5
    assert await mm.match() == 0
    status = await mm.status(ANA)
    assert status is not None and status["seconds_left"] == WAIT - 5
    clock.now += WAIT - 5
    assert await mm.match() == 1
    seated = await mm.status(ANA)
    assert seated is not None and seated["state"] == "seated"
    room = live.rooms.get(seated["url"].removeprefix("/sala/"))
    assert room is not None
    assert [(s["kind"], s.get("level")) for s in room.seats] == [
        ("human", None), ("bot", "normal"), ("bot", "normal"),
    ]  # fmt: skip
    # the address is kept for a while, then forgotten
    clock.now += 121
    await mm.match()
    assert await mm.status(ANA) is None


async def test_the_bots_play_harder_for_a_table_above_the_median(
    mm: Matchmaker, live: Live, store: Store, clock: Clock
) -> None:
    with store.writer.engine.begin() as conn:
        for guest, mu in ((ANA, 33.0), (BEA, 25.0), (CARLA, 24.0)):
            seed_rating(conn, guest, mu, utcnow(), games=40)
    await mm.join(ANA, "onecard", 2)
    clock.now += WAIT
    await mm.match()
    seated = await mm.status(ANA)
    assert seated is not None
    room = live.rooms.get(seated["url"].removeprefix("/sala/"))
    assert room is not None and room.seats[1]["level"] == "maestro"


async def test_blocked_either_way_never_sit_together(
    mm: Matchmaker, store: Store, clock: Clock
) -> None:
    await store.players.block(BEA, ANA, utcnow())
    await mm.join(ANA, "guerra", 2)
    await mm.join(BEA, "guerra", 2)
    assert await mm.match() == 0 and (await mm.counts())["guerra"] == 2
    await mm.join(CARLA, "guerra", 2)
    assert await mm.match() == 1
    ana, carla = await mm.status(ANA), await mm.status(CARLA)
    assert ana is not None and ana["state"] == "seated" and ana == carla
    bea = await mm.status(BEA)
    assert bea is not None and bea["state"] == "waiting"


async def test_bad_requests_are_refused_and_change_nothing(mm: Matchmaker, store: Store) -> None:
    assert (await refused(mm, ANA, "ajedrez")).code == "unknown_game"
    assert (await refused(mm, ANA, None)).code == "unknown_game"
    for players in (1, 5, "2", True, 2.0):
        assert (await refused(mm, ANA, "onecard", players)).code == "bad_players"
    assert all(n == 0 for n in (await mm.counts()).values())
    await mm.join(ANA, "onecard", 3)
    again = await refused(mm, ANA, "rummy", 3)
    assert again.code == "already_waiting" and again.params == {"game": "onecard"}
    assert (await mm.counts()) == {key: int(key == "onecard") for key in quick_games()}
    assert await mm.cancel(ANA) and not await mm.cancel(ANA)
    assert await mm.status(ANA) is None and (await mm.counts())["onecard"] == 0
    await store.players.ban(BEA, utcnow())
    assert (await refused(mm, BEA, "onecard")).code == "banned"


async def test_two_games_left_within_a_day_make_the_next_one_wait(
    mm: Matchmaker, store: Store
) -> None:
    now = utcnow()
    games = []
    for _ in range(2):
        record = await store.create_game("onecard", {"players": 2}, 1, [], ANA)
        games.append(record.id)
    await store.players.left(ANA, games[0], now - timedelta(hours=3))
    await mm.join(ANA, "onecard", 2)  # one leaving: no wait
    await mm.cancel(ANA)
    await store.players.left(ANA, games[1], now - timedelta(minutes=1))
    waits = await refused(mm, ANA, "onecard")
    seconds = waits.params["seconds"]
    assert waits.code == "penalty" and isinstance(seconds, int) and 230 <= seconds <= 241


async def test_while_the_table_is_being_made_they_are_still_waiting(
    mm: Matchmaker, live: Live, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    making, release = asyncio.Event(), asyncio.Event()
    real = live.rooms.create_quick

    async def slow(kind: str, seats: list[dict[str, object]]) -> object:
        making.set()
        await release.wait()
        return await real(kind, seats)

    monkeypatch.setattr(live.rooms, "create_quick", slow)
    await mm.join(ANA, "guerra", 2)
    clock.now += WAIT
    matching = asyncio.create_task(mm.match())
    await making.wait()
    status = await mm.status(ANA)  # the page asks now: not «idle», which would end its wait
    assert status is not None and status["state"] == "waiting" and status["seconds_left"] == 0
    release.set()
    assert await matching == 1
    seated = await mm.status(ANA)
    assert seated is not None and seated["state"] == "seated"


async def test_while_the_queues_cannot_be_read_it_says_so_once_and_goes_on(
    live: Live, store: Store, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio
    import logging

    from tapete.rooms import matchmaker as module

    caplog.set_level(logging.INFO, logger="tapete.rooms.matchmaker")
    monkeypatch.setattr(module, "BACKOFF_SECONDS", 0.02)
    mm = Matchmaker(live.rooms, store, wait=WAIT, tick=0.01)
    broken = True
    real = mm.board.tickets
    looked: list[bool] = []

    async def tickets(game: str) -> list[object]:
        looked.append(broken)
        if broken:
            raise ConnectionError("redis away")
        return await real(game)  # type: ignore[return-value]

    monkeypatch.setattr(mm.board, "tickets", tickets)
    mm.start()
    try:
        while len(looked) < 5:
            await asyncio.sleep(0.01)
        broken = False
        for _ in range(500):  # (at most 5 s: the assertion below says what did not happen)
            if any("works again" in r.getMessage() for r in caplog.records):
                break
            await asyncio.sleep(0.01)
    finally:
        await mm.close()
    failed = [r for r in caplog.records if "matchmaking failed" in r.getMessage()]
    assert len(failed) == 1 and failed[0].levelname == "WARNING"
    assert any("matchmaking works again" in r.getMessage() for r in caplog.records)
