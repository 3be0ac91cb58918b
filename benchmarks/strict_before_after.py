"""The default (`official`) against `casual`, before and after an engine change, side by side.

strict_vs_free.py's positions and solves, asked of two engines at once: this checkout's
and an older one (`--old PATH`, that checkout's `solver/`), each in a worker process of
its own (old_side.py). Position by position, the two take turns (which goes first
alternates), so both meet the same load; each solves the position under official and
casual `--repeat` times (its medians kept). Every answer passes `check_move` in its
worker, and the two engines must agree on the official answer's tiles, points, sets kept
and status (the change is a matter of speed only): a position where they differ stops
the run. The summary gives the change by the stages this checkout's official solve ran
too (`after_over_before_by_stages`: the tables the pinned stage settles alone, those that
go on to homes).

    mkdir /tmp/before && git archive b49ddbc solver | tar -x -C /tmp/before
    python benchmarks/strict_before_after.py --old /tmp/before/solver
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import old_side
from common import group_options, median

NAME = "strict-before-after"
SIDES = ("before", "after")


def serve(args: argparse.Namespace) -> int:
    """One side: for each `{"group", "position"}` asked, the medians and the official
    answer."""

    from strict_vs_free import GROUPS, casual_board

    from rummisolve.board import Board
    from rummisolve.engine.solve import find_move
    from rummisolve.legality import check_move
    from rummisolve.move import SetChange

    boards: dict[str, list[Board]] = {}

    def solve(asked: dict[str, Any]) -> dict[str, Any]:
        group, position = asked["group"], asked["position"]
        if group not in boards:
            boards[group] = GROUPS[group].boards(args.positions, args.seed)
        official = boards[group][position]
        casual = casual_board(official)
        times: dict[str, list[float]] = {"official": [], "casual": []}
        answer = {}
        stages: list[str] = []  # the official solve's, its last one's

        def watch(stage: str, _: object, __: float) -> None:
            stages.append(stage)

        for r in range(args.repeat):
            pairs = [("official", official), ("casual", casual)]
            for name, board in pairs if r % 2 == 0 else pairs[::-1]:
                if name == "official":
                    stages.clear()
                move = find_move(board, watch=watch if name == "official" else None)
                assert not check_move(board, move), (group, position, name)
                times[name].append(move.seconds)
                if name == "official":
                    kept = sum(1 for s in move.steps if s.change is SetChange.KEEP)
                    answer = {
                        "tiles": move.tiles_played,
                        "points": move.value_played,
                        "kept": kept,
                        "status": move.status.value,
                    }
        medians = {"official_s": median(times["official"]), "casual_s": median(times["casual"])}
        return medians | {"answer": answer, "stages": stages}

    return old_side.serve(solve)


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    from strict_vs_free import compared

    figures: dict[str, Any] = {"positions": len(rows)}
    for side in SIDES:
        official = [r[f"{side}_official_s"] for r in rows]
        casual = [r[f"{side}_casual_s"] for r in rows]
        figures[side] = compared(official, casual)
    # The change itself, table by table (casual's: the control, which it leaves alone).
    figures["after_over_before"] = {
        profile: {
            "median_of_ratios": round(
                median([r[f"after_{profile}_s"] / r[f"before_{profile}_s"] for r in rows]), 3
            ),
            "total_s": [round(sum(r[f"{side}_{profile}_s"] for r in rows), 3) for side in SIDES],
        }
        for profile in ("official", "casual")
    }
    # The same by the stages the official solve ran (this checkout's), e.g. the tables
    # the pinned stage settles alone.
    by_stages: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_stages.setdefault("+".join(r["stages"]), []).append(r)
    figures["after_over_before_by_stages"] = {
        stages: {"tables": len(found)}
        | {
            profile: round(
                median([r[f"after_{profile}_s"] / r[f"before_{profile}_s"] for r in found]), 3
            )
            for profile in ("official", "casual")
        }
        for stages, found in sorted(by_stages.items())
    }
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, metavar="PATH", help="an older checkout's solver/")
    group_options(parser, 100)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        return serve(args)
    if args.old is None or not (args.old / "__init__.py").is_file():
        parser.error("--old: an older checkout's solver/ folder")
    from strict_vs_free import GROUPS, LARGE

    words = ["--positions", str(args.positions), "--repeat", str(args.repeat)]
    words += ["--seed", str(args.seed)]
    sides = {
        "before": old_side.Worker("before", args.old, __file__, *words),
        "after": old_side.Worker("after", None, __file__, *words),
    }
    questions = {
        group: [
            {"group": group, "position": n}
            for n in range(len(spec.boards(args.positions, args.seed)))
        ]
        for group, spec in GROUPS.items()
    }

    def row(group: str, position: int, replies: old_side.Answers) -> dict[str, Any]:
        before, after = replies["before"], replies["after"]
        if before["answer"] != after["answer"]:
            raise SystemExit(f"{group} {position}: {before['answer']} != {after['answer']}")
        found = {"group": group, "position": position, **after["answer"]}
        found["stages"] = after["stages"]
        for side, reply in replies.items():
            found[f"{side}_official_s"] = reply["official_s"]
            found[f"{side}_casual_s"] = reply["casual_s"]
        return found

    return old_side.in_turn(NAME, args.old, args.results, sides, questions, row, summary, LARGE)


if __name__ == "__main__":
    raise SystemExit(main())
