"""Where the rules as written cost more than jokers moving freely, table by table, and what
issue 11's median target asks of each kind of table.

strict_vs_free.py's positions (its groups, the same seed). Each table the rules on jokers
can bind is classed by the official solve's first stage, the pinned relaxation: settled
(its answer passes the checker, one stage) or refused (a freed joker without two rack
tiles: the homes stage runs). For every table, official and casual `find_move` (the
median of `--repeat`, which goes first alternating); then:
- settled: the root LP of the pinned model (its stay rows in) and of casual's model, each
  loaded into CLP and solved `--repeat` times (the median): the LP's part of the cost;
- refused: the homes stage's search, its LPs and the LP at which it first holds the
  optimum (the LPs after it only prove it);
- the group's median ratio (official over casual) if the settled tables took casual's
  time plus d ms and the refused ones k times casual's: what the target (1.10) needs.

    python benchmarks/official_anatomy.py --positions 100 --repeat 3 --seed 7
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import numpy as np
from common import median
from strict_vs_free import casual_board, run_groups

from rummisolve.board import Board
from rummisolve.engine import homes
from rummisolve.engine.backends import get_backend
from rummisolve.engine.branch import Branching
from rummisolve.engine.builder import Floats, Mip
from rummisolve.engine.clp import ClpLp
from rummisolve.engine.joker_model import JokerPart
from rummisolve.engine.lp import INTEGRALITY_TOLERANCE, LpEnd
from rummisolve.engine.model import build_model, objective_value, read_solution
from rummisolve.engine.pinned import pin_jokers
from rummisolve.engine.solve import find_move
from rummisolve.engine.stages import model_for
from rummisolve.legality import check_move
from rummisolve.move import Objective
from rummisolve.tiles import tile_value

NAME = "official-anatomy"
# What-if grid: the settled tables' extra time over casual's, in ms, and the refused
# tables' time as a multiple of casual's (None: as measured).
SETTLED_EXTRA_MS = (0.0, 0.1, 0.2)
REFUSED_TIMES = (1.0, 1.5, 2.0, None)


class CountingLp:
    """CLP's LP, counting solves and noting the first LP whose solution is whole and worth
    `optimum` (the search takes a whole LP solution as its incumbent there)."""

    engine = "clp"

    def __init__(self, mip: Mip, optimum: float | None = None) -> None:
        self.lp, self.cost, self.optimum = ClpLp(mip), mip.cost, optimum
        self.solves = 0
        self.found_at: int | None = None

    def bound(self, lower: Floats, upper: Floats) -> None:
        self.lp.bound(lower, upper)

    def basis(self) -> object:
        return self.lp.basis()

    def restore(self, basis: object) -> None:
        self.lp.restore(basis)

    def solve(self, seconds: float) -> LpEnd:
        self.solves += 1
        return self.lp.solve(seconds)

    def objective(self) -> float:
        return self.lp.objective()

    def values(self) -> Floats:
        values = self.lp.values()
        whole = np.rint(values)
        if (
            self.found_at is None
            and self.optimum is not None
            and np.abs(values - whole).max() < INTEGRALITY_TOLERANCE
            and float(self.cost @ whole) >= self.optimum - 0.5
        ):
            self.found_at = self.solves
        return values


def search(mip: Mip, optimum: float | None = None) -> tuple[float, CountingLp]:
    """Our branch-and-bound on the model (CLP's LPs): its optimum, and the LPs it took."""
    lp = CountingLp(mip, optimum)
    try:
        solution = Branching(lp, mip, None).run()
    finally:
        lp.lp.close()
    assert solution is not None and solution.values is not None
    return float(mip.cost @ solution.values), lp


def root_lp_ms(mip: Mip, repeat: int) -> float:
    """The model loaded into CLP and its LP relaxation solved, median milliseconds."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        lp = ClpLp(mip)
        try:
            lp.solve(1.0)
        finally:
            lp.close()
        times.append(time.perf_counter() - started)
    return round(median(times) * 1000, 3)


def anatomy(board: Board, repeat: int, first: int) -> dict[str, Any]:
    """One table: both sides' times, its class, and its class's own figures."""
    row: dict[str, Any] = {}
    sides = [("official", board), ("casual", casual_board(board))]
    times: dict[str, list[float]] = {"official": [], "casual": []}
    for r in range(repeat):
        for name, side in sides if (r + first) % 2 == 0 else sides[::-1]:
            move = find_move(side)
            times[name].append(move.seconds)
            assert not check_move(side, move)
    row["official_ms"] = round(median(times["official"]) * 1000, 3)
    row["casual_ms"] = round(median(times["casual"]) * 1000, 3)
    goal = Objective.TILES
    mip, layout = model_for(board, goal, JokerPart.PINNED, None)  # as the engine builds it
    if layout.jokers is None:  # no joker the rules bind: one model, as casual's
        return {**row, "class": "free"}
    solution = get_backend("clp").solve(mip, None)
    assert solution.values is not None
    relaxed = read_solution(layout, solution.values)
    if not +relaxed.played or pin_jokers(board, layout, solution, relaxed) is not None:
        casual_mip, _ = build_model(casual_board(board), goal)
        return {
            **row,
            "class": "settled",
            "pinned_root_lp_ms": root_lp_ms(mip, repeat),
            "casual_root_lp_ms": root_lp_ms(casual_mip, repeat),
        }
    built = homes.with_homes(layout, board)
    if built is None:
        return {**row, "class": "refused"}
    tiles = sum(relaxed.played.values())
    points = sum(tile_value(t, board.rules.joker_penalty) for t in relaxed.played.elements())
    reach = objective_value(board, goal, tiles, points, len(relaxed.kept))
    model = dataclasses.replace(built[0], reach=reach)
    optimum, _ = search(model)
    _, counted = search(model, optimum)
    return {
        **row,
        "class": "refused",
        "homes_lps": counted.solves,
        "homes_optimum_found_at_lp": counted.found_at,
    }


def what_if(rows: list[dict[str, Any]]) -> dict[str, float]:
    """The group's median ratio with settled tables at casual's time plus d ms and refused
    ones at k times casual's (`k=measured`: as they are)."""
    casual = [r["casual_ms"] for r in rows]
    grid = {}
    for extra in SETTLED_EXTRA_MS:
        for times in REFUSED_TIMES:
            official = [
                r["casual_ms"] + extra
                if r["class"] == "settled"
                else r["official_ms"]
                if r["class"] == "refused" and times is None
                else r["casual_ms"] * times
                if r["class"] == "refused" and times is not None
                else r["casual_ms"]
                for r in rows
            ]
            key = f"settled+{extra}ms,refused{'=measured' if times is None else f'x{times}'}"
            grid[key] = round(median(official) / median(casual), 3)
    return grid


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    settled = [r for r in rows if r["class"] == "settled"]
    refused = [r for r in rows if r["class"] == "refused" and "homes_lps" in r]
    return {
        "tables": {c: sum(r["class"] == c for r in rows) for c in ("free", "settled", "refused")},
        "median_ratio": round(
            median(r["official_ms"] for r in rows) / median(r["casual_ms"] for r in rows), 3
        ),
        "settled_median_extra_ms": round(
            median(r["official_ms"] - r["casual_ms"] for r in settled), 3
        )
        if settled
        else None,
        "settled_root_lp_ratio": round(
            median(r["pinned_root_lp_ms"] / r["casual_root_lp_ms"] for r in settled), 3
        )
        if settled
        else None,
        "settled_root_lp_extra_ms": round(
            median(r["pinned_root_lp_ms"] - r["casual_root_lp_ms"] for r in settled), 3
        )
        if settled
        else None,
        "refused_median_ratio": round(median(r["official_ms"] / r["casual_ms"] for r in refused), 3)
        if refused
        else None,
        "homes_lps": sum(r["homes_lps"] for r in refused),
        "homes_lps_until_optimum": sum(r["homes_optimum_found_at_lp"] or 0 for r in refused),
        "what_if": what_if(rows),
    }


def main(argv: list[str] | None = None) -> int:
    assert __doc__ is not None
    return run_groups(NAME, __doc__, 100, anatomy, summary, argv)


if __name__ == "__main__":
    raise SystemExit(main())
