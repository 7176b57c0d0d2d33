"""A finished game's logros counted for every player in one transaction: a player it was
counted for already (another process counted it meanwhile) is left alone, the others are
counted; the reads a count needs, one query each for all its players."""

from __future__ import annotations

from datetime import UTC, datetime

from tapete.registry import REGISTRY
from tapete.store import Store, migrate

NOW = datetime(2026, 12, 5, 8, 0, tzinfo=UTC)
ANA, BEA, CAR = "a" * 24, "b" * 24, "c" * 24


async def test_one_counted_already_is_left_and_the_others_are_counted(any_db: str) -> None:
    migrate(any_db)
    store = Store(any_db)
    try:
        for guest in (ANA, BEA, CAR):
            await store.ensure_guest(guest)
        seats = [{"kind": "human", "guest": g} for g in (ANA, BEA, CAR)]
        game = await store.create_game("guerra", {}, 1, seats, ANA)
        goals = {"partidas": 2, "ganadas": 1}
        assert await store.logros.count(game.id, BEA, {"partidas": 1}, {}, goals, NOW) == []
        assert await store.logros.counted_for(game.id) == {BEA}
        got = await store.logros.count_all(
            game.id,
            {
                ANA: ({"partidas": 1, "ganadas": 1}, {}),
                BEA: ({"partidas": 1}, {}),  # (counted above: not again)
                CAR: ({"partidas": 2}, {}),
            },
            goals,
            NOW,
        )
        assert got == {ANA: ["ganadas"], BEA: None, CAR: ["partidas"]}
        assert await store.logros.counted_for(game.id) == {ANA, BEA, CAR}
        progress = {g: await store.logros.of(g) for g in (ANA, BEA, CAR)}
        assert progress[BEA]["partidas"].progress == 1  # once, not twice
        assert progress[ANA]["ganadas"].earned_at is not None
        assert progress[ANA]["partidas"].earned_at is None
        assert progress[CAR]["partidas"].game_id == game.id
    finally:
        await store.close()


async def test_the_games_each_player_finished_in_one_query(any_db: str) -> None:
    migrate(any_db)
    store = Store(any_db)
    try:
        first, second = list(REGISTRY)[:2]  # (two of the hall's games, whichever)
        for kind, guest in ((first, ANA), (second, ANA), (first, BEA)):
            await store.ensure_guest(guest)
            seats = [{"kind": "human", "guest": guest}]
            game = await store.create_game(kind, {}, 1, seats, guest)
            await store.logros.count(game.id, guest, {"partidas": 1}, {}, {"partidas": 9}, NOW)
        kinds = await store.logros.kinds_of([ANA, BEA, CAR])
        assert kinds == {ANA: {first, second}, BEA: {first}, CAR: set()}
    finally:
        await store.close()
