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

    python benchmarks/startup.py --repeat 30     # writes results/startup*.json*
"""

from __future__ import annotations

import argparse
import compileall
import subprocess
import sys
import time
from pathlib import Path

from common import Stats, finished, header, results_option, write_results

BOARD = Path(__file__).resolve().parents[1] / "puzzles" / "rules" / "012-interface-hint-example.txt"
COMMANDS = {
    "numpy": [sys.executable, "-c", "import numpy"],
    "hint": [sys.executable, "-m", "rummisolve", "hint", str(BOARD)],
    "check": [sys.executable, "-m", "rummisolve", "check", str(BOARD)],
}


def run_once(command: list[str]) -> float:
    """Wall-clock seconds of one whole process; it must succeed."""
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30, help="Runs of each command.")
    parser.add_argument(
        "--compile",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="compile the package's byte code first, as an install does (default: yes)",
    )
    results_option(parser)
    args = parser.parse_args()
    started = header("startup")
    if args.compile:
        import rummisolve

        compileall.compile_dir(Path(rummisolve.__file__).parent, quiet=1)
    for command in COMMANDS.values():  # warm the file cache and the byte-code caches
        run_once(command)
    rows = []
    names = list(COMMANDS)
    for r in range(args.repeat):
        for name in names if r % 2 == 0 else names[::-1]:
            rows.append({"command": name, "run": r, "seconds": run_once(COMMANDS[name])})
    stats = {
        name: Stats.of([row["seconds"] for row in rows if row["command"] == name])._asdict()
        for name in names
    }
    figures = {
        "byte_code_compiled_first": args.compile,
        "seconds": stats,
        "hint_over_numpy": stats["hint"]["median"] / stats["numpy"]["median"],
        "check_over_numpy": stats["check"]["median"] / stats["numpy"]["median"],
    }
    for path in write_results(args.results, finished(started, figures), rows):
        print(path)
    print(
        f"median: numpy {stats['numpy']['median'] * 1e3:.1f} ms, hint"
        f" {stats['hint']['median'] * 1e3:.1f} ms ({figures['hint_over_numpy']:.2f}x),"
        f" check {stats['check']['median'] * 1e3:.1f} ms ({figures['check_over_numpy']:.2f}x)"
    )


if __name__ == "__main__":
    main()
