"""Solvers through PuLP: CBC as a subprocess (the binary `pulp[cbc]` installs, cbcbox),
and HiGHS through PuLP's own interface, to compare with the direct one."""

from __future__ import annotations

import atexit
import functools
import os
import signal
from typing import Any

from ..errors import SolverError
from .builder import Mip
from .highs import highs_solver
from .lp import ABSOLUTE_GAP, INTEGRALITY_TOLERANCE, Solution


def _pulp_problem(mip: Mip) -> tuple[Any, list[Any]]:
    import pulp

    problem = pulp.LpProblem("rummisolve", pulp.LpMaximize)
    columns = [
        problem.add_variable(
            f"c{i}",
            lowBound=float(mip.lower[i]),
            upBound=None if mip.upper[i] == float("inf") else float(mip.upper[i]),
            cat=pulp.LpInteger,
        )
        for i in range(mip.columns)
    ]
    problem += pulp.LpAffineExpression(
        [(columns[i], float(c)) for i, c in enumerate(mip.cost) if c]
    )
    rows: list[list[tuple[Any, float]]] = [[] for _ in range(mip.rows)]
    for j, column in enumerate(columns):
        for k in range(mip.col_start[j], mip.col_start[j + 1]):
            rows[mip.col_index[k]].append((column, float(mip.col_value[k])))
    for r, terms in enumerate(rows):
        if not terms:
            continue  # a tile nothing can hold: none on the table, none in play
        lo, hi = float(mip.row_lower[r]), float(mip.row_upper[r])
        expression = pulp.LpAffineExpression(terms)
        if lo == hi:
            problem += expression == lo, f"r{r}"
        else:
            if lo != float("-inf"):
                problem += expression >= lo, f"r{r}lo"
            if hi != float("inf"):
                problem += expression <= hi, f"r{r}hi"
    return problem, columns


def _solve_pulp(mip: Mip, solver: Any, time_limit: float | None, doubting: Any = None) -> Solution:
    """`doubting`: a solver that checks an "infeasible" of `solver`'s (every model without
    a cutoff has a solution, playing nothing; one with a cutoff may have none)."""
    import pulp

    problem, columns = _pulp_problem(mip)
    try:
        problem.solve(solver)
        if problem.status == pulp.LpStatusInfeasible and doubting is not None:
            problem.solve(doubting)
    except pulp.PulpSolverError as error:
        raise SolverError(f"the solver failed: {error}") from None
    if problem.status == pulp.LpStatusInfeasible and mip.cutoff is not None:
        return Solution(None, proved=True)  # as in branch.py: nothing beats the cutoff
    import numpy as np

    values = np.array([c.value() or 0.0 for c in columns], dtype=np.float64)
    # Stopped by the time limit, CBC can hand back its LP relaxation labelled "optimal":
    # an answer that is not whole numbers is no answer.
    if np.any(np.abs(values - np.round(values)) > INTEGRALITY_TOLERANCE):
        return Solution(None, proved=False)
    if problem.status == pulp.LpStatusOptimal and problem.sol_status == pulp.LpSolutionOptimal:
        return Solution(values, proved=time_limit is None or problem.solutionTime < time_limit)
    if problem.sol_status == pulp.LpSolutionIntegerFeasible:
        return Solution(values, proved=False)
    if problem.status == pulp.LpStatusNotSolved:
        return Solution(None, proved=False)
    raise SolverError(f"the solver ended with {pulp.LpStatus[problem.status]}")


@functools.cache
def cbc_binary() -> str:
    """CBC's binary, checked once a process: a missing one is a message before the first
    board, not a failure on every board (`cbc_binary.cache_clear()` looks again, as
    `clp.api` does)."""
    try:
        import cbcbox
    except ImportError:
        raise SolverError("backend cbc needs CBC: pip install 'pulp[cbc]'") from None
    try:
        # The binary's own path: `cbc` on PATH is a wrapper script that costs ~20 ms a call.
        path = str(cbcbox.cbc_bin_path())
    except Exception as error:  # an older or newer cbcbox, or a broken install
        raise SolverError(f"backend cbc: cbcbox names no CBC binary ({error})") from None
    if not os.access(path, os.X_OK):
        raise SolverError(f"backend cbc: cannot run CBC's binary {path}")
    return path


def solve_cbc(mip: Mip, time_limit: float | None) -> Solution:
    import pulp

    solver = pulp.COIN_CMD(
        path=cbc_binary(),
        msg=False,
        gapRel=0.0,
        gapAbs=ABSOLUTE_GAP,
        timeLimit=time_limit,
    )
    solver.tmpDir = _cbc_scratch()
    try:
        return _solve_pulp(mip, solver, time_limit)
    except BaseException:
        # Interrupted (Ctrl-C, TERM) while PuLP waits for CBC, which it then leaves
        # running on its own: a TERM to this process does not reach it.
        _stop_cbc_runs()
        raise


def _stop_cbc_runs() -> None:
    """The CBC processes this process started, killed and waited for."""
    binary = os.fsencode(cbc_binary())
    for pid in _children():
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                program = file.read().split(b"\0", 1)[0]
            if program == binary:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
        except OSError:
            pass  # it ended meanwhile


def _children() -> list[int]:
    """This process's children, where /proc says (Linux); else none known."""
    children = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as file:
                # pid (name) state ppid ...: the name may hold spaces and brackets.
                parent = int(file.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == os.getpid():
            children.append(int(entry))
    return children


def _cbc_scratch_folder(pid: int) -> str:
    """Where a process's CBC runs keep their files (PuLP writes the model and reads the
    answer there): one folder a process, so that files a stopped run left (Ctrl-C, a
    worker stopped mid-solve) go with it. (tempfile and shutil load here: ~5 ms that
    `rummisolve hint` would pay on every run.)"""
    import tempfile

    return os.path.join(tempfile.gettempdir(), f"rummisolve-cbc-{pid}")


def remove_leftovers(pid: int) -> None:
    """What a process stopped mid-solve left behind (CBC's files), removed by the process
    that outlives it."""
    import shutil

    shutil.rmtree(_cbc_scratch_folder(pid), ignore_errors=True)


def _cbc_scratch() -> str:
    """This process's folder (a forked worker makes its own), removed as it exits."""
    folder = _cbc_scratch_folder(os.getpid())
    if not os.path.isdir(folder):
        os.makedirs(folder)
        atexit.register(remove_leftovers, os.getpid())
    return folder


def solve_pulp_highs(mip: Mip, time_limit: float | None) -> Solution:
    import pulp

    highs_solver()  # the banner is printed by the first Highs() of a process: take it silently
    options = {"msg": False, "gapRel": 0.0, "gapAbs": ABSOLUTE_GAP, "timeLimit": time_limit}
    solver = pulp.HiGHS(**options)
    if not solver.available():
        raise SolverError("backend pulp-highs needs highspy: pip install highspy")
    # HiGHS's presolve called a feasible homes model infeasible (tests/test_oracle.py):
    # an "infeasible" is asked again without it.
    return _solve_pulp(mip, solver, time_limit, pulp.HiGHS(presolve="off", **options))


def _prepare_pulp() -> None:
    import pulp  # noqa: F401  (~130 ms: paid once, before the clock starts)


def prepare_cbc() -> None:
    _prepare_pulp()
    cbc_binary()


def prepare_pulp_highs() -> None:
    _prepare_pulp()
    highs_solver()
