"""The seeded generator: deterministic, in range, roughly uniform, permutations."""

from __future__ import annotations

from collections import Counter

import pytest

from tapete.rng import Rng


def test_same_seed_same_sequence() -> None:
    a, b = Rng.from_seed(2024), Rng.from_seed(2024)
    assert [a.next64() for _ in range(20)] == [b.next64() for _ in range(20)]


def test_different_seeds_differ() -> None:
    assert Rng.from_seed(1).next64() != Rng.from_seed(2).next64()
    assert Rng.from_seed("mesa-1").next64() != Rng.from_seed("mesa-2").next64()


def test_string_seeds_are_deterministic() -> None:
    assert Rng.from_seed("tapete").state == Rng.from_seed("tapete").state


def test_state_is_the_whole_generator() -> None:
    r = Rng.from_seed(5)
    r.next64()
    copy = Rng(r.state)
    assert [r.below(100) for _ in range(10)] == [copy.below(100) for _ in range(10)]


def test_state_fits_64_bits() -> None:
    r = Rng(-1)
    assert 0 <= r.state < 2**64
    for _ in range(100):
        assert 0 <= r.next64() < 2**64
        assert 0 <= r.state < 2**64


@pytest.mark.parametrize("n", [1, 2, 3, 7, 52, 1000, 2**63 + 5])
def test_below_stays_in_range(n: int) -> None:
    r = Rng.from_seed(n)
    for _ in range(500):
        assert 0 <= r.below(n) < n


@pytest.mark.parametrize("n", [0, -3])
def test_below_refuses_non_positive(n: int) -> None:
    with pytest.raises(ValueError):
        Rng.from_seed(1).below(n)


def test_below_is_roughly_uniform() -> None:
    r = Rng.from_seed(99)
    draws = 60_000
    counts = Counter(r.below(6) for _ in range(draws))
    assert set(counts) == set(range(6))
    expected = draws / 6
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 20.5  # 5 degrees of freedom, p ≈ 0.001


def test_shuffle_is_a_permutation() -> None:
    r = Rng.from_seed(3)
    items = list(range(52))
    for _ in range(50):
        out = r.shuffled(items)
        assert sorted(out) == items
    assert items == list(range(52))  # shuffled() leaves its input alone


def test_shuffle_in_place_and_deterministic() -> None:
    a, b = list(range(20)), list(range(20))
    Rng.from_seed(8).shuffle(a)
    Rng.from_seed(8).shuffle(b)
    assert a == b and a != list(range(20))
    assert sorted(a) == list(range(20))


def test_shuffle_small_lists() -> None:
    r = Rng.from_seed(0)
    empty: list[int] = []
    r.shuffle(empty)
    assert empty == []
    assert r.shuffled([1]) == [1]


def test_shuffle_reaches_every_order_of_three() -> None:
    r = Rng.from_seed(11)
    orders = Counter(tuple(r.shuffled([1, 2, 3])) for _ in range(6000))
    assert len(orders) == 6
    assert all(800 < c < 1200 for c in orders.values())


def _reference_shuffle(r: Rng, items: list[int]) -> None:
    """Fisher–Yates through ``below``: the shuffle every stored game was dealt with."""
    for i in range(len(items) - 1, 0, -1):
        j = r.below(i + 1)
        items[i], items[j] = items[j], items[i]


@pytest.mark.parametrize("seed", [0, 1, 7, 2024, "mesa-1", 2**63 + 11])
def test_the_inlined_shuffle_draws_exactly_as_below_does(seed: int | str) -> None:
    # stored games replay from their seed: a faster shuffle must not change a single deal
    for size in (0, 1, 2, 13, 52, 54, 106):
        a, b = Rng.from_seed(seed), Rng.from_seed(seed)
        fast, slow = list(range(size)), list(range(size))
        a.shuffle(fast)
        _reference_shuffle(b, slow)
        assert fast == slow and a.state == b.state
