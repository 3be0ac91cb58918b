"""Finding the best move: build the model, solve it, and lay the answer out as sets and steps."""

from __future__ import annotations

import dataclasses
import enum
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .backends import DEFAULT_BACKEND, Backend, Solution, get_backend
from .board import Board
from .joker_model import OutOfTime
from .joker_rules import joker_places, lay_jokers
from .model import Arrangement, Layout, Objective, build_model, objective_value, read_solution
from .rules import JokerRetrieval, Rules
from .sets import read_meld
from .tiles import JOKER, MAX_NUMBER, Tile, format_tiles, tile_value

TileRow = tuple[Tile, ...]


class Status(enum.Enum):
    OPTIMAL = "optimal"
    NO_MOVE = "no-move"
    FEASIBLE = "feasible"


class Action(enum.Enum):
    """What happened to one set of the new table."""

    KEEP = "keep"
    EXTEND = "extend"
    NEW = "new"
    REBUILD = "rebuild"


class Source(NamedTuple):
    """Tiles a new set takes from one set of the table as it lay."""

    set_index: int
    tiles: TileRow


class Step(NamedTuple):
    """One set of the new table and where each of its tiles comes from (a NamedTuple:
    a move makes dozens, and a frozen dataclass costs three times as much to build)."""

    action: Action
    tiles: TileRow
    from_table: tuple[Source, ...]
    from_rack: TileRow


@dataclass(frozen=True)
class Move:
    """The answer for a board: what to play, the table after it, and how to get there."""

    status: Status
    played: TileRow
    table: tuple[TileRow, ...]
    rack: TileRow
    tiles_played: int
    value_played: int
    seconds: float
    steps: tuple[Step, ...]
    backend: str

    @property
    def is_move(self) -> bool:
        return bool(self.played)

    @property
    def changed_sets(self) -> list[int]:
        """The sets of the table as it lay (by index) that do not stay exactly as they were."""
        return sorted({s.set_index for step in self.steps for s in step.from_table})

    @property
    def sets_changed(self) -> int:
        return len(self.changed_sets)


def find_move(
    board: Board,
    objective: Objective | str = Objective.TILES,
    backend: str = DEFAULT_BACKEND,
    time_limit: float | None = None,
) -> Move:
    """The best move on the board, proved best unless the time limit cut the search short.

    Where the table's jokers follow the rules as written, a looser reading is solved first
    (`_looser`): its optimum bounds the stricter one, so a looser move that the rules on
    jokers pass is best under them too. Else (under STRICT) a smaller model, freed jokers
    only in sets of rack tiles, proves the best move where it reaches the looser bound;
    only past that is the whole stricter model built.
    """
    solver = get_backend(backend)
    started = time.perf_counter()
    goal = Objective(objective)

    def left() -> float | None:
        return (
            None if time_limit is None else max(time_limit - (time.perf_counter() - started), 1e-3)
        )

    bound = found = arrangement = aside = None
    solution = Solution(None, proved=False)
    looser = _looser(board)
    try:
        if looser is not None and time_limit is not None:
            # A legal move under every reading, at hand before anything can outrun the limit.
            aside = _joker_sets_aside(board, goal, solver, left())
        if looser is not None:
            solution, layout = solve_model(looser, goal, solver, left())
            loose = _arrangement(layout, solution)
            if loose is None and solution.proved:  # nothing to play even so
                return no_move(board, True, time.perf_counter() - started, backend)
            if loose is not None:
                new_table = _new_table(board, loose)
                places = joker_places(board, new_table, loose.played)
                if places is not None:
                    laid = _laid_as(new_table, places, board.rules)
                    return _move(board, loose, solution.proved, started, backend, laid)
                if solution.proved:
                    bound = _score(board, loose, goal)
        cutoff = None
        if bound is not None and board.rules.joker_retrieval is JokerRetrieval.STRICT:
            solution, layout = solve_model(board, goal, solver, left(), rack_only_freeing=True)
            found = _arrangement(layout, solution)
            if found is not None and solution.proved and _score(board, found, goal) == bound:
                return _move(board, found, True, started, backend)
            if found is not None and solution.values is not None:
                cutoff = _objective(board, found, goal)
        # The whole model, asked only for a move better than the one found.
        solution, layout = solve_model(board, goal, solver, left(), cutoff=cutoff)
        arrangement = _arrangement(layout, solution)
        if arrangement is None and solution.proved and found is not None:
            return _move(board, found, True, started, backend)
    except OutOfTime:
        solution = Solution(None, proved=False)
    if arrangement is None and not solution.proved and looser is not None:
        # Out of time: the best legal move at hand, the rack-only one or, legal under every
        # reading, one that leaves each set holding a joker as it lies.
        at_hand = [a for a in (found, aside) if a is not None]
        if at_hand:
            best = max(at_hand, key=lambda a: _score(board, a, goal))
            return _move(board, best, False, started, backend)
    if arrangement is None:
        return no_move(board, solution.proved, time.perf_counter() - started, backend)
    return _move(board, arrangement, solution.proved, started, backend)


