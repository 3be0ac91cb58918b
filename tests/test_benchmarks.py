"""The benchmark scripts still run, and their results say what was measured, when and where."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def bench(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Runs benchmarks/SCRIPT with ARGS from the checkout's root, its output kept."""
    return subprocess.run(
        [sys.executable, f"benchmarks/{script}", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_benchmark_writes_its_rows_and_a_summary_with_its_header(tmp_path: Path) -> None:
    command = ["benchmarks/game_bench.py", "--players", "2", "--seeds", "1"]
    done = bench("game_bench.py", *command[1:], "--results", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "game-bench-summary.json",
        "game-bench.jsonl",
    ]
    summary = json.loads((tmp_path / "game-bench-summary.json").read_text(encoding="utf-8"))
    assert summary["benchmark"] == "game-bench"
    assert summary["command"].startswith("python " + " ".join(command))
    assert summary["commit"]["head"]
    assert {"date", "machine", "load_average_1m_at_end"} <= set(summary)
    assert summary["players"]["2"]["games"] == 1
    rows = (tmp_path / "game-bench.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(row)["players"] for row in rows] == [2]


RESULTS = ROOT / "benchmarks" / "results"


def test_every_results_file_is_one_benchmark_s_and_its_summary_has_the_header() -> None:
    """One name per benchmark, overwritten by its latest run: no copies named by run."""
    summaries = {p.name.removesuffix("-summary.json"): p for p in RESULTS.glob("*-summary.json")}
    assert summaries
    for path in RESULTS.iterdir():
        name = path.name.removesuffix("-summary.json").removesuffix(".jsonl")
        assert path.suffix in {".json", ".jsonl", ".png"} and Path(name).stem in summaries, path
    for name, path in summaries.items():
        summary = json.loads(path.read_text(encoding="utf-8"))
        assert summary["benchmark"] == name
        assert {"command", "commit", "date", "machine"} <= set(summary), name


def test_ray_bench_help_needs_no_ray() -> None:
    done = bench("ray_bench.py", "--help")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("usage: ray_bench.py")


@pytest.mark.skipif(importlib.util.find_spec("ray") is not None, reason="Ray is installed")
def test_ray_bench_without_ray_says_to_install_the_extra_in_one_line() -> None:
    """It was a traceback (ModuleNotFoundError), even for --help."""
    done = bench("ray_bench.py", "--rounds", "1")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        'ray_bench.py needs Ray: install the ray extra, pip install "rummisolve[ray]"'
        " (No module named 'ray')\n"
    )


def test_official_anatomy_classes_every_table_and_counts_the_homes_search(tmp_path: Path) -> None:
    """It reaches into the engine's stages (the pinned model, homes, our search): a change
    there that it no longer follows fails here, not in the next session's measurement."""
    done = bench(
        "official_anatomy.py",
        "--positions",
        "4",
        "--repeat",
        "1",
        "--seed",
        "11",
        "--results",
        str(tmp_path),
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in (tmp_path / "official-anatomy.jsonl").open()]
    # strict_vs_free's groups: five dealt (4 positions each) and issue 33's one board.
    assert len(rows) == 5 * 4 + 1
    assert {r["class"] for r in rows} <= {"free", "settled", "refused"}
    for row in rows:
        if row["class"] == "refused":
            assert 1 <= row["homes_optimum_found_at_lp"] <= row["homes_lps"]


def test_pinned_parts_times_every_part_of_the_tables_the_pinned_stage_settles(
    tmp_path: Path,
) -> None:
    """It wraps the stages module's own calls: a part renamed or gone fails here."""
    done = bench(
        "pinned_parts.py",
        "--positions",
        "2",
        "--repeat",
        "2",
        "--seed",
        "7",
        "--results",
        str(tmp_path),
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in (tmp_path / "pinned-parts.jsonl").open()]
    assert rows and all(row["stages"] == ["pinned"] for row in rows)
    for row in rows:
        # Each part ran where its side runs it: the stay rows and the check, official alone.
        assert row["official"]["pin_jokers"][0] > 0 and row["casual"]["pin_jokers"][0] == 0
        assert row["official"]["_solve"][0] > 0 and row["casual"]["_solve"][0] > 0
