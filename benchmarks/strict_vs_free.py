"""The rules as written against jokers moving freely: the default's cost, side by side.

The same positions are solved under the `official` profile (joker-retrieval strict, the
default) and under `casual` (jokers free), in one run, alternating which goes first, each
position `--repeat` times (its median kept). The positions: dealt ones (generate's default
sizes); large tables (40-60 tiles) with exactly 2 jokers in play (106 tiles) and exactly 4
(160 tiles), each without wraparound and with it (the four summed up as `large` too); and
issue 33's board (benchmarks/boards/). Every answer is checked by `check_move`, and the
official answer is never better than the casual one (a looser reading's optimum bounds it).
Each official solve's stages are in its row (`official_stages`: each stage's ms, the last
solve's), and so is each repeat's pair of solves, official then casual, solved one after
the other (`runs_ms`): `ratio`, the median of their ratios, pairs times taken under the
same load, which a median of each side's times taken apart does not (`median_of_ratios`).
The summary says the same of the tables by the stages their official solve ran (`stages`),
and of each table's first pair alone (`first_pair`: what a table costs before anything
found for it is kept, as `hint` solves a board once; a median over repeats hides that);
`what_if` says which cost moves the ratio of medians (the homes stage's, or the pinned
stage's on the tables it settles).

    python benchmarks/strict_vs_free.py   # results/strict-vs-free.jsonl and -summary.json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from common import finished, group_options, header, median, percentile, write_results

from rummisolve.board import Board, read_board
from rummisolve.engine.solve import find_move
from rummisolve.generate import generate_boards
from rummisolve.legality import check_move
from rummisolve.rules import PROFILES, Rules


class Group(NamedTuple):
    """Positions dealt alike: their sizes and the rules they are dealt under."""

    table_tiles: tuple[int, int]
    rack_tiles: tuple[int, int]
    jokers: tuple[int, int] | None
    rules: Rules

    def boards(self, positions: int, seed: int) -> list[Board]:
        """The group's positions, the same for every script that asks with these numbers."""
        return list(
            generate_boards(
                positions,
                seed,
                table_tiles=self.table_tiles,
                rack_tiles=self.rack_tiles,
                jokers=self.jokers,
                rules=self.rules,
            )
        )


class Fixed(NamedTuple):
    """Positions from board files: the same whatever the count and the seed."""

    paths: tuple[Path, ...]

    def boards(self, positions: int, seed: int) -> list[Board]:
        return [read_board(path) for path in self.paths]


BOARDS = Path(__file__).parent / "boards"
GROUPS: dict[str, Group | Fixed] = {
    "dealt": Group((0, 60), (5, 20), None, Rules()),
    "large-2-jokers": Group((40, 60), (10, 20), (2, 2), Rules()),
    "large-4-jokers": Group((40, 60), (10, 20), (4, 4), Rules(tile_set=160)),
    "large-2-jokers-wrap": Group((40, 60), (10, 20), (2, 2), Rules(wraparound=True)),
    "large-4-jokers-wrap": Group((40, 60), (10, 20), (4, 4), Rules(tile_set=160, wraparound=True)),
    "large-issue-33": Fixed((BOARDS / "issue33-wraparound.txt",)),
}
# The groups summed up together as well: issue 33's large joker-heavy boards.
LARGE = "large"


def solve_both(board: Board, repeat: int, first: int) -> dict[str, Any]:
    """Median seconds under official and casual, alternating which starts."""
    official = board
    casual = casual_board(board)
    times: dict[str, list[float]] = {"official": [], "casual": []}
    moves = {}
    stages: dict[str, float] = {}
    order = [("official", official), ("casual", casual)]
    for r in range(repeat):
        stages.clear()
        for name, b in order if (r + first) % 2 == 0 else order[::-1]:
            watch = None if b is casual else lambda stage, _, s: stages.update({stage: s})
            move = find_move(b, watch=watch)
            times[name].append(move.seconds)
            moves[name] = (b, move)
    for b, move in moves.values():
        problems = check_move(b, move)
        assert not problems, problems
    strict_move, free_move = moves["official"][1], moves["casual"][1]
    assert (strict_move.tiles_played, strict_move.value_played) <= (
        free_move.tiles_played,
        free_move.value_played,
    )
    pairs = list(zip(times["official"], times["casual"], strict=True))
    return {
        "official_s": median(times["official"]),
        "casual_s": median(times["casual"]),
        "ratio": round(median([o / c for o, c in pairs]), 4),
        "runs_ms": [[round(o * 1000, 3), round(c * 1000, 3)] for o, c in pairs],
        "official_tiles": strict_move.tiles_played,
        "casual_tiles": free_move.tiles_played,
        "official_stages": {stage: round(s * 1000, 3) for stage, s in stages.items()},
    }


def casual_board(board: Board) -> Board:
    """The board with its jokers moving freely (the casual profile's joker rule), its other
    rules as they are: official and casual differ in that alone."""
    profile = PROFILES["casual"].rules
    changes = {"profile": "casual", "joker_retrieval": profile.joker_retrieval}
    return dataclasses.replace(board, rules=board.rules.replace(**changes))


