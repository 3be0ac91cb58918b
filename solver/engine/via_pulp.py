"""Solvers through PuLP: CBC as a subprocess (the binary `pulp[cbc]` installs, cbcbox),
and HiGHS through PuLP's own interface, to compare with the direct one."""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import signal
import threading
from collections.abc import Iterator
from typing import Any

from ..errors import SolverError
from .builder import Mip
from .highs import highs_solver
from .lp import ABSOLUTE_GAP, INTEGRALITY_TOLERANCE, Deadline, Solution


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


def _solve_pulp(mip: Mip, solver: Any, deadline: Deadline | None, doubting: Any = None) -> Solution:
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
    return _answer(mip, problem, columns, deadline)


def _answer(mip: Mip, problem: Any, columns: list[Any], deadline: Deadline | None) -> Solution:
    """The solution PuLP read back; proved only if found before the deadline."""
    import pulp

    if problem.status == pulp.LpStatusInfeasible and mip.cutoff is not None:
        return Solution(None, proved=True)  # as in branch.py: nothing beats the cutoff
    import numpy as np

    values = np.array([c.value() or 0.0 for c in columns], dtype=np.float64)
    # Stopped by the time limit, CBC can hand back its LP relaxation labelled "optimal":
    # an answer that is not whole numbers is no answer.
    if np.any(np.abs(values - np.round(values)) > INTEGRALITY_TOLERANCE):
        return Solution(None, proved=False)
    if problem.status == pulp.LpStatusOptimal and problem.sol_status == pulp.LpSolutionOptimal:
        return Solution(values, proved=deadline is None or not deadline.passed())
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


# Seconds a CBC run is given past the deadline to stop itself (CBC's own limit) and write
# the best it found, before it is taken to hang and is killed.
CBC_GRACE = 0.2
# Runs of CBC a model gets where CBC dies of a signal (a second run, then a SolverError).
CBC_RUNS = 2


def solve_cbc(mip: Mip, deadline: Deadline | None) -> Solution:
    """CBC as a subprocess of our own: stopped at the deadline (CBC's own time limit, and
    a kill just past it should CBC hang); one killed by a signal is run once more."""
    import shutil
    import tempfile

    problem, columns = _pulp_problem(mip)
    folder = tempfile.mkdtemp(dir=_cbc_scratch())
    try:
        for run in range(1, CBC_RUNS + 1):
            if _run_cbc(problem, folder, deadline, last=run == CBC_RUNS):
                break
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return _answer(mip, problem, columns, deadline)


def _run_cbc(problem: Any, folder: str, deadline: Deadline | None, last: bool) -> bool:
    """One run of CBC on the problem; False where a signal killed it and `last` is not
    set (then a SolverError names the signal). A run past the deadline is killed and
    leaves the problem unsolved."""
    import subprocess

    import pulp

    model, answer = os.path.join(folder, "model.mps"), os.path.join(folder, "answer.sol")
    variables, names, rows, _ = problem.writeMPS(model, rename=1)
    command = [cbc_binary(), model, "-max", "-ratio", "0", "-allow", str(ABSOLUTE_GAP)]
    if deadline is not None:
        command += ["-timeMode", "elapsed", "-sec", f"{max(deadline.left(), 1e-3):.3f}"]
    command += ["-solve", "-printingOptions", "all", "-solution", answer]
    with contextlib.suppress(FileNotFoundError):
        os.remove(answer)
    cbc = None
    try:
        with _signals_wait():
            cbc = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        ended = cbc.wait(None if deadline is None else deadline.left() + CBC_GRACE)
    except subprocess.TimeoutExpired:  # past the deadline: it hangs
        ended = None
    finally:  # and on Ctrl-C or TERM: CBC does not outlive this process
        if cbc is not None and cbc.poll() is None:
            cbc.kill()
            cbc.wait()
    if ended is None:
        problem.assignStatus(pulp.LpStatusNotSolved, pulp.LpSolutionNoSolutionFound)
        return True
    if ended < 0 and not last:
        return False
    if ended != 0 or not os.path.exists(answer):
        again = ", run twice" if ended < 0 else ""
        raise SolverError(f"backend cbc: CBC {_ended(ended)}{again}")
    solver = pulp.COIN_CMD(path=cbc_binary(), msg=False)
    status, values, _, _, _, solved = solver.readsol_MPS(answer, problem, variables, names, rows)
    problem.assignVarsVals(values)
    problem.assignStatus(status, solved)
    return True


@contextlib.contextmanager
def _signals_wait() -> Iterator[None]:
    """INT and TERM noted, not acted on, while CBC starts: one acted on inside Popen, after
    the child began, would leave it running with nobody holding its pid. Each is sent
    again as the child is ours (only the main thread takes signals)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []
    previous = [signal.signal(s, lambda number, _: came.append(number)) for s in _STOPS]
    try:
        yield
    finally:
        for stop, handler in zip(_STOPS, previous, strict=True):
            signal.signal(stop, handler)
        for number in came:
            signal.raise_signal(number)


_STOPS = (signal.SIGINT, signal.SIGTERM)


def _ended(code: int) -> str:
    """How a CBC run that gave no answer ended, in words."""
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"ended with status {code} and no answer" if code else "wrote no answer"


def _cbc_scratch_folder(pid: int) -> str:
    """Where a process's CBC runs keep their files (the model and CBC's answer, a folder
    each run): one folder a process, so that files a stopped run left (Ctrl-C, a
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


def solve_pulp_highs(mip: Mip, deadline: Deadline | None) -> Solution:
    highs_solver()  # the banner is printed by the first Highs() of a process: take it silently
    options = {"msg": False, "gapRel": 0.0, "gapAbs": ABSOLUTE_GAP}
    solver = highs_until(deadline, **options)
    if not solver.available():
        raise SolverError("backend pulp-highs needs highspy: pip install highspy")
    # HiGHS's presolve called a feasible homes model infeasible (tests/test_oracle.py):
    # an "infeasible" is asked again without it, in the time left.
    return _solve_pulp(mip, solver, deadline, highs_until(deadline, presolve="off", **options))


def highs_until(deadline: Deadline | None, **options: Any) -> Any:
    """PuLP's HiGHS, given the deadline's time left as HiGHS starts, not as it is made:
    PuLP hands the model over row by row, in Python, after it set the time limit, and
    an "infeasible" asked again would have had the whole limit once more."""
    return _highs_class()(deadline, **options)


@functools.cache
def _highs_class() -> type:
    import pulp

    class HighsUntil(pulp.HiGHS):  # type: ignore[misc]
        def __init__(self, deadline: Deadline | None, **options: Any) -> None:
            super().__init__(**options)
            self.deadline = deadline

        def callSolver(self, lp: Any) -> None:
            if self.deadline is not None:
                left = max(self.deadline.left(), 1e-3)
                lp.solverModel.setOptionValue("time_limit", left)
            super().callSolver(lp)

    return HighsUntil


def _prepare_pulp() -> None:
    import pulp  # noqa: F401  (~130 ms: paid once, before the clock starts)


def prepare_cbc() -> None:
    _prepare_pulp()
    cbc_binary()


def prepare_pulp_highs() -> None:
    _prepare_pulp()
    highs_solver()
