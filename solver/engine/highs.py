"""HiGHS in this process through highspy: one solver object for the process, its LPs for
our branch-and-bound, and its own MIP where that search gives up."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any

from ..errors import SolverError
from .builder import Floats, Mip
from .lp import ABSOLUTE_GAP, Deadline, LpEnd, Solution


@contextlib.contextmanager
def quiet_stdout() -> Iterator[None]:
    """Silence file descriptor 1, where HiGHS (and other solvers) print from C."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


_highs: Any = None


def highs_solver() -> Any:
    """The process's one HiGHS object, created once with its banner silenced."""
    global _highs
    if _highs is None:
        try:
            import highspy
        except ImportError as error:
            raise SolverError(
                f"backend highs needs highspy: pip install highspy ({error})"
            ) from None
        highs: Any = highspy.Highs
        with quiet_stdout():
            _highs = highs()
        _highs.setOptionValue("output_flag", False)
        _highs.setOptionValue("mip_rel_gap", 0.0)
        _highs.setOptionValue("mip_abs_gap", ABSOLUTE_GAP)
        # These models are small: presolve costs more than it saves (benchmarks/README.md).
        _highs.setOptionValue("presolve", "off")
        # The first run starts HiGHS's thread pool (~20 ms): pay it here, at start-up.
        _highs.addVar(0.0, 1.0)
        _highs.run()
    return _highs


def _set_time_limit(h: Any, seconds: float) -> None:
    """HiGHS holds its time limit against all the time the object has run, not this run's
    (HiGHS issue 1477; highspy has no zeroAllClocks): once a process had solved for the
    limit in all, every search with a limit stopped at once, unproved."""
    h.setOptionValue("time_limit", h.getRunTime() + seconds)


def highs_started() -> bool:
    """Whether HiGHS's solver, and with it its thread pool, runs in this process (it
    starts only when a search first needs HiGHS)."""
    return _highs is not None


def _pass_model(h: Any, mip: Mip) -> None:
    import highspy
    import numpy as np

    h.clearModel()
    status = h.passModel(
        mip.columns,
        mip.rows,
        len(mip.col_index),
        int(highspy.MatrixFormat.kColwise),
        int(highspy.ObjSense.kMaximize),
        0.0,
        mip.cost,
        mip.lower,
        mip.upper,
        np.maximum(mip.row_lower, -highspy.kHighsInf),
        np.minimum(mip.row_upper, highspy.kHighsInf),
        mip.col_start[:-1],
        mip.col_index,
        mip.col_value,
        np.zeros(mip.columns, dtype=np.int32),
    )
    if status == highspy.HighsStatus.kError:
        raise SolverError("HiGHS refused the model")


class HighsLp:
    """The LP in HiGHS: each re-solve starts from the last basis."""

    engine = "highs"

    def __init__(self, mip: Mip) -> None:
        import numpy as np

        self.h = highs_solver()
        _pass_model(self.h, mip)
        self.columns = np.arange(mip.columns, dtype=np.int32)

    def bound(self, lower: Floats, upper: Floats) -> None:
        self.h.changeColsBounds(len(self.columns), self.columns, lower, upper)

    def basis(self) -> object:
        return self.h.getBasis()

    def restore(self, basis: object) -> None:
        self.h.setBasis(basis)

    def solve(self, seconds: float) -> LpEnd:
        import highspy

        _set_time_limit(self.h, seconds)
        self.h.run()
        status = self.h.getModelStatus()
        if status == highspy.HighsModelStatus.kOptimal:
            return LpEnd.OPTIMAL
        if status == highspy.HighsModelStatus.kInfeasible:
            return LpEnd.INFEASIBLE
        return LpEnd.OTHER

    def objective(self) -> float:
        return float(self.h.getInfo().objective_function_value)

    def values(self) -> Floats:
        import numpy as np

        return np.array(self.h.getSolution().col_value)


def highs_mip(mip: Mip, incumbent: Any, deadline: Deadline | None) -> Solution:
    """HiGHS's own branch-and-cut, started from the best solution found so far, until
    the search's deadline."""
    import highspy
    import numpy as np

    if deadline is not None and deadline.passed():  # out of time: keep what was found
        return Solution(incumbent, proved=False)
    h = highs_solver()
    _pass_model(h, mip)
    columns = np.arange(mip.columns, dtype=np.int32)
    h.changeColsIntegrality(mip.columns, columns, np.ones(mip.columns, dtype=np.int32))
    if incumbent is not None:
        solution = highspy.HighsSolution()
        solution.col_value = incumbent.tolist()
        h.setSolution(solution)
    _set_time_limit(h, highspy.kHighsInf if deadline is None else deadline.left())
    h.run()
    model_status = h.getModelStatus()
    if model_status == highspy.HighsModelStatus.kOptimal:
        return Solution(np.array(h.getSolution().col_value), proved=True)
    if h.getInfo().primal_solution_status == 2:  # a feasible point, found before the limit
        return Solution(np.array(h.getSolution().col_value), proved=False)
    if model_status in (highspy.HighsModelStatus.kTimeLimit, highspy.HighsModelStatus.kInterrupt):
        return Solution(None, proved=False)
    if model_status == highspy.HighsModelStatus.kInfeasible and mip.cutoff is not None:
        return Solution(None, proved=True)  # as in branch.py: nothing beats the cutoff
    raise SolverError(f"HiGHS ended with {h.modelStatusToString(model_status)}")
