"""Comparing backends on the same boards: how long each takes, and whether they agree.

Every backend solves every board in the same process, one after the other board by
board, so that a machine growing busier mid-run slows them all alike. An answer that
breaks the rules, or two answers proved best that differ, is a bug in a backend (or in
the model), and the report names the board. An answer the time limit cut short is
counted, never compared: it may fall short of the optimum without any bug.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .board import Board
from .engine.backends import get_backend
from .engine.solve import find_move
from .errors import RummisolveError, unexpected
from .legality import check_move
from .move import Move, Objective, Status


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


class Timing(NamedTuple):
    """One backend's solve times over the boards (seconds; per board, the median of repeats)."""

    median: float
    p90: float
    max: float


@dataclass(frozen=True)
class Failure:
    """An error that stopped a backend: at start-up (no board), or on a board."""

    backend: str
    board: str | None
    message: str

    def __str__(self) -> str:
        where = "" if self.board is None else f"{self.board}: "
        return f"{where}{self.backend}: {self.message}"


@dataclass(frozen=True)
class BackendResult:
    """A backend's line of the report: its times (None before any board), how many of its
    answers were not proved best (the time limit cut the search short), or its failure."""

    backend: str
    timing: Timing | None
    unproved: int
    failure: Failure | None


@dataclass(frozen=True)
class Disagreement:
    """Answers proved best that differ: one of them is wrong."""

    board: str
    optima: dict[str, Optimum]


@dataclass(frozen=True)
class BenchReport:
    """`unproved_boards`: boards with an answer not proved best, which no comparison uses:
    an answer cut short by the time limit may fall short of the optimum without a bug."""

    boards: int
    repeat: int
    backends: tuple[BackendResult, ...]
    disagreements: tuple[Disagreement, ...]
    unproved_boards: int
    illegal: tuple[str, ...]

    @property
    def failures(self) -> list[Failure]:
        return [b.failure for b in self.backends if b.failure is not None]

    @property
    def passed(self) -> bool:
        """Every backend ran, every answer legal, all at the same optimum on every board."""
        return not self.failures and not self.disagreements and not self.illegal


class Answer(NamedTuple):
    """One backend's answer to a board: its time (median of the repeats), what it achieves,
    and whether every repeat proved it best."""

    seconds: float
    optimum: Optimum
    proved: bool


@dataclass(frozen=True)
class Benched:
    """A board the backends still running have finished: what a report is made of."""

    board: str
    answers: dict[str, Answer]
    illegal: tuple[str, ...]


MoveFinder = Callable[[Board, Objective, str, "float | None"], Move]
"""find_move as a bench calls it: board, objective, backend, time limit."""


class Solver(NamedTuple):
    """What a bench drives: `start` readies a backend before any clock runs (get_backend),
    `find` asks it for a move (find_move). A caller may stand in its own for either: a
    backend that fails, disagrees or is interrupted on cue."""

    find: MoveFinder = find_move
    start: Callable[[str], object] = get_backend


SOLVER = Solver()  # find_move and get_backend themselves


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile: a time some board really took, defined for one value."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


class Bench:
    """A bench run a board at a time, so that one stopped part-way (Ctrl-C) still
    reports every board it finished: a board counts once every backend has answered it.

    A backend that fails is left out from then on, its times with it: they would no
    longer be over the same boards as the others'. The others go on.
    """

    def __init__(
        self,
        backends: Iterable[str],
        repeat: int = 1,
        objective: Objective = Objective.TILES,
        time_limit: float | None = None,
        solver: Solver = SOLVER,
    ) -> None:
        self.backends = tuple(dict.fromkeys(backends))  # one named twice is benched once
        self.solver = solver
        self.repeat = repeat
        self.objective = objective
        self.time_limit = time_limit
        self.benched: list[Benched] = []
        self.failures: dict[str, Failure] = {}

    def start(self) -> None:
        """Imports and start-up of every backend, before any clock runs."""
        for name in self.backends:
            try:
                self.solver.start(name)
            except Exception as error:
                self.failures[name] = Failure(name, None, _reason(name, error))

    def add(self, named: NamedBoard) -> None:
        """Solve the board `repeat` times with each backend, checking every answer."""
        answers: dict[str, Answer] = {}
        illegal: list[str] = []
        for name in self.backends:
            if name in self.failures:
                continue
            try:
                moves = [
                    self.solver.find(named.board, self.objective, name, self.time_limit)
                    for _ in range(self.repeat)
                ]
            except Exception as error:
                self.failures[name] = Failure(name, named.name, _reason(name, error))
                continue
            for move in moves:
                illegal.extend(f"{named.name}: {name}: {p}" for p in check_move(named.board, move))
            last = moves[-1]
            optimum = Optimum(last.tiles_played, last.value_played, last.sets_changed)
            proved = all(m.status is not Status.FEASIBLE for m in moves)
            answers[name] = Answer(statistics.median(m.seconds for m in moves), optimum, proved)
        # One append: an interrupt leaves the board either wholly in or wholly out.
        if answers:  # with every backend failed, no board is benched any more
            self.benched.append(Benched(named.name, answers, tuple(illegal)))

    def report(self) -> BenchReport:
        """Times and agreement over the boards finished so far."""
        results = tuple(self._result(name) for name in self.backends)
        disagreements = []
        for b in self.benched:
            proved = {name: a.optimum for name, a in b.answers.items() if a.proved}
            if len(set(proved.values())) > 1:
                disagreements.append(Disagreement(b.board, proved))
        unproved_boards = sum(any(not a.proved for a in b.answers.values()) for b in self.benched)
        illegal = tuple(line for b in self.benched for line in b.illegal)
        return BenchReport(
            len(self.benched),
            self.repeat,
            results,
            tuple(disagreements),
            unproved_boards,
            illegal,
        )

    def _result(self, name: str) -> BackendResult:
        if name in self.failures:
            return BackendResult(name, None, 0, self.failures[name])
        answers = [b.answers[name] for b in self.benched]
        if not answers:
            return BackendResult(name, None, 0, None)
        times = [a.seconds for a in answers]
        timing = Timing(statistics.median(times), percentile(times, 0.9), max(times))
        return BackendResult(name, timing, sum(not a.proved for a in answers), None)


def _reason(backend: str, error: Exception) -> str:
    """What stopped a backend, without the backend's name that the report puts before it.
    A bench must go on past one backend whatever goes wrong with it, so even an error that
    is not ours (a crash inside a solver library) is kept."""
    if isinstance(error, RummisolveError):
        return str(error).removeprefix(f"backend {backend}: ")
    return unexpected(error)
