"""Solver backends: each takes the same `Mip` and returns column values.

- `highs`: HiGHS in this process through highspy, one solver object reused for every
  solve (the fastest: no subprocess, no files, no model rewriting).
- `cbc`: CBC through PuLP, the binary that `pulp[cbc]` installs (cbcbox), as a subprocess.
- `pulp-highs`: HiGHS through PuLP's own interface, to compare with the direct one.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from .errors import SolverError
from .model import Mip

# With a lexicographic objective every unit counts: no relative gap may be accepted.
ABSOLUTE_GAP = 0.5
# An LP solution this close to whole numbers is taken as integral.
INTEGRALITY_TOLERANCE = 1e-6


@dataclass(frozen=True)
class Solution:
    """Column values, and whether the optimum was proved (False: the time limit hit)."""

    values: list[float]
    proved: bool


Solve = Callable[[Mip, "float | None"], Solution]


class Backend(NamedTuple):
    """A solver: `prepare` does the one-off work (imports, start-up) outside the clock."""

    name: str
    prepare: Callable[[], object]
    solve: Solve


@contextlib.contextmanager
def _quiet_stdout() -> Iterator[None]:
    """Silence file descriptor 1, where HiGHS prints its banner from C++."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


_highs: Any = None


def _highs_solver() -> Any:
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
        with _quiet_stdout():
            _highs = highs()
        _highs.setOptionValue("output_flag", False)
        _highs.setOptionValue("mip_rel_gap", 0.0)
        _highs.setOptionValue("mip_abs_gap", ABSOLUTE_GAP)
        # These models are small: presolve costs more than it saves (median 9 -> 4 ms).
        _highs.setOptionValue("presolve", "off")
    return _highs


def solve_highs(mip: Mip, time_limit: float | None) -> Solution:
    """The LP relaxation first: on about half the positions its optimum is already
    integral, and so proved optimal, at a fraction of a branch-and-bound's cost."""
    import highspy
    import numpy as np

    h = _highs_solver()
    h.clearModel()
    h.setOptionValue("time_limit", float(time_limit) if time_limit else highspy.kHighsInf)
    inf = highspy.kHighsInf
    integrality = np.ones(mip.columns, dtype=np.int32)
    status = h.passModel(
        mip.columns,
        mip.rows,
        len(mip.row_index),
        int(highspy.MatrixFormat.kRowwise),
        int(highspy.ObjSense.kMaximize),
        0.0,
        np.array(mip.cost, dtype=np.float64),
        np.array(mip.lower, dtype=np.float64),
        np.clip(np.array(mip.upper, dtype=np.float64), None, inf),
        np.clip(np.array(mip.row_lower, dtype=np.float64), -inf, None),
        np.clip(np.array(mip.row_upper, dtype=np.float64), None, inf),
        np.array(mip.row_start[:-1], dtype=np.int32),
        np.array(mip.row_index, dtype=np.int32),
        np.array(mip.row_value, dtype=np.float64),
        integrality * 0,
    )
    if status == highspy.HighsStatus.kError:
        raise SolverError("HiGHS refused the model")
    h.run()
    if h.getModelStatus() == highspy.HighsModelStatus.kOptimal:
        values = np.array(h.getSolution().col_value)
        rounded = np.round(values)
        if np.all(np.abs(values - rounded) < INTEGRALITY_TOLERANCE):
            return Solution(rounded.tolist(), proved=True)
    h.changeColsIntegrality(mip.columns, np.arange(mip.columns, dtype=np.int32), integrality)
    h.run()
    model_status = h.getModelStatus()
    if model_status == highspy.HighsModelStatus.kOptimal:
        return Solution(list(h.getSolution().col_value), proved=True)
    if h.getInfo().primal_solution_status == 2:  # a feasible point, found before the limit
        return Solution(list(h.getSolution().col_value), proved=False)
    if model_status in (highspy.HighsModelStatus.kTimeLimit, highspy.HighsModelStatus.kInterrupt):
        return Solution([0.0] * mip.columns, proved=False)
    raise SolverError(f"HiGHS ended with {h.modelStatusToString(model_status)}")


