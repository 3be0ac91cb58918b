"""Solver backends: each takes the same `Mip` and returns column values.

- `highs`: HiGHS in this process through highspy, one solver object reused for every
  solve (no subprocess, no files, no model rewriting): our branch-and-bound on its LPs.
- `clp`: the same branch-and-bound with COIN-OR CLP solving the LPs, in this process
  through its C interface (`clp.py`): each LP costs less than in HiGHS.
- `cbc`: CBC through PuLP, the binary that `pulp[cbc]` installs (cbcbox), as a subprocess.
- `pulp-highs`: HiGHS through PuLP's own interface, to compare with the direct one.
"""

from __future__ import annotations

import atexit
import contextlib
import enum
import functools
import heapq
import importlib
import itertools
import math
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from .errors import SolverError
from .model import Mip, Vector

# With a lexicographic objective every unit counts: no relative gap may be accepted.
ABSOLUTE_GAP = 0.5
# An LP solution this close to whole numbers is taken as integral.
INTEGRALITY_TOLERANCE = 1e-6
# Nodes of our own branch-and-bound before HiGHS's MIP takes over, per LP engine: the
# lowest p99 on generated positions (HiGHS: 100 on 300 positions, 40 ms of CPU against
# 94 ms for its MIP alone; CLP, whose nodes cost a third: 300 on 600, p99 25.5 -> 15.8 ms).
NODE_LIMIT = {"highs": 100, "clp": 300}
# Relative margin on an LP bound before it prunes a node (objectives reach ~1e6).
PRUNE_TOLERANCE = 1e-7


@dataclass(frozen=True)
class Solution:
    """Column values (None: nothing found in time), and whether the optimum was proved."""

    values: Vector | None
    proved: bool


Solve = Callable[[Mip, "float | None"], Solution]


class Backend(NamedTuple):
    """A solver: `prepare` does the one-off work (imports, start-up) outside the clock;
    `modules` are what it imports, which a parent may load before forking workers."""

    name: str
    prepare: Callable[[], object]
    solve: Solve
    modules: tuple[str, ...]


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
        with quiet_stdout():
            _highs = highs()
        _highs.setOptionValue("output_flag", False)
        _highs.setOptionValue("mip_rel_gap", 0.0)
        _highs.setOptionValue("mip_abs_gap", ABSOLUTE_GAP)
        # These models are small: presolve costs more than it saves (median 9 -> 4 ms).
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
    """Whether HiGHS's solver, and with it its thread pool, runs in this process: a forked
    child inherits the solver without the threads, and its next MIP waits for ever."""
    return _highs is not None


class LpEnd(enum.Enum):
    """How one LP re-solve ended, in terms the branch-and-bound needs."""

    OPTIMAL = "optimal"
    INFEASIBLE = "infeasible"
    OTHER = "other"  # a time limit, or anything unexpected


class _Lp(Protocol):
    """A model's LP relaxation loaded in an engine, re-solved under changing column bounds."""

    engine: str

    def bound(self, lower: Vector, upper: Vector) -> None: ...

    def solve(self, seconds: float) -> LpEnd: ...

    def objective(self) -> float: ...

    def values(self) -> Vector: ...


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


class _HighsLp:
    """The LP in HiGHS: each re-solve starts from the last basis."""

    engine = "highs"

    def __init__(self, mip: Mip) -> None:
        import numpy as np

        self.h = _highs_solver()
        _pass_model(self.h, mip)
        self.columns = np.arange(mip.columns, dtype=np.int32)

    def bound(self, lower: Vector, upper: Vector) -> None:
        self.h.changeColsBounds(len(self.columns), self.columns, lower, upper)

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

    def values(self) -> Vector:
        import numpy as np

        return np.array(self.h.getSolution().col_value)


def solve_highs(mip: Mip, time_limit: float | None) -> Solution:
    """The LP relaxation, a short branch-and-bound on it, and HiGHS's own MIP if need be.

    On about half the positions the LP optimum is already integral. Most of the rest
    close within a few dozen LP re-solves from the last basis, each well under a
    millisecond, where HiGHS's MIP spends 5-30 ms on its root alone.
    """
    return _branch_and_bound(_HighsLp(mip), mip, time_limit)


def solve_clp(mip: Mip, time_limit: float | None) -> Solution:
    """As `solve_highs`, with CLP solving the LPs (HiGHS's MIP still the last resort)."""
    from .clp import ClpLp

    lp = ClpLp(mip)
    try:
        return _branch_and_bound(lp, mip, time_limit)
    finally:
        lp.close()


