"""The default (`official`) against `casual`, before and after an engine change, side by side.

strict_vs_free.py's positions and solves, asked of two engines at once: this checkout's
and an earlier one (`--before DIR`, a folder holding its `rummisolve` package), each in a
worker process of its own. Position by position, the two take turns (which goes first
alternates), so both meet the same load; each solves the position under official and
casual `--repeat` times (its medians kept). Every answer passes `check_move` in its
worker, and the two engines must agree on the official answer's tiles, points, sets kept
and status (the change is a matter of speed only): a position where they differ stops
the run.

    mkdir /tmp/before && git archive b49ddbc solver | tar -x -C /tmp/before
    mv /tmp/before/solver /tmp/before/rummisolve
    python benchmarks/strict_before_after.py --before /tmp/before
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

from common import finished, header, median, percentile, results_option, write_results

NAME = "strict-before-after"


def worker(repeat: int, seed: int, positions: int) -> None:
    """Answer requests (a group and a position, one JSON line each) on stdin: the medians
    and the official answer, one JSON line each on stdout."""
    import dataclasses

    from strict_vs_free import GROUPS, _casual

    from rummisolve.engine.solve import find_move
    from rummisolve.generate import generate_boards
    from rummisolve.legality import check_move
    from rummisolve.move import Action

    boards: dict[str, list[Any]] = {}
    for line in sys.stdin:
        asked = json.loads(line)
        group, position = asked["group"], asked["position"]
        if group not in boards:
            spec = GROUPS[group]
            boards[group] = list(
                generate_boards(
                    positions,
                    seed,
                    table_tiles=spec.table_tiles,
                    rack_tiles=spec.rack_tiles,
                    jokers=spec.jokers,
                    rules=spec.rules,
                )
            )
        official = boards[group][position]
        casual = dataclasses.replace(official, rules=official.rules.replace(**_casual()))
        times: dict[str, list[float]] = {"official": [], "casual": []}
        answer = {}
        for r in range(repeat):
            pairs = [("official", official), ("casual", casual)]
            for name, board in pairs if r % 2 == 0 else pairs[::-1]:
                move = find_move(board)
                assert not check_move(board, move), (group, position, name)
                times[name].append(move.seconds)
                if name == "official":
                    kept = sum(1 for s in move.steps if s.action is Action.KEEP)
                    answer = {
                        "tiles": move.tiles_played,
                        "points": move.value_played,
                        "kept": kept,
                        "status": move.status.value,
                    }
        reply = {"official_s": median(times["official"]), "casual_s": median(times["casual"])}
        print(json.dumps(reply | {"answer": answer}), flush=True)


def _ask(process: subprocess.Popen[str], request: dict[str, Any]) -> dict[str, Any]:
    stdin, stdout = process.stdin, process.stdout
    assert stdin is not None and stdout is not None
    stdin.write(json.dumps(request) + "\n")
    stdin.flush()
    reply: dict[str, Any] = json.loads(stdout.readline())
    return reply


def _start(pythonpath: str | None, args: argparse.Namespace) -> subprocess.Popen[str]:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    command = [sys.executable, __file__, "--worker"]
    command += ["--repeat", str(args.repeat), "--seed", str(args.seed)]
    command += ["--positions", str(args.positions)]
    pipe = subprocess.PIPE
    return subprocess.Popen(command, stdin=pipe, stdout=pipe, text=True, env=env)


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def ms(values: list[float]) -> dict[str, float]:
        return {
            "median_ms": round(median(values) * 1000, 3),
            "p90_ms": round(percentile(values, 0.9) * 1000, 3),
            "p99_ms": round(percentile(values, 0.99) * 1000, 3),
            "max_ms": round(max(values) * 1000, 3),
        }

    figures: dict[str, Any] = {"positions": len(rows)}
    for side in ("before", "after"):
        official = [r[f"{side}_official_s"] for r in rows]
        casual = [r[f"{side}_casual_s"] for r in rows]
        ratios = [o / c for o, c in zip(official, casual, strict=True)]
        figures[side] = {
            "official": ms(official),
            "casual": ms(casual),
            "ratio_of_medians": round(median(official) / median(casual), 3),
            "ratio_of_p99": round(percentile(official, 0.99) / percentile(casual, 0.99), 3),
            "ratio_of_max": round(max(official) / max(casual), 3),
            "median_of_ratios": round(median(ratios), 3),
        }
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="folder holding the earlier rummisolve")
    parser.add_argument("--positions", type=int, default=100, help="per group")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    results_option(parser)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.repeat, args.seed, args.positions)
        return 0
    if args.before is None or not (args.before / "rummisolve").is_dir():
        parser.error("--before: a folder holding the earlier engine's rummisolve package")
    from strict_vs_free import GROUPS

    started = header(NAME)
    started["before"] = str(args.before)
    workers = {"before": _start(str(args.before), args), "after": _start(None, args)}
    rows, summaries = [], {}
    try:
        for group in GROUPS:
            done = []
            for position in range(args.positions):
                order = ["before", "after"] if position % 2 == 0 else ["after", "before"]
                asked = {"group": group, "position": position}
                replies = {w: _ask(workers[w], asked) for w in order}
                before, after = replies["before"], replies["after"]
                if before["answer"] != after["answer"]:
                    raise SystemExit(f"{group} {position}: {before['answer']} != {after['answer']}")
                row = {"group": group, "position": position, **after["answer"]}
                for side, reply in replies.items():
                    row[f"{side}_official_s"] = reply["official_s"]
                    row[f"{side}_casual_s"] = reply["casual_s"]
                done.append(row)
            rows.extend(done)
            summaries[group] = summary(done)
            print(group, json.dumps(summaries[group]), file=sys.stderr)
    finally:
        for process in workers.values():
            _close(process.stdin)
            process.wait()
    result = finished(started, {"summaries": summaries})
    written = write_results(args.results, result, rows)
    print(json.dumps(result, indent=1))
    print(f"wrote {' and '.join(map(str, written))}", file=sys.stderr)
    return 0


def _close(stream: IO[str] | None) -> None:
    if stream is not None:
        stream.close()


if __name__ == "__main__":
    raise SystemExit(main())
