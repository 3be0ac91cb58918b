"""Finding the best move: build the model, solve it, and lay the answer out as sets and steps.

Looser readings of the rules on jokers (and the pinned and homes relaxations) are solved
first where they bound the stricter one."""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Mapping, Sequence

from ..board import Board
from ..joker_rules import joker_places, lay_jokers
from ..move import Action, Move, Objective, Source, Status, Step, TileRow, kept_sets, no_move
from ..rules import JokerRetrieval, Rules
from ..tiles import JOKER, tile_value
from . import homes
from .backends import Backend, get_backend
from .builder import Mip
from .joker_model import JokerPart, OutOfTime
from .lp import Clock, Deadline, Solution
from .model import (
    Arrangement,
    Layout,
    build_model,
    jokers_bind,
    no_initial_meld,
    objective_value,
    read_solution,
)
from .pinned import Pinned, pin_jokers, with_stay_rows
from .steps import in_order_of, laid_sets, move_steps


def find_move(
    board: Board,
    objective: Objective | str = Objective.TILES,
    backend: str | None = None,
    time_limit: float | None = None,
    clock: Clock = time.perf_counter,
) -> Move:
    """The best move on the board, proved best unless the time limit cut the search short.
    With a limit the search goes on until it is proved or the limit reached (`clock`, a
    caller's own, says when: seconds from some start).

    Where the table's jokers follow the rules as written, looser readings are solved first:
    their optimum bounds the stricter one, so a looser move that the rules on jokers pass
    is best under them too. Under STRICT the first is the pinned relaxation (pinned.py,
    nearly as small as jokers moving freely, its staying jokers put back where they may
    stay); where its answer is refused, the same with homes for freed jokers (homes.py),
    exact for them, whose answer the checker passes on nearly every such table (or, with
    wraparound, the replace reading, `_looser`). Else a smaller model, freed jokers only in
    sets of rack tiles, proves the best move where it reaches the bound; only past that is
    the whole stricter model built, asked for a better move than the best legal one found.
    """
    solver = get_backend(backend)
    backend = solver.name
    binds = jokers_bind(board)
    strict = binds and board.rules.joker_retrieval is JokerRetrieval.STRICT
    if time_limit is not None and strict and homes.applies(board):
        homes.prepare(board)  # one-off, before the clock: the limit is the search's
    started = time.perf_counter()
    deadline = Deadline.after(time_limit, clock)
    goal = Objective(objective)
    if no_initial_meld(board):  # proved at a glance, before any model is built
        return no_move(board, True, time.perf_counter() - started, backend)

    bound = found = arrangement = aside = pinned_found = homes_bound = None
    solution = Solution(None, proved=False)
    try:
        if binds and time_limit is not None:
            # A legal move under every reading, at hand before anything can outrun the limit.
            aside = _joker_sets_aside(board, goal, solver, deadline)
        if strict:
            model = _model(board, goal, JokerPart.PINNED, deadline)
            solution, layout = _solve(*model, solver, deadline), model[1]
            relaxed = _arrangement(layout, solution)
            if relaxed is None and solution.proved:  # nothing to play even so
                return no_move(board, True, time.perf_counter() - started, backend)
            pinned = None if relaxed is None else pin_jokers(board, layout, solution, relaxed)
            if pinned is None and solution.proved and homes.applies(board):
                # Refused: a freed joker lies without two rack tiles. Homes for them.
                reach = _objective(board, relaxed, goal) if relaxed is not None else None
                solution, layout, relaxed, pinned = _homes(
                    board, goal, solver, deadline, model, reach
                )
                if relaxed is None and solution.proved:
                    return no_move(board, True, time.perf_counter() - started, backend)
                if relaxed is not None and solution.proved:
                    homes_bound = _score(board, relaxed, goal)
            if pinned is not None and solution.proved:
                move, table, where = pinned
                laid = _laid_as(table, where, board.rules)
                return _move(board, move, True, started, backend, laid)
            if pinned is not None:  # legal, and at hand if time runs out
                pinned_found = pinned[0]
        if binds and homes_bound is None:  # (homes bound it tighter)
            solution, layout = solve_model(_looser(board), goal, solver, deadline)
            loose = _arrangement(layout, solution)
            if loose is None and solution.proved:  # nothing to play even so
                return no_move(board, True, time.perf_counter() - started, backend)
            if loose is not None:
                new_table = _new_table(board, loose)
                # The kept sets lead the new table, in the order of `loose.kept`.
                kept = [(i, k) for k, i in enumerate(loose.kept)]
                places = joker_places(board, new_table, loose.played, kept)
                if places is not None:
                    laid = _laid_as(new_table, places, board.rules)
                    return _move(board, loose, solution.proved, started, backend, laid)
                if solution.proved:
                    bound = _score(board, loose, goal)
        if homes_bound is not None:
            bound = homes_bound
        cutoff = None
        if bound is not None and strict:
            solution, layout = solve_model(board, goal, solver, deadline, JokerPart.RACK_ONLY)
            found = _arrangement(layout, solution)
            if found is not None and solution.proved and _score(board, found, goal) == bound:
                return _move(board, found, True, started, backend)
        # The best legal move at hand, and the whole model asked only for a better one.
        at_hand = [a for a in (found, pinned_found) if a is not None]
        best = max(at_hand, key=lambda a: _score(board, a, goal)) if at_hand else None
        if best is not None:
            cutoff = _objective(board, best, goal)
        solution, layout = solve_model(board, goal, solver, deadline, cutoff=cutoff)
        arrangement = _arrangement(layout, solution)
        if arrangement is None and solution.proved and best is not None:
            return _move(board, best, True, started, backend)
    except OutOfTime:
        solution = Solution(None, proved=False)
    if arrangement is None and not solution.proved and binds:
        # Out of time: the best legal move at hand, the rack-only or pinned one or, legal
        # under every reading, one that leaves each set holding a joker as it lies.
        at_hand = [a for a in (found, pinned_found, aside) if a is not None]
        if at_hand:
            best = max(at_hand, key=lambda a: _score(board, a, goal))
            return _move(board, best, False, started, backend)
    if arrangement is None:
        return no_move(board, solution.proved, time.perf_counter() - started, backend)
    return _move(board, arrangement, solution.proved, started, backend)


