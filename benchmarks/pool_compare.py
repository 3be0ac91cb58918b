"""The batch worker pool of this checkout against an earlier commit's, side by side in one
run: how long two workers take to start (this pool forks them from a fork server started
for them; the earlier one forked this process), and batch throughput with --jobs 1 and
--jobs 2.

    python benchmarks/pool_compare.py                    # against --old 4f5c34e
    python benchmarks/pool_compare.py --old COMMIT --runs 7

The earlier code is taken from git (`git archive COMMIT solver`) into a temporary folder
and imported in its place (PYTHONPATH), with the same interpreter and libraries. Each
measurement is a process of its own, as a user's batch is; the variants alternate within
each round, so that the machine's load falls on them alike. Start-up: from before
`Workers(settings, 2)` until both workers are ready to solve, in a process that has
already imported the package. Throughput: the batch's own time (its summary line: from the
first board to the last), and the whole process's. Medians over the runs; one JSON
object, written to benchmarks/results/pool-compare-summary.json and printed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import finished, header, results_option, write_results

ROOT = Path(__file__).resolve().parent.parent

START = """
import time
from rummisolve.batch import BatchSettings, Workers
if __name__ == "__main__":
    started = time.perf_counter()
    workers = Workers(BatchSettings(), 2)
    print(time.perf_counter() - started)
    workers.close()
"""


def old_package(commit: str, into: Path) -> Path:
    """The package at `commit`, importable as `rummisolve` from the folder returned."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "solver"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    (into / "pkg").mkdir()
    (into / "pkg" / "rummisolve").symlink_to(into / "solver")
    return into / "pkg"


def environment(path: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return env if path is None else {**env, "PYTHONPATH": str(path)}


def start_seconds(script: Path, env: dict[str, str]) -> float:
    done = subprocess.run(
        [sys.executable, str(script)], env=env, capture_output=True, text=True, check=True
    )
    return float(done.stdout)


def batch_seconds(folder: Path, jobs: int, env: dict[str, str]) -> tuple[float, float]:
    """The batch's own time (its summary) and the whole process's."""
    command = [sys.executable, "-m", "rummisolve", "batch", str(folder), "--jobs", str(jobs)]
    started = time.perf_counter()
    done = subprocess.run(
        [*command, "--format", "jsonl"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
    )
    whole = time.perf_counter() - started
    summary = re.search(r"boards in ([0-9.]+) s", done.stderr)
    assert summary is not None, done.stderr
    return float(summary.group(1)), whole


def commit_of(ref: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", ref],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", default="4f5c34e", help="The commit whose pool to compare.")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--boards", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--table-tiles", default="0-30")
    parser.add_argument("--rack-tiles", default="5-14")
    results_option(parser)
    args = parser.parse_args()
    started = header("pool-compare")
    record: dict[str, Any] = {
        "old_commit": commit_of(args.old),
        "runs": args.runs,
        "boards": args.boards,
        "seed": args.seed,
        "table_tiles": args.table_tiles,
        "rack_tiles": args.rack_tiles,
    }
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "boards"
        sizes = ["--table-tiles", args.table_tiles, "--rack-tiles", args.rack_tiles]
        deal = ["generate", "--count", str(args.boards), "--seed", str(args.seed)]
        subprocess.run(
            [sys.executable, "-m", "rummisolve", *deal, "--out", str(folder), *sizes],
            check=True,
            stdout=subprocess.DEVNULL,
            env=environment(None),
        )
        script = Path(temp) / "start_workers.py"
        script.write_text(START)
        variants = {"new": environment(None), "old": environment(old_package(args.old, Path(temp)))}
        starts: dict[str, list[float]] = {name: [] for name in variants}
        batches: dict[str, list[tuple[float, float]]] = {
            f"{name}_jobs{jobs}": [] for name in variants for jobs in (1, 2)
        }
        for _ in range(args.runs):
            for name, env in variants.items():
                starts[name].append(start_seconds(script, env))
                for jobs in (1, 2):
                    batches[f"{name}_jobs{jobs}"].append(batch_seconds(folder, jobs, env))
    record["start_two_workers_ms"] = {
        name: {
            "median": round(1000 * statistics.median(times), 1),
            "all": [round(1000 * t, 1) for t in times],
        }
        for name, times in starts.items()
    }
    record["start_ratio_new_over_old"] = round(
        statistics.median(starts["new"]) / statistics.median(starts["old"]), 2
    )
    throughput: dict[str, Any] = {}
    for key, runs in batches.items():
        batch, whole = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
        throughput[key] = {
            "boards_per_s": round(args.boards / batch, 1),
            "batch_s": [round(r[0], 3) for r in runs],
            "process_s_median": round(whole, 3),
        }
    record["throughput"] = throughput

    def rate(key: str) -> float:
        return float(throughput[key]["boards_per_s"])

    record["ratios"] = {
        "new_jobs2_over_jobs1": round(rate("new_jobs2") / rate("new_jobs1"), 3),
        "old_jobs2_over_jobs1": round(rate("old_jobs2") / rate("old_jobs1"), 3),
        "new_jobs2_over_old_jobs2": round(rate("new_jobs2") / rate("old_jobs2"), 3),
        "new_jobs1_over_old_jobs1": round(rate("new_jobs1") / rate("old_jobs1"), 3),
        # Each round's two batches ran a second apart, under much the same load.
        "new_jobs2_over_old_jobs2_paired_median": round(
            statistics.median(
                old[0] / new[0]
                for new, old in zip(batches["new_jobs2"], batches["old_jobs2"], strict=True)
            ),
            3,
        ),
    }
    summary = finished(started, record)
    write_results(args.results, summary)
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
