"""Solver calls and time in `search`'s decisions, this checkout against an older version,
side by side in one run (issue 33: the search player repeats itself).

    python benchmarks/search_calls.py --old /tmp/old/typecheck --games 6

`--old` is a PYTHONPATH entry that imports the older version as `rummisolve` (e.g.
`git archive <commit> solver typecheck | tar -x -C /tmp/old`); the new one is what this
script imports. For each baseline, one `search` seat (`--think`, a fixed number of
samples a decision) plays three copies of it over the same seeds, each version in a
worker process of its own, the two taking turns game by game. The solver calls and the
seconds of each of `search`'s decisions are counted through the finder it is handed; the
decisions are paired one to one (the games must be the same: the moves are compared),
and the weighed ones are those where the old version called the solver more than twice.
The new version plays at the old one's samples a second for the pairing; where its own
differ it plays again at its own, and `all_decisions` gives the calls and milliseconds a
decision over all of each side's decisions (those games differ).
Rows in results/search-calls.jsonl, the summary in search-calls-summary.json.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any

from common import finished, header, results_option, write_results

BASELINES = ("greedy", "hoarder", "cautious")


def worker(baseline: str, think: float, seed: int, rate: str) -> None:
    """One game of `search` against three `baseline` at `rate` samples a second ("own":
    the version's): its rate, and each decision's calls, seconds and move, printed as one
    JSON line (run in the version under test)."""
    import rummisolve.search
    from rummisolve.board import Board
    from rummisolve.game import GameOptions, Seat, play_game, tile_set_for
    from rummisolve.move import Move, Objective
    from rummisolve.rules import Rules
    from rummisolve.search import Search
    from rummisolve.tournament import Lineup
    from rummisolve.view import Finder, PlayerView

    decisions: list[tuple[int, float, str]] = []

    class Counted:
        name = "search"

        def choose(self, view: PlayerView, find: Finder) -> Move:
            calls = 0

            def counted(board: Board, objective: Objective) -> Move:
                nonlocal calls
                calls += 1
                return find(board, objective)

            started = time.perf_counter()
            move = Search(think=think).choose(view, counted)
            seconds = time.perf_counter() - started
            decisions.append((calls, seconds, repr((move.table, move.rack))))
            return move

    if rate != "own":
        rummisolve.search.SAMPLES_PER_SECOND = int(rate)
    rules = Rules(tile_set=tile_set_for(4))
    others = Lineup.filled([baseline], 4).seats()[1:]
    play_game((Seat("P1", Counted()), *others), GameOptions(rules=rules), seed)
    print(json.dumps({"rate": rummisolve.search.SAMPLES_PER_SECOND, "decisions": decisions}))


def play(
    path: str, baseline: str, think: float, seed: int, rate: str = "own"
) -> tuple[int, list[list[Any]]]:
    done = subprocess.run(
        [sys.executable, __file__, "worker", baseline, str(think), str(seed), rate],
        env=os.environ | {"PYTHONPATH": os.path.abspath(path)},
        capture_output=True,
        text=True,
        check=True,
    )
    played: dict[str, Any] = json.loads(done.stdout)
    return played["rate"], played["decisions"]


def compare(args: argparse.Namespace) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    import rummisolve
    from rummisolve.search import SAMPLES_PER_SECOND

    # The PYTHONPATH entry this script imports `rummisolve` from.
    new_path = os.path.dirname(os.path.dirname(os.path.abspath(rummisolve.__file__)))
    rows = []
    for baseline in args.baselines:
        old_calls = new_calls = weighed = old_weighed = new_weighed = 0
        old_seconds = new_seconds = 0.0
        decisions = 0
        every: dict[str, list[list[Any]]] = {"old": [], "new_at_old_rate": []}
        same = True
        for seed in range(args.seed, args.seed + args.games):
            rate, before = play(args.old, baseline, args.think, seed)
            _, after = play(new_path, baseline, args.think, seed, str(rate))
            same = same and [d[2] for d in before] == [d[2] for d in after]
            every["old"] += before
            every["new_at_old_rate"] += after
            if rate != SAMPLES_PER_SECOND:
                every.setdefault("new", []).extend(play(new_path, baseline, args.think, seed)[1])
            for (calls_before, seconds_before, _), (calls_after, seconds_after, _) in zip(
                before, after, strict=False
            ):
                decisions += 1
                old_calls += calls_before
                new_calls += calls_after
                if calls_before > 2:
                    weighed += 1
                    old_weighed += calls_before
                    new_weighed += calls_after
                    old_seconds += seconds_before
                    new_seconds += seconds_after
        row = {
            "baseline": baseline,
            "games": args.games,
            "think": args.think,
            "same_games": same,
            "decisions": decisions,
            "weighed_decisions": weighed,
            "calls_per_weighed_decision": {
                "old": round(old_weighed / max(weighed, 1), 2),
                "new": round(new_weighed / max(weighed, 1), 2),
            },
            "weighed_calls_new_over_old": round(new_weighed / max(old_weighed, 1), 3),
            "calls_new_over_old": round(new_calls / max(old_calls, 1), 3),
            "weighed_seconds": {"old": round(old_seconds, 2), "new": round(new_seconds, 2)},
            "samples_per_second_new_over_old": round(old_seconds / max(new_seconds, 1e-9), 2),
            "rates": {"old": rate, "new": SAMPLES_PER_SECOND},
            "all_decisions": {
                side: {
                    "decisions": len(made),
                    "calls_a_decision": round(sum(d[0] for d in made) / max(len(made), 1), 2),
                    "ms_a_decision": round(sum(d[1] for d in made) / max(len(made), 1) * 1000, 1),
                }
                for side, made in every.items()
            },
        }
        print(json.dumps(row), flush=True)
        rows.append(row)
    return {"old": args.old, "games": args.games, "think": args.think, "seed": args.seed}, rows


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["worker"]:
        worker(argv[1], float(argv[2]), int(argv[3]), argv[4])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--old", required=True, help="PYTHONPATH of the older version")
    parser.add_argument("--games", type=int, default=6, help="games a baseline")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.1)
    parser.add_argument("--baselines", nargs="+", default=list(BASELINES), choices=BASELINES)
    results_option(parser)
    args = parser.parse_args(argv)
    started = header("search-calls")
    figures, rows = compare(args)
    write_results(args.results, finished(started, {**figures, "baselines": rows}), rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