def _branch_and_bound(lp: _Lp, mip: Mip, time_limit: float | None) -> Solution:
    deadline = time.perf_counter() + time_limit if time_limit else None
    search = _Branching(lp, mip, deadline)
    found = search.run()
    if found is not None:
        return found
    return _highs_mip(mip, search.incumbent, deadline)


class _Node(NamedTuple):
    """An open node: its column bounds, and its parent's LP bound rounded down."""

    lower: Vector
    upper: Vector
    ceiling: float
    depth: int


class _Branching:
    """Branch-and-bound over LP re-solves, for at most NODE_LIMIT nodes.

    Every cost is a whole number, so a node whose LP bound rounds down to the incumbent's
    value cannot improve on it. The search dives depth-first, down branch first, to a
    first solution; from then on each dive starts from the open node with the best bound.
    Diving down first alone found poor solutions first on hard positions, and then
    improved them one unit at a time (841 LPs where best-bound dives need far fewer).
    """

    def __init__(self, lp: _Lp, mip: Mip, deadline: float | None) -> None:
        self.lp, self.mip, self.deadline = lp, mip, deadline
        self.cost = mip.cost
        self.incumbent: Any = None
        # Only solutions better than the cutoff are sought (whole-number costs).
        self.best = -float("inf") if mip.cutoff is None else mip.cutoff
        self.dive: list[_Node] = []
        # Open nodes off the dive, best bound first, then deepest (nearest a solution).
        self.queued: list[tuple[float, int, int, _Node]] = []
        self.queue_order = itertools.count()

    def queue(self, node: _Node) -> None:
        heapq.heappush(self.queued, (-node.ceiling, -node.depth, next(self.queue_order), node))

    def run(self) -> Solution | None:
        """The proved optimum, the best found when time ran out, or None when HiGHS's own
        MIP should take over: past the node limit, or an LP that ended unexpectedly."""
        import numpy as np

        self.dive.append(_Node(self.mip.lower, self.mip.upper, math.inf, 0))
        nodes = 0
        while self.dive or self.queued:
            node = self.dive.pop() if self.dive else heapq.heappop(self.queued)[-1]
            # Closed unsolved when its parent's bound cannot beat the best found since.
            if node.ceiling <= self.best:
                continue
            if nodes == NODE_LIMIT[self.lp.engine]:
                return None
            if not self.time_left():
                return self.stopped()
            if nodes:
                self.lp.bound(node.lower, node.upper)
            nodes += 1
            end = self.lp.solve(self.remaining())
            if end is LpEnd.INFEASIBLE:
                continue
            if end is not LpEnd.OPTIMAL:
                return self.stopped() if not self.time_left() else None
            bound = self.lp.objective()
            # Whole-number costs: a bound that rounds down to the best found cannot beat it
            # (the margin keeps an LP's rounding error from pruning a better node).
            ceiling = math.floor(bound + PRUNE_TOLERANCE * max(1.0, abs(bound)))
            if ceiling <= self.best:
                continue
            values = self.lp.values()
            rounded = np.rint(values)
            fraction = np.abs(values - rounded)
            if fraction.max() < INTEGRALITY_TOLERANCE:
                self.incumbent = rounded
                self.best = float(self.cost @ self.incumbent)
                # A solution ends the dive: the next starts from the best bound.
                for waiting in self.dive:
                    self.queue(waiting)
                self.dive.clear()
                continue
            # Branch on the fractional column that weighs most in the objective, down first.
            j = int(
                np.argmax(np.where(fraction >= INTEGRALITY_TOLERANCE, self.cost + fraction, -1))
            )
            raised, lowered = node.lower.copy(), node.upper.copy()
            raised[j], lowered[j] = np.ceil(values[j]), np.floor(values[j])
            up = _Node(raised, node.upper, ceiling, node.depth + 1)
            if self.incumbent is None:
                self.dive.append(up)
            else:
                self.queue(up)
            self.dive.append(_Node(node.lower, lowered, ceiling, node.depth + 1))
        if self.incumbent is None:
            if self.mip.cutoff is not None:  # proved: nothing beats the cutoff
                return Solution(None, proved=True)
            raise SolverError("the LP found the position infeasible (a bug in the model)")
        return Solution(self.incumbent, proved=True)

    def time_left(self) -> bool:
        return self.deadline is None or time.perf_counter() < self.deadline

    def remaining(self) -> float:
        return (
            float("inf") if self.deadline is None else max(self.deadline - time.perf_counter(), 0.0)
        )

    def stopped(self) -> Solution:
        return Solution(self.incumbent, proved=False)