def _joker_sets_aside(
    board: Board, goal: Objective, solver: Backend, time_limit: float | None
) -> Arrangement | None:
    """The best move that leaves every set holding a joker as it lies (jokers free on the
    rest, which holds none): legal under every reading, and quick to find."""
    aside = [n for n, s in enumerate(board.table) if JOKER in s]
    rest = [n for n, s in enumerate(board.table) if JOKER not in s]
    free = board.rules.replace(joker_retrieval=JokerRetrieval.FREE, locked_joker_sets=False)
    part = dataclasses.replace(board, table=tuple(board.table[n] for n in rest), rules=free)
    solution, layout = solve_model(part, goal, solver, time_limit)
    arrangement = _arrangement(layout, solution)
    if arrangement is None:
        return None
    arrangement.kept[:] = sorted([rest[n] for n in arrangement.kept] + aside)
    return arrangement


def _laid_as(
    table: Sequence[TileRow], places: Mapping[int, TileRow], rules: Rules
) -> dict[TileRow, list[TileRow]]:
    """Each set whose jokers must stand where `places` says, as it then lies (by its tiles
    as the table holds them; alike sets in turn)."""
    laid: dict[TileRow, list[TileRow]] = {}
    for n, roles in places.items():
        laid.setdefault(table[n], []).append(lay_jokers(table[n], roles, rules))
    return laid


def _relaid(step: Step, laid: dict[TileRow, list[TileRow]]) -> Step:
    """The step with its set as `laid` says it lies (a kept set stays as it lay)."""
    if step.action is Action.KEEP or not laid.get(step.tiles):
        return step
    tiles = laid[step.tiles].pop(0)
    sources = tuple(
        Source(s.set_index, _in_order_of(tiles, Counter(s.tiles))) for s in step.from_table
    )
    return Step(step.action, tiles, sources, _in_order_of(tiles, Counter(step.from_rack)))


def _new_table(board: Board, arrangement: Arrangement) -> list[TileRow]:
    """Every set of the table after the move: the sets kept, and the sets laid."""
    kept = [board.table[i] for i in arrangement.kept]
    return kept + laid_sets(arrangement, board.rules)


def _looser(board: Board) -> Board | None:
    """The board under a looser reading of its rules on jokers: under STRICT, freed jokers
    anywhere (REPLACE); else jokers free and sets open. None where the rules cannot bite.

    Not jokers free under STRICT too, first: on three in four large tables with jokers the
    free answer breaks the rules and plays more than STRICT can, so REPLACE is solved
    anyway; solving it alone cut the median from 19.7 to 13.9 ms on 60 large 4-joker
    tables (and from 9.4 to 8.3 with 2 jokers; dealt positions alike)."""
    rules = board.rules
    if not board.opened or not (rules.by_replacement or rules.locked_joker_sets):
        return None
    if not any(JOKER in s for s in board.table):
        return None
    if rules.joker_retrieval is JokerRetrieval.STRICT:
        return dataclasses.replace(
            board, rules=rules.replace(joker_retrieval=JokerRetrieval.REPLACE)
        )
    free = rules.replace(joker_retrieval=JokerRetrieval.FREE, locked_joker_sets=False)
    return dataclasses.replace(board, rules=free)


def _objective(board: Board, arrangement: Arrangement, goal: Objective) -> float:
    """The model's objective for this arrangement: its score in the model's weights."""
    played = arrangement.played
    tiles = sum(played.values())
    value = sum(tile_value(t, board.rules.joker_penalty) * n for t, n in played.items())
    return objective_value(board, goal, tiles, value, len(arrangement.kept))


def _score(board: Board, arrangement: Arrangement, goal: Objective) -> tuple[int, int, int]:
    """What "best" compares, in its order: tiles, points, sets kept (or points first)."""
    played = arrangement.played
    tiles = sum(played.values())
    value = sum(tile_value(t, board.rules.joker_penalty) * n for t, n in played.items())
    kept = len(arrangement.kept)
    return (tiles, value, kept) if goal is Objective.TILES else (value, tiles, kept)


def _arrangement(layout: Layout, solution: Solution) -> Arrangement | None:
    """What the solution lays, or None where it plays nothing (or found nothing in time)."""
    if solution.values is None:
        return None
    arrangement = read_solution(layout, solution.values)
    return arrangement if +arrangement.played else None


