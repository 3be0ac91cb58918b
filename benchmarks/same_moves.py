"""The same moves before and after a change: 2,000 fixed boards, official and casual.

A regrouping must leave behaviour as it was. This checkout and an older one (`--old REV`,
a commit whose `solver/` is exported to a scratch folder) each solve the same dealt
boards in a worker process of their own (old_side.py), in turn, under `official` and
under `casual`. Each answer is checked by its side's `check_move`, and compared as the
new table (a multiset of sets, each as laid with what its jokers stand for), the tiles
played, their value and the status. The run reports identical or different, with the
first differences, and never stops at one.

The boards: small and dealt tables, boards not yet opened, and large joker-heavy
tables (2 jokers of 106 tiles, 4 of 160), seeded; `--count` boards in all; with
`--wraparound`, dealt and solved with wraparound on.

    python benchmarks/same_moves.py --old c6dead4            # results/same-moves*
    python benchmarks/same_moves.py --old HEAD --count 40 --results /tmp/trial
    python benchmarks/same_moves.py --old c6dead4 --wraparound --results /tmp/wrap
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

import old_side
from common import REPO, finished, header, median, results_option, write_results

NAME = "same-moves"
RULES = ("official", "casual")
SHOWN = 10  # the differences a summary lists


class Deal(NamedTuple):
    """Boards dealt alike: their share of the count, sizes, jokers, box and opening."""

    share: float
    table_tiles: tuple[int, int]
    rack_tiles: tuple[int, int]
    jokers: tuple[int, int] | None
    tile_set: int
    opened: bool


DEALS = {
    "small": Deal(0.30, (0, 24), (3, 12), None, 106, True),
    "dealt": Deal(0.25, (0, 60), (5, 20), None, 106, True),
    "not-opened": Deal(0.20, (0, 45), (8, 18), None, 106, False),
    "large-2-jokers": Deal(0.15, (40, 60), (10, 20), (2, 2), 106, True),
    "large-4-jokers": Deal(0.10, (40, 60), (10, 20), (4, 4), 160, True),
}


def counts(total: int) -> dict[str, int]:
    """Each deal's number of boards: its share of `total`, the first deal taking the rest."""
    found = {name: int(total * deal.share) for name, deal in DEALS.items()}
    first = next(iter(found))
    found[first] += total - sum(found.values())
    return found


def serve(args: argparse.Namespace) -> int:
    """One side: for each `{"deal", "position"}` asked, each rule set's answer in canonical
    form, its seconds and its legality problems."""
    import dataclasses

    from rummisolve.board import Board
    from rummisolve.engine.solve import find_move
    from rummisolve.generate import generate_boards
    from rummisolve.legality import check_move
    from rummisolve.rules import Rules, profile_rules
    from rummisolve.tiles import format_tiles

    try:  # before the regrouping, with the narration (asked first: an editable install's
        # finder would hand an older package this checkout's table_reading)
        from rummisolve.actions import board_after  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        from rummisolve.table_reading import board_after

    boards: dict[str, list[Board]] = {}

    def dealt(name: str) -> list[Board]:
        deal = DEALS[name]
        rules = Rules(tile_set=deal.tile_set, wraparound=args.wraparound)
        return list(
            generate_boards(
                counts(args.count)[name],
                args.seed,
                table_tiles=deal.table_tiles,
                rack_tiles=deal.rack_tiles,
                jokers=deal.jokers,
                rules=rules,
                opened=deal.opened,
            )
        )

    def under(board: Board, profile: str) -> Board:
        """The board under a profile's rules, its box and wraparound as dealt."""
        dealt = board.rules
        rules = profile_rules(profile).replace(tile_set=dealt.tile_set, wraparound=dealt.wraparound)
        return dataclasses.replace(board, rules=rules)

    def answer(asked: dict[str, Any]) -> dict[str, Any]:
        name, position = asked["deal"], asked["position"]
        if name not in boards:
            boards[name] = dealt(name)
        found = {}
        for profile in RULES:
            board = under(boards[name][position], profile)
            move = find_move(board)
            after = board_after(board, move)
            jokers = after.declared or tuple(() for _ in after.table)
            sets = sorted(
                format_tiles(row) + "".join(f" J={r}" if r else " J=?" for r in said)
                for row, said in zip(after.table, jokers, strict=True)
            )
            found[profile] = {
                "move": {
                    "status": move.status.value,
                    "played": format_tiles(move.played),
                    "value": move.value_played,
                    "table": sets,
                },
                "seconds": move.seconds,
                "problems": check_move(board, move),
            }
        return found

    return old_side.serve(answer)


