"""Solver backends: each takes the same `Mip` and returns column values.

- `highs`: HiGHS in this process through highspy, one solver object reused for every
  solve (no subprocess, no files, no model rewriting): our branch-and-bound on its LPs.
- `clp`: the same branch-and-bound with COIN-OR CLP solving the LPs, in this process
  through its C interface (`clp.py`): each LP costs less than in HiGHS.
- `cbc`: CBC through PuLP, the binary that `pulp[cbc]` installs (cbcbox), as a subprocess.
- `pulp-highs`: HiGHS through PuLP's own interface, to compare with the direct one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from ..errors import SolverError
from .branch import Branching
from .builder import Mip
from .highs import HighsLp, highs_mip, highs_solver
from .lp import Deadline, Lp, Solution
from .via_pulp import prepare_cbc, prepare_pulp_highs, solve_cbc, solve_pulp_highs

if TYPE_CHECKING:  # clp.py loads numpy and ctypes: imported when CLP is first used
    from .clp import ClpLp

Solve = Callable[[Mip, "Deadline | None"], Solution]
"""A model's solve: the proved optimum, or the best found when the deadline passed."""


class Backend(NamedTuple):
    """A solver: `prepare` does the one-off work (imports, start-up) outside the clock;
    `modules` are what it imports, which a parent may load before forking workers."""

    name: str
    prepare: Callable[[], object]
    solve: Solve
    modules: tuple[str, ...]


# Rows past which the clp backend has HiGHS solve the LPs: the whole model of the rules
# as written on a large table with jokers (1,000-8,000 rows). Through CLP's C interface a
# re-solve cannot keep its factorization, which costs most on models this large
# (benchmarks/README.md, "The figures behind the engine's settings").
CLP_MAX_ROWS = 1000


def solve_highs(mip: Mip, deadline: Deadline | None) -> Solution:
    """The LP relaxation, a short branch-and-bound on it, and HiGHS's own MIP if need be.

    On about half the positions the LP optimum is already integral. Most of the rest
    close within a few dozen LP re-solves from the last basis, each well under a
    millisecond, where HiGHS's MIP spends 5-30 ms on its root alone.
    """
    return _branch_and_bound(HighsLp(mip), mip, deadline)


def solve_clp(
    mip: Mip,
    deadline: Deadline | None,
    open_lp: Callable[[Mip], ClpLp] | None = None,
) -> Solution:
    """As `solve_highs`, with CLP solving the LPs (HiGHS's MIP still the last resort).
    `open_lp` loads the model in CLP (None: `ClpLp`; a caller may wrap it, to see each
    model it makes freed)."""
    from .clp import ClpLp

    if mip.rows > CLP_MAX_ROWS:
        return solve_highs(mip, deadline)
    lp = (open_lp or ClpLp)(mip)
    try:
        return _branch_and_bound(lp, mip, deadline)
    finally:
        lp.close()


def _branch_and_bound(lp: Lp, mip: Mip, deadline: Deadline | None) -> Solution:
    search = Branching(lp, mip, deadline)
    found = search.run()
    if found is not None:
        return found
    return highs_mip(mip, search.incumbent, deadline)


def _prepare_clp() -> None:
    from .clp import api

    api()  # loads CLP's library (a few ms); HiGHS, the last resort past the node limit,
    # starts only when a search first needs it (its import and threads: ~40 ms)


BACKENDS: dict[str, Backend] = {
    b.name: b
    for b in (
        Backend("highs", highs_solver, solve_highs, ("highspy",)),
        Backend("clp", _prepare_clp, solve_clp, ("cbcbox", "highspy")),
        Backend("cbc", prepare_cbc, solve_cbc, ("pulp",)),
        Backend("pulp-highs", prepare_pulp_highs, solve_pulp_highs, ("pulp", "highspy")),
    )
}
# The default: the fastest per solve (benchmarks/README.md), and as quick to start as
# HiGHS; where CLP's library cannot load, HiGHS, which needs none.
DEFAULT_BACKEND = "clp"
FALLBACK_BACKEND = "highs"


@functools.cache
def default_backend() -> str:
    """The backend used where none is named, decided once a process (a library that
    failed to load is not looked for again on every board)."""
    try:
        _prepare_clp()
    except SolverError:
        return FALLBACK_BACKEND
    return DEFAULT_BACKEND


def get_backend(name: str | None = None) -> Backend:
    """The backend by name (None: the default), prepared: its first solve is timed like
    any other. A backend named but unable to start is a SolverError."""
    backend = _backend(default_backend() if name is None else name)
    backend.prepare()
    return backend


def _backend(name: str) -> Backend:
    try:
        return BACKENDS[name]
    except KeyError:
        known = ", ".join(BACKENDS)
        raise SolverError(f"unknown backend {name!r} (known: {known})") from None