def _move(
    board: Board,
    arrangement: Arrangement,
    proved: bool,
    started: float,
    backend: str,
    laid: dict[TileRow, list[TileRow]] | None = None,
) -> Move:
    """The move an arrangement makes on the board, with its steps. Where the rules on
    jokers bind, each set holding a joker lies with its jokers where those rules let them
    stand (`laid`: each such set, as it lies; found here when not given)."""
    played = _in_order_of(board.rack, arrangement.played)
    steps = _steps(board, arrangement)
    if laid is None:
        table = [step.tiles for step in steps]
        places = joker_places(board, table, arrangement.played)
        assert places is not None, "the model broke the rules on jokers"
        laid = _laid_as(table, places, board.rules)
    steps = tuple(_relaid(step, laid) for step in steps)
    rest = Counter(board.rack) - Counter(played)
    return Move(
        status=Status.OPTIMAL if proved else Status.FEASIBLE,
        played=played,
        table=tuple(step.tiles for step in steps),
        rack=_in_order_of(board.rack, rest),
        tiles_played=len(played),
        value_played=sum(tile_value(t, board.rules.joker_penalty) for t in played),
        seconds=time.perf_counter() - started,
        steps=steps,
        backend=backend,
    )


# Seconds an LP takes per row and column of its model, at most about, on the largest (the
# whole STRICT model, 2,000-8,000 rows by 4,000-18,000 columns: 3-8e-9 measured a warm LP,
# 80-400 ms; the first, from scratch, and a machine under load take several times that).
# It keeps a time limit where an LP cannot be stopped.
LP_SECONDS_PER_ENTRY = 5e-8


def solve_model(
    board: Board,
    objective: Objective,
    solver: Backend,
    time_limit: float | None,
    rack_only_freeing: bool = False,
    cutoff: float | None = None,
) -> tuple[Solution, Layout]:
    """The model of the board and its solve: column values, and what they mean. The time
    limit counts the model's building too (joker_model.OutOfTime where that outruns it);
    with a `cutoff` (an objective value reached already) only a better move is sought."""
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    mip, layout = build_model(board, objective, rack_only_freeing, deadline)
    if cutoff is not None:
        mip = dataclasses.replace(mip, cutoff=cutoff)
    if time_limit is not None:
        time_limit = max(time_limit - (time.perf_counter() - started), 1e-3)
        # An LP cannot be interrupted: the search starts its last one an LP's time early,
        # and a model whose one LP outlasts the time left is not solved at all.
        lp = LP_SECONDS_PER_ENTRY * mip.rows * mip.columns
        if lp > time_limit:
            raise OutOfTime
        time_limit = max(time_limit - lp, 1e-3)
    # No rack tile can join any set: nothing to decide, no backend needed.
    if layout.played or layout.rack_jokers:
        return solver.solve(mip, time_limit), layout
    return Solution(None, proved=True), layout


def no_move(board: Board, proved: bool = True, seconds: float = 0.0, backend: str = "") -> Move:
    """Nothing played, the table as it lies: proved (no-move), or all a search found."""
    steps = tuple(Step(Action.KEEP, s, (), ()) for s in board.table)
    status = Status.NO_MOVE if proved else Status.FEASIBLE
    return Move(status, (), board.table, board.rack, 0, 0, seconds, steps, backend)


def _in_order_of(row: Sequence[Tile], wanted: Mapping[Tile, int]) -> TileRow:
    """The wanted tiles, in the order the row holds them."""
    left = dict(wanted)
    chosen = []
    for t in row:
        if left.get(t, 0) > 0:
            left[t] -= 1
            chosen.append(t)
    return tuple(chosen)


def _new_sets(arrangement: Arrangement) -> list[TileRow]:
    """The pieces as sets to lay: jokers put in, and runs that continue each other joined.

    Pieces come in canonical order (runs ascending, groups by colour), each joker at the
    place of the tile it stands for.
    """
    jokers = dict(arrangement.stand_ins)
    runs: list[tuple[TileRow, TileRow]] = []
    groups: list[TileRow] = []
    for piece in arrangement.pieces:
        laid = piece
        if jokers:
            row = []
            for t in piece:
                if jokers.get(t, 0) > 0:
                    jokers[t] -= 1
                    t = JOKER
                row.append(t)
            laid = tuple(row)
        if piece[0].number == piece[1].number:
            groups.append(laid)
        else:
            runs.append((piece, laid))
    return _join_runs(runs) + groups + arrangement.hosts


def laid_sets(arrangement: Arrangement, rules: Rules) -> list[TileRow]:
    """The sets of the table after the move, as they are laid: pieces joined into runs,
    each joker where `read_meld` reads it (the steps then say where each tile comes from)."""
    return [_as_read(row, rules) for row in _new_sets(arrangement)]


