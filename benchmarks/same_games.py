"""The same seeds play the same games on two versions of the code: each runs the same
`play` and `tournament` commands (every built-in strategy, `search` included, several
rule profiles and table sizes) with `--log`, and the logs must match byte for byte, and
`play --json` too but for its `solver_calls` (a change that answers the same with fewer
solves plays the same games: the calls are printed beside).

    python3 benchmarks/same_games.py --old /path/to/old/typecheck --new typecheck

`--old` and `--new` are PYTHONPATH entries that import each version as `rummisolve`
(e.g. `git archive <commit> solver typecheck | tar -x -C /tmp/old`). Prints one line per
command and exits 1 on the first difference.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

COMMANDS = {
    "four strategies": "play --players 4 --games 4 --seed 3"
    " --strategy greedy,heavy,cautious,hoarder",
    "search, casual": "play --players 2 --games 3 --seed 9 --strategy search,greedy"
    " --think 0.05 --rules casual",
    "five players": "play --players 5 --games 1 --seed 5 --strategy hoarder,greedy",
    "norwegian": "play --players 3 --games 2 --seed 4 --strategy cautious,heavy --rules norwegian",
    "tournament": "tournament --players 3 --strategies search,hoarder --games 3 --seed 2"
    " --think 0.05",
}


def run(path: str, command: str, out: Path) -> tuple[bytes, str, int]:
    """The command's log, and when it is `play` its --json output without its solver
    calls, and their total (a tournament's report holds its wall time)."""
    log = out / "log.jsonl"
    args = [sys.executable, "-m", "rummisolve", *command.split(), "--log", str(log)]
    if command.startswith("play"):
        args.append("--json")
    done = subprocess.run(
        args, env=os.environ | {"PYTHONPATH": path}, capture_output=True, check=True
    )
    if not command.startswith("play"):
        return log.read_bytes(), "", 0
    report = json.loads(done.stdout)
    calls = sum(game.pop("solver_calls") for game in report["rows"])
    return log.read_bytes(), json.dumps(report, sort_keys=True), calls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="PYTHONPATH of the old version")
    parser.add_argument("--new", required=True, help="PYTHONPATH of the new version")
    args = parser.parse_args()
    for label, command in COMMANDS.items():
        with tempfile.TemporaryDirectory() as old_dir, tempfile.TemporaryDirectory() as new_dir:
            old = run(os.path.abspath(args.old), command, Path(old_dir))
            new = run(os.path.abspath(args.new), command, Path(new_dir))
        turns = old[0].count(b"\n")
        if old[:2] != new[:2]:
            print(f"{label}: DIFFERENT ({command})")
            return 1
        calls = f", solver calls {old[2]} -> {new[2]}" if old[2] or new[2] else ""
        print(f"{label}: same ({turns} turns logged{calls})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
