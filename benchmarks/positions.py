"""What the benchmark scripts share: timing, statistics, result files.

The scripts import this as a sibling module (`python benchmarks/<script>.py` puts
benchmarks/ on the path), so it stays free of anything script-specific.
"""

from __future__ import annotations

import json
import math
import os
import platform
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

RESULTS = Path(__file__).resolve().parent / "results"
T = TypeVar("T")


class Stats(NamedTuple):
    """Times of one solver over many positions, in seconds."""

    samples: int
    median: float
    p90: float
    max: float

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Stats:
        return cls(len(seconds), statistics.median(seconds), percentile(seconds, 90), max(seconds))

    def as_ms(self) -> dict[str, float]:
        return {
            "median_ms": round(self.median * 1000, 3),
            "p90_ms": round(self.p90 * 1000, 3),
            "max_ms": round(self.max * 1000, 3),
        }


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile by the nearest-rank rule: always a time that was measured."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def timed(call: Callable[[], T]) -> tuple[T, float]:
    """The call's result and its wall-clock time in seconds."""
    started = time.perf_counter()
    result = call()
    return result, time.perf_counter() - started


def machine() -> dict[str, Any]:
    """Enough about the machine to read the figures in context."""
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        # Other work on the machine slows every solver: figures under load are not comparable.
        "load_average_1m_at_start": load_average(),
    }


def load_average() -> float:
    return round(os.getloadavg()[0], 2)


def write_jsonl(path: Path, records: Iterable[dict[str, Any]]) -> int:
    """Write one JSON object a line, creating the folder; returns the number written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with path.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record, sort_keys=False) + "\n")
            written += 1
    return written
