"""A rated table's last move carries its result for the ratings (RULES.md «Quick play»):
places from the game, bots from the start left out, one who left (or lost the seat to
timeouts) last — and the ratings are written with that move, or not at all."""

from __future__ import annotations

from typing import Any

from tapete.games import onecard
from tapete.ratings import NEW, Seat, rate
from tapete.rooms import Settings, Table
from tapete.store import Store
from tapete.store.players import RatedSeat
from tests.lives import Tables

ANA, BEA = "a" * 24, "b" * 24
SEATS: list[dict[str, Any]] = [
    {"kind": "human", "guest": ANA, "name": "Ana"},
    {"kind": "human", "guest": BEA, "name": "Bea"},
    {"kind": "bot", "level": "normal", "n": 2},
]
# Ana plays her last card and wins; Bea and the bot are left with cards
LAST_CARD = {
    "hands": ["5H", "9C 4S", "3D 8C 2S"],
    "discard": "5D",
    "stock": "4C 4D 8H 8S 6C 6H",
    "turn": 0,
}
SETTINGS = Settings(bot_pace=0, clocks={"window": 30})


async def open_at(store: Store, tables: Tables, rated: bool) -> Table:
    await store.ensure_guest(BEA)
    position = onecard.dump(onecard.load(LAST_CARD))
    record = await store.create_game(
        "onecard", {"players": 3}, 1, SEATS, ANA, position=position, rated=rated
    )
    return await tables(record, SETTINGS)


async def finish(table: Table) -> dict[str, Any]:
    assert await table.submit(ANA, 0, {"type": "play", "card": "5H"}) is None
    assert table.finished
    outcome = table.game.outcome(table.state)
    assert outcome is not None and outcome["winner"] == 0
    return dict(outcome)


async def test_the_winner_first_the_others_tied_and_the_bot_left_out(
    store: Store, tables: Tables
) -> None:
    table = await open_at(store, tables, rated=True)
    outcome = await finish(table)
    assert table.rated(outcome) is not None
    rated = table.rated(outcome)
    assert rated is not None and rated.game == "onecard"
    assert rated.seats == (RatedSeat(ANA, 1), RatedSeat(BEA, 2), RatedSeat(None, 2))
    ratings = await store.players.ratings("onecard", [ANA, BEA])
    want = rate([Seat(NEW, 1), Seat(NEW, 2)])
    assert [ratings[ANA], ratings[BEA]] == want
    assert set(await store.players.changes(table.id)) == {ANA, BEA}


async def test_one_who_left_is_last_even_if_their_stand_in_did_better(
    store: Store, tables: Tables
) -> None:
    table = await open_at(store, tables, rated=True)
    table.player_left(0)  # Ana leaves: her stand-in plays the winning card for her
    await table.settled()
    assert table.finished
    outcome = table.game.outcome(table.state)
    assert outcome is not None and outcome["winner"] == 0
    rated = table.rated(outcome)
    assert rated is not None and rated.seats[0] == RatedSeat(ANA, 1, left=True)
    ratings = await store.players.ratings("onecard", [ANA, BEA])
    assert ratings[ANA].mu < NEW.mu < ratings[BEA].mu


async def test_a_game_not_rated_moves_nobody(store: Store, tables: Tables) -> None:
    table = await open_at(store, tables, rated=False)
    outcome = await finish(table)
    assert table.rated(outcome) is None
    assert await store.players.changes(table.id) == {}
    assert (await store.players.ratings("onecard", [ANA]))[ANA] == NEW


async def test_a_game_without_places_is_never_rated(store: Store, tables: Tables) -> None:
    record = await store.create_game(
        "guerra", {"players": 2}, 1, [SEATS[0], SEATS[2]], ANA, rated=True
    )
    table = await tables(record, SETTINGS)
    assert table.rated({"winner": 0}) is None


async def test_the_ratings_recomputed_from_the_logs_are_the_ones_stored(
    store: Store, tables: Tables, tmp_path: Any
) -> None:
    from sqlalchemy import create_engine, select

    from tapete.store.models import RatingChangeRow, RatingRow
    from tapete.store.players import recompute
    from tapete.store.repo import sync_url

    first = await open_at(store, tables, rated=True)
    await finish(first)  # Ana wins
    second = await open_at(store, tables, rated=True)
    second.player_left(0)  # Ana leaves, her stand-in wins: she is last
    await second.settled()
    assert second.finished
    third = await open_at(store, tables, rated=False)
    await finish(third)  # not rated: not recomputed either
    engine = create_engine(sync_url(store.url))
    try:

        def stored() -> tuple[list[Any], list[Any]]:
            with engine.connect() as conn:
                ratings = conn.execute(select(RatingRow).order_by(RatingRow.guest)).all()
                changes = conn.execute(
                    select(RatingChangeRow).order_by(RatingChangeRow.at, RatingChangeRow.guest)
                ).all()
            return [tuple(r)[:5] for r in ratings], [tuple(c)[:9] for c in changes]

        before = stored()
        assert len(before[0]) == 2 and len(before[1]) == 4
        with engine.begin() as conn:
            assert recompute(conn) == 2
        assert stored() == before
    finally:
        engine.dispose()


def test_the_command_recomputes_a_database(tmp_path: Any, capsys: Any) -> None:
    from tapete.cli import main

    assert main(["ratings", "recompute", "--db", str(tmp_path / "hall.db")]) == 0
    assert capsys.readouterr().out == "0 partidas puntuadas de nuevo\n"
