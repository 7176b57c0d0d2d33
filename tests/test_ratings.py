"""Ratings (tapete/ratings.py): the library's update reproduced by hand for two, three and
four players, ties, bots left out, leaving last.

``worked`` is Weng and Lin's Plackett–Luce update (Algorithm 4 of «A Bayesian
Approximation Method for Online Ranking», JMLR 12, 2011) written out here from the paper,
with the dynamics term τ added to each variance first and ties sharing a place
(``A_q``, the size of q's tie), as openskill does; it does not call the library.
"""

from __future__ import annotations

import math

import pytest

from tapete.ratings import (
    BETA,
    NEW,
    PROVISIONAL_SIGMA,
    TAU,
    Rating,
    Seat,
    places,
    provisional,
    rate,
    shown,
)

KAPPA = 1e-4


def worked(players: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """(mu, sigma) after a game, each player alone on a team, by the paper's equations."""
    mus = [mu for mu, _ in players]
    var = [sigma**2 + TAU**2 for _, sigma in players]
    c = math.sqrt(sum(v + BETA**2 for v in var))
    e = [math.exp(mu / c) for mu in mus]
    k = len(players)
    # sum_q: over the players placed no better than q; A_q: how many share q's place
    sums = [sum(e[i] for i in range(k) if ranks[i] >= ranks[q]) for q in range(k)]
    ties = [sum(1 for i in range(k) if ranks[i] == ranks[q]) for q in range(k)]
    out = []
    for i in range(k):
        omega = delta = 0.0
        for q in range(k):
            if ranks[q] > ranks[i]:
                continue
            p = e[i] / sums[q]
            omega += ((1.0 if q == i else 0.0) - p) / ties[q]
            delta += p * (1 - p) / ties[q]
        gamma = math.sqrt(var[i]) / c
        mu = mus[i] + var[i] / c * omega
        sigma = math.sqrt(var[i] * max(1 - gamma * var[i] / c**2 * delta, KAPPA))
        out.append((mu, sigma))
    return out


def test_two_new_players_by_hand() -> None:
    # Both at mu 25, sigma 25/3; the winner gains exactly what the loser loses.
    var = (25 / 3) ** 2 + TAU**2
    c = math.sqrt(2 * (var + BETA**2))
    step = var / c * 0.5  # Ω = σ²/c · (1 − ½): the winner's p is ½ against the loser
    after = rate([Seat(NEW, 1), Seat(NEW, 2)])
    assert after[0] is not None and after[1] is not None
    assert after[0].mu == pytest.approx(25 + step, abs=1e-9)
    assert after[1].mu == pytest.approx(25 - step, abs=1e-9)
    assert after[0].sigma == pytest.approx(after[1].sigma, abs=1e-12) and after[0].sigma < 25 / 3
    assert (after[0].games, after[1].games) == (1, 1)


CASES = [
    ([(25.0, 25 / 3), (25.0, 25 / 3)], [1, 2]),
    ([(31.0, 3.5), (22.0, 6.0)], [2, 1]),  # an upset: the favourite loses
    ([(25.0, 25 / 3), (28.0, 4.0), (20.0, 7.0)], [1, 2, 3]),
    ([(25.0, 25 / 3), (28.0, 4.0), (20.0, 7.0)], [1, 2, 2]),  # One Card: the others tie
    ([(24.0, 5.0), (26.0, 5.0), (30.0, 2.5), (18.0, 8.0)], [3, 1, 4, 2]),
    ([(24.0, 5.0), (26.0, 5.0), (30.0, 2.5), (18.0, 8.0)], [1, 2, 2, 2]),
    ([(24.0, 5.0), (26.0, 5.0), (30.0, 2.5), (18.0, 8.0)], [2, 1, 2, 1]),  # Rummy's ties
]


@pytest.mark.parametrize(("players", "ranks"), CASES)
def test_the_librarys_update_is_the_papers(
    players: list[tuple[float, float]], ranks: list[int]
) -> None:
    after = rate(
        [Seat(Rating(mu, sigma, 3), r) for (mu, sigma), r in zip(players, ranks, strict=True)]
    )
    for got, (mu, sigma) in zip(after, worked(players, ranks), strict=True):
        assert got is not None
        assert got.mu == pytest.approx(mu, abs=1e-9)
        assert got.sigma == pytest.approx(sigma, abs=1e-9)
        assert got.games == 4


def test_a_tie_moves_equal_players_equally() -> None:
    after = rate([Seat(NEW, 1), Seat(NEW, 2), Seat(NEW, 2)])
    assert after[1] == after[2]
    assert after[0] is not None and after[1] is not None and after[0].mu > 25 > after[1].mu


def test_a_bots_seat_moves_nobody_and_is_left_out() -> None:
    a, b = Rating(27.0, 4.0, 30), Rating(23.0, 6.0, 8)
    # a human beaten by a bot and beating another human: rated as if only the two played
    with_bot = rate([Seat(None, 1), Seat(a, 2), Seat(b, 3)])
    alone = rate([Seat(a, 1), Seat(b, 2)])
    assert with_bot == [None, *alone]
    # one human with bots only: nothing moves, not even the count of games
    assert rate([Seat(None, 1), Seat(a, 2), Seat(None, 3)]) == [None, a, None]


def test_one_who_left_is_last_whatever_the_result_said() -> None:
    a, b, c = Rating(25.0, 5.0, 9), Rating(25.0, 5.0, 9), Rating(25.0, 5.0, 9)
    # c «won» (the stand-in bot played on for them) but left: c is last
    assert places([Seat(a, 2), Seat(b, 3), Seat(c, 1, left=True)]) == [1, 2, 3]
    after = rate([Seat(a, 2), Seat(b, 3), Seat(c, 1, left=True)])
    assert after == rate([Seat(a, 1), Seat(b, 2), Seat(c, 3)])
    # two who left tie for last
    assert places([Seat(a, 3), Seat(b, 1, left=True), Seat(c, 2, left=True)]) == [1, 2, 2]


def test_what_a_player_reads() -> None:
    assert shown(NEW) == 1500
    assert shown(Rating(30.0, 3.0)) == 1700
    assert provisional(NEW)
    assert not provisional(Rating(25.0, PROVISIONAL_SIGMA))
    assert provisional(Rating(25.0, PROVISIONAL_SIGMA + 0.01))


def test_about_a_dozen_games_make_a_rating_established() -> None:
    # docs/ratings.md: a new player who plays two-player games against established players,
    # winning and losing in turn, leaves «?» after 10 to 15 games
    me, games = NEW, 0
    while provisional(me):
        other = Rating(25.0, 2.0, 100)
        first, second = (me, other) if games % 2 else (other, me)
        after = rate([Seat(first, 1), Seat(second, 2)])
        me = after[0] if games % 2 else after[1]  # type: ignore[assignment]
        games += 1
    assert 10 <= games <= 15 and me.games == games
