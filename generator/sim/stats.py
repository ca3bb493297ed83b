"""Figures from many trials, each with a 95% interval (pure Python, no numpy needed)."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The Wilson score interval of a share: honest near 0 and 1, where fights often are."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # At 0 or n successes the bound is exactly 0 or 1; floating point misses it by a hair,
    # which printed 'win 100% (95%: >99% to >99%)'.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


def mean_interval(total: float, squares: float, n: int) -> tuple[float, float, float]:
    """(mean, low, high) of a mean from its sum and sum of squares (normal approximation)."""
    if n <= 0:
        return 0.0, 0.0, 0.0
    mean = total / n
    var = max(squares / n - mean * mean, 0.0) * n / max(n - 1, 1)
    half = Z95 * math.sqrt(var / n)
    return mean, mean - half, mean + half
