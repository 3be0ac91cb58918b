"""Confidence intervals for tournaments: a share (Wilson) and a mean (normal)."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share: unlike the normal one it stays inside [0, 1]
    and is right near 0 and 1, where a strong strategy's shares lie."""
    if trials == 0:
        return (0.0, 1.0)
    share = successes / trials
    spread = z * z / trials
    centre = (share + spread / 2) / (1 + spread)
    half = z * math.sqrt(share * (1 - share) / trials + spread / (4 * trials)) / (1 + spread)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean and its 95% interval (normal: scores over hundreds of games)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return (mean, mean - half, mean + half)