def _joker_sets_aside(
    board: Board, goal: Objective, solver: Backend, deadline: Deadline | None
) -> Arrangement | None:
    """The best move that leaves every set holding a joker as it lies (jokers free on the
    rest, which holds none): legal under every reading, and quick to find."""
    aside = [n for n, s in enumerate(board.table) if JOKER in s]
    rest = [n for n, s in enumerate(board.table) if JOKER not in s]
    free = board.rules.replace(joker_retrieval=JokerRetrieval.FREE, locked_joker_sets=False)
    rest_table = tuple(board.table[n] for n in rest)  # no joker: nothing declared
    part = dataclasses.replace(board, table=rest_table, rules=free, declared=())
    solution, layout = solve_model(part, goal, solver, deadline)
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
        Source(s.set_index, in_order_of(tiles, Counter(s.tiles))) for s in step.from_table
    )
    return Step(step.action, tiles, sources, in_order_of(tiles, Counter(step.from_rack)))


def _new_table(board: Board, arrangement: Arrangement) -> list[TileRow]:
    """Every set of the table after the move: the sets kept, and the sets laid."""
    kept = [board.table[i] for i in arrangement.kept]
    return kept + laid_sets(arrangement, board.rules)


def _looser(board: Board) -> Board:
    """The board under a looser reading of its rules on jokers (where they bind): under
    STRICT, freed jokers anywhere (REPLACE); else jokers free and sets open. Built only
    where a stage needs it: on most tables the pinned stage settles the move first.

    Not jokers free under STRICT too, first: on three in four large tables with jokers the
    free answer breaks the rules and plays more than STRICT can, so REPLACE is solved
    anyway; solving it alone cut the median from 19.7 to 13.9 ms on 60 large 4-joker
    tables (and from 9.4 to 8.3 with 2 jokers; dealt positions alike)."""
    rules = board.rules
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
    played = in_order_of(board.rack, arrangement.played)
    steps = move_steps(board, arrangement)
    if laid is None:
        table = [step.tiles for step in steps]
        places = joker_places(board, table, arrangement.played, kept_sets(board, steps))
        assert places is not None, "the model broke the rules on jokers"
        laid = _laid_as(table, places, board.rules)
    steps = tuple(_relaid(step, laid) for step in steps)
    rest = Counter(board.rack) - Counter(played)
    return Move(
        status=Status.OPTIMAL if proved else Status.FEASIBLE,
        played=played,
        table=tuple(step.tiles for step in steps),
        rack=in_order_of(board.rack, rest),
        tiles_played=len(played),
        value_played=sum(tile_value(t, board.rules.joker_penalty) for t in played),
        seconds=time.perf_counter() - started,
        steps=steps,
        backend=backend,
    )


