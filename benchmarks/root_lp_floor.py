"""The floor under issue 14's first goal: building the model, loading it into CLP and
solving its LP relaxation once, against `rummikub-solver`'s GLPK_MI, on the same positions.

compare_rummikub_solver.py's positions (the same seed gives the same boards, each under
the rules ours solves it by there). For each position, in turn: our model built and
loaded and its root LP solved (no search, no reading back: what any answer of ours costs
at least), and GLPK_MI's whole `solve`, each the fastest of `--repeats`; which goes first
alternates. The goal asks model and solve at most 0.10 of GLPK_MI's median: where this
floor's median is near 0.10 already, no search around the LP can get there.

    python benchmarks/root_lp_floor.py --positions 200 --seed 7
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from common import finished, header, median, percentile, results_option, write_results
from compare_rummikub_solver import TheirSide, positions, size_range

from rummisolve.board import Board
from rummisolve.engine.clp import ClpLp
from rummisolve.engine.highs import quiet_stdout
from rummisolve.engine.model import build_model
from rummisolve.move import Objective
from rummisolve.rules import Rules

NAME = "root-lp-floor"


def floor_seconds(board: Board) -> float:
    """The model built, loaded into CLP and its LP relaxation solved once."""
    started = time.perf_counter()
    mip, _ = build_model(board, Objective.TILES)
    lp = ClpLp(mip)
    try:
        lp.solve(float("inf"))
        return time.perf_counter() - started
    finally:
        lp.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=3)
    results_option(parser)
    args = parser.parse_args(argv)
    # compare_rummikub_solver.py's dealing, as it deals by default.
    args.table_tiles, args.rack_tiles = size_range("0-60"), size_range("5-30")
    args.jokers, args.tile_set, args.table_jokers = None, 106, "casual"
    started = header(NAME)
    with quiet_stdout():  # GLPK prints from C
        theirs = TheirSide(Rules())
        glpk = theirs.runner("GLPK_MI")
        boards = list(positions(args, theirs)[0].values())
        for board in boards[:3]:  # first solves compile and load: not what is measured
            floor_seconds(board)
            glpk.solve(board)
        rows: list[dict[str, Any]] = []
        for n, board in enumerate(boards):
            times: dict[str, float] = {}
            for name in ("floor", "glpk_mi") if n % 2 == 0 else ("glpk_mi", "floor"):
                runs = [
                    floor_seconds(board) if name == "floor" else glpk.solve(board)[1]
                    for _ in range(args.repeats)
                ]
                times[name] = min(runs)
            rows.append({"position": n, **{f"{k}_s": round(v, 6) for k, v in times.items()}})
    floor = [r["floor_s"] for r in rows]
    theirs_s = [r["glpk_mi_s"] for r in rows]
    figures = {
        "positions": len(rows),
        "floor_ms": {
            "median": round(median(floor) * 1e3, 3),
            "p90": round(percentile(floor, 0.9) * 1e3, 3),
        },
        "glpk_mi_ms": {
            "median": round(median(theirs_s) * 1e3, 3),
            "p90": round(percentile(theirs_s, 0.9) * 1e3, 3),
        },
        "floor_over_glpk_mi": {
            "ratio_of_medians": round(median(floor) / median(theirs_s), 3),
            "ratio_of_p90": round(percentile(floor, 0.9) / percentile(theirs_s, 0.9), 3),
        },
    }
    result = finished(started, figures)
    write_results(args.results, result, rows)
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
