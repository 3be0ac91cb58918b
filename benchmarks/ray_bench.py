"""Ray against the local pool on this machine (issue 18): boards per second and games per
second through each, with one worker and with two, the cost of a Ray call, and so the
figures a cluster estimate is worked out from.

    python benchmarks/ray_bench.py                      # 400 boards, 8 games, 3 rounds
    python benchmarks/ray_bench.py --boards 1000 --games 16 --rounds 5

A Ray cluster of two CPUs is started on this machine (127.0.0.1) and stopped at the end.
Each round measures every variant once, in turn, so that the machine's load falls on
them alike; the figures are medians over the rounds. Workers and actors are started
before the clock (their start is measured apart). Every row of every batch goes through
the legality checker (`solve_path`), and the Ray rows are compared with the local ones.

- batch: `Workers` (the local pool) and `RayBatch` with 1 and 2 workers/actors.
- games: `run_games` (worker processes) and `RayGames`, 2-player greedy games; here the
  workers' and actors' start is in the time (`run_games` starts its pool itself).
- call cost: calls that do nothing (an item in, the same out) through `RayPool`, as
  batches and games make them (two queued per actor), with one actor and with two: what
  a call costs the driver and the actor, the solving aside.

Rows in results/ray-bench.jsonl, the summary in results/ray-bench-summary.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from common import finished, header, results_option, timed, write_results

from rummisolve.batch import BatchSettings, BoardResult, Format, Workers, board_paths
from rummisolve.game import GameOptions
from rummisolve.rules import Rules
from rummisolve.tournament import Lineup, Work, run_games, tournament_tasks

try:  # the ray extra: without it --help still works, and main says what to install
    import ray

    from rummisolve.batch.ray_cluster import connect
    from rummisolve.batch.ray_pool import RayBatch, RayGames, RayPool, one_at_a_time
except ImportError as error:
    NO_RAY: ImportError | None = error
else:
    NO_RAY = None


def same(item: int) -> int:
    return item


def nothing() -> None:
    return None


def without_time(row: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(row)
    found.pop("seconds", None)
    return found


# An engine's run of a round: its answers, its workers' start and its work, in seconds.
EngineRun = Callable[[str], tuple[list[Any], float, float]]


def against_local(
    measure: str, done: tuple[str, int], digits: int, jobs: int, run: EngineRun
) -> list[dict[str, Any]]:
    """A round's rows, the local engine's then Ray's: what it did (`done`: a name and a
    count), its start, its rate to `digits`, and whether its answers are the local ones."""
    name, count = done
    rows = []
    local: list[Any] = []
    for engine in ("local", "ray"):
        answers, start, seconds = run(engine)
        if engine == "local":
            local = answers
        rows.append(
            {
                "measure": measure,
                "engine": engine,
                "workers": jobs,
                name: count,
                "start_seconds": round(start, 3),
                "seconds": round(seconds, 3),
                "per_second": round(count / seconds, digits),
                "same_as_local": answers == local,
            }
        )
    return rows


def batch_round(paths: list[str], jobs: int) -> list[dict[str, Any]]:
    settings = BatchSettings(format=Format.JSONL)

    def run(engine: str) -> tuple[list[Any], float, float]:
        pool: Workers | RayBatch
        pool, start = timed(
            (lambda: Workers(settings, jobs))
            if engine == "local"
            else (lambda: RayBatch("auto", settings, jobs))
        )
        solving = pool.solve(paths) if isinstance(pool, Workers) else pool.run(paths)
        results: list[BoardResult]
        results, seconds = timed(partial(list, solving))
        pool.close()
        return [without_time(r.row) for r in results], start, seconds

    return against_local("batch", ("boards", len(paths)), 1, jobs, run)


def games_round(games: int, jobs: int) -> list[dict[str, Any]]:
    lineup = Lineup.filled(["greedy"], 2)
    work = Work(lineup, GameOptions(rules=Rules()))
    tasks = list(tournament_tasks(lineup, games, 1))

    def run(engine: str) -> tuple[list[Any], float, float]:
        if engine == "local":
            played, seconds = timed(lambda: list(run_games(tasks, work, jobs)))
            start = 0.0
        else:
            on_ray, start = timed(partial(RayGames, "auto", work, jobs))
            played, seconds = timed(partial(list, on_ray.run(tasks)))
            seconds += start  # as the local pool's start is inside run_games
        return [(p.record.seed, p.record.score) for p in played], start, seconds

    return against_local("games", ("games", games), 2, jobs, run)


def call_round(calls: int) -> list[dict[str, Any]]:
    rows = []
    for jobs in (1, 2):
        pool: RayPool[int, int] = RayPool("auto", jobs, nothing, same, same)
        _, seconds = timed(partial(list, pool.map(list(range(calls)), one_at_a_time)))
        pool.close()
        rows.append(
            {
                "measure": "empty calls",
                "engine": "ray",
                "workers": jobs,
                "calls": calls,
                "seconds": round(seconds, 3),
                "ms_per_call": round(1000 * seconds / calls, 3),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=400)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=18)
    results_option(parser)
    args = parser.parse_args()
    if NO_RAY is not None:
        sys.exit(
            'ray_bench.py needs Ray: install the ray extra, pip install "rummisolve[ray]"'
            f" ({NO_RAY})"
        )
    started = header("ray-bench")
    connect("local", cpus=2)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "boards"
        generate = ["generate", "--count", str(args.boards), "--seed", str(args.seed)]
        subprocess.run(
            [sys.executable, "-m", "rummisolve", *generate, "--out", str(folder)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        paths = board_paths([folder])
        for number in range(args.rounds):
            for row in [
                *batch_round(paths, 1),
                *batch_round(paths, 2),
                *games_round(args.games, 1),
                *games_round(args.games, 2),
                *call_round(args.calls),
            ]:
                row["round"] = number + 1
                print(json.dumps(row), flush=True)
                rows.append(row)
    ray.shutdown()
    write_results(args.results, finished(started, summarise(rows, args)), rows)


def summarise(rows: list[dict[str, Any]], args: argparse.Namespace) -> dict[str, Any]:
    def med(measure: str, engine: str, workers: int, key: str) -> float:
        found = [
            r[key]
            for r in rows
            if (r["measure"], r["engine"], r["workers"]) == (measure, engine, workers)
        ]
        return round(float(statistics.median(found)), 3)

    figures: dict[str, Any] = {"boards": args.boards, "games": args.games, "rounds": args.rounds}
    for measure, unit in (("batch", "boards_per_second"), ("games", "games_per_second")):
        figures[unit] = {
            f"{engine} {w}": med(measure, engine, w, "per_second")
            for engine in ("local", "ray")
            for w in (1, 2)
        }
        figures[f"{measure}_scaling_1_to_2"] = {
            engine: round(
                med(measure, engine, 2, "per_second") / med(measure, engine, 1, "per_second"), 2
            )
            for engine in ("local", "ray")
        }
        figures[f"{measure}_ray_over_local_at_2"] = round(
            med(measure, "ray", 2, "per_second") / med(measure, "local", 2, "per_second"), 2
        )
        figures[f"{measure}_start_seconds"] = {
            f"{engine} {w}": med(measure, engine, w, "start_seconds")
            for engine in ("local", "ray")
            for w in (1, 2)
        }
    figures["ray_ms_per_empty_call"] = {
        str(w): med("empty calls", "ray", w, "ms_per_call") for w in (1, 2)
    }
    figures["all_same_as_local"] = all(r.get("same_as_local", True) for r in rows)
    return figures


if __name__ == "__main__":
    main()
