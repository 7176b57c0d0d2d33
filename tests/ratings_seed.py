"""Ratings written straight into a test's database: a guest's rating in a game and the rated
game it came from, as the writer leaves them (``tapete.store.players``), for the tests of
leaderboards, matching by rating and the pages that show them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import insert

from tapete.store.models import RatingChangeRow, RatingRow


def seed_rating(
    conn: Any,
    guest: str,
    mu: float,
    at: datetime,
    *,
    sigma: float = 3.0,
    games: int = 20,
    game: str = "onecard",
    game_id: str | None = None,
) -> None:
    """``guest``'s rating (``mu``, ``sigma`` after ``games`` games) at ``at``; with
    ``game_id`` (a game of ``game`` in the database), its change there too — a rated game
    at ``at``, first place, the rating unchanged by it — which is what puts a player on a
    week's board."""
    conn.execute(
        insert(RatingRow).values(
            guest=guest, game=game, mu=mu, sigma=sigma, games=games, updated_at=at
        )
    )
    if game_id is not None:
        conn.execute(
            insert(RatingChangeRow).values(
                game_id=game_id, guest=guest, game=game, seat=0, place=1,
                mu_before=mu, sigma_before=sigma, mu_after=mu, sigma_after=sigma, at=at,
            )
        )  # fmt: skip
