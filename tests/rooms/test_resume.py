"""A restart: every live game is rebuilt from its log, read in bulk, while a game asked for
meanwhile opens at once — and only once."""

from __future__ import annotations

import asyncio

from tapete.rooms import Settings
from tapete.store import Store
from tests.lives import Lives

GUEST = "r" * 24


async def test_games_come_back_from_their_logs_and_one_asked_for_meanwhile_opens_once(
    lives: Lives,
) -> None:
    settings = Settings(bot_pace=0)
    first = lives(settings)
    made = [await first.tables.create("guerra", {}, f"{GUEST[:-2]}{i:02d}") for i in range(12)]
    for room in made:  # a few moves in each log
        await room.submit(room.record.seats[0]["guest"], room.version, {"type": "turn"})
        await room.settled()
    versions = {room.id: room.version for room in made}
    assert all(v >= 2 for v in versions.values())
    await first.close()

    again = lives(settings)
    wanted = made[7].id
    resumed, early = await asyncio.gather(again.start(), again.read_table(wanted))
    assert resumed == 12
    assert early is not None and early.version == versions[wanted]
    loaded = {room.id: room for room in again.tables.loaded()}
    assert loaded[wanted] is early  # not opened twice
    assert {i: r.version for i, r in loaded.items()} == versions
    assert len(again.tables.loaded()) == 12


async def test_the_bulk_reads_give_each_game_its_own_log_in_order(store: Store) -> None:
    seats = [{"kind": "human", "guest": GUEST}]
    a = await store.create_game("guerra", {}, 1, seats, GUEST)
    b = await store.create_game("guerra", {}, 2, seats, GUEST)
    for n in (1, 2, 3):
        await store.append_move(a.id, n, n % 2, {"type": "turn", "n": n}, None)
    await store.append_move(b.id, 1, 0, {"type": "turn", "n": 9}, None)
    logs = await store.logs([a.id, b.id, "missing"])
    assert [(m.n, m.seat, m.move["n"]) for m in logs[a.id]] == [(1, 1, 1), (2, 0, 2), (3, 1, 3)]
    assert [m.move["n"] for m in logs[b.id]] == [9]
    assert logs["missing"] == []
