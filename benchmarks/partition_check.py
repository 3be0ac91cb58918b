"""The proof that a rack cannot go out against a solve, on the questions `search` asks
(issue 33: most of its solver calls were "does this rack go out?", nearly all "no").

    python benchmarks/partition_check.py --games 4 --seed 101

For each baseline, one `search` seat (`--think`) plays three copies of it over the seeds;
every `goes_out` question of its rollouts is kept (the board as asked). Then each is
timed side by side: `cannot_go_out` (the partition check, solver/partition.py) and a
solve, each the median of `--repeat` runs. The check's caches are warm, as they are in
a game. Rows in results/partition-check.jsonl (one a baseline), the summary in
partition-check-summary.json.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from common import finished, header, median, percentile, results_option, write_results

import rummisolve.search as search_module
from rummisolve.board import Board
from rummisolve.engine.solve import find_move
from rummisolve.game import GameOptions, Seat, play_game, tile_set_for
from rummisolve.move import Objective
from rummisolve.partition import cannot_go_out
from rummisolve.rules import Rules
from rummisolve.search import Search
from rummisolve.tournament import Lineup
from rummisolve.view import Finder

BASELINES = ("greedy", "hoarder", "cautious")


def questions(baseline: str, games: int, seed: int, think: float) -> list[Board]:
    """Every board `search`'s rollouts ask `goes_out` of, over the games."""
    asked: list[Board] = []
    goes_out = search_module.goes_out

    def kept(board: Board, find: Finder) -> bool:
        asked.append(board)
        return goes_out(board, find)

    search_module.goes_out = kept
    try:
        for game in range(seed, seed + games):
            rules = Rules(tile_set=tile_set_for(4))
            others = Lineup.filled([baseline], 4).seats()[1:]
            play_game((Seat("P1", Search(think=think)), *others), GameOptions(rules=rules), game)
    finally:
        search_module.goes_out = goes_out
    return asked


def seconds(call: Any, repeat: int) -> tuple[Any, float]:
    """The call's result and the median of its times over `repeat` runs."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - started)
    return result, median(times)


def measure(baseline: str, args: argparse.Namespace) -> dict[str, Any]:
    boards = questions(baseline, args.games, args.seed, args.think)
    checks, solves, saved = [], [], []
    proved = out = 0
    for board in boards:
        cannot, check = seconds(lambda b=board: cannot_go_out(b), args.repeat)
        answer, solve = seconds(lambda b=board: find_move(b, Objective.TILES), args.repeat)
        goes = answer.is_move and not answer.rack
        assert not (cannot and goes), f"proved unable to go out, yet the solver goes out: {board}"
        proved += cannot
        out += goes
        checks.append(check)
        solves.append(solve)
        if cannot:
            saved.append(solve)
    no = len(boards) - out
    row = {
        "baseline": baseline,
        "games": args.games,
        "think": args.think,
        "questions": len(boards),
        "answered_no": no,
        "proved_no": proved,
        "proved_share_of_no": round(proved / max(no, 1), 3),
        "check_ms": stats(checks),
        "solve_ms": stats(solves),
        "check_over_solve_median": round(median(checks) / median(solves), 3),
        "check_total_over_solve_total": round(sum(checks) / sum(solves), 3),
        "solve_seconds_saved_net": round(sum(saved) - sum(checks), 2),
    }
    print(row, flush=True)
    return row


def stats(values: list[float]) -> dict[str, float]:
    return {
        "median": round(median(values) * 1000, 3),
        "p90": round(percentile(values, 0.9) * 1000, 3),
        "mean": round(sum(values) / len(values) * 1000, 3),
        "max": round(max(values) * 1000, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=4, help="games a baseline")
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--think", type=float, default=0.1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baselines", nargs="+", default=list(BASELINES), choices=BASELINES)
    results_option(parser)
    args = parser.parse_args()
    started = header("partition-check")
    rows = [measure(baseline, args) for baseline in args.baselines]
    figures = {"games": args.games, "seed": args.seed, "think": args.think, "baselines": rows}
    write_results(args.results, finished(started, figures), rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
