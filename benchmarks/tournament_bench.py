"""Tournaments: how fast they play, and whether `search` beats every baseline (issue 15).

    python benchmarks/tournament_bench.py speed --games 16
    python benchmarks/tournament_bench.py goal --games 300 --jobs 2

`speed`: games per second of a 4-player tournament for `greedy` (all four seats),
`hoarder` and `search` at two budgets (each against three `greedy`), with one worker
and with two, measured side by side in one run, and the solver calls per decision of
each strategy; for `search`, also how many of its calls in a decision solve a table an
earlier call of that decision solved (what reusing a model across them could save).
Rows in results/tournament-speed.jsonl, the summary in tournament-speed-summary.json.

`goal`: one `search` seat against three copies of each baseline, on duplicate deals,
at `--think 0.1`: its win share with the Wilson 95% interval (the goal: above 1/4) and
its mean score against the baseline's, in results/tournament-goal-summary.json, each
with the `rummisolve tournament` command that gives the same games. Every move of every
game passes the legality checker on the way (`play_game`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from typing import Any

from common import finished, header, results_option, write_results

from rummisolve.board import Board
from rummisolve.game import GameOptions, Seat, play_game, tile_set_for
from rummisolve.move import Move, Objective
from rummisolve.rules import Rules
from rummisolve.search import Search
from rummisolve.tournament import Lineup, Work, run_games, tournament_report, tournament_tasks
from rummisolve.view import Finder, PlayerView

BASELINES = ("greedy", "heavy", "cautious", "hoarder")


def speed(args: argparse.Namespace) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    rows: list[dict[str, Any]] = []
    options = GameOptions(rules=Rules(tile_set=tile_set_for(4)))
    configs = [("greedy", ["greedy"], None), ("hoarder", ["hoarder", "greedy"], None)]
    configs += [(f"search think={t}", ["search", "greedy"], t) for t in args.budgets]
    for label, names, think in configs:
        lineup = Lineup.filled(names, 4, think)
        for jobs in (1, 2):
            tasks = list(tournament_tasks(lineup, args.games, args.seed))
            started = time.perf_counter()
            records = [p.record for p in run_games(tasks, Work(lineup, options), jobs)]
            seconds = time.perf_counter() - started
            strategy = names[0]
            report = {s.name: s for s in tournament_report(records).strategies}
            row = {
                "lineup": label,
                "jobs": jobs,
                "games": len(records),
                "seconds": round(seconds, 2),
                "games_per_second": round(len(records) / seconds, 3),
                "calls_per_decision": round(report[strategy].calls_per_decision, 2),
            }
            print(json.dumps(row), flush=True)
            rows.append(row)
    shared = [shared_tables(t, args.seed) for t in args.budgets]
    by_label = {(r["lineup"], r["jobs"]): r for r in rows}
    figures = {
        "games": args.games,
        "games_per_second": {
            label: {str(j): by_label[(label, j)]["games_per_second"] for j in (1, 2)}
            for label, _, _ in configs
        },
        "two_jobs_speed_up": {
            label: round(
                by_label[(label, 2)]["games_per_second"] / by_label[(label, 1)]["games_per_second"],
                2,
            )
            for label, _, _ in configs
        },
        "calls_per_decision": {
            label: by_label[(label, 1)]["calls_per_decision"] for label, _, _ in configs
        },
        "search_tables": shared,
    }
    return figures, rows


def shared_tables(think: float, seed: int) -> dict[str, Any]:
    """Of the solver calls `search` makes in its weighed decisions, the share whose table
    an earlier call of the same decision solved: the solves a model kept across a table
    could reuse (the rack differs; the table's part of the model would not)."""
    calls = repeats = decisions = 0

    class Counting:
        name = "search"

        def choose(self, view: PlayerView, find: Finder) -> Move:
            nonlocal calls, repeats, decisions
            tables: Counter[tuple[Any, ...]] = Counter()

            def counted(board: Board, objective: Objective) -> Move:
                tables[board.table] += 1
                return find(board, objective)

            move = Search(think=think).choose(view, counted)
            if sum(tables.values()) > 1:
                decisions += 1
                calls += sum(tables.values())
                repeats += sum(n - 1 for n in tables.values())
            return move

    rules = Rules(tile_set=tile_set_for(4))
    greedy = Lineup.filled(["greedy"], 4).seats()
    for game in range(8):
        seats = (Seat("P1", Counting()), *greedy[1:])
        play_game(seats, GameOptions(rules=rules), seed + game)
    return {
        "think": think,
        "weighed_decisions": decisions,
        "calls_per_weighed_decision": round(calls / max(decisions, 1), 1),
        "calls_on_a_table_solved_before": round(repeats / max(calls, 1), 3),
    }


def goal(args: argparse.Namespace) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    rows = []
    options = GameOptions(rules=Rules(tile_set=tile_set_for(4)))
    for baseline in args.baselines:
        lineup = Lineup.filled(["search", baseline], 4, args.think)
        started = time.perf_counter()
        played = run_games(
            tournament_tasks(lineup, args.games, args.seed), Work(lineup, options), args.jobs
        )
        report = tournament_report([p.record for p in played])
        seconds = time.perf_counter() - started
        by_name = {s.name: s for s in report.strategies}
        search, other = by_name["search"], by_name[baseline]
        row = {
            "baseline": baseline,
            "command": f"rummisolve tournament --players 4 --strategies search,{baseline}"
            f" --games {args.games} --think {args.think} --jobs {args.jobs}"
            f" --seed {args.seed} --json",
            "games": report.games,
            "seconds": round(seconds, 1),
            "search": search.as_json()
            | {"calls_per_decision": round(search.calls_per_decision, 1)},
            baseline: other.as_json(),
            "win_share_above_a_quarter": search.win_share_ci[0] > 0.25,
            "mean_score_higher": search.mean_score > other.mean_score,
        }
        print(json.dumps(row), flush=True)
        rows.append(row)
    return {"games": args.games, "think": args.think, "jobs": args.jobs, "seed": args.seed}, rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("part", choices=("speed", "goal"))
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budgets", type=float, nargs=2, default=[0.05, 0.1], metavar="SECONDS")
    parser.add_argument("--think", type=float, default=0.1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--baselines", nargs="+", default=list(BASELINES), choices=BASELINES)
    results_option(parser)
    args = parser.parse_args(argv)
    name = f"tournament-{args.part}"
    started = header(name)
    figures, rows = speed(args) if args.part == "speed" else goal(args)
    result = finished(started, figures if args.part == "speed" else {**figures, "baselines": rows})
    write_results(args.results, result, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
