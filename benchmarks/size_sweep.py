"""Solve time against position size, for each of our backends, as JSON lines and a PNG.

    python benchmarks/size_sweep.py --positions 20 --seed 1

Three sweeps over generated positions (106-tile set, jokers as dealt, opened):
the table from 0 to 100 tiles with a rack of 5 (the box holds no more beside 100
table tiles), the table from 0 to 80 with a rack of 20, and the rack from 5 to 40
beside a table of 60. Each point is `--positions` boards, each solved once by every
backend (in rotating order); the plot shows the median and a band up to the p90.
Every answer passes `check_move`. `--repeats N` solves each position N times and keeps
the fastest.

    python benchmarks/size_sweep.py --positions 20 --seed 1 --backends clp --old /old/solver

`--old PATH` adds, for each backend, an older checkout's `find_move` (PATH: its
`solver/`), timed the same way in a process of its own (`old_side.py`) and taken in
turn with ours, which then runs in a process of its own too: its lines are
`old/BACKEND`. The summary gives new / old of the median and the p90 over all
positions, with a 95% interval (`common.paired_ratio`), and lists the positions where
the old side played other tiles or another value (an older checkout may read the rules
otherwise).
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import Any, NamedTuple

import old_side
from common import Stats, finished, header, paired_ratio, results_option, timed, write_results

from rummisolve.board import format_board, parse_board
from rummisolve.engine.highs import quiet_stdout
from rummisolve.engine.solve import find_move
from rummisolve.generate import generate_boards
from rummisolve.legality import check_move
from rummisolve.rules import Rules
from rummisolve.tiles import JOKER

BACKENDS = ("clp", "highs", "cbc", "pulp-highs")


class Sweep(NamedTuple):
    """One line of sizes: which size varies, over what, and what stays fixed."""

    title: str
    varies: str  # "table" or "rack"
    sizes: tuple[int, ...]
    fixed: int

    def point(self, size: int) -> tuple[int, int]:
        """(table tiles, rack tiles) at this point of the sweep."""
        return (size, self.fixed) if self.varies == "table" else (self.fixed, size)


SWEEPS = (
    Sweep("table 0-100, rack 5", "table", tuple(range(0, 101, 10)), 5),
    Sweep("table 0-80, rack 20", "table", tuple(range(0, 81, 10)), 20),
    Sweep("rack 5-40, table 60", "rack", tuple(range(5, 41, 5)), 60),
)


def solve_here(board_text: str, backend: str, repeats: int = 1) -> dict[str, Any]:
    """`find_move` on a board, timed (the fastest of `repeats`), its answer checked (the
    old side's worker too)."""
    board = parse_board(board_text)
    runs = [timed(functools.partial(find_move, board, backend=backend)) for _ in range(repeats)]
    move, seconds = min(runs, key=lambda run: run[1])
    problems = check_move(board, move)
    assert not problems, f"{backend}: {problems}"
    return {
        "seconds": round(seconds, 6),
        "tiles_played": move.tiles_played,
        "value_played": move.value_played,
        "status": move.status.value,
    }


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    rules = Rules()
    # Side by side, ours runs in a process of its own too, as light as the old side's:
    # solved here, beside this process's records, its collections of garbage cost more.
    workers = {}
    if args.old is not None:
        workers = {"": old_side.Worker("new", None, __file__)}
        workers["old/"] = old_side.Worker("old", args.old, __file__)
    names = [*args.backends, *(f"old/{b}" for b in args.backends if workers)]
    first = format_board(next(generate_boards(1, args.seed, rules=rules)), full_rules=True)

    def solve(name: str, text: str) -> dict[str, Any]:
        if not workers:
            return solve_here(text, name, args.repeats)
        worker = workers["old/" if name.startswith("old/") else ""]
        backend = name.removeprefix("old/")
        return worker.ask({"board_text": text, "backend": backend, "repeats": args.repeats})

    for name in names:  # the first solve of each backend sets it up: not measured
        solve(name, first)
    records = []
    solves = 0
    try:
        for sweep in SWEEPS:
            for size in sweep.sizes:
                table, rack = sweep.point(size)
                boards = generate_boards(
                    args.positions, args.seed, table_tiles=table, rack_tiles=rack, rules=rules
                )
                for index, board in enumerate(boards):
                    text = format_board(board, full_rules=True)
                    shift = index % len(names)
                    answers = {}
                    for name in names[shift:] + names[:shift]:
                        answers[name] = answer = solve(name, text)
                        records.append(
                            {
                                "sweep": sweep.title,
                                "table_tiles": table,
                                "rack_tiles": rack,
                                "jokers": board.table_tiles.count(JOKER) + board.rack.count(JOKER),
                                "position": index + 1,
                                "backend": name,
                                **answer,
                            }
                        )
                        solves += 1
                if args.progress:
                    print(f"\r{sweep.title}: {size} ({solves} solves)", end="", file=sys.stderr)
    finally:
        for worker in workers.values():
            worker.close()
    if args.progress:
        print(file=sys.stderr)
    return records


def points(records: list[dict[str, Any]], sweep: Sweep, backend: str) -> list[tuple[int, Stats]]:
    """(size, stats over positions) along one sweep for one backend."""
    found = []
    for size in sweep.sizes:
        table, rack = sweep.point(size)
        seconds = [
            r["seconds"]
            for r in records
            if r["sweep"] == sweep.title
            and r["backend"] == backend
            and (r["table_tiles"], r["rack_tiles"]) == (table, rack)
        ]
        if seconds:
            found.append((size, Stats.of(seconds)))
    return found


def plot(records: list[dict[str, Any]], backends: list[str], path: Path, note: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, len(SWEEPS), figsize=(6 * len(SWEEPS), 5), sharey=True)
    palette = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown")
    colours = dict(zip(backends, palette * 2, strict=False))
    for ax, sweep in zip(axes, SWEEPS, strict=True):
        for backend in backends:
            line = points(records, sweep, backend)
            sizes = [size for size, _ in line]
            ax.plot(
                sizes,
                [s.median * 1000 for _, s in line],
                marker="o",
                color=colours[backend],
                label=backend,
            )
            ax.fill_between(
                sizes,
                [s.median * 1000 for _, s in line],
                [s.p90 * 1000 for _, s in line],
                color=colours[backend],
                alpha=0.15,
            )
        ax.set_title(sweep.title)
        ax.set_xlabel(f"{sweep.varies} tiles")
        ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("solve time per position, ms (model and solve; log scale)")
    axes[0].legend(loc="upper left", fontsize="small")
    figure.suptitle(
        f"rummisolve find_move: solve time against position size ({note})\n"
        "line: median over positions; band: median to p90"
    )
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)


