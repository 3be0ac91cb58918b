"""Confidence intervals for tournaments: a share (Wilson) and a mean (normal).

The `clustered_` forms take a game as the unit: a strategy in several seats gives
several scores and comparisons a game that rise and fall together, so they are summed
per game and the spread measured between games (the ratio estimator), not between
seats as if each were a game of its own."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
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
    """The mean and its 95% interval (normal: scores over hundreds of games), each value
    a game of its own."""
    return clustered_mean([[v] for v in values], z)


def clustered_wilson(groups: Sequence[tuple[int, int]], z: float = Z95) -> tuple[float, float]:
    """The Wilson interval of a share over groups of trials, each `(successes, trials)`
    (a game's comparisons): the trials counted as many as the spread between groups
    shows them worth (the effective sample size), never more than were made, and one a
    group when all agree (then the spread says nothing of how they are linked)."""
    groups = [(a, m) for a, m in groups if m > 0]
    trials = sum(m for _, m in groups)
    if trials == 0:
        return (0.0, 1.0)
    share = sum(a for a, _ in groups) / trials
    if share in (0.0, 1.0):
        worth = float(len(groups))
    else:
        spread = sum((a - share * m) ** 2 for a, m in groups)
        worth = trials if spread == 0 else min(trials, trials**2 * share * (1 - share) / spread)
    return wilson(share * worth, worth, z)


def clustered_mean(groups: Sequence[Sequence[float]], z: float = Z95) -> tuple[float, float, float]:
    """The mean of values given in groups (a game's seats) and its 95% interval, the
    spread measured between groups (unbounded with one group: no spread to measure)."""
    groups = [g for g in groups if g]
    values = sum(len(g) for g in groups)
    if values == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(sum(g) for g in groups) / values
    n = len(groups)
    if n == 1:
        return (mean, -math.inf, math.inf)  # one group shows no spread between groups
    spread = sum((sum(g) - mean * len(g)) ** 2 for g in groups) * n / (n - 1)
    half = z * math.sqrt(spread) / values
    return (mean, mean - half, mean + half)