def _as_read(row: TileRow, rules: Rules) -> TileRow:
    """The row as `read_meld` reads it: each joker where the most it can stand for lies,
    so that the table printed means what the package itself reads back.

    A row without jokers already is in that order (pieces come in canonical order).
    """
    if JOKER not in row:
        return row
    meld = read_meld(row, rules)
    assert meld is not None, f"the model laid an invalid set: {format_tiles(row)}"
    return meld.ordered


def _join_runs(runs: list[tuple[TileRow, TileRow]]) -> list[TileRow]:
    """Join runs of one colour where one starts right after the other ends.

    Each run is its joker-free shape and its tiles as laid; a wrapping run ends at
    position 14, where nothing can follow it, and no run is longer than 13.
    """
    joined: list[tuple[Tile, list[Tile]]] = []  # each run's first place, and its tiles
    for shape, laid in sorted(runs, key=lambda run: run[0][0].sort_key()):
        if joined:
            first, tiles = joined[-1]
            if (
                first.colour == shape[0].colour
                and first.number + len(tiles) == shape[0].number
                # 1-13 followed by a wrapping ...13-1 would hold the 1 twice.
                and len(tiles) + len(laid) <= MAX_NUMBER
            ):
                tiles.extend(laid)
                continue
        joined.append((shape[0], list(laid)))
    return [tuple(tiles) for _, tiles in joined]


def _steps(board: Board, arrangement: Arrangement) -> tuple[Step, ...]:
    """The new table in order, each set with where its tiles come from.

    A set of the table as it lay keeps its place; a new set follows the old set it took
    most tiles from; sets made from the rack alone come last.
    """
    # Before the initial meld the model never saw the table: all of it stays.
    kept = set(arrangement.kept if board.opened else range(len(board.table)))
    new_sets = laid_sets(arrangement, board.rules)
    leftover = {i: _tally(s) for i, s in enumerate(board.table) if i not in kept}
    needs = [_tally(s) for s in new_sets]
    holders: dict[Tile, list[int]] = {}
    for i, left in leftover.items():
        for t in left:
            holders.setdefault(t, []).append(i)
    # Greedy: the pairs (new set, old set) that share most tiles exchange them first;
    # sets holding a freed joker (laid last) come after all others, so that they are
    # left the rack's copies of tiles the table holds too (strict retrieval).
    first_host = len(new_sets) - len(arrangement.hosts)
    pairs: list[tuple[bool, int, int, int]] = []
    for n, need in enumerate(needs):
        shared: dict[int, int] = {}  # tiles in common with each old set that has any
        for t, k in need.items():
            for i in holders.get(t, ()):
                shared[i] = shared.get(i, 0) + min(k, leftover[i][t])
        pairs.extend((n >= first_host, -common, n, i) for i, common in shared.items())
    pairs.sort()
    # A table set that a host holds (its jokers, or its tiles) gives it its tiles first.
    held = [(False, 0, first_host + h, i) for i, h in arrangement.holders]
    taken: list[dict[int, dict[Tile, int]]] = [{} for _ in new_sets]
    for _, _, n, i in held + pairs:
        need, left = needs[n], leftover[i]
        for t, k in need.items():
            moved = min(k, left.get(t, 0))
            if moved > 0:
                need[t] -= moved
                left[t] -= moved
                into = taken[n].setdefault(i, {})
                into[t] = into.get(t, 0) + moved

    steps_at: dict[int, list[Step]] = {i: [] for i in range(len(board.table))}
    from_rack_only: list[Step] = []
    for n, tiles in enumerate(new_sets):
        sources = tuple(Source(i, _in_order_of(tiles, taken[n][i])) for i in sorted(taken[n]))
        rack_part = _in_order_of(tiles, needs[n])
        if not sources:
            from_rack_only.append(Step(Action.NEW, tiles, (), rack_part))
            continue
        main = max(sources, key=lambda s: len(s.tiles))
        whole = len(sources) == 1 and len(main.tiles) == len(board.table[main.set_index])
        action = Action.EXTEND if whole else Action.REBUILD
        step = Step(action, tiles, sources, rack_part)
        # A set holding a table set's tiles (locked-joker-sets) comes first under that set.
        if n - first_host in {h for _, h in arrangement.holders}:
            steps_at[main.set_index].insert(0, step)
        else:
            steps_at[main.set_index].append(step)
    ordered: list[Step] = []
    for i, old in enumerate(board.table):
        if i in kept:
            ordered.append(Step(Action.KEEP, old, (), ()))
        ordered.extend(steps_at[i])
    return tuple(ordered + from_rack_only)


def _tally(row: TileRow) -> dict[Tile, int]:
    """Copies of each tile in a row (a plain dict: Counter costs more on rows this short)."""
    counts: dict[Tile, int] = {}
    for t in row:
        counts[t] = counts.get(t, 0) + 1
    return counts
