"""The CLP binding before and after it kept to documented C entry points, side by side.

    python benchmarks/clp_binding.py --positions 200 --seeds 1 7

`before` is solver/clp.py as it was at `--before` (fdbb578: ClpSimplex's C++ members
called by their mangled names, the factorization kept between re-solves, Dantzig's
pricing), read from git into a scratch module at run time; `after` is the binding this
checkout installs (CLP's C interface alone: each re-solve starts from the last basis but
factorizes afresh, with CLP's default pricing). `cbc-dantzig` and `cbc-default` are
CBC's C interface, the one documented way to choose Dantzig's pricing
(`Cbc_setDualPivot`), with and without it: kept here to show what that way costs.

Positions are dealt as in compare_rummikub_solver.py (its sizes, our default rules, the
casual profile where a joker lies on the table), every dealt position that needs a
solver. Each position's model is built once; what is timed is what `solve_clp` does with
it: load it into the LP engine, the branch-and-bound over LP re-solves, HiGHS's MIP
past the node limit. Every binding solves each position `--repeats` times, in an order
that rotates from one position to the next; a position's time is the median of its
repeats. All bindings must reach the same objective, and every answer is read back into
sets and judged by our rules.

Each search takes its own path (its LP optima decide its branching), so the tail mixes
the cost of an LP with the number of LPs. The LPs of each search are counted in a
separate, untimed pass; where `after`'s search re-solves 10 times or more, every binding
replays those same re-solves (the same bounds in the same order), timed alone, best of
the repeats: the cost of one re-solve, path aside.
"""

from __future__ import annotations

import argparse
import ctypes
import dataclasses
import functools
import importlib.util
import math
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from common import Stats, finished, header, load_average, results_option, timed, write_results
from compare_rummikub_solver import judge, size_range

from rummisolve.board import Board
from rummisolve.engine import backends, clp
from rummisolve.engine.backends import Backend
from rummisolve.engine.builder import Mip
from rummisolve.engine.highs import quiet_stdout
from rummisolve.engine.lp import Deadline, LpEnd, Solution
from rummisolve.engine.model import Layout, read_solution
from rummisolve.engine.stages import solve_model
from rummisolve.engine.steps import laid_sets
from rummisolve.generate import generate_boards
from rummisolve.move import Objective
from rummisolve.rules import PROFILES, Rules
from rummisolve.tiles import JOKER

REPO = Path(__file__).resolve().parent.parent
BEFORE = "fdbb578"
# Searches of at least this many re-solves are replayed by every binding.
REPLAYED = 10
DUAL_PIVOT = {"cbc-dantzig": 1, "cbc-default": 0}  # enum DualPivot: DP_Dantzig, DP_Auto


