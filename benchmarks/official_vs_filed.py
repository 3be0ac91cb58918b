"""The default today against jokers moving freely as they did when issue 11 was filed.

Issue 11 asks the rules as written, as the default, to be "as fast as `free` is today":
the default's median within 10% of `free`'s, its p99 and maximum within 2x, on the same
positions (strict_vs_free.py's three groups). "Today" is the code the issue was filed
against, b506a7b, whose default was `free`: `--old PATH` is that checkout's `solver/`.

Each side runs in a worker process of its own (old_side.py) and is handed each position
as board text (`format_board`, which both read); position by position they take turns,
which goes first alternating. This side solves the position under `official` and
`casual`, the old side under its default (`free`), each `--repeat` times (medians kept).
Every answer passes that side's `check_move`, and the casual answers of both sides play
the same number of tiles for the same points (the same rule, two engines).

    mkdir /tmp/filed && git archive b506a7b solver | tar -x -C /tmp/filed
    python benchmarks/official_vs_filed.py --old /tmp/filed/solver
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import old_side
from common import group_options, median

NAME = "official-vs-filed"


def serve(args: argparse.Namespace) -> int:
    """One side: for each `{"board"}` asked, the median seconds of each reading it
    solves under, and the casual (free) answer's tiles and points."""
    from rummisolve.board import parse_board
    from rummisolve.legality import check_move

    try:
        from rummisolve.engine.solve import find_move
    except ImportError:  # b506a7b's layout, before the engine was a package
        from rummisolve.solve import find_move  # type: ignore[no-redef,import-not-found]

    def readings(text: str) -> dict[str, Any]:
        board = parse_board(text)
        if args.side == "old":
            return {"free": board}
        from strict_vs_free import casual_board

        return {"official": board, "casual": casual_board(board)}

    def solve(asked: dict[str, Any]) -> dict[str, Any]:
        boards = readings(asked["board"])
        times: dict[str, list[float]] = {name: [] for name in boards}
        answer: dict[str, Any] = {}
        pairs = list(boards.items())
        for r in range(args.repeat):
            for name, board in pairs if r % 2 == 0 else pairs[::-1]:
                move = find_move(board)
                assert not check_move(board, move), (asked["board"], name)
                times[name].append(move.seconds)
                if name != "official":
                    answer = {"tiles": move.tiles_played, "points": move.value_played}
        return {f"{name}_s": median(t) for name, t in times.items()} | {"answer": answer}

    return old_side.serve(solve)


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    from strict_vs_free import compared

    official = [r["official_s"] for r in rows]
    return {
        "positions": len(rows),
        "official_now_over_free_filed": compared(official, [r["free_filed_s"] for r in rows]),
        "official_now_over_casual_now": compared(official, [r["casual_s"] for r in rows]),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, metavar="PATH", help="b506a7b's solver/")
    group_options(parser, 100)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--side", choices=["old", "new"], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        return serve(args)
    if args.old is None or not (args.old / "__init__.py").is_file():
        parser.error("--old: the solver/ folder of b506a7b, the code issue 11 was filed on")
    from strict_vs_free import GROUPS

    from rummisolve.board import format_board

    words = ["--repeat", str(args.repeat)]
    sides = {
        "old": old_side.Worker("old", args.old, __file__, "--side", "old", *words),
        "new": old_side.Worker("new", None, __file__, "--side", "new", *words),
    }
    questions = {
        group: [{"board": format_board(b)} for b in spec.boards(args.positions, args.seed)]
        for group, spec in GROUPS.items()
    }

    def row(group: str, position: int, replies: old_side.Answers) -> dict[str, Any]:
        old, new = replies["old"], replies["new"]
        if old["answer"] != new["answer"]:
            raise SystemExit(f"{group} {position}: {old['answer']} != {new['answer']}")
        times = {"official_s": new["official_s"], "casual_s": new["casual_s"]}
        return {"group": group, "position": position, **new["answer"], **times} | {
            "free_filed_s": old["free_s"]
        }

    return old_side.in_turn(NAME, args.old, args.results, sides, questions, row, summary)


if __name__ == "__main__":
    raise SystemExit(main())
