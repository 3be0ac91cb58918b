"""What every solver backend shares: the answer it gives, and the LP engine protocol that
our branch-and-bound drives (branch.py), which HiGHS (highs.py) and CLP (clp.py) fill."""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from .builder import Floats

# With a lexicographic objective every unit counts: no relative gap may be accepted.
ABSOLUTE_GAP = 0.5
# An LP solution this close to whole numbers is taken as integral.
INTEGRALITY_TOLERANCE = 1e-6


@dataclass(frozen=True)
class Solution:
    """Column values (None: nothing found in time), and whether the optimum was proved."""

    values: Floats | None
    proved: bool


Clock = Callable[[], float]
"""Seconds from some start (time.perf_counter): what a deadline is read against."""


@dataclass(frozen=True)
class Deadline:
    """When a search must stop: a reading of `clock`. Every stage and backend asks it, and
    only it, whether time is left (a caller's own clock, a test's, says when time is up);
    a search with time left goes on, however long its next step may look."""

    at: float
    clock: Clock = time.perf_counter

    @classmethod
    def after(cls, seconds: float | None, clock: Clock = time.perf_counter) -> Deadline | None:
        """`seconds` from now (None: no deadline)."""
        return None if seconds is None else cls(clock() + seconds, clock)

    def left(self) -> float:
        """Seconds left (none: 0), for a solver that keeps its own time."""
        return max(self.at - self.clock(), 0.0)

    def passed(self) -> bool:
        return self.clock() >= self.at


class LpEnd(enum.Enum):
    """How one LP re-solve ended, in terms the branch-and-bound needs."""

    OPTIMAL = "optimal"
    INFEASIBLE = "infeasible"
    OTHER = "other"  # a time limit, or anything unexpected


class Lp(Protocol):
    """A model's LP relaxation loaded in an engine, re-solved under changing column bounds.

    Each re-solve starts from the last basis; `basis` keeps one (whatever the engine
    takes back; None where it cannot) and `restore` makes it the next solve's start."""

    engine: str

    def bound(self, lower: Floats, upper: Floats) -> None: ...

    def basis(self) -> object: ...

    def restore(self, basis: object) -> None: ...

    def solve(self, seconds: float) -> LpEnd: ...

    def objective(self) -> float: ...

    def values(self) -> Floats: ...
