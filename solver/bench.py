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


class Answer(NamedTuple):
    """One backend's answer to a board: its time (median of the repeats), what it achieves."""

    seconds: float
    optimum: Optimum


@dataclass(frozen=True)
class Benched:
    """A board every backend has finished: what a report is made of."""

    board: str
    answers: dict[str, Answer]
    illegal: tuple[str, ...]


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile: a time some board really took, defined for one value."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


class Bench:
    """A bench run a board at a time, so that one stopped part-way (Ctrl-C) still
    reports every board it finished: a board counts only once every backend solved it."""

    def __init__(
        self,
        backends: Iterable[str],
        repeat: int = 1,
        objective: Objective = Objective.TILES,
    ) -> None:
        self.backends = tuple(backends)
        self.repeat = repeat
        self.objective = objective
        self.benched: list[Benched] = []

    def start(self) -> None:
        """Imports and start-up of every backend, before any clock runs."""
        for name in self.backends:
            get_backend(name)

    def add(self, named: NamedBoard) -> None:
        """Solve the board `repeat` times with each backend, checking every answer."""
        answers: dict[str, Answer] = {}
        illegal: list[str] = []
        for name in self.backends:
            seconds = []
            for _ in range(self.repeat):
                move = find_move(named.board, self.objective, name)
                seconds.append(move.seconds)
                illegal.extend(f"{named.name}: {name}: {p}" for p in check_move(named.board, move))
            optimum = Optimum(move.tiles_played, move.value_played, move.sets_changed)
            answers[name] = Answer(statistics.median(seconds), optimum)
        # One append: an interrupt leaves the board either wholly in or wholly out.
        self.benched.append(Benched(named.name, answers, tuple(illegal)))

    def report(self) -> BenchReport:
        """Times and agreement over the boards finished so far."""
        timings = []
        for name in self.backends:
            times = [b.answers[name].seconds for b in self.benched]
            if times:
                timings.append(
                    Timing(name, statistics.median(times), percentile(times, 0.9), max(times))
                )
        disagreements = tuple(
            Disagreement(b.board, {name: a.optimum for name, a in b.answers.items()})
            for b in self.benched
            if len({a.optimum for a in b.answers.values()}) > 1
        )
        illegal = tuple(line for b in self.benched for line in b.illegal)
        return BenchReport(len(self.benched), self.repeat, tuple(timings), disagreements, illegal)