def binding_at(revision: str) -> Any:
    """solver/clp.py as it was at `revision`, as a module of the installed package's
    engine (its relative imports pointed at where those names live now); not written
    anywhere."""
    source = subprocess.run(
        ["git", "show", f"{revision}:solver/clp.py"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    source = source.replace("from .backends import LpEnd", "from .lp import LpEnd")
    source = source.replace("from .errors import", "from ..errors import")
    source = source.replace(
        "from .model import Mip, Vector", "from .builder import Floats as Vector, Mip"
    )
    spec = importlib.util.spec_from_loader("rummisolve.engine.clp_before", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    exec(compile(source, f"{revision}:solver/clp.py", "exec"), module.__dict__)
    return module


@dataclasses.dataclass
class CbcLib:
    """CBC's C interface (Cbc_C_Interface.h), as much of it as an LP re-solved needs."""

    lib: Any

    @classmethod
    def load(cls) -> CbcLib:
        import cbcbox

        lib = ctypes.CDLL(str(Path(cbcbox.cbc_lib_dir()) / "libCbc.so"))
        pointer, integer, double = ctypes.c_void_p, ctypes.c_int, ctypes.c_double
        signatures: dict[str, tuple[list[Any], Any]] = {
            "Cbc_newModel": ([], pointer),
            "Cbc_deleteModel": ([pointer], None),
            "Cbc_setLogLevel": ([pointer, integer], None),
            "Cbc_loadProblem": ([pointer, integer, integer, *[pointer] * 8], None),
            "Cbc_setDualPivot": ([pointer, integer], None),
            "Cbc_solveLinearProgram": ([pointer], integer),
            "Cbc_resolve": ([pointer], integer),
            "Cbc_setColLower": ([pointer, integer, double], None),
            "Cbc_setColUpper": ([pointer, integer, double], None),
            "Cbc_getObjValue": ([pointer], double),
            "Cbc_getColSolution": ([pointer], pointer),
        }
        for name, (arguments, result) in signatures.items():
            function = getattr(lib, name)
            function.argtypes, function.restype = arguments, result
        return cls(lib)


class CbcLp:
    """The LP in CBC's C interface: a first solve that applies the dual pricing asked
    for, then re-solves from the last basis with only the changed bounds set."""

    engine = "clp"  # the same node limit as the CLP backend

    def __init__(self, cbc: CbcLib, mip: Mip, *, pivot: int) -> None:
        self.lib, self.columns = cbc.lib, mip.columns
        self.model = self.lib.Cbc_newModel()
        self.lib.Cbc_setLogLevel(self.model, 0)
        self.arrays = [
            np.ascontiguousarray(mip.col_start, dtype=clp.api().index_type),
            np.ascontiguousarray(mip.col_index, dtype=np.int32),
            np.ascontiguousarray(mip.col_value, dtype=np.float64),
            np.ascontiguousarray(mip.lower, dtype=np.float64),
            np.ascontiguousarray(mip.upper, dtype=np.float64),
            np.ascontiguousarray(-mip.cost, dtype=np.float64),
            np.clip(mip.row_lower, -1e300, 1e300),
            np.clip(mip.row_upper, -1e300, 1e300),
        ]
        addresses = [a.ctypes.data for a in self.arrays]
        self.lib.Cbc_loadProblem(self.model, mip.columns, mip.rows, *addresses)
        self.lib.Cbc_setDualPivot(self.model, pivot)
        self.lower, self.upper = self.arrays[3], self.arrays[4]
        self.solved = False

    def bound(self, lower: Any, upper: Any) -> None:
        for j in np.flatnonzero((lower != self.lower) | (upper != self.upper)).tolist():
            self.lib.Cbc_setColLower(self.model, j, lower[j])
            self.lib.Cbc_setColUpper(self.model, j, upper[j])
        self.lower, self.upper = lower, upper

    def basis(self) -> None:
        return None  # CBC's C interface hands out no basis: each re-solve starts from the last

    def restore(self, basis: object) -> None:
        raise AssertionError("no basis was given")

    def solve(self, seconds: float) -> LpEnd:
        # Only the first solve applies the pricing; the later ones update what
        # Cbc_getObjValue and Cbc_getColSolution give.
        first = not self.solved
        self.solved = True
        status = (self.lib.Cbc_solveLinearProgram if first else self.lib.Cbc_resolve)(self.model)
        return {0: LpEnd.OPTIMAL, 2: LpEnd.INFEASIBLE}.get(status, LpEnd.OTHER)

    def objective(self) -> float:
        return -float(self.lib.Cbc_getObjValue(self.model))

    def values(self) -> Any:
        values = np.empty(self.columns)
        address = self.lib.Cbc_getColSolution(self.model)
        ctypes.memmove(values.ctypes.data, address, values.nbytes)
        return values

    def close(self) -> None:
        self.lib.Cbc_deleteModel(self.model)


class Watched:
    """An LP that counts its solves and keeps the bounds of each re-solve (the untimed pass)."""

    def __init__(self, lp: Any) -> None:
        self.lp, self.engine, self.solves = lp, lp.engine, 0
        self.bounds: list[tuple[Any, Any]] = []

    def bound(self, lower: Any, upper: Any) -> None:
        self.bounds.append((lower, upper))
        self.lp.bound(lower, upper)

    def solve(self, seconds: float) -> LpEnd:
        self.solves += 1
        end: LpEnd = self.lp.solve(seconds)
        return end

    def __getattr__(self, name: str) -> Any:
        return getattr(self.lp, name)


MakeLp = Callable[[Mip], Any]


def search(make: MakeLp, mip: Mip) -> Solution:
    """What `solve_clp` does with a model, with the LP engine given."""
    lp = make(mip)
    try:
        return backends._branch_and_bound(lp, mip, None)
    finally:
        lp.close()


def watched(make: MakeLp, mip: Mip) -> Watched:
    found: list[Watched] = []

    def watching(model: Mip) -> Watched:
        found.append(Watched(make(model)))
        return found[-1]

    search(watching, mip)
    return found[0]


def replay(make: MakeLp, mip: Mip, bounds: list[tuple[Any, Any]]) -> float:
    """Seconds of the re-solves alone, bounds given: the same LPs for every binding,
    where each search's own path (its LP optima, hence its branching) differs."""
    lp = make(mip)
    try:
        lp.solve(math.inf)
        started = time.perf_counter()
        for lower, upper in bounds:
            lp.bound(lower, upper)
            lp.solve(math.inf)
        return time.perf_counter() - started
    finally:
        lp.close()


def dealt(args: argparse.Namespace, seed: int) -> list[tuple[int, Board, Mip, Layout]]:
    """`args.positions` positions that need a solver, each with its model, numbered as
    `rummisolve generate` numbers them."""
    casual = PROFILES["casual"].rules
    models: list[Mip] = []

    def record(mip: Mip, deadline: Deadline | None) -> Solution:
        models.append(mip)
        return Solution(None, proved=True)

    recorder = Backend("record", lambda: None, record, ())
    found: list[Any] = []
    boards = generate_boards(
        10 * args.positions + 100,
        seed,
        table_tiles=args.table_tiles,
        rack_tiles=args.rack_tiles,
        rules=Rules(),
    )
    for number, board in enumerate(boards, start=1):
        if len(found) == args.positions:
            break
        if board.opened and any(JOKER in s for s in board.table):
            board = dataclasses.replace(board, rules=casual)
        before = len(models)
        _, layout = solve_model(board, Objective.TILES, recorder, None)
        if len(models) > before:
            found.append((number, board, models[-1], layout))
    return found


def problems(board: Board, layout: Layout, values: Any) -> list[str]:
    arrangement = read_solution(layout, values)
    played = tuple(arrangement.played.elements())
    kept = [board.table[i] for i in arrangement.kept]
    return judge(board, played, kept + laid_sets(arrangement, board.rules))


def run(args: argparse.Namespace) -> dict[str, Any]:
    before = binding_at(args.before)
    bindings: dict[str, MakeLp] = {"before": before.ClpLp, "after": clp.ClpLp}
    if args.cbc:
        cbc = CbcLib.load()
        for name, pivot in DUAL_PIVOT.items():
            bindings[name] = functools.partial(CbcLp, cbc, pivot=pivot)
    names = list(bindings)
    backends.get_backend("clp")  # HiGHS and CLP started outside the clock
    records: list[dict[str, Any]] = []
    loads = [load_average()]
    for seed in args.seeds:
        positions = dealt(args, seed)
        for _, _, mip, _ in positions[:3]:  # first solves warm the caches
            for make in bindings.values():
                search(make, mip)
        for index, (number, board, mip, layout) in enumerate(positions):
            shift = index % len(names)
            order = names[shift:] + names[:shift]
            watches = {name: watched(bindings[name], mip) for name in names}
            # The re-solves of the current binding's search, replayed by every binding.
            trace = watches["after"].bounds if len(watches["after"].bounds) >= REPLAYED else []
            replays = {name: 0.0 for name in names}
            for name in order if trace else []:
                replayed = [replay(bindings[name], mip, trace) for _ in range(args.repeats)]
                replays[name] = min(replayed)
            for name in order:
                solve = functools.partial(search, bindings[name], mip)
                results = [timed(solve) for _ in range(args.repeats)]
                solution = results[0][0]
                assert solution.proved and solution.values is not None, (seed, number, name)
                found = problems(board, layout, solution.values)
                assert not found, (seed, number, name, found)
                seconds = sorted(s for _, s in results)
                records.append(
                    {
                        "seed": seed,
                        "position": number,
                        "binding": name,
                        "columns": mip.columns,
                        "rows": mip.rows,
                        "seconds": [round(s, 6) for s in seconds],
                        "median_seconds": round(seconds[len(seconds) // 2], 6),
                        "lps": watches[name].solves,
                        "replayed_resolves": len(trace),
                        "replay_seconds": round(replays[name], 6),
                        "objective": float(mip.cost @ solution.values),
                    }
                )
            objectives = {r["objective"] for r in records[-len(names) :]}
            assert len(objectives) == 1, (seed, number, objectives)
            loads.append(load_average())
            if args.progress:
                print(f"\rseed {seed}: {index + 1}/{len(positions)}", end="", file=sys.stderr)
        if args.progress:
            print(file=sys.stderr)
    return {"records": records, "summary": summarise(args, names, records, loads)}


def summarise(
    args: argparse.Namespace, names: list[str], records: list[dict[str, Any]], loads: list[float]
) -> dict[str, Any]:
    def figures(chosen: list[dict[str, Any]]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for name in names:
            mine = [r for r in chosen if r["binding"] == name]
            seconds = [r["median_seconds"] for r in mine]
            solves = sum(r["lps"] for r in mine)
            resolves = sum(r["replayed_resolves"] for r in mine)
            found[name] = Stats.of(seconds).as_ms() | {
                "positions": len(mine),
                "lps": solves,
                "us_per_lp_all_in": round(sum(seconds) / solves * 1e6, 1),
                "replayed_resolves": resolves,
                "us_per_replayed_resolve": round(
                    sum(r["replay_seconds"] for r in mine) / max(resolves, 1) * 1e6, 1
                ),
            }
        for name in names[1:]:
            for figure in ("median_ms", "p90_ms", "us_per_replayed_resolve"):
                ratio = found[name][figure] / found["before"][figure]
                found[name][f"{figure.removesuffix('_ms')}_vs_before"] = round(ratio, 3)
        return found

    return {
        "before": args.before,
        "load_average_1m_max_during": max(loads),
        "repeats": args.repeats,
        "table_tiles": "-".join(map(str, args.table_tiles)),
        "rack_tiles": "-".join(map(str, args.rack_tiles)),
        "seeds": {str(s): figures([r for r in records if r["seed"] == s]) for s in args.seeds},
        "all": figures(records),
    }


def show(summary: dict[str, Any]) -> str:
    lines = [
        f"{'seed':>4}  {'binding':12} {'median ms':>9} {'p90 ms':>7} {'max ms':>7}  "
        f"{'/before':>7} {'p90/bef':>7} {'LPs':>5} {'us/LP':>6}  {'us/re-solve':>11} {'/before':>7}"
    ]
    for seed, figures in [*summary["seeds"].items(), ("all", summary["all"])]:
        for name, f in figures.items():
            lines.append(
                f"{seed:>4}  {name:12} {f['median_ms']:9.3f} {f['p90_ms']:7.3f} "
                f"{f['max_ms']:7.1f}  {f.get('median_vs_before', 1.0):7.3f} "
                f"{f.get('p90_vs_before', 1.0):7.3f} {f['lps']:5d} {f['us_per_lp_all_in']:6.1f}  "
                f"{f['us_per_replayed_resolve']:11.1f} "
                f"{f.get('us_per_replayed_resolve_vs_before', 1.0):7.3f}"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=200, help="per seed")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 7])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--table-tiles", type=size_range, default=(0, 60), metavar="LO-HI")
    parser.add_argument("--rack-tiles", type=size_range, default=(5, 30), metavar="LO-HI")
    parser.add_argument("--before", default=BEFORE, help="the commit of the old binding")
    parser.add_argument(
        "--cbc",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="time CBC's C interface too, with and without Dantzig's pricing",
    )
    results_option(parser)
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args(argv)
    started = header("clp-binding")
    with quiet_stdout():  # CBC's first LP solve prints from C whatever its log level
        result = run(args)
    write_results(args.results, finished(started, result["summary"]), result["records"])
    print(show(result["summary"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