def _pulp_problem(mip: Mip) -> tuple[Any, list[Any]]:
    import pulp

    problem = pulp.LpProblem("rummisolve", pulp.LpMaximize)
    columns = [
        problem.add_variable(
            f"c{i}",
            lowBound=mip.lower[i],
            upBound=None if mip.upper[i] == float("inf") else mip.upper[i],
            cat=pulp.LpInteger,
        )
        for i in range(mip.columns)
    ]
    problem += pulp.LpAffineExpression([(columns[i], c) for i, c in enumerate(mip.cost) if c])
    for r in range(mip.rows):
        lo, hi = mip.row_lower[r], mip.row_upper[r]
        span = range(mip.row_start[r], mip.row_start[r + 1])
        expression = pulp.LpAffineExpression(
            [(columns[mip.row_index[k]], mip.row_value[k]) for k in span]
        )
        if lo == hi:
            problem += expression == lo, f"r{r}"
        else:
            if lo != float("-inf"):
                problem += expression >= lo, f"r{r}lo"
            if hi != float("inf"):
                problem += expression <= hi, f"r{r}hi"
    return problem, columns


def _solve_pulp(mip: Mip, solver: Any) -> Solution:
    import pulp

    problem, columns = _pulp_problem(mip)
    try:
        problem.solve(solver)
    except pulp.PulpSolverError as error:
        raise SolverError(f"the solver failed: {error}") from None
    values = [c.value() or 0.0 for c in columns]
    if problem.status == pulp.LpStatusOptimal and problem.sol_status == pulp.LpSolutionOptimal:
        return Solution(values, proved=True)
    if problem.sol_status == pulp.LpSolutionIntegerFeasible:
        return Solution(values, proved=False)
    if problem.status == pulp.LpStatusNotSolved:
        return Solution([0.0] * mip.columns, proved=False)
    raise SolverError(f"the solver ended with {pulp.LpStatus[problem.status]}")


def solve_cbc(mip: Mip, time_limit: float | None) -> Solution:
    import pulp

    try:
        import cbcbox
    except ImportError:
        raise SolverError("backend cbc needs CBC: pip install 'pulp[cbc]'") from None
    # The binary's own path: `cbc` on PATH is a wrapper script that costs ~20 ms a call.
    solver = pulp.COIN_CMD(
        path=cbcbox.cbc_bin_path(),
        msg=False,
        gapRel=0.0,
        gapAbs=ABSOLUTE_GAP,
        timeLimit=time_limit,
    )
    return _solve_pulp(mip, solver)


def solve_pulp_highs(mip: Mip, time_limit: float | None) -> Solution:
    import pulp

    _highs_solver()  # the banner is printed by the first Highs() of a process: take it silently
    solver = pulp.HiGHS(msg=False, gapRel=0.0, gapAbs=ABSOLUTE_GAP, timeLimit=time_limit)
    if not solver.available():
        raise SolverError("backend pulp-highs needs highspy: pip install highspy")
    return _solve_pulp(mip, solver)


def _prepare_pulp() -> None:
    import pulp  # noqa: F401  (~130 ms: paid once, before the clock starts)

    _highs_solver()


BACKENDS: dict[str, Backend] = {
    b.name: b
    for b in (
        Backend("highs", _highs_solver, solve_highs),
        Backend("cbc", _prepare_pulp, solve_cbc),
        Backend("pulp-highs", _prepare_pulp, solve_pulp_highs),
    )
}
DEFAULT_BACKEND = "highs"


def get_backend(name: str) -> Backend:
    """The backend by name, prepared: its first solve is timed like any other."""
    try:
        backend = BACKENDS[name]
    except KeyError:
        known = ", ".join(BACKENDS)
        raise SolverError(f"unknown backend {name!r} (known: {known})") from None
    backend.prepare()
    return backend