def milliseconds(values: list[float]) -> dict[str, float]:
    return {
        "median_ms": round(median(values) * 1000, 3),
        "p90_ms": round(percentile(values, 0.9) * 1000, 3),
        "p99_ms": round(percentile(values, 0.99) * 1000, 3),
        "max_ms": round(max(values) * 1000, 3),
    }


def compared(official: list[float], casual: list[float]) -> dict[str, Any]:
    """Both sides' times, and official's over casual's (the issue's targets)."""
    ratios = [o / c for o, c in zip(official, casual, strict=True)]
    return {
        "official": milliseconds(official),
        "casual": milliseconds(casual),
        "ratio_of_medians": round(median(official) / median(casual), 3),
        "ratio_of_p99": round(percentile(official, 0.99) / percentile(casual, 0.99), 3),
        "ratio_of_max": round(max(official) / max(casual), 3),
        "median_of_ratios": round(median(ratios), 3),
    }


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    official = [r["official_s"] for r in rows]
    casual = [r["casual_s"] for r in rows]
    by_stages: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_stages.setdefault(" ".join(r["official_stages"]), []).append(r)
    return {
        "positions": len(rows),
        **compared(official, casual),
        "median_of_paired_ratios": round(median([r["ratio"] for r in rows]), 3),
        "first_pair": first_pair(rows),
        "fewer_tiles_under_official": sum(
            1 for r in rows if r["official_tiles"] < r["casual_tiles"]
        ),
        "what_if": what_if(rows),
        "stages": {
            stages: {
                "tables": len(some),
                "median_of_paired_ratios": round(median([r["ratio"] for r in some]), 3),
                "official_median_ms": round(median([r["official_s"] for r in some]) * 1000, 3),
                "casual_median_ms": round(median([r["casual_s"] for r in some]) * 1000, 3),
            }
            for stages, some in sorted(by_stages.items(), key=lambda kv: -len(kv[1]))
        },
    }


def what_if(rows: list[dict[str, Any]]) -> dict[str, float]:
    """The ratio of medians if the tables that ran the homes stage took their pinned
    stage's time alone, or that plus 0.25-1 ms (the homes stage free or nearly), and if
    the tables the pinned stage settles took 0.9-0.95 of their time: which cost moves the
    median. (A table's stages are its last solve's, its time the median of its solves.)"""
    casual = median([r["casual_s"] for r in rows])

    def ratio(official: Callable[[dict[str, Any]], float]) -> float:
        return round(median([official(r) for r in rows]) / casual, 3)

    def homes_at(ms: float) -> Callable[[dict[str, Any]], float]:
        def official(r: dict[str, Any]) -> float:
            stages = r["official_stages"]
            return float((stages["pinned"] + ms) / 1000 if "homes" in stages else r["official_s"])

        return official

    def settled_at(share: float) -> Callable[[dict[str, Any]], float]:
        def official(r: dict[str, Any]) -> float:
            settled = list(r["official_stages"]) == ["pinned"]
            return float(r["official_s"]) * (share if settled else 1.0)

        return official

    return {
        "homes_free": ratio(homes_at(0.0)),
        **{f"homes_at_{ms}_ms": ratio(homes_at(ms)) for ms in (0.25, 0.5, 1.0)},
        **{f"settled_at_{share}": ratio(settled_at(share)) for share in (0.95, 0.9)},
    }


def first_pair(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Each table's first official and casual solves (which went first alternates from
    table to table): their medians over the tables, and the median of their ratios."""
    pairs = [r["runs_ms"][0] for r in rows]
    return {
        "official_median_ms": round(median([o for o, _ in pairs]), 3),
        "casual_median_ms": round(median([c for _, c in pairs]), 3),
        "median_of_ratios": round(median([o / c for o, c in pairs]), 3),
    }


def main(argv: list[str] | None = None) -> int:
    assert __doc__ is not None
    return run_groups("strict-vs-free", __doc__, 200, solve_both, summary, argv)


def run_groups(
    benchmark: str,
    doc: str,
    positions: int,
    measure: Callable[[Board, int, int], dict[str, Any]],
    summarise: Callable[[list[dict[str, Any]]], dict[str, Any]],
    argv: list[str] | None,
) -> int:
    """A script over the groups: its options (`--positions`, `positions` by default),
    each group's positions measured (`measure(board, repeat, position)`: its row) and
    summed up, each group's summary said as it ends; the results written and printed."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    group_options(parser, positions)
    args = parser.parse_args(argv)
    started = header(benchmark)
    rows, summaries = [], {}
    for name, spec in GROUPS.items():
        boards = spec.boards(args.positions, args.seed)
        group = [
            {"group": name, "position": n, **measure(board, args.repeat, n)}
            for n, board in enumerate(boards)
        ]
        rows.extend(group)
        summaries[name] = summarise(group)
        print(name, json.dumps(summaries[name]), file=sys.stderr)
    summaries[LARGE] = summarise([r for r in rows if r["group"].startswith(LARGE)])
    result = finished(started, {"summaries": summaries})
    write_results(args.results, result, rows)
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