def solve_model(
    board: Board,
    objective: Objective,
    solver: Backend,
    deadline: Deadline | None,
    part: JokerPart = JokerPart.WHOLE,
    cutoff: float | None = None,
) -> tuple[Solution, Layout]:
    """The model of the board and its solve: column values, and what they mean. The
    deadline holds for the model's building too (joker_model.OutOfTime where that outruns
    it); with a `cutoff` (an objective value reached already) only a better move is sought."""
    mip, layout = _model(board, objective, part, deadline)
    if cutoff is not None:
        mip = dataclasses.replace(mip, cutoff=cutoff)
    return _solve(mip, layout, solver, deadline), layout


def _solve(mip: Mip, layout: Layout, solver: Backend, deadline: Deadline | None) -> Solution:
    """A model's solve until the deadline: begun whenever any time is left (the backends
    stop at the deadline itself, an LP included)."""
    if deadline is not None and deadline.passed():
        raise OutOfTime
    # No rack tile can join any set: nothing to decide, no backend needed.
    if layout.played or layout.columns.rack_jokers:
        return solver.solve(mip, deadline)
    return Solution(None, proved=True)


def _model(
    board: Board, objective: Objective, part: JokerPart, deadline: Deadline | None
) -> tuple[Mip, Layout]:
    """The board's model, built before the deadline; the pinned relaxation's with its
    stay rows in (so built once where homes are added to it)."""
    mip, layout = build_model(board, objective, part, deadline)
    if part is JokerPart.PINNED:
        mip, layout = with_stay_rows(mip, layout, board.rules.wraparound)
    return mip, layout


def _homes(
    board: Board,
    goal: Objective,
    solver: Backend,
    deadline: Deadline | None,
    pinned: tuple[Mip, Layout] | None = None,
    reach: float | None = None,
) -> tuple[Solution, Layout, Arrangement | None, Pinned | None]:
    """The pinned relaxation (`pinned`: its model, if built) with homes for freed jokers
    (homes.py): its solve, its answer, and that answer with its homes laid and its
    staying jokers put back where the checker passes it.

    `reach`: the pinned optimum, which bounds this one. A move reaching it is sought
    first (on 7 of 22 slow tables of seeds 7, 11 and 12 one is found: 54-100 ms down to
    3-12); nodes whose bound falls short wait for the rest of the search, in the same
    search (`Mip.reach`), which solves the root's LP once, not twice."""
    mip, layout = pinned or _model(board, goal, JokerPart.PINNED, deadline)
    built = homes.with_homes(layout, board)
    if built is None:  # no joker can be freed: the pinned answer was refused otherwise
        return Solution(None, proved=False), layout, None, None
    mip, columns = built
    solution = _solve(dataclasses.replace(mip, reach=reach), layout, solver, deadline)
    relaxed = _arrangement(layout, solution)
    if relaxed is None or solution.values is None:
        return solution, layout, None, None
    laid = homes.lay_homes(columns, solution.values, relaxed)
    return solution, layout, relaxed, pin_jokers(board, layout, solution, laid)
