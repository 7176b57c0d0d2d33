"""What playing with strangers keeps (tapete/store/players.py), on SQLite and PostgreSQL:
ratings written in one transaction with their changes, leaderboards, names, blocks,
reports, bans, leavings."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from tapete.ratings import NEW, PROVISIONAL_SIGMA, Seat, rate
from tapete.store import Store, migrate
from tapete.store.players import RatedSeat, write_ratings
from tests.ratings_seed import seed_rating

NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
GUESTS = ("ana", "bea", "carla", "dani", "eva")


@pytest.fixture
async def store(any_db: str) -> AsyncIterator[Store]:
    migrate(any_db)
    store = Store(any_db)
    try:
        for g in GUESTS:
            await store.ensure_guest(g)
        yield store
    finally:
        await store.close()


async def game(store: Store, seats: list[str]) -> str:
    """A One Card game of ``seats`` (guests): its id."""
    people = [{"kind": "human", "guest": g} for g in seats]
    record = await store.create_game("onecard", {"players": len(seats)}, 1, people, seats[0])
    return record.id


def rated(store: Store, game_id: str, seats: list[RatedSeat], at: datetime = NOW) -> None:
    with store.writer.engine.begin() as conn:
        write_ratings(conn, "onecard", game_id, seats, at)


async def test_a_rated_game_writes_each_humans_rating_and_change(store: Store) -> None:
    g1 = await game(store, ["ana", "bea", "carla"])
    rated(store, g1, [RatedSeat("ana", 2), RatedSeat(None, 1), RatedSeat("bea", 3)])
    got = await store.players.ratings("onecard", ["ana", "bea", "carla"])
    want = rate([Seat(NEW, 2), Seat(None, 1), Seat(NEW, 3)])
    assert got == {"ana": want[0], "bea": want[2], "carla": NEW}
    changes = await store.players.changes(g1)
    assert set(changes) == {"ana", "bea"}
    before, after = changes["ana"]
    assert (before.mu, after.mu) == (NEW.mu, got["ana"].mu)
    # the next game starts from what the last one wrote
    g2 = await game(store, ["ana", "bea"])
    rated(store, g2, [RatedSeat("ana", 2), RatedSeat("bea", 1)])
    again = await store.players.ratings("onecard", ["ana", "bea"])
    assert again["ana"] == rate([Seat(got["ana"], 2), Seat(got["bea"], 1)])[0]
    assert again["ana"].games == 2
    assert (await store.players.ratings("rummy", ["ana"]))["ana"] == NEW  # per game


async def test_one_human_with_bots_writes_nothing(store: Store) -> None:
    g1 = await game(store, ["ana"])
    rated(store, g1, [RatedSeat("ana", 1), RatedSeat(None, 2)])
    assert await store.players.changes(g1) == {}
    assert (await store.players.ratings("onecard", ["ana"]))["ana"] == NEW


async def established(store: Store, mus: dict[str, float], at: datetime = NOW) -> None:
    """Give each guest an established rating, and one rated game at ``at``."""
    for guest, mu in mus.items():
        game_id = await game(store, [guest])
        with store.writer.engine.begin() as conn:
            seed_rating(conn, guest, mu, at, game_id=game_id)


async def test_leaderboards_rank_established_players_and_find_ones_own_place(store: Store) -> None:
    await established(store, {"ana": 30.0, "bea": 27.0, "carla": 27.0})
    await established(store, {"dani": 35.0}, at=NOW - timedelta(days=10))
    # eva is provisional: on no board, with no place
    p1 = await game(store, ["eva", "ana"])
    rated(store, p1, [RatedSeat("eva", 1), RatedSeat("ana", 2)])
    ana = (await store.players.ratings("onecard", ["ana"]))["ana"]
    board = await store.players.leaderboard("onecard")
    assert [(r.rank, r.guest) for r in board] == [(1, "dani"), (2, "ana"), (3, "bea"), (3, "carla")]
    assert board[1].rating.mu == ana.mu and board[1].games == 21
    week = await store.players.leaderboard("onecard", since=NOW - timedelta(days=7))
    assert [(r.rank, r.guest, r.games) for r in week] == [
        (1, "ana", 2), (2, "bea", 1), (2, "carla", 1),
    ]  # fmt: skip
    assert await store.players.place("onecard", "eva") is None
    mine = await store.players.place("onecard", "carla")
    assert mine is not None and mine.rank == 3
    assert (await store.players.place("onecard", "dani", since=NOW - timedelta(days=7))) is None
    assert len(await store.players.leaderboard("onecard", limit=2)) == 2
    # a banned player leaves the boards
    assert await store.players.ban("dani", NOW)
    assert [r.guest for r in await store.players.leaderboard("onecard")][:1] == ["ana"]
    # the median of the established means: 27, 27, ana's, 35
    assert await store.players.median_mu("onecard") == pytest.approx((27.0 + ana.mu) / 2)
    assert 27.0 < ana.mu < 35.0 and PROVISIONAL_SIGMA > 3.0


async def test_the_median_of_nobody_is_a_new_players(store: Store) -> None:
    assert await store.players.median_mu("rummy") == NEW.mu


async def test_public_names(store: Store) -> None:
    assert await store.players.public_names(["ana", "bea"]) == {"ana": None, "bea": None}
    await store.players.set_public_name("ana", "zorro-azul")
    assert await store.players.public_names(["ana", "bea"]) == {"ana": "zorro-azul", "bea": None}
    await store.players.set_public_name("ana", None)
    assert await store.players.public_names(["ana"]) == {"ana": None}


async def test_blocks_either_way_are_avoided_and_twice_changes_nothing(store: Store) -> None:
    assert await store.players.block("ana", "bea", NOW)
    assert not await store.players.block("ana", "bea", NOW)
    assert await store.players.block("carla", "ana", NOW + timedelta(seconds=1))
    assert await store.players.blocked("ana") == ["bea"]
    assert await store.players.avoided("ana") == {"bea", "carla"}
    assert await store.players.avoided("bea") == {"ana"}
    assert await store.players.unblock("ana", "bea")
    assert not await store.players.unblock("ana", "bea")
    assert await store.players.avoided("bea") == frozenset()


async def test_reports_once_a_game_and_what_an_operator_does_with_them(store: Store) -> None:
    g1 = await game(store, ["ana", "bea"])
    assert await store.players.report("ana", "bea", g1, "insultos", NOW)
    assert not await store.players.report("ana", "bea", g1, "trampas", NOW)
    assert await store.players.report("carla", "bea", None, "abandono", NOW + timedelta(minutes=1))
    assert await store.players.report("ana", "carla", None, "otro", NOW + timedelta(minutes=2))
    assert [(r.reporter, r.reported, r.reason) for r in await store.players.reports()] == [
        ("ana", "bea", "insultos"), ("carla", "bea", "abandono"), ("ana", "carla", "otro"),
    ]  # fmt: skip
    assert not await store.players.banned("bea")
    assert await store.players.ban("bea", NOW)
    assert await store.players.banned("bea")
    assert [r.reported for r in await store.players.reports()] == ["carla"]
    third = (await store.players.reports())[0].id
    assert await store.players.dismiss(third) and not await store.players.dismiss(third)
    assert await store.players.reports() == []
    assert {r.status for r in await store.players.reports(None)} == {"banned", "dismissed"}
    assert await store.players.unban("bea") and not await store.players.unban("bea")
    assert not await store.players.ban("nobody", NOW)


async def test_leavings_once_a_game_in_order(store: Store) -> None:
    g1, g2, g3 = [await game(store, ["ana", "bea"]) for _ in range(3)]
    await store.players.left("ana", g2, NOW)
    await store.players.left("ana", g2, NOW + timedelta(minutes=1))  # the same game: once
    await store.players.left("ana", g1, NOW - timedelta(hours=30))
    await store.players.left("ana", g3, NOW + timedelta(hours=1))
    since = NOW - timedelta(hours=24)
    assert await store.players.leavings("ana", since) == [NOW, NOW + timedelta(hours=1)]
    assert await store.players.leavings("bea", since) == []


async def test_the_players_download_holds_it_and_erasing_forgets_it(store: Store) -> None:
    g1 = await game(store, ["ana", "bea"])
    rated(store, g1, [RatedSeat("ana", 1), RatedSeat("bea", 2)])
    await store.players.set_public_name("ana", "lince-leal")
    await store.players.block("ana", "bea", NOW)
    await store.players.block("carla", "ana", NOW)
    await store.players.left("ana", g1, NOW)
    data = await store.accounts.export("ana")
    assert data["public_name"] == "lince-leal"
    assert [(r["game"], r["games"]) for r in data["ratings"]] == [("onecard", 1)]
    assert [b["guest"] for b in data["blocked"]] == ["bea"]
    await store.accounts.erase("ana", NOW)
    assert (await store.accounts.export("ana"))["ratings"] == []
    assert await store.players.public_names(["ana"]) == {"ana": None}
    assert await store.players.avoided("ana") == frozenset()
    assert await store.players.avoided("carla") == frozenset()
    assert await store.players.leavings("ana", NOW - timedelta(days=1)) == []
    assert set(await store.players.changes(g1)) == {"bea"}  # the other's stays


async def test_the_last_move_and_the_ratings_are_one_commit(store: Store) -> None:
    from tapete.store import StaleWrite
    from tapete.store.players import Rated

    g1 = await game(store, ["ana", "bea"])
    result = Rated("onecard", (RatedSeat("ana", 1), RatedSeat("bea", 2)))
    await store.append_move(g1, 1, 0, {"type": "x"}, None)
    # a stale last move (the game is at 1, not 4): neither the move nor the ratings
    with pytest.raises(StaleWrite):
        await store.append_move(g1, 5, 0, {"type": "x"}, {"winner": 0}, result)
    assert await store.players.changes(g1) == {}
    await store.append_move(g1, 2, 0, {"type": "x"}, {"winner": 0}, result)
    assert set(await store.players.changes(g1)) == {"ana", "bea"}
    ratings = await store.players.ratings("onecard", ["ana", "bea"])
    assert ratings["ana"].mu > NEW.mu > ratings["bea"].mu
    record = await store.game(g1)
    assert record is not None and record.status == "finished"
