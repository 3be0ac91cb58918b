"""What every benchmark script shares: statistics, the run's header, its results files.

The scripts import this as a sibling module (`python benchmarks/<script>.py` puts
benchmarks/ on the path), so it stays free of anything script-specific.

Each benchmark has one name and at most two files in `results/`, both overwritten by its
latest run: `NAME.jsonl` (one raw row a line) and `NAME-summary.json` (the figures, and
the header: the command, the commit measured, the date and the machine). Earlier runs
are in git history, not in file names.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

# The nearest-rank percentile, as `rummisolve bench` reports it: one definition for both.
from rummisolve.bench import percentile as percentile

RESULTS = Path(__file__).resolve().parent / "results"
REPO = RESULTS.parent.parent
# Versions that change what is measured, where installed.
PACKAGES = ("highspy", "pulp", "cbcbox", "numpy", "rummikub-solver", "cvxopt", "cvxpy-base")
T = TypeVar("T")


def median(values: Iterable[float]) -> float:
    return float(statistics.median(values))


class Stats(NamedTuple):
    """Times of one solver over many positions, in seconds."""

    samples: int
    median: float
    p90: float
    max: float

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Stats:
        return cls(len(seconds), median(seconds), percentile(seconds, 0.9), max(seconds))

    def as_ms(self) -> dict[str, float]:
        return {
            "median_ms": round(self.median * 1000, 3),
            "p90_ms": round(self.p90 * 1000, 3),
            "max_ms": round(self.max * 1000, 3),
        }


def paired_ratio(new: Sequence[float], old: Sequence[float]) -> dict[str, Any]:
    """new / old of the median and of the p90 over paired positions, each with a 95%
    interval from resampling the positions (1,000 rounds, fixed seed): a ratio whose
    interval holds 1 is within the noise of these positions."""
    assert len(new) == len(old) and new, "paired times, one per position on each side"
    draw = random.Random(0)
    found: dict[str, Any] = {}
    for name, statistic in (("median", median), ("p90", lambda xs: percentile(xs, 0.9))):
        rounds = []
        for _ in range(1000):
            picked = [draw.randrange(len(new)) for _ in new]
            rounds.append(statistic([new[i] for i in picked]) / statistic([old[i] for i in picked]))
        rounds.sort()
        found[name] = round(statistic(new) / statistic(old), 3)
        found[f"{name}_95"] = [round(rounds[25], 3), round(rounds[974], 3)]
    return found


def timed(call: Callable[[], T]) -> tuple[T, float]:
    """The call's result and its wall-clock time in seconds."""
    started = time.perf_counter()
    result = call()
    return result, time.perf_counter() - started


def load_average() -> float:
    """Other work on the machine slows every solver: figures under load are not comparable."""
    return round(os.getloadavg()[0], 2)


def machine() -> dict[str, Any]:
    """Enough about the machine to read the figures in context."""
    return {
        "hostname": platform.node(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_model": cpu_model(),
        "cpus": os.cpu_count(),
        "packages": versions(),
        "load_average_1m_at_start": load_average(),
    }


def cpu_model() -> str:
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8") as info:
        for line in info:
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    return platform.processor() or platform.machine()


def versions() -> dict[str, str]:
    found = {}
    for name in PACKAGES:
        with contextlib.suppress(metadata.PackageNotFoundError):
            found[name] = metadata.version(name)
    return found


def commit() -> dict[str, Any]:
    """The commit measured: that of the checkout the imported `rummisolve` comes from (an
    editable install may point at another clone than this one), and whether its solver/
    differed from that commit (uncommitted changes are what runs)."""
    import rummisolve

    source = Path(rummisolve.__file__).resolve().parent.parent

    def git(where: Path, *words: str) -> str:
        done = subprocess.run(
            ["git", *words], cwd=where, capture_output=True, text=True, check=False
        )
        return done.stdout.strip()

    found: dict[str, Any] = {
        "head": git(source, "rev-parse", "--short", "HEAD") or "unknown",
        "solver_changes_uncommitted": git(
            source, "status", "--porcelain", "--", "solver", "pyproject.toml"
        ).splitlines(),
        "rummisolve_from": str(source),
    }
    if source != REPO:
        found["this_checkout_head"] = git(REPO, "rev-parse", "--short", "HEAD")
    return found


def header(benchmark: str) -> dict[str, Any]:
    """What a summary starts with: taken when the run starts (the load average then)."""
    return {
        "benchmark": benchmark,
        "command": " ".join(["python", f"benchmarks/{Path(sys.argv[0]).name}", *sys.argv[1:]]),
        "commit": commit(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(),
    }


def group_options(parser: argparse.ArgumentParser, positions: int) -> None:
    """The options of the scripts over strict_vs_free's groups of positions: how many in
    each group, how many solves of each (their median kept), the seed, `--results`."""
    parser.add_argument("--positions", type=int, default=positions, help="per group")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    results_option(parser)


def results_option(parser: argparse.ArgumentParser) -> None:
    """`--results DIR`: where the files go; a trial run elsewhere keeps results/ as it is."""
    parser.add_argument(
        "--results",
        type=Path,
        default=RESULTS,
        metavar="DIR",
        help="folder of the results files (default: benchmarks/results, overwritten)",
    )


def finished(started: dict[str, Any], figures: dict[str, Any]) -> dict[str, Any]:
    """The summary: the header taken at the start, the load average now, the figures."""
    return {**started, "load_average_1m_at_end": load_average(), **figures}


def write_results(
    folder: Path, summary: dict[str, Any], rows: Iterable[dict[str, Any]] | None = None
) -> list[Path]:
    """The benchmark's files, replacing its last run's: the rows (if any) as JSON lines,
    then the summary; their names are said on stderr (stdout is the script's figures)."""
    folder.mkdir(parents=True, exist_ok=True)
    name = summary["benchmark"]
    written = []
    if rows is not None:
        path = folder / f"{name}.jsonl"
        with path.open("w", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps(row) + "\n")
        written.append(path)
    path = folder / f"{name}-summary.json"
    path.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    written.append(path)
    print(f"wrote {' and '.join(map(str, written))}", file=sys.stderr)
    return written
