"""Who sits with whom (tapete/rooms/matching.py): by rating, a window widening with the
wait, table sizes, blocks, and bots once the wait runs out (RULES.md «Quick play»)."""

from __future__ import annotations

from tapete.rooms.matching import WIDEN, WINDOW, Match, Queue, Ticket, bot_level

WAIT = 20.0


def queue(bots: bool = True) -> Queue:
    return Queue(seats=(2, 4), wait=WAIT, bots=bots)


def t(guest: str, players: int | None = 2, rating: float = 1500, since: float = 0.0,
      avoid: frozenset[str] = frozenset()) -> Ticket:  # fmt: skip
    return Ticket(guest, players, rating, since, avoid)


def test_two_of_a_rating_asking_for_two_sit_at_once() -> None:
    q = queue()
    q.add(t("ana", rating=1510))
    assert q.match(0.0) == [] and len(q) == 1
    q.add(t("bea", rating=1490, since=1.0))
    assert q.match(1.0) == [Match(("ana", "bea"), 0, 1500.0)]
    assert len(q) == 0


def test_the_window_widens_with_the_wait_of_both() -> None:
    q = queue()
    q.add(t("ana", rating=1500, since=0.0))
    q.add(t("bea", rating=1800, since=0.0))
    # the gap is 300: each accepts it once their window is 100 + 50 a second ≥ 300, at 4 s
    assert (300 - WINDOW) / WIDEN == 4.0
    assert q.match(3.9) == []
    assert q.match(4.0) == [Match(("ana", "bea"), 0, 1650.0)]


def test_one_who_just_came_has_a_narrow_window_even_for_one_who_waited() -> None:
    q = queue()
    q.add(t("ana", rating=1500, since=0.0))
    q.add(t("bea", rating=1800, since=10.0))  # bea's window at 10 s: 100
    assert q.match(10.0) == []
    assert q.match(14.0) == [Match(("ana", "bea"), 0, 1650.0)]  # bea's: 100 + 4 × 50


def test_the_nearest_in_time_not_in_rating_is_taken_oldest_first() -> None:
    q = queue()
    for i, name in enumerate(("ana", "bea", "carla")):
        q.add(t(name, since=float(i)))
    assert q.match(2.0) == [Match(("ana", "bea"), 0, 1500.0)]
    assert list(q.tickets) == ["carla"]


def test_alone_after_the_wait_bots_fill_the_table_asked_for() -> None:
    q = queue()
    q.add(t("ana", players=3, since=0.0))
    assert q.match(WAIT - 0.1) == []
    assert q.seconds_left("ana", 5.0) == WAIT - 5.0
    assert q.match(WAIT) == [Match(("ana",), 2, 1500.0)]
    assert q.seconds_left("ana", WAIT) is None


def test_me_da_igual_alone_gets_the_smallest_table_with_one_bot() -> None:
    q = queue()
    q.add(t("ana", players=None))
    assert q.match(WAIT) == [Match(("ana",), 1, 1500.0)]


def test_me_da_igual_fills_the_largest_table_at_once_or_what_there_is_after_the_wait() -> None:
    q = queue()
    for i, name in enumerate(("ana", "bea", "carla")):
        q.add(t(name, players=None, since=float(i)))
    assert q.match(3.0) == []  # three of four: they wait for a fourth
    q.add(t("dani", players=None, since=4.0))
    assert q.match(4.0) == [Match(("ana", "bea", "carla", "dani"), 0, 1500.0)]
    for i, name in enumerate(("eva", "fede", "gala")):
        q.add(t(name, players=None, since=10.0 + i))
    assert q.match(10.0 + WAIT) == [Match(("eva", "fede", "gala"), 0, 1500.0)]


def test_sizes_must_agree_and_me_da_igual_joins_either() -> None:
    q = queue()
    q.add(t("ana", players=2, since=0.0))
    q.add(t("bea", players=3, since=1.0))
    assert q.match(1.0) == []
    q.add(t("carla", players=None, since=2.0))
    assert q.match(2.0) == [Match(("ana", "carla"), 0, 1500.0)]
    assert list(q.tickets) == ["bea"]


def test_three_who_do_not_mind_never_squeeze_into_a_table_of_two() -> None:
    q = queue()
    for i, name in enumerate(("ana", "bea", "carla")):
        q.add(t(name, players=None, since=float(i)))
    q.add(t("dani", players=2, since=3.0))
    made = q.match(3.0)
    # dani's table of two takes the first who does not mind; the other two wait for more
    assert made == [Match(("ana", "dani"), 0, 1500.0)]
    assert sorted(q.tickets) == ["bea", "carla"]


def test_a_blocked_pair_never_sits_together_even_after_the_wait() -> None:
    q = queue()
    q.add(t("ana", since=0.0, avoid=frozenset({"bea"})))
    q.add(t("bea", since=0.0))
    assert q.match(5.0) == []
    assert q.match(WAIT) == [Match(("ana",), 1, 1500.0), Match(("bea",), 1, 1500.0)]


def test_who_blocked_whom_does_not_matter() -> None:
    q = queue()
    q.add(t("ana", players=3, since=0.0))
    q.add(t("bea", players=3, since=0.0, avoid=frozenset({"carla"})))
    q.add(t("carla", players=3, since=0.0))
    q.add(t("dani", players=3, since=0.0))
    assert q.match(0.0) == [Match(("ana", "bea", "dani"), 0, 1500.0)]


def test_cancelling_leaves_the_queue() -> None:
    q = queue()
    q.add(t("ana"))
    assert q.remove("ana") is not None and q.remove("ana") is None
    q.add(t("bea", since=1.0))
    assert q.match(1.0 + WAIT) == [Match(("bea",), 1, 1500.0)]


def test_a_game_without_bots_seats_whom_there_is_and_one_alone_alone() -> None:
    q = queue(bots=False)
    q.add(t("ana", players=4, since=0.0))
    q.add(t("bea", players=4, since=1.0))
    assert q.match(WAIT - 0.5) == []
    assert q.match(WAIT) == [Match(("ana", "bea"), 0, 1500.0)]
    q.add(t("carla", players=None, since=30.0))
    assert q.match(30.0 + WAIT) == [Match(("carla",), 0, 1500.0)]


def test_without_bots_sizes_give_way_once_the_wait_runs_out() -> None:
    q = queue(bots=False)
    q.add(t("ana", players=4, since=0.0))
    q.add(t("bea", players=2, since=1.0))
    q.add(t("carla", players=3, since=2.0))
    assert q.match(WAIT - 0.5) == []  # (three sizes: no table yet)
    assert q.match(WAIT) == [Match(("ana", "bea", "carla"), 0, 1500.0)]
    q.add(t("dani", players=2, since=30.0))
    q.add(t("eva", players=3, since=31.0))
    q.add(t("fede", players=4, since=32.0))
    assert q.match(30.0 + WAIT) == [Match(("dani", "eva"), 0, 1500.0)]  # (dani asked for 2)
    assert list(q.tickets) == ["fede"]


def test_with_bots_sizes_never_give_way() -> None:
    q = queue()
    q.add(t("ana", players=4, since=0.0))
    q.add(t("bea", players=2, since=1.0))
    assert q.match(WAIT) == [Match(("ana",), 3, 1500.0)]


def test_the_bots_level_follows_the_table_against_the_median() -> None:
    levels = ("principiante", "normal", "experto")
    assert bot_level(levels, "normal", 1700.0, 1600.0) == "experto"
    assert bot_level(levels, "normal", 1600.0, 1600.0) == "normal"
    assert bot_level(levels, "normal", 1400.0, 1600.0) == "normal"
