"""Batch throughput with --jobs 1 and --jobs 2, and the memory of a long batch (issue 4:
--jobs 2 at least 1.8 times the throughput of --jobs 1 on 500 positions; the memory of
a 10,000-board batch stays flat).

    python benchmarks/batch_throughput.py                 # both parts
    python benchmarks/batch_throughput.py --only throughput

Each batch is a whole `rummisolve batch` process, as a user runs it. Throughput: the
runs alternate --jobs 1 and --jobs 2, `--runs` times each, and the medians of the
batch's own time (its summary line, Python's start-up left out) are compared; the
whole process's ratio is recorded too, what two processes gain on this machine at
all (`machine_ratio`: a busy loop), and what it gives two `--jobs 1` batches at once
(`workload_ratio`: this very work). Memory: the resident set of the batch process and
of its workers, sampled every 0.1 s with the number of rows written so far, so that
the first thousand boards can be set against the last. Each part writes its summary,
results/batch-throughput-summary.json and results/batch-memory-summary.json, and prints
it.

The machine's load average is recorded with each: the ratio only means something when
two cores are free for the two workers.

    python benchmarks/batch_throughput.py --only throughput --old /old/solver

`--old PATH` also runs an older checkout's batches (PATH: its `solver/`, imported as
`old_side.py` says), each run of ours followed or preceded by one of its, in turns:
`old` gives its boards per second, and `new_over_old` ours against it, per --jobs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import old_side
from common import finished, header, median, results_option, write_results

RUMMISOLVE = [sys.executable, "-m", "rummisolve"]
# The memory part's boards: small, so that 10,000 of them take a minute.
MEMORY_TABLE, MEMORY_RACK = "0-15", "3-8"


def generate(folder: Path, count: int, seed: int, table: str, rack: str) -> None:
    sizes = ["--table-tiles", table, "--rack-tiles", rack]
    subprocess.run(
        [
            *RUMMISOLVE,
            "generate",
            "--count",
            str(count),
            "--seed",
            str(seed),
            "--out",
            str(folder),
            *sizes,
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )


class Run(NamedTuple):
    """One batch: the whole process's wall time, the batch's own time (its summary line:
    from the first board to the last, Python's start-up left out), CPU of all processes."""

    process: float
    batch: float
    cpu: float


def batch_command(folder: Path, jobs: int) -> list[str]:
    return [*RUMMISOLVE, "batch", str(folder), "--jobs", str(jobs), "--format", "jsonl"]


def batch_seconds(stderr: str) -> float:
    summary = re.search(r"boards in ([0-9.]+) s", stderr)
    assert summary is not None, stderr
    return float(summary.group(1))


def timed_batch(folder: Path, jobs: int, env: dict[str, str] | None = None) -> Run:
    """One batch, under this checkout's code or (`env`) another's."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        batch_command(folder, jobs),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
        env=env,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return Run(wall, batch_seconds(done.stderr), cpu)


def two_at_once(folder: Path) -> float:
    """Two `--jobs 1` batches started together: the longer one's batch time. Twice the
    work in this time, against one batch alone, is what this machine gives two copies of
    this very work (caches and memory shared), where a busy loop shares nothing."""
    both = [
        subprocess.Popen(
            batch_command(folder, 1), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    return max(batch_seconds(p.communicate()[1]) for p in both)


def _spin(n: int = 20_000_000) -> None:
    while n:
        n -= 1


def machine_ratio() -> float:
    """What two processes gain over one on this machine at all: the same busy loop
    twice in a row, then in two processes at once (a virtual machine's two cores, or
    a neighbour's load, can keep this well under 2)."""
    started = time.perf_counter()
    _spin()
    _spin()
    serial = time.perf_counter() - started
    started = time.perf_counter()
    with ProcessPoolExecutor(2) as pool:
        list(pool.map(_spin, [20_000_000] * 2))
    return serial / (time.perf_counter() - started)


def throughput(folder: Path, boards: int, runs: int, old: Path | None = None) -> dict[str, Any]:
    runs_by_jobs: dict[int, list[Run]] = {1: [], 2: []}
    old_runs: dict[int, list[Run]] = {1: [], 2: []}
    together: list[float] = []
    with old_side.environment(old) as old_env:
        for run in range(runs):
            sides = [(runs_by_jobs, None), (old_runs, old_env)][: 1 + (old is not None)]
            for kept, env in sides if run % 2 == 0 else sides[::-1]:
                for jobs in (1, 2):
                    kept[jobs].append(timed_batch(folder, jobs, env))
            together.append(two_at_once(folder))

    def typical(jobs: int, field: str) -> float:
        return median(getattr(r, field) for r in runs_by_jobs[jobs])

    line: dict[str, Any] = {"boards": boards, "runs": runs}
    for jobs in (1, 2):
        line[f"batch_seconds_jobs{jobs}"] = [round(r.batch, 3) for r in runs_by_jobs[jobs]]
        line[f"process_seconds_jobs{jobs}"] = [round(r.process, 3) for r in runs_by_jobs[jobs]]
        line[f"boards_per_s_jobs{jobs}"] = round(boards / typical(jobs, "batch"), 1)
        line[f"cpu_seconds_jobs{jobs}"] = round(typical(jobs, "cpu"), 3)
    if old is not None:
        line["old"] = {"path": str(old)}
        for jobs in (1, 2):
            old_batch = median(r.batch for r in old_runs[jobs])
            line["old"][f"batch_seconds_jobs{jobs}"] = [round(r.batch, 3) for r in old_runs[jobs]]
            line["old"][f"boards_per_s_jobs{jobs}"] = round(boards / old_batch, 1)
            line[f"new_over_old_jobs{jobs}"] = round(old_batch / typical(jobs, "batch"), 3)
    return {
        **line,
        # The target: throughput of the batch itself (Python's start-up is the same
        # ~0.3 s for both and would cap the ratio of short batches).
        "ratio": round(typical(1, "batch") / typical(2, "batch"), 3),
        "ratio_whole_process": round(typical(1, "process") / typical(2, "process"), 3),
        "machine_ratio": round(machine_ratio(), 3),
        "two_single_job_batches_seconds": together,
        "workload_ratio": round(2 * typical(1, "batch") / median(together), 3),
    }


def rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def memory(folder: Path, boards: int, jobs: int) -> dict[str, Any]:
    """RSS of the batch process and its workers while it runs, against rows written."""
    samples: list[tuple[int, int, int]] = []  # rows written, parent KB, workers KB
    with tempfile.TemporaryFile() as out:
        command = [*RUMMISOLVE, "batch", str(folder), "--jobs", str(jobs), "--format", "jsonl"]
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL)
        while process.poll() is None:
            rows = os.pread(out.fileno(), 1 << 30, 0).count(b"\n") if samples else 0
            parent = rss_kb(process.pid)
            workers = sum(rss_kb(c) for c in children(process.pid))
            if parent:
                samples.append((rows, parent, workers))
            time.sleep(0.1)
        out.seek(0)
        written = out.read().count(b"\n")

    def peak(low: int, high: int) -> dict[str, int]:
        window = [s for s in samples if low <= s[0] < high]
        return {
            "samples": len(window),
            "parent_kb": max((s[1] for s in window), default=0),
            "workers_kb": max((s[2] for s in window), default=0),
        }

    return {
        "boards": boards,
        "jobs": jobs,
        "rows_written": written,
        "first_1000_rows": peak(1, 1000),
        "last_1000_rows": peak(boards - 1000, boards + 1),
        "peak_parent_kb": max(s[1] for s in samples),
        "peak_workers_kb": max(s[2] for s in samples),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--table-tiles", default="0-30")
    parser.add_argument("--rack-tiles", default="5-14")
    parser.add_argument("--memory-boards", type=int, default=10_000)
    parser.add_argument("--only", choices=["throughput", "memory"], help="Run one part.")
    parser.add_argument(
        "--old", type=Path, metavar="PATH", help="an older checkout's solver/: side by side"
    )
    results_option(parser)
    args = parser.parse_args(argv)
    sizes = {"seed": args.seed, "table_tiles": args.table_tiles, "rack_tiles": args.rack_tiles}
    with tempfile.TemporaryDirectory() as temp:
        if args.only != "memory":
            started = header("batch-throughput")
            folder = Path(temp) / "boards"
            generate(folder, args.boards, args.seed, args.table_tiles, args.rack_tiles)
            figures = {**sizes, **throughput(folder, args.boards, args.runs, args.old)}
            report(args.results, finished(started, figures))
        if args.only != "throughput":
            started = header("batch-memory")
            folder = Path(temp) / "many"
            generate(folder, args.memory_boards, args.seed, MEMORY_TABLE, MEMORY_RACK)
            figures = {**sizes, "table_tiles": MEMORY_TABLE, "rack_tiles": MEMORY_RACK}
            figures |= memory(folder, args.memory_boards, 2)
            report(args.results, finished(started, figures))
    return 0


def report(folder: Path, summary: dict[str, Any]) -> None:
    write_results(folder, summary)
    print(json.dumps(summary))


if __name__ == "__main__":
    sys.exit(main())
