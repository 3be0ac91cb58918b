"""Where the official default's time goes on the tables its pinned stage settles alone.

strict_vs_free.py's large groups (its seed and counts): each table whose official solve
runs the pinned stage alone is solved `--repeat` times under official and under casual,
alternating which goes first, and each part of the solve is timed as it runs (the
stages module's own calls, wrapped by a timer): building the model (`build_layout`), the
stay rows (`add_stay_rows`), making it a Mip (`model_mip`), the search (`_solve`),
reading its answer (`arrangement_of`), putting the staying jokers back and checking the
table (`pin_jokers`), laying its jokers (`_found`), and the rest of `find_move` (`other`).
Each part's time on a table: its first solve's (nothing found for the table kept yet) and
the median of the later ones. The summary: each part's median over the tables on both
sides, the median of the tables' paired ratios, and that ratio with the parts official
alone has taken out (what the rest costs).

    python benchmarks/pinned_parts.py   # results/pinned-parts.jsonl and -summary.json
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from common import finished, group_options, header, median, write_results
from strict_vs_free import GROUPS, LARGE, casual_board

from rummisolve.board import Board
from rummisolve.engine import stages
from rummisolve.engine.solve import find_move

NAME = "pinned-parts"
PARTS = (
    "build_layout",
    "add_stay_rows",
    "model_mip",
    "_solve",
    "arrangement_of",
    "pin_jokers",
    "_found",
)
# What casual's solve never runs.
OFFICIAL_ONLY = ("add_stay_rows", "pin_jokers", "_found")


def timed_parts() -> dict[str, float]:
    """The stages module's parts wrapped by a timer: the seconds each took since cleared."""
    spent: dict[str, float] = {}

    def wrapped(name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        def timer(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return call(*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0.0) + time.perf_counter() - started

        return timer

    for name in PARTS:
        setattr(stages, name, wrapped(name, getattr(stages, name)))
    return spent


def solve_parts(board: Board, spent: dict[str, float]) -> tuple[dict[str, float], list[str]]:
    """One solve: each part's seconds (`other`: the rest of find_move), and its stages."""
    spent.clear()
    ran: list[str] = []
    move = find_move(board, watch=lambda stage, _, __: ran.append(stage))
    parts = {name: spent.get(name, 0.0) for name in PARTS}
    parts["other"] = move.seconds - sum(parts.values())
    parts["total"] = move.seconds
    return parts, ran


def measure(board: Board, repeat: int, first: int, spent: dict[str, float]) -> dict[str, Any]:
    """A table's parts on both sides, in ms: the first solve's and the later ones' median."""
    sides = [("official", board), ("casual", casual_board(board))]
    runs: dict[str, list[dict[str, float]]] = {"official": [], "casual": []}
    ran: list[str] = []
    for r in range(repeat):
        for name, side in sides if (r + first) % 2 == 0 else sides[::-1]:
            parts, stages_run = solve_parts(side, spent)
            runs[name].append(parts)
            if name == "official":
                ran = stages_run
    row: dict[str, Any] = {"stages": ran}
    for name, solves in runs.items():
        row[name] = {
            part: [ms(solves[0][part]), ms(median(s[part] for s in solves[1:]))]
            for part in solves[0]
        }
    later = zip(runs["official"][1:], runs["casual"][1:], strict=True)
    row["ratio"] = round(median(o["total"] / c["total"] for o, c in later), 4)
    return row


def ms(seconds: float) -> float:
    return round(seconds * 1000, 4)


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Each part's median over the tables (first solves, later ones), both sides; the
    tables' paired ratio, and the same without the official-only parts."""
    figures: dict[str, Any] = {"tables": len(rows)}
    for side in ("official", "casual"):
        figures[side] = {
            part: {
                "first_ms": round(median(r[side][part][0] for r in rows), 4),
                "later_ms": round(median(r[side][part][1] for r in rows), 4),
            }
            for part in rows[0][side]
        }
    without = [
        (r["official"]["total"][1] - sum(r["official"][p][1] for p in OFFICIAL_ONLY))
        / r["casual"]["total"][1]
        for r in rows
    ]
    figures["median_of_ratios"] = round(median(r["ratio"] for r in rows), 3)
    figures["median_of_ratios_without_official_only_parts"] = round(median(without), 3)
    figures["extra_ms_median"] = round(
        median(r["official"]["total"][1] - r["casual"]["total"][1] for r in rows), 4
    )
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group_options(parser, 50)
    args = parser.parse_args(argv)
    started = header(NAME)
    spent = timed_parts()
    rows = []
    for name, spec in GROUPS.items():
        if not name.startswith(LARGE):
            continue
        for n, board in enumerate(spec.boards(args.positions, args.seed)):
            row = measure(board, args.repeat, n, spent)
            if row["stages"] == [stages.PINNED.name]:
                rows.append({"group": name, "position": n, **row})
    result = finished(started, {"summary": summary(rows)})
    write_results(args.results, result, rows)
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