def first_difference(old: dict[str, Any], new: dict[str, Any]) -> str:
    """What differs between two canonical answers, in a line."""
    for key in ("status", "played", "value"):
        if old[key] != new[key]:
            return f"{key}: {old[key]} -> {new[key]}"
    gone = Counter(old["table"]) - Counter(new["table"])
    came = Counter(new["table"]) - Counter(old["table"])
    return f"table: lost {sorted(gone.elements())}, gained {sorted(came.elements())}"


def compared(name: str, position: int, replies: old_side.Answers) -> dict[str, Any]:
    """One board's row: under each rule set, whether the two moves are the same, every
    legality problem (named by side), both sides' seconds, and what differs if anything."""
    found: dict[str, Any] = {"deal": name, "position": position}
    for profile in RULES:
        old, new = replies["old"][profile], replies["new"][profile]
        problems = [f"old: {p}" for p in old["problems"]] + [f"new: {p}" for p in new["problems"]]
        same = old["move"] == new["move"]
        found[profile] = {
            "identical": same,
            "problems": problems,
            "old_s": old["seconds"],
            "new_s": new["seconds"],
        }
        if not same or problems:
            said = "; ".join(problems) or first_difference(old["move"], new["move"])
            found[profile]["difference"] = said
            print(f"{name} {position} {profile}: {said}", file=sys.stderr)
    return found


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Identical or not, the first differences, and each side's median seconds."""
    differences = [
        {"deal": r["deal"], "position": r["position"], "rules": p, "difference": r[p]["difference"]}
        for r in rows
        for p in RULES
        if "difference" in r[p]
    ]
    figures: dict[str, Any] = {
        "verdict": "different" if differences else "identical",
        "boards": len(rows),
        "deals": dict(Counter(r["deal"] for r in rows)),
    }
    for profile in RULES:
        mine = [r[profile] for r in rows]
        figures[profile] = {
            "identical": sum(r["identical"] for r in mine),
            "different": sum(not r["identical"] for r in mine),
            "illegal": sum(bool(r["problems"]) for r in mine),
            "old_median_ms": round(median(r["old_s"] for r in mine) * 1000, 3),
            "new_median_ms": round(median(r["new_s"] for r in mine) * 1000, 3),
        }
    return figures | {"differences": len(differences), "first_differences": differences[:SHOWN]}


def exported(rev: str, folder: Path) -> tuple[str, Path]:
    """`rev`'s commit and its `solver/`, exported to `folder`: the older side's package."""
    found = subprocess.run(
        ["git", "rev-parse", "--short", f"{rev}^{{commit}}"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    if found.returncode != 0:
        raise SystemExit(f"--old: no commit {rev!r} in {REPO}")
    commit = found.stdout.strip()
    archive = subprocess.run(
        ["git", "archive", commit, "solver"], cwd=REPO, capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return commit, folder / "solver"


def compare(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    """Every board asked of both sides in turn (which goes first alternating, so that both
    meet the same load); the rows and the summary written, the workers stopped whatever
    happens."""
    started = header(NAME)
    old_commit, package = exported(args.old, folder)
    words = ["--count", str(args.count), "--seed", str(args.seed)]
    words += ["--wraparound"] if args.wraparound else []
    sides = {
        "old": old_side.Worker("old", package, __file__, *words),
        "new": old_side.Worker("new", None, __file__, *words),
    }
    rows = []
    try:
        for name, many in counts(args.count).items():
            for position in range(many):
                order = list(sides) if position % 2 == 0 else list(sides)[::-1]
                asked = {"deal": name, "position": position}
                rows.append(compared(name, position, {s: sides[s].ask(asked) for s in order}))
    finally:
        for worker in sides.values():
            worker.close()
    asked = {"old": old_commit, "seed": args.seed, "wraparound": args.wraparound}
    result = finished(started, asked | summary(rows))
    write_results(args.results, result, rows)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", metavar="REV", help="the older commit (e.g. main, c6dead4)")
    parser.add_argument("--count", type=int, default=2000, help="boards in all")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--wraparound", action="store_true", help="every board with it on")
    results_option(parser)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        return serve(args)
    if args.old is None:
        parser.error("--old: the commit to compare with")
    if args.count < len(DEALS):
        parser.error(f"--count: at least {len(DEALS)}, a board of each deal")
    with tempfile.TemporaryDirectory(prefix="rummisolve-same-moves-") as folder:
        result = compare(args, Path(folder))
    print(json.dumps(result, indent=1))
    return 0 if result["verdict"] == "identical" else 1


if __name__ == "__main__":
    raise SystemExit(main())
