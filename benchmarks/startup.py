"""A whole `rummisolve hint` process against `python -c 'import numpy'`, side by side.

Issue 14's goal: a whole hint, from process start to its answer printed, at most 1.5
times what Python takes to start and import numpy alone, in the same environment. The
two commands alternate (which goes first alternates too), each run `--repeat` times;
the medians and their ratio are the figures.

Byte code: an install from a wheel compiles every module when it installs (pip does),
and numpy's caches were written so; an editable install never compiles ours where
PYTHONDONTWRITEBYTECODE is set. So that both sides start as an install would, the
package's modules are compiled first (`compileall`, into its `__pycache__` folders,
which git ignores); `--no-compile` measures them compiled on every run instead.

Each run's CPU time (user and system, the process's threads included) is taken too: on a
loaded machine a process waits for a core, which counts in its wall-clock time but not
in its CPU time, so the CPU ratios are the steadier figures there.

numpy's OpenBLAS starts a spinning thread a core as it loads (unless the environment
names a count), while the command loads it with one: under load those threads slow the
baseline most, and the ratio flatters the command. So `numpy/one-thread`, numpy's import
with OPENBLAS_NUM_THREADS=1, is taken in the same alternation, and every ratio is given
over both baselines; the one-thread ratio is the one that holds at any load.

`--old PATH` adds an older checkout's `hint` and `check` (PATH: its `solver/`, imported
as `old_side.py` does; compiled first too, so give a copy, not a checkout to keep clean),
taken in the same alternation: the change's own figure is new over old in one run.

    python benchmarks/startup.py --repeat 30     # writes results/startup*.json*
    python benchmarks/startup.py --repeat 30 --old /tmp/old/solver
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import old_side
from common import Stats, finished, header, results_option, write_results

from rummisolve.startup import BLAS_THREADS

BOARD = Path(__file__).resolve().parents[1] / "puzzles" / "rules" / "012-interface-hint-example.txt"
COMMANDS = {
    "numpy": [sys.executable, "-c", "import numpy"],
    "hint": [sys.executable, "-m", "rummisolve", "hint", str(BOARD)],
    "check": [sys.executable, "-m", "rummisolve", "check", str(BOARD)],
}
# numpy's import with one BLAS thread, as the command loads it.
ONE_THREAD = "numpy/one-thread"
# A command and its environment (None: this process's).
Command = tuple[list[str], dict[str, str] | None]


def run_once(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one whole process; it must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30, help="Runs of each command.")
    parser.add_argument(
        "--compile",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="compile the package's byte code first, as an install does (default: yes)",
    )
    parser.add_argument(
        "--old", type=Path, metavar="PATH", help="an older checkout's solver/: side by side"
    )
    results_option(parser)
    args = parser.parse_args()
    started = header("startup")
    commands: dict[str, Command] = {name: (command, None) for name, command in COMMANDS.items()}
    one_thread = os.environ | {"OPENBLAS_NUM_THREADS": "1"}
    commands[ONE_THREAD] = (COMMANDS["numpy"], one_thread)
    with old_side.environment(args.old) as old_env:
        if args.old is not None:
            for name in ("hint", "check"):
                commands[f"old/{name}"] = (COMMANDS[name], old_env)
        rows = measure(commands, args.repeat, args.compile, args.old)
    names = list(commands)
    figures: dict[str, object] = {
        "byte_code_compiled_first": args.compile,
        "old": None if args.old is None else str(args.old),
        "blas_environment": {name: os.environ.get(name) for name in BLAS_THREADS},
    }
    measured = [name for name in names if not name.startswith("numpy")]
    for kind in ("seconds", "cpu_seconds"):
        stats = {
            name: Stats.of([row[kind] for row in rows if row["command"] == name])._asdict()
            for name in names
        }
        median = {name: stats[name]["median"] for name in names}
        over = "over" if kind == "seconds" else "cpu_over"
        figures[kind] = stats
        for base, suffix in (("numpy", ""), (ONE_THREAD, "_one_thread")):
            figures |= {
                f"{name}_{over}_numpy{suffix}": median[name] / median[base] for name in measured
            }
        if args.old is not None:
            for name in ("hint", "check"):
                figures[f"{name}_{over}_old"] = median[name] / median[f"old/{name}"]
        print(
            f"median {kind}: numpy {median['numpy'] * 1e3:.1f} ms, {ONE_THREAD} "
            f"{median[ONE_THREAD] * 1e3:.1f} ms; "
            + ", ".join(
                f"{name} {median[name] * 1e3:.1f} ms ({median[name] / median['numpy']:.2f}x,"
                f" {median[name] / median[ONE_THREAD]:.2f}x)"
                for name in measured
            )
        )
    write_results(args.results, finished(started, figures), rows)


def measure(
    commands: dict[str, Command],
    repeat: int,
    compile_first: bool,
    old: Path | None,
) -> list[dict[str, Any]]:
    """Every command `repeat` times, alternating (and the order reversed every other
    round), after one run of each to warm the file and byte-code caches."""
    if compile_first:
        import rummisolve

        for package in (Path(rummisolve.__file__).parent, old):
            if package is not None:
                compileall.compile_dir(os.path.realpath(package), quiet=1)
    for command, env in commands.values():
        run_once(command, env)
    rows: list[dict[str, Any]] = []
    names = list(commands)
    for r in range(repeat):
        for name in names if r % 2 == 0 else names[::-1]:
            wall, cpu = run_once(*commands[name])
            rows.append({"command": name, "run": r, "seconds": wall, "cpu_seconds": cpu})
    return rows


if __name__ == "__main__":
    main()
