"""`rummisolve review` over seeded four-player games (greedy, hoarder, search, greedy):
each strategy's tiles missed per turn against the best move, and the turns reviewed per
second with 1 and 2 jobs (issue 32).

    python benchmarks/review_bench.py --games 100 --seed 1

The games are played once (`rummisolve play --log`, seed `--seed`) into `--games-log`
(kept for `review --puzzles`; default: a scratch file), then reviewed `--repeat` times
at each number of jobs, the jobs alternating; one row per run in
results/review-bench.jsonl, the medians in results/review-bench-summary.json. The figures
per strategy come from the first run (every run reviews the same turns to the same bests).

    python benchmarks/review_bench.py --games 100 --seed 1 --puzzles DIR --puzzle-games 20

instead mines puzzles (`review --puzzles DIR`, its defaults) from the first
`--puzzle-games` games and confirms them (`batch DIR --check-expected --unique`): the
puzzles written, the turns skipped (proof cut), the seconds and the puzzles confirmed in
results/review-puzzles-summary.json. An existing `--games-log` is mined as it is.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from common import finished, header, median, results_option, write_results

from rummisolve.cli import cli
from rummisolve.review import Solving, TurnReview, read_logs, review

STRATEGIES = ("greedy", "hoarder", "search")
SEATS = {f"P{n + 1}": STRATEGIES[n % len(STRATEGIES)] for n in range(4)}


def play(games: int, seed: int, log: Path) -> None:
    args = ["play", "--players", "4", "--games", str(games), "--seed", str(seed)]
    args += ["--strategy", ",".join(STRATEGIES), "--log", str(log)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output


def per_strategy(turns: list[TurnReview]) -> dict[str, Any]:
    figures = {}
    for name in STRATEGIES:
        mine = [t for t in turns if SEATS[t.position.player] == name]
        figures[name] = {
            "turns": len(mine),
            "tiles_missed_per_turn": round(sum(t.tiles_missed for t in mine) / len(mine), 4),
            "points_missed_per_turn": round(sum(t.points_missed for t in mine) / len(mine), 3),
            "best_share": round(sum(not t.tiles_missed for t in mine) / len(mine), 4),
            "could_have_gone_out": sum(t.mark.value == "could-have-gone-out" for t in mine),
        }
    return figures


def mine(log: Path, games: int, folder: Path, scratch: Path) -> dict[str, Any]:
    """Puzzles from the first `games` games of the log, as `review --puzzles` writes them,
    then confirmed by `batch --check-expected --unique`."""
    first = scratch / "first-games.jsonl"
    with log.open(encoding="utf-8") as lines:
        kept = [line for line in lines if json.loads(line)["game"] <= games]
    first.write_text("".join(kept), encoding="utf-8")
    began = time.perf_counter()
    mined = CliRunner().invoke(cli, ["review", "--puzzles", str(folder), str(first)])
    seconds = time.perf_counter() - began
    assert mined.exit_code == 0, mined.output
    said = re.search(r"wrote (\d+) puzzles?.*?(?:; (\d+) turns? skipped|$)", mined.stderr, re.M)
    assert said is not None, mined.stderr
    checked = CliRunner().invoke(cli, ["batch", str(folder), "--check-expected", "--unique"])
    unique = re.search(r"unique: (\d+) of (\d+)", checked.stderr)
    return {
        "puzzle_games": games,
        "turns": sum(1 for _ in kept),
        "puzzles_written": int(said.group(1)),
        "turns_skipped_proof_cut": int(said.group(2) or 0),
        "seconds": round(seconds, 1),
        "batch_exit": checked.exit_code,
        "confirmed_unique": int(unique.group(1)) if unique else 0,
        "batch_stderr_tail": checked.stderr.strip().splitlines()[-3:],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--games-log", type=Path, help="where the games' log is kept")
    parser.add_argument("--puzzles", type=Path, metavar="DIR", help="mine puzzles instead")
    parser.add_argument("--puzzle-games", type=int, default=100)
    results_option(parser)
    options = parser.parse_args()
    started = header("review-puzzles" if options.puzzles else "review-bench")
    with tempfile.TemporaryDirectory() as scratch:
        log = options.games_log or Path(scratch) / "games.jsonl"
        if not log.exists():
            play(options.games, options.seed, log)
        if options.puzzles:
            mined = mine(log, options.puzzle_games, options.puzzles, Path(scratch))
            write_results(options.results, finished(started, mined))
            print(mined)
            return
        found = read_logs([str(log)])
    rows: list[dict[str, Any]] = []
    figures: dict[str, Any] = {}
    for repeat in range(options.repeat):
        for jobs in (1, 2) if repeat % 2 == 0 else (2, 1):
            began = time.perf_counter()
            reviewed = [t for t in review(found, Solving(), jobs) if isinstance(t, TurnReview)]
            seconds = time.perf_counter() - began
            rows.append({"jobs": jobs, "turns": len(reviewed), "seconds": round(seconds, 3)})
            print(rows[-1], flush=True)
            figures = figures or per_strategy(reviewed)
    speed = {
        f"turns_per_second_{jobs}_jobs": round(
            median(r["turns"] / r["seconds"] for r in rows if r["jobs"] == jobs), 1
        )
        for jobs in (1, 2)
    }
    summary = finished(
        started,
        {"games": options.games, "seats": SEATS, "turns": rows[0]["turns"]}
        | speed
        | {"strategies": figures},
    )
    write_results(options.results, summary, rows)
    print(summary["strategies"], speed)


if __name__ == "__main__":
    main()
