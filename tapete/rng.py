"""A tiny seeded generator whose whole state is one integer.

Games keep their randomness in their state, so a position dumps and loads with
its future: the same state gives the same shuffles.

>>> r = Rng.from_seed(7)
>>> a = r.shuffled(list(range(5)))
>>> Rng.from_seed(7).shuffled(list(range(5))) == a
True
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1
_TOP = 1 << 64


class Rng:
    """splitmix64: small, fast in pure Python, and good enough for shuffling cards."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    @classmethod
    def from_seed(cls, seed: int | str) -> Rng:
        if isinstance(seed, str):
            value = 0
            for ch in seed.encode():
                value = (value * 1_099_511_628_211 + ch) & _MASK
            seed = value
        return cls(seed ^ 0x5DEECE66D2B7E151)

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Fisher–Yates, in place: for i from the end, swap with ``below(i + 1)``. (The
        generator is inlined — games shuffle on every deal — and gives the very same draws.)
        """
        s = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _TOP - _TOP % n
            while True:
                s = (s + 0x9E3779B97F4A7C15) & _MASK
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = s

    def shuffled(self, items: list[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out
