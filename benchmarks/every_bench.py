"""`hint --all --limit 20` on mid-game tables, and the uniqueness proof `puzzle` makes,
this checkout against an older one, side by side.

Groups of boards, each listed by `every_best_move` (as `hint --all` calls it):
- `midgame`: the puzzle benchmark's positions (puzzle_bench.py: the comparison's seed 1,
  a table joker's position under `casual`) whose table holds 40 tiles or more, `--limit`;
- `generated`: `--generated` boards as a new user makes them (`generate_boards`, seed 1,
  table 50-60 tiles, rack 15-20, 2 jokers, the official rules), `--limit`;
- `prove`: all the puzzle benchmark's positions, `limit=1`: the proof `rummisolve puzzle`
  runs on every candidate.

Each side runs in a process of its own (old_side.py), which goes first alternating board
by board; each listing is cut at `--cap` seconds (the board counted as over the cap).
Every move listed is checked by `check_move`; where both sides finish the list, their
moves must be the same (`move_key`).

    python benchmarks/every_bench.py --old /tmp/every-old/solver
"""

from __future__ import annotations

import argparse
import sys
import time
from functools import cache
from pathlib import Path
from typing import Any

import old_side
from common import finished, header, median, percentile, results_option, write_results
from puzzle_bench import comparison_positions

from rummisolve.board import Board
from rummisolve.engine.every import every_best_move, move_key
from rummisolve.generate import generate_boards
from rummisolve.legality import check_move

MIDGAME_TABLE = 40  # table tiles from which a position is mid-game


@cache
def boards(group: str, count: int) -> tuple[Board, ...]:
    """The group's boards (`count`: positions of the puzzle benchmark, or generated)."""
    if group == "generated":
        return tuple(generate_boards(count, 1, table_tiles=(50, 60), rack_tiles=(15, 20), jokers=2))
    positions = comparison_positions(count, 1)
    if group == "midgame":
        return tuple(b for b in positions if len(b.table_tiles) >= MIDGAME_TABLE)
    return tuple(positions)


def listing(group: str, count: int, index: int, limit: int, cap: float) -> dict[str, Any]:
    """One board listed, timed, each move checked; its moves' keys to compare the sides."""
    board = boards(group, count)[index]
    started = time.perf_counter()
    found = every_best_move(board, limit=limit, time_limit=cap)
    seconds = time.perf_counter() - started
    for move in found.moves:
        assert not check_move(board, move), f"{group} {index}: a move breaks the rules"
    return {
        "seconds": round(seconds, 4),
        "count": found.count,
        "complete": found.complete,
        "past_limit": found.past_limit,
        "over": not found.complete and not found.past_limit,
        "solves": found.solves,
        "keys": sorted(repr(move_key(m.table)) for m in found.moves),
    }


def figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    seconds = [r["seconds"] for r in rows]
    return {
        "boards": len(rows),
        "p50_s": round(median(seconds), 3),
        "p90_s": round(percentile(seconds, 0.9), 3),
        "max_s": round(max(seconds), 3),
        "over_cap": sum(r["over"] for r in rows),
        "median_solves": median([r["solves"] for r in rows]),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, metavar="PATH", required="--serve" not in sys.argv)
    parser.add_argument("--positions", type=int, default=60, help="the puzzle benchmark's")
    parser.add_argument("--generated", type=int, default=6)
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument("--cap", type=float, default=60.0, help="seconds a listing, at most")
    parser.add_argument("--groups", nargs="+", default=["midgame", "generated", "prove"])
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    results_option(parser)
    args = parser.parse_args(argv)
    if args.serve:
        return old_side.serve(lambda asked: listing(**asked))
    started = header("every-bench")
    sides = {
        "new": old_side.Worker("new", None, __file__, "--serve"),
        "old": old_side.Worker("old", args.old, __file__, "--serve"),
    }
    rows: list[dict[str, Any]] = []
    try:
        for group in args.groups:
            count = args.generated if group == "generated" else args.positions
            limit = 1 if group == "prove" else args.limit
            for index in range(len(boards(group, count))):
                order = ["new", "old"] if index % 2 == 0 else ["old", "new"]
                asked = {"group": group, "count": count, "index": index}
                answers = {
                    side: sides[side].ask({**asked, "limit": limit, "cap": args.cap})
                    for side in order
                }
                new, old = answers["new"], answers["old"]
                if new["complete"] and old["complete"] and not new["past_limit"]:
                    assert new["keys"] == old["keys"], f"{group} {index}: the sides differ"
                for side, answer in answers.items():
                    answer.pop("keys")
                    rows.append({"group": group, "board": index, "side": side, **answer})
                print(group, index, answers, file=sys.stderr, flush=True)
    finally:
        for worker in sides.values():
            worker.close()
    summary: dict[str, Any] = {}
    for group in args.groups:
        here = {s: [r for r in rows if r["group"] == group and r["side"] == s] for s in sides}
        ratios = [
            n["seconds"] / o["seconds"] for n, o in zip(here["new"], here["old"], strict=True)
        ]
        summary[group] = {
            **{side: figures(found) for side, found in here.items()},
            "median_new_over_old": round(median(ratios), 3),
        }
    settings = {"limit": args.limit, "cap_s": args.cap, "old": str(args.old)}
    result = finished(started, {**settings, "groups": summary})
    write_results(args.results, result, rows)
    for group, found in summary.items():
        print(group, found)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
