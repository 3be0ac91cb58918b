"""Puzzle makers' costs: proving a best move the only one against finding it, and
puzzles generated per minute, per kind.

1. On the comparison's positions (compare_rummikub_solver.py's generator: its seed and
   sizes, positions with a joker on the table under `casual` as there), each position is
   solved (`find_move`) and its answer proved unique or shown not to be
   (`every_best_move(limit=1)`, which solves it again first), alternately first, each
   `--repeats` times (medians kept); the ratio is taken per position, side by side.
2. `make_puzzles` of each kind, `--puzzles` of them from seed 1 (any band), and `--hard`
   hard ones of the kinds that deal them often enough, timed whole: puzzles per minute,
   and the candidates dealt.

Every move is checked by `check_move`.

    python benchmarks/puzzle_bench.py   # results/puzzle-bench.jsonl and -summary.json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from typing import Any

from common import finished, header, median, percentile, results_option, write_results

from rummisolve.board import Board
from rummisolve.engine.every import every_best_move
from rummisolve.engine.solve import find_move
from rummisolve.generate import generate_boards
from rummisolve.legality import check_move
from rummisolve.puzzle import Band, Kind, make_puzzles
from rummisolve.rules import PROFILES, Rules
from rummisolve.tiles import JOKER


def comparison_positions(count: int, seed: int) -> list[Board]:
    """The comparison's first `count` positions (its defaults), a table joker's under casual."""
    casual = PROFILES["casual"].rules
    boards = []
    for board in generate_boards(
        count, seed, table_tiles=(0, 60), rack_tiles=(5, 30), rules=Rules()
    ):
        if any(JOKER in s for s in board.table):
            board = dataclasses.replace(board, rules=casual)
        boards.append(board)
    return boards


def prove(board: Board, repeats: int, first: int) -> dict[str, Any]:
    """Median seconds of one solve and of the uniqueness proof, alternating which starts."""
    times: dict[str, list[float]] = {"solve": [], "prove": []}
    found = None
    for r in range(repeats):
        order = ["solve", "prove"] if (r + first) % 2 == 0 else ["prove", "solve"]
        for what in order:
            started = time.perf_counter()
            if what == "solve":
                move = find_move(board)
                assert not check_move(board, move)
            else:
                found = every_best_move(board, limit=1)
                assert all(not check_move(board, m) for m in found.moves)
            times[what].append(time.perf_counter() - started)
    assert found is not None
    solve, proof = median(times["solve"]), median(times["prove"])
    return {
        "solve_s": solve,
        "prove_s": proof,
        "ratio": proof / solve,
        "played": bool(found.moves),
        "unique": found.unique,
        "solves": found.solves,
    }


def puzzles_per_minute(kind: Kind, count: int, band: Band | None = None) -> dict[str, Any]:
    started = time.perf_counter()
    made = list(make_puzzles(count, 1, kind, band))
    seconds = time.perf_counter() - started
    for puzzle in made:
        assert not check_move(puzzle.board, puzzle.answer)
    bands = {b: sum(p.difficulty.band.value == b for p in made) for b in ("easy", "medium", "hard")}
    return {
        "kind": kind.value,
        "difficulty": band.value if band else "any",
        "puzzles": count,
        "seconds": round(seconds, 3),
        "per_minute": round(60 * count / seconds, 2),
        "candidates": made[-1].number + 1 if made else 0,
        "bands": bands,
    }


def ms(values: list[float]) -> dict[str, float]:
    return {
        "median_ms": round(median(values) * 1000, 3),
        "p90_ms": round(percentile(values, 0.9) * 1000, 3),
        "max_ms": round(max(values) * 1000, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1, help="the comparison's seed")
    parser.add_argument("--puzzles", type=int, default=10, help="per kind, of any band")
    parser.add_argument("--hard", type=int, default=3, help="hard ones per kind")
    results_option(parser)
    args = parser.parse_args(argv)
    started = header("puzzle-bench")
    rows = []
    for n, board in enumerate(comparison_positions(args.positions, args.seed), start=1):
        rows.append({"part": "prove", "position": n, **prove(board, args.repeats, n)})
    played = [r for r in rows if r["played"]]
    proofs = {
        "positions": len(rows),
        "with_a_move": len(played),
        "unique": sum(r["unique"] for r in played),
        "solve": ms([r["solve_s"] for r in rows]),
        "prove": ms([r["prove_s"] for r in rows]),
        "median_of_ratios": round(median([r["ratio"] for r in rows]), 2),
        "p90_of_ratios": round(percentile([r["ratio"] for r in rows], 0.9), 2),
        "median_solves": median([r["solves"] for r in rows]),
    }
    print("prove", json.dumps(proofs), file=sys.stderr)
    kinds = []
    for kind in Kind:
        kinds.append(puzzles_per_minute(kind, args.puzzles))
        print("puzzles", json.dumps(kinds[-1]), file=sys.stderr)
    # Hard ones take many candidates (initial melds are left out: 2 in 1,200 of seed 1).
    for kind in (Kind.ALL_OUT, Kind.MOST_TILES):
        kinds.append(puzzles_per_minute(kind, args.hard, Band.HARD))
        print("puzzles", json.dumps(kinds[-1]), file=sys.stderr)
    rows.extend({"part": "puzzles", **k} for k in kinds)
    result = finished(started, {"uniqueness": proofs, "puzzles": kinds})
    write_results(args.results, result, rows)
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
