"""Intervals the bot benchmarks report (imported by the scripts next to it)."""

from __future__ import annotations

import math
import statistics


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson interval of a win rate (95% by default); (0, 1) with no games."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% normal interval."""
    m = statistics.fmean(xs)
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return m, h
