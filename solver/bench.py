"""Comparing backends on the same boards: how long each takes, and whether they agree.

Every backend solves every board in the same process, one after the other board by
board, so that a machine growing busier mid-run slows them all alike. An answer that
breaks the rules, or two backends that disagree on a board's optimum, is a bug in a
backend (or in the model), and the report names the board.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .backends import get_backend
from .board import Board
from .legality import check_move
from .model import Objective
from .solve import find_move


class NamedBoard(NamedTuple):
    """A board and the name a report gives it: its file, or where it was generated."""

    name: str
    board: Board


class Optimum(NamedTuple):
    """What a backend's answer achieves; backends that both prove optimality must agree."""

    tiles_played: int
    value_played: int
    sets_changed: int

    def __str__(self) -> str:
        return f"tiles={self.tiles_played} value={self.value_played} changed={self.sets_changed}"


@dataclass(frozen=True)
class Timing:
    """One backend's solve times over the boards (seconds; per board, the median of repeats)."""

    backend: str
    median: float
    p90: float
    max: float


@dataclass(frozen=True)
class Disagreement:
    board: str
    optima: dict[str, Optimum]


@dataclass(frozen=True)
class BenchReport:
    boards: int
    repeat: int
    timings: tuple[Timing, ...]
    disagreements: tuple[Disagreement, ...]
    illegal: tuple[str, ...]

    @property
    def passed(self) -> bool:
        """Every answer legal, and all backends at the same optimum on every board."""
        return not self.disagreements and not self.illegal


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile: a time some board really took, defined for one value."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def run_bench(
    boards: Iterable[NamedBoard],
    backends: Sequence[str],
    repeat: int = 1,
    objective: Objective = Objective.TILES,
) -> BenchReport:
    """Solve every board `repeat` times with each backend; time and compare the answers."""
    for name in backends:
        get_backend(name)  # imports and start-up, before any clock runs
    times: dict[str, list[float]] = {name: [] for name in backends}
    disagreements: list[Disagreement] = []
    illegal: list[str] = []
    count = 0
    for named in boards:
        count += 1
        optima: dict[str, Optimum] = {}
        for name in backends:
            seconds = []
            for _ in range(repeat):
                move = find_move(named.board, objective, name)
                seconds.append(move.seconds)
                illegal.extend(f"{named.name}: {name}: {p}" for p in check_move(named.board, move))
            times[name].append(statistics.median(seconds))
            optima[name] = Optimum(move.tiles_played, move.value_played, move.sets_changed)
        if len(set(optima.values())) > 1:
            disagreements.append(Disagreement(named.name, optima))
    timings = tuple(
        Timing(name, statistics.median(t), percentile(t, 0.9), max(t))
        for name, t in times.items()
        if t
    )
    return BenchReport(count, repeat, timings, tuple(disagreements), tuple(illegal))
