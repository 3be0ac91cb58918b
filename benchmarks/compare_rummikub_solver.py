"""Side by side with the PyPI package `rummikub-solver`, on the same positions, in one run.

    python benchmarks/compare_rummikub_solver.py --positions 200 --seed 1

Every position is solved by each backend of ours and each installed backend of
rummikub-solver, `--repeats` times, in an order that rotates from one position to the
next so that no solver always runs first. What is timed is the solver's own call: its
`RuleSet.solve(state)` (its game state already built: the model and the solve, read
back as sets and tiles); our `find_move(board)` (the same, plus the steps: where each
tile of the new table comes from); and, for the backends in `--model-and-solve`, our
model and solve alone, read back as sets and tiles, as its call is. The legality checks
are not timed. A position's time is the
median of its repeats; over positions the summary gives median, p90 and max, and the
ratio of ours to rummikub-solver's fastest backend. Every answer of ours passes
`check_move`; every answer of theirs is checked against our set rules too. A
position's number in the results is its number from `rummisolve generate` with the
same seed and sizes (position 7 is gen-00007.txt), so any of them can be dealt again.

What rummikub-solver can express, and so what this compares:
- No wraparound runs: positions are dealt with wraparound off.
- The table is a multiset it rearranges freely, as ours does; "fewest changes to the
  table" (our third criterion) does not change the number of tiles played.
- Its candidate sets leave out groups of 4 with a joker and runs of 4-5 with a joker at
  an end. A table that its sets cannot cover (R5 B5 K5 J, say) makes it answer "no
  move"; such positions are skipped (counted in the summary). On the rack the same gap
  may make its best move smaller than ours: counted as "ours more".
- Its initial meld may use the table in a second solve: not our rules, so only opened
  positions are compared.
- Its table jokers are free: it rearranges them like any tile. Our default rules
  (`official`, joker-retrieval=strict) keep a table joker with its set unless the tile it
  stands for, from the rack, frees it: a different problem wherever a joker lies on the
  table. `--table-jokers` says what is done with those positions: `casual` (the default)
  solves ours under the `casual` profile for them (the official rules but for free
  jokers: the problem it solves), `skip` leaves them out and deals on. Positions without
  a table joker are the same problem under both rule sets and are solved under our
  default rules, as dealt. The choice is printed and recorded in the summary, with the
  figures for the positions without table jokers apart; where ours ran `casual`, the
  summary also counts how many of its answers the official rules pass as well.
- Its objective counts tiles (jokers included), like ours, but has no tie-break on
  value: the value played is recorded on both sides, and compared, not asserted.

    python benchmarks/compare_rummikub_solver.py --positions 60 --old /old/solver

`--old PATH` runs an older checkout's `find_move` (PATH: its `solver/`) beside ours for
each of `--backends`: each side in a process of its own (size_sweep.py's worker,
`old_side.py`), taken in turn with the others, so ours then runs in its worker too. Its
lines are `old/BACKEND`; the summary adds new / old of the median and the p90 with a 95%
interval over positions (`common.paired_ratio`) and lists where the two played
differently (an older checkout may read the rules otherwise).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import old_side
from common import (
    Stats,
    finished,
    header,
    load_average,
    median,
    paired_ratio,
    results_option,
    timed,
    write_results,
)

from rummisolve.board import Board, format_board
from rummisolve.engine.backends import get_backend
from rummisolve.engine.highs import quiet_stdout
from rummisolve.engine.model import read_solution
from rummisolve.engine.solve import find_move
from rummisolve.engine.stages import solve_model
from rummisolve.engine.steps import laid_sets
from rummisolve.generate import generate_boards
from rummisolve.legality import check_move
from rummisolve.move import Move, Objective
from rummisolve.rules import PROFILES, Rules
from rummisolve.sets import read_meld
from rummisolve.tiles import JOKER, Colour, Tile, format_tiles, tile_value

OUR_BACKENDS = ("clp", "highs", "cbc", "pulp-highs")
# The solver name of an older checkout's runners (`--old`).
OLD = "rummisolve-old"
# Backends also timed on the model and the solve alone, as its `solve` is.
MODEL_AND_SOLVE = ("clp", "highs")
# Tables at least this large count as crowded in the summary's second breakdown.
CROWDED = 40
# What is done with positions that hold a joker on the table (see the docstring).
TABLE_JOKERS = {
    "casual": "positions with a joker on the table: ours solved under the casual profile "
    "(jokers free, as rummikub-solver plays them); the others under our default rules",
    "skip": "positions with a joker on the table skipped (rummikub-solver cannot keep a "
    "joker with its set); every position solved under our default rules",
}


@dataclass(frozen=True)
class Answer:
    """What one solver played on one position, in our tiles."""

    tiles_played: int
    value_played: int
    played: tuple[Tile, ...]
    # Our `find_move`'s whole move (None for the others): kept to judge it once more,
    # under our default rules, after every solve is timed.
    move: Move | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Runner:
    """One solver with one backend, ready to solve positions."""

    solver: str
    backend: str
    # The answer, and the seconds its solver call took: checks and adapters are not timed.
    solve: Callable[[Board], tuple[Answer, float]]

    @property
    def name(self) -> str:
        return f"{self.solver}/{self.backend}"


def ours(backend: str) -> Runner:
    """`find_move`: the model, the solve, and the steps (where each tile comes from)."""

    def solve(board: Board) -> tuple[Answer, float]:
        move, seconds = timed(functools.partial(find_move, board, backend=backend))
        problems = check_move(board, move)
        assert not problems, f"{backend}: illegal answer {problems}\n{format_board(board)}"
        return Answer(move.tiles_played, move.value_played, move.played, move), seconds

    return Runner("rummisolve", backend, solve)


def our_model_and_solve(backend: str) -> Runner:
    """What its `solve` does: the model, the solve, and the sets to lay; not the steps."""
    solver = get_backend(backend)

    def solve(board: Board) -> tuple[Answer, float]:
        (solution, layout), seconds = timed(
            functools.partial(solve_model, board, Objective.TILES, solver, None)
        )
        assert solution.proved, f"{backend}: not proved\n{format_board(board)}"
        if solution.values is None:
            return Answer(0, 0, ()), seconds
        # Reading the answer back into sets is part of it too (its `solve` does the same).
        started = time.perf_counter()
        arrangement = read_solution(layout, solution.values)
        rows = laid_sets(arrangement, board.rules)
        seconds += time.perf_counter() - started
        played = tuple(arrangement.played.elements())
        kept = [board.table[i] for i in arrangement.kept]
        problems = judge(board, played, kept + rows)
        assert not problems, f"{backend}: {problems}\n{format_board(board)}"
        value = sum(tile_value(t, board.rules.joker_penalty) for t in played)
        return Answer(len(played), value, played), seconds

    return Runner("rummisolve", f"{backend} (model+solve)", solve)


def in_worker(worker: old_side.Worker, solver: str, backend: str) -> Runner:
    """`find_move` in a worker process (size_sweep.py's), timed there and checked there
    by that side's own `check_move`."""

    def solve(board: Board) -> tuple[Answer, float]:
        text = format_board(board, full_rules=True)
        found = worker.ask({"board_text": text, "backend": backend})
        return Answer(found["tiles_played"], found["value_played"], ()), found["seconds"]

    return Runner(solver, backend, solve)


def judge(board: Board, played: tuple[Tile, ...], new_sets: list[tuple[Tile, ...]]) -> list[str]:
    """A move given as its new sets, judged by our rules without any of our solver's code:
    valid sets that hold the table's tiles and the tiles played, all from the rack."""
    found = [
        f"not a valid set: {format_tiles(r)}" for r in new_sets if not read_meld(r, board.rules)
    ]
    if Counter(t for r in new_sets for t in r) != Counter(board.table_tiles) + Counter(played):
        found.append("its sets are not the table plus the tiles played")
    if Counter(played) - Counter(board.rack):
        found.append("played tiles not on the rack")
    return found


class TheirSide:
    """rummikub-solver set up for our rules: same box, tiles mapped colour by colour."""

    def __init__(self, rules: Rules) -> None:
        import rummikub_solver as rs

        self.rs = rs
        self.rules = rules
        self.ruleset = rs.RuleSet(repeats=rules.box.copies, jokers=rules.box.jokers)
        # Its first four colours are ours by name: black, blue, orange, red.
        tiles: list[Any] = list(self.ruleset.tiles)
        self.theirs: dict[Tile, Any] = {
            JOKER if isinstance(t, rs.Joker) else Tile(Colour[t.colour.name], t.value): t
            for t in tiles
        }
        self.ours = {int(v): k for k, v in self.theirs.items()}

    def backends(self) -> list[str]:
        return sorted(str(b) for b in self.rs.MILPSolver.supported())

    def state(self, board: Board) -> Any:
        state = self.ruleset.new_game()
        state.add_table(*(self.theirs[t] for t in board.table_tiles))
        state.add_rack(*(self.theirs[t] for t in board.rack))
        state.initial = False
        return state

    def can_express(self, board: Board) -> bool:
        """Whether its sets can cover the table as it is (else it answers "no move").

        Asks its model directly (an empty rack, maximise tiles: feasible if and only if
        the table can be laid out in its sets); its public `arrange_table` would first
        drop the table's jokers and call them free.
        """
        if not board.table:
            return True
        state = self.state(Board(table=board.table, rack=(), rules=board.rules))
        raw = self.ruleset._solver(self.rs.SolverMode.TILE_COUNT, state)
        return bool(raw.set_indices)

    def runner(self, backend: str) -> Runner:
        ruleset = self.rs.RuleSet(
            repeats=self.rules.box.copies,
            jokers=self.rules.box.jokers,
            solver_backend=self.rs.MILPSolver(backend),
        )
        mode = self.rs.SolverMode.TILE_COUNT

        def solve(board: Board) -> tuple[Answer, float]:
            state = self.state(board)  # our tiles in its terms: adapter work, not timed
            proposal, seconds = timed(functools.partial(ruleset.solve, state, mode))
            if proposal is None:
                return Answer(0, 0, ()), seconds
            played = tuple(self.ours[int(t)] for t in proposal.tiles)
            problems = self.problems(board, played, proposal.sets)
            assert not problems, f"rummikub-solver/{backend}: {problems}\n{format_board(board)}"
            value = sum(tile_value(t, board.rules.joker_penalty) for t in played)
            return Answer(len(played), value, played), seconds

        return Runner("rummikub-solver", backend, solve)

    def problems(self, board: Board, played: tuple[Tile, ...], sets: Any) -> list[str]:
        """Its answer judged by our rules: valid sets holding the table and the played tiles."""
        return judge(board, played, [tuple(self.ours[int(t)] for t in row) for row in sets])


def has_table_joker(board: Board) -> bool:
    """A joker on the table, in play (opened): where our default rules and its differ."""
    return board.opened and any(JOKER in s for s in board.table)


def positions(args: argparse.Namespace, theirs: TheirSide) -> tuple[dict[int, Board], Counter[str]]:
    """`args.positions` boards both solvers can express, and how many were skipped, why.

    Keyed by their number as `rummisolve generate` writes them (1 is gen-00001.txt),
    so that any position in the results can be dealt again. Each board carries the rules
    ours solves it under: our default, or `casual` where a joker lies on the table and
    `--table-jokers casual` is asked.
    """
    rules = Rules(tile_set=args.tile_set)
    casual = PROFILES["casual"].rules.replace(tile_set=args.tile_set)
    chosen: dict[int, Board] = {}
    skipped = Counter[str]()
    dealt = generate_boards(
        10 * args.positions + 100,
        args.seed,
        table_tiles=args.table_tiles,
        rack_tiles=args.rack_tiles,
        jokers=args.jokers,
        rules=rules,
    )
    for number, board in enumerate(dealt, start=1):
        if len(chosen) == args.positions:
            break
        if has_table_joker(board) and args.table_jokers == "skip":
            skipped["table_jokers"] += 1
        elif not theirs.can_express(board):
            skipped["not_expressible"] += 1
        elif has_table_joker(board):
            chosen[number] = dataclasses.replace(board, rules=casual)
        else:
            chosen[number] = board
    assert len(chosen) == args.positions, f"only {len(chosen)} positions dealt"
    return chosen, skipped


def run(args: argparse.Namespace) -> dict[str, Any]:
    default = Rules(tile_set=args.tile_set)
    theirs = TheirSide(default)
    numbered, skipped = positions(args, theirs)
    their_backends = args.their_backends or theirs.backends()
    workers: list[old_side.Worker] = []
    if args.old is None:
        runners = [ours(b) for b in args.backends]
    else:
        sweep = str(Path(__file__).with_name("size_sweep.py"))
        workers = [old_side.Worker("new", None, sweep), old_side.Worker("old", args.old, sweep)]
        runners = [in_worker(workers[0], "rummisolve", b) for b in args.backends]
        runners += [in_worker(workers[1], OLD, b) for b in args.backends]
    runners += [our_model_and_solve(b) for b in args.model_and_solve]
    runners += [theirs.runner(b) for b in their_backends]
    try:
        return timed_run(args, default, numbered, skipped, runners)
    finally:
        for worker in workers:
            worker.close()


def timed_run(
    args: argparse.Namespace,
    default: Rules,
    numbered: dict[int, Board],
    skipped: Counter[str],
    runners: list[Runner],
) -> dict[str, Any]:
    boards = list(numbered.values())
    for runner in runners:  # first solves build and compile models: not what is measured
        for board in boards[:3]:
            runner.solve(board)
    records: list[dict[str, Any]] = []
    times: dict[str, list[float]] = {r.name: [] for r in runners}
    crowded: dict[str, list[float]] = {r.name: [] for r in runners}
    answers: dict[int, dict[str, Answer]] = {}
    loads = [load_average()]
    for index, (number, board) in enumerate(numbered.items()):
        shift = index % len(runners)
        found: dict[str, Answer] = {}
        for runner in runners[shift:] + runners[:shift]:
            results = [runner.solve(board) for _ in range(args.repeats)]
            seconds = sorted(s for _, s in results)
            answer = results[0][0]
            assert all(a.tiles_played == answer.tiles_played for a, _ in results)
            found[runner.name] = answer
            typical = median(seconds)
            times[runner.name].append(typical)
            if len(board.table_tiles) >= CROWDED:
                crowded[runner.name].append(typical)
            records.append(
                {
                    "position": number,
                    "seed": args.seed,
                    "table_tiles": len(board.table_tiles),
                    "table_sets": len(board.table),
                    "rack_tiles": len(board.rack),
                    "jokers": board.table_tiles.count(JOKER) + board.rack.count(JOKER),
                    "table_jokers": board.table_tiles.count(JOKER),
                    "ours_rules": board.rules.profile,
                    "solver": runner.solver,
                    "backend": runner.backend,
                    "seconds": [round(s, 6) for s in seconds],
                    "median_seconds": round(typical, 6),
                    "tiles_played": answer.tiles_played,
                    "value_played": answer.value_played,
                    "played": format_tiles(answer.played),
                }
            )
        answers[number] = found
        loads.append(load_average())
        if args.progress:
            print(f"\r{index + 1}/{len(boards)}", end="", file=sys.stderr, flush=True)
    if args.progress:
        print(file=sys.stderr)
    # Where ours solved under casual (a joker on the table), would our default rules pass
    # its move too? Judged after the timing, so that no extra check runs between repeats.
    reference = runners[0].name
    legal = {}
    for number, board in numbered.items():
        move = answers[number][reference].move
        if board.rules != default and move is not None:
            legal[number] = not check_move(dataclasses.replace(board, rules=default), move)
    for record in records:
        if record["position"] in legal:
            record["ours_legal_by_default_rules"] = legal[record["position"]]
    return {
        "records": records,
        "summary": summarise(
            args, runners, times, crowded, answers, numbered, skipped, loads, legal
        ),
    }


def summarise(
    args: argparse.Namespace,
    runners: list[Runner],
    times: dict[str, list[float]],
    crowded: dict[str, list[float]],
    answers: dict[int, dict[str, Answer]],
    numbered: dict[int, Board],
    skipped: Counter[str],
    loads: list[float],
    legal: dict[int, bool],
) -> dict[str, Any]:
    boards = list(numbered.values())
    stats = {name: Stats.of(ts) for name, ts in times.items()}
    ours_ = [r.name for r in runners if r.solver in ("rummisolve", OLD)]
    theirs_ = [r.name for r in runners if r.solver == "rummikub-solver"]
    olds = [r for r in runners if r.solver == OLD]
    fastest = min(theirs_, key=lambda n: stats[n].median)
    reference = ours_[0]
    agreement = Counter[str]()
    value = Counter[str]()
    disagreements = []
    for number, found in answers.items():
        our_tiles = {found[r.name].tiles_played for r in runners if r.solver == "rummisolve"}
        assert len(our_tiles) == 1, f"our backends disagree on position {number}: {found}"
        mine, other = found[reference], found[fastest]
        their_tiles = {found[n].tiles_played for n in theirs_}
        if their_tiles != {mine.tiles_played}:
            disagreements.append(
                {"position": number, "ours": mine.tiles_played, "theirs": sorted(their_tiles)}
            )
        agreement[
            "same tiles"
            if their_tiles == {mine.tiles_played}
            else "ours more"
            if mine.tiles_played > max(their_tiles)
            else "theirs more"
        ] += 1
        if mine.tiles_played == other.tiles_played:
            value[
                "same"
                if mine.value_played == other.value_played
                else "ours higher"
                if mine.value_played > other.value_played
                else "theirs higher"
            ] += 1
    crowded_stats = {n: Stats.of(ts) for n, ts in crowded.items() if ts}
    # The positions apart: with a joker on the table (ours under casual) and without
    # (ours under its default rules, as dealt: the same problem as its).
    joker_table = [has_table_joker(b) for b in boards]
    apart = {}
    for label, wanted in (("without_table_jokers", False), ("with_table_jokers", True)):
        kept = {
            n: [t for t, j in zip(ts, joker_table, strict=True) if j == wanted]
            for n, ts in times.items()
        }
        if not all(kept.values()):
            continue
        part = {n: Stats.of(ts) for n, ts in kept.items()}
        apart[label] = {
            "positions": sum(1 for j in joker_table if j == wanted),
            "times": {n: {"positions": s.samples, **s.as_ms()} for n, s in part.items()},
            "ratios_to_their_fastest": {
                n: {
                    "median": round(part[n].median / part[fastest].median, 3),
                    "p90": round(part[n].p90 / part[fastest].p90, 3),
                }
                for n in ours_
            },
        }
    judged = list(legal.values())
    new_over_old = {}
    for old in olds:
        new = f"rummisolve/{old.backend}"
        differ = [
            n
            for n, found in answers.items()
            if (found[new].tiles_played, found[new].value_played)
            != (found[old.name].tiles_played, found[old.name].value_played)
        ]
        new_over_old[old.backend] = {
            **paired_ratio(times[new], times[old.name]),
            "positions_played_differently": differ,
        }
    return {
        "load_average_1m_max_during": max(loads),
        "positions": len(boards),
        "table_jokers": args.table_jokers,
        "table_jokers_means": TABLE_JOKERS[args.table_jokers],
        "ours_rules": {
            "default": Rules(tile_set=args.tile_set).words(full=True),
            "positions_under_casual": sum(1 for b in boards if b.rules.profile == "casual"),
            "positions_under_default": sum(1 for b in boards if b.rules.profile != "casual"),
        },
        "casual_answers_legal_by_default_rules": (
            {"legal": sum(judged), "not legal": len(judged) - sum(judged)} if judged else None
        ),
        "skipped_not_expressible": skipped["not_expressible"],
        "skipped_table_jokers": skipped["table_jokers"],
        "repeats": args.repeats,
        "table_tiles": "-".join(map(str, args.table_tiles)),
        "rack_tiles": "-".join(map(str, args.rack_tiles)),
        "jokers": "-".join(map(str, args.jokers)) if args.jokers else "as dealt",
        "tile_set": args.tile_set,
        "with_jokers": sum(1 for b in boards if JOKER in b.table_tiles or JOKER in b.rack),
        "with_table_jokers": sum(joker_table),
        "times": {n: {"positions": s.samples, **s.as_ms()} for n, s in stats.items()},
        "crowded_times": {
            n: {"positions": s.samples, **s.as_ms()} for n, s in crowded_stats.items()
        },
        "their_fastest": fastest,
        "ratios_to_their_fastest": {
            n: {
                "median": round(stats[n].median / stats[fastest].median, 3),
                "p90": round(stats[n].p90 / stats[fastest].p90, 3),
            }
            for n in ours_
        },
        "ratios_to_each_of_theirs": {
            n: {
                t: {
                    "median": round(stats[n].median / stats[t].median, 3),
                    "p90": round(stats[n].p90 / stats[t].p90, 3),
                }
                for t in theirs_
            }
            for n in ours_
        },
        "apart": apart,
        "old": None if args.old is None else str(args.old),
        "new_over_old": new_over_old,
        "tiles_played": dict(agreement),
        "value_played_when_same_tiles": dict(value),
        "disagreements": disagreements,
    }


def show(summary: dict[str, Any]) -> str:
    rules = summary["ours_rules"]
    lines = [
        f"{summary['positions']} positions (table {summary['table_tiles']}, rack "
        f"{summary['rack_tiles']}, {summary['with_jokers']} with jokers, "
        f"{summary['with_table_jokers']} of them on the table, "
        f"{summary['tile_set']}-tile set), {summary['repeats']} repeats; "
        f"{summary['skipped_not_expressible']} skipped: table not expressible in rummikub-solver",
        f"table jokers ({summary['table_jokers']}): {summary['table_jokers_means']}; "
        f"{summary['skipped_table_jokers']} skipped for them",
        f"ours solved under: default rules ({' '.join(rules['default'])}) on "
        f"{rules['positions_under_default']} positions, casual on "
        f"{rules['positions_under_casual']}",
        f"commit {summary['commit']['head']}"
        + (" (solver/ changed since)" if summary["commit"]["solver_changes_uncommitted"] else "")
        + f" (rummisolve from {summary['commit']['rummisolve_from']}), {summary['date']}",
        "",
        f"{'solver/backend':32} {'median ms':>10} {'p90 ms':>10} {'max ms':>10}"
        f"   crowded (table >= {CROWDED}): median, p90",
    ]
    for name, t in summary["times"].items():
        c = summary["crowded_times"].get(name)
        extra = f"   {c['median_ms']:8.2f} {c['p90_ms']:8.2f}" if c else ""
        figures = f"{t['median_ms']:10.2f} {t['p90_ms']:10.2f} {t['max_ms']:10.2f}"
        lines.append(f"{name:32} {figures}{extra}")
    lines.append("")
    fastest = summary["their_fastest"]
    for name, r in summary["ratios_to_their_fastest"].items():
        lines.append(f"{name} / {fastest}: median x{r['median']:.3f}, p90 x{r['p90']:.3f}")
    for label, part in summary["apart"].items():
        lines.append(f"  {part['positions']} positions {label.replace('_', ' ')}:")
        for name, r in part["ratios_to_their_fastest"].items():
            lines.append(f"    {name} / {fastest}: median x{r['median']:.3f}, p90 x{r['p90']:.3f}")
    for backend, r in summary["new_over_old"].items():
        lines.append(
            f"new / old ({backend}): median x{r['median']:.3f} {r['median_95']}, "
            f"p90 x{r['p90']:.3f} {r['p90_95']}; "
            f"played differently on {len(r['positions_played_differently'])}"
        )
    lines.append(f"tiles played: {summary['tiles_played']}")
    if summary["casual_answers_legal_by_default_rules"]:
        lines.append(
            "our casual answers (table jokers) that the default rules pass too: "
            f"{summary['casual_answers_legal_by_default_rules']}"
        )
    lines.append(
        f"machine: {summary['machine']['cpus']} CPUs ({summary['machine']['cpu_model']}), "
        f"load average (1 min) {summary['machine']['load_average_1m_at_start']} at start, "
        f"{summary['load_average_1m_max_during']} at most during, "
        f"{summary['load_average_1m_at_end']} at end"
    )
    lines.append(
        f"value played, where the tiles agree (vs {fastest}): "
        f"{summary['value_played_when_same_tiles']}"
    )
    return "\n".join(lines)


def size_range(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    return (int(low), int(high or low))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--table-tiles", type=size_range, default=(0, 60), metavar="LO-HI")
    parser.add_argument("--rack-tiles", type=size_range, default=(5, 30), metavar="LO-HI")
    parser.add_argument("--jokers", type=size_range, metavar="LO-HI", help="default: as dealt")
    parser.add_argument("--tile-set", type=int, choices=(106, 160), default=106)
    parser.add_argument("--backends", nargs="+", default=list(OUR_BACKENDS))
    parser.add_argument(
        "--model-and-solve",
        nargs="*",
        default=list(MODEL_AND_SOLVE),
        metavar="BACKEND",
        help="our backends also timed without the steps (default: %(default)s)",
    )
    parser.add_argument("--their-backends", nargs="+", help="default: every one installed")
    parser.add_argument(
        "--table-jokers",
        choices=sorted(TABLE_JOKERS),
        default="casual",
        help="positions with a joker on the table: ours under casual rules (default), or skipped",
    )
    parser.add_argument(
        "--old", type=Path, metavar="PATH", help="an older checkout's solver/: side by side"
    )
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True)
    results_option(parser)
    args = parser.parse_args(argv)
    started = header("compare-rummikub-solver")
    with quiet_stdout():  # cvxpy's solvers and HiGHS print from C; the summary must stay clean
        result = run(args)
    summary = finished(started, result["summary"])
    write_results(args.results, summary, result["records"])
    print(show(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