def _highs_mip(mip: Mip, incumbent: Any, deadline: float | None) -> Solution:
    """HiGHS's own branch-and-cut, started from the best solution found so far."""
    import highspy
    import numpy as np

    remaining = None if deadline is None else deadline - time.perf_counter()
    if remaining is not None and remaining <= 0:  # out of time: keep what was found
        return Solution(incumbent, proved=False)
    h = _highs_solver()
    _pass_model(h, mip)
    columns = np.arange(mip.columns, dtype=np.int32)
    h.changeColsIntegrality(mip.columns, columns, np.ones(mip.columns, dtype=np.int32))
    if incumbent is not None:
        solution = highspy.HighsSolution()
        solution.col_value = incumbent.tolist()
        h.setSolution(solution)
    _set_time_limit(h, remaining if remaining is not None else highspy.kHighsInf)
    h.run()
    model_status = h.getModelStatus()
    if model_status == highspy.HighsModelStatus.kOptimal:
        return Solution(np.array(h.getSolution().col_value), proved=True)
    if h.getInfo().primal_solution_status == 2:  # a feasible point, found before the limit
        return Solution(np.array(h.getSolution().col_value), proved=False)
    if model_status in (highspy.HighsModelStatus.kTimeLimit, highspy.HighsModelStatus.kInterrupt):
        return Solution(None, proved=False)
    raise SolverError(f"HiGHS ended with {h.modelStatusToString(model_status)}")


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


def _solve_pulp(mip: Mip, solver: Any, time_limit: float | None) -> Solution:
    import pulp

    problem, columns = _pulp_problem(mip)
    try:
        problem.solve(solver)
    except pulp.PulpSolverError as error:
        raise SolverError(f"the solver failed: {error}") from None
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
def _cbc_binary() -> str:
    """CBC's binary, checked once: a missing one is a message before the first board,
    not a failure on every board."""
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
        path=_cbc_binary(),
        msg=False,
        gapRel=0.0,
        gapAbs=ABSOLUTE_GAP,
        timeLimit=time_limit,
    )
    solver.tmpDir = _cbc_scratch()
    return _solve_pulp(mip, solver, time_limit)


def _cbc_scratch_folder(pid: int) -> str:
    """Where a process's CBC runs keep their files (PuLP writes the model and reads the
    answer there): one folder a process, so that files a stopped run left (Ctrl-C, a
    worker stopped mid-solve) go with it."""
    return os.path.join(tempfile.gettempdir(), f"rummisolve-cbc-{pid}")


def remove_leftovers(pid: int) -> None:
    """What a process stopped mid-solve left behind (CBC's files), removed by the process
    that outlives it."""
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

    _highs_solver()  # the banner is printed by the first Highs() of a process: take it silently
    solver = pulp.HiGHS(msg=False, gapRel=0.0, gapAbs=ABSOLUTE_GAP, timeLimit=time_limit)
    if not solver.available():
        raise SolverError("backend pulp-highs needs highspy: pip install highspy")
    return _solve_pulp(mip, solver, time_limit)


def _prepare_pulp() -> None:
    import pulp  # noqa: F401  (~130 ms: paid once, before the clock starts)


def _prepare_cbc() -> None:
    _prepare_pulp()
    _cbc_binary()


def _prepare_pulp_highs() -> None:
    _prepare_pulp()
    _highs_solver()


def _prepare_clp() -> None:
    from .clp import api

    api()  # loads CLP's library (a few ms)
    _highs_solver()  # HiGHS's MIP is the last resort past the node limit


BACKENDS: dict[str, Backend] = {
    b.name: b
    for b in (
        Backend("highs", _highs_solver, solve_highs, ("highspy",)),
        Backend("clp", _prepare_clp, solve_clp, ("cbcbox", "highspy")),
        Backend("cbc", _prepare_cbc, solve_cbc, ("pulp",)),
        Backend("pulp-highs", _prepare_pulp_highs, solve_pulp_highs, ("pulp", "highspy")),
    )
}
# The fastest per solve (benchmarks/README.md), and as quick to start as HiGHS.
DEFAULT_BACKEND = "clp"


def get_backend(name: str) -> Backend:
    """The backend by name, prepared: its first solve is timed like any other."""
    backend = _backend(name)
    backend.prepare()
    return backend


def load_backend(name: str) -> None:
    """Import a backend's libraries without starting any solver (HiGHS starts threads,
    which a fork must not copy): worker processes forked afterwards start with them."""
    for module in _backend(name).modules:
        try:
            importlib.import_module(module)
        except ImportError as error:
            raise SolverError(f"backend {name} needs {module}: {error}") from None


def _backend(name: str) -> Backend:
    try:
        return BACKENDS[name]
    except KeyError:
        known = ", ".join(BACKENDS)
        raise SolverError(f"unknown backend {name!r} (known: {known})") from None