def summary(records: list[dict[str, Any]], backends: list[str]) -> dict[str, Any]:
    return {
        sweep.title: {
            backend: {size: stats.as_ms() for size, stats in points(records, sweep, backend)}
            for backend in backends
        }
        for sweep in SWEEPS
    }


def new_over_old(records: list[dict[str, Any]], backends: list[str]) -> dict[str, Any]:
    """For each backend run on both sides: new / old over all positions, paired, and
    where the two played differently."""
    found = {}
    for backend in backends:
        pairs: dict[tuple[Any, ...], dict[str, dict[str, Any]]] = {}
        for r in records:
            if r["backend"] in (backend, f"old/{backend}"):
                key = (r["sweep"], r["table_tiles"], r["rack_tiles"], r["position"])
                pairs.setdefault(key, {})["old" if r["backend"].startswith("old/") else "new"] = r
        both = [p for p in pairs.values() if len(p) == 2]
        same = ("tiles_played", "value_played")
        found[backend] = {
            **paired_ratio(
                [p["new"]["seconds"] for p in both], [p["old"]["seconds"] for p in both]
            ),
            "played_differently": [
                [p["new"][k] for k in ("sweep", "table_tiles", "rack_tiles", "position")]
                for p in both
                if any(p["new"][k] != p["old"][k] for k in same)
            ],
        }
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=20, help="boards per point")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=1, help="solves a position (fastest kept)")
    parser.add_argument("--backends", nargs="+", default=list(BACKENDS))
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument(
        "--old", type=Path, metavar="PATH", help="an older checkout's solver/: side by side"
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    results_option(parser)
    args = parser.parse_args(argv)
    if args.serve:  # the old side's worker
        return old_side.serve(lambda asked: solve_here(**asked))
    started = header("size-sweep")
    with quiet_stdout():  # HiGHS prints its banner from C
        records = run(args)
    names = sorted({r["backend"] for r in records}, key=[r["backend"] for r in records].index)
    result = finished(
        started,
        {
            "positions_per_point": args.positions,
            "repeats": args.repeats,
            "old": None if args.old is None else str(args.old),
            "times": summary(records, names),
            "new_over_old": {} if args.old is None else new_over_old(records, args.backends),
        },
    )
    write_results(args.results, result, records)
    png = args.results / "size-sweep.png"
    machine = started["machine"]
    note = (
        f"{args.positions} positions a point, seed {args.seed}; commit "
        f"{started['commit']['head']}, {started['date'][:10]}; {machine['cpus']} CPUs, "
        f"load average {machine['load_average_1m_at_start']}"
    )
    plot(records, names, png, note)
    for title, by_backend in result["times"].items():
        print(title)
        for backend, by_size in by_backend.items():
            cells = "  ".join(
                f"{size}:{t['median_ms']:.1f}/{t['p90_ms']:.1f}" for size, t in by_size.items()
            )
            print(f"  {backend:11} median/p90 ms  {cells}")
    for backend, r in result["new_over_old"].items():
        print(
            f"new / old ({backend}): median x{r['median']} {r['median_95']}, "
            f"p90 x{r['p90']} {r['p90_95']}; played differently on {len(r['played_differently'])}"
        )
    print(f"wrote {png}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
