"""The stages that find the best move, as data: each a `Stage` whose `solve` takes the
search so far and gives an `Answer`; `find_move` (solve.py) runs, in order, the stages the
board's rules call for. The engine's package docstring tells each stage's job, when it
runs, and why its answer is proved."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

from ..board import Board
from ..jokers import joker_places
from ..move import Objective
from ..rules import JokerRetrieval
from ..tiles import JOKER
from . import homes
from .assemble import Laid, Score, arrangement_of, laid_as
from .backends import Backend
from .builder import Mip
from .joker_model import JokerPart, OutOfTime
from .lp import Deadline, Solution
from .model import (
    Arrangement,
    Layout,
    build_layout,
    jokers_bind,
    model_mip,
    no_initial_meld,
)
from .pinned import Pinned, add_stay_rows, pin_jokers
from .steps import laid_sets


@dataclass(frozen=True)
class Found:
    """A legal move at hand: the model's answer, and where its jokers stand (None: found
    when the move is laid out)."""

    arrangement: Arrangement
    laid: Laid | None = None


@dataclass(frozen=True)
class Answer:
    """What a stage says. `found`: a legal move (or none). `proved`: the stage's model was
    solved to the end. `ends`: the search ends here, `found` its move (none: no move),
    best where `proved`. `bound`: no legal move scores more (where the stage proved one)."""

    found: Found | None = None
    proved: bool = False
    ends: bool = False
    bound: Score | None = None


NO_MOVE = Answer(proved=True, ends=True)

# Told each stage's name, answer and seconds as it ends.
Watch = Callable[[str, Answer, float], None]


@dataclass
class Search:
    """A board's search: what every stage reads, and the answers given so far."""

    board: Board
    goal: Objective
    solver: Backend
    deadline: Deadline | None
    answers: dict[str, Answer] = field(default_factory=dict)
    # The pinned relaxation's model, built once: the homes stage adds to it.
    pinned_model: tuple[Mip, Layout] | None = None

    def said(self, stage: str) -> Answer:
        """The answer `stage` gave (an empty one where it did not run)."""
        return self.answers.get(stage, Answer())

    def best(self, fallback: bool = False) -> Found | None:
        """The best legal move at hand (alike scores: the latest found); with `fallback`,
        those found only to have a move when time runs out too."""
        at_hand = [
            answer.found
            for name, answer in reversed(self.answers.items())
            if answer.found is not None and (fallback or name != ASIDE.name)
        ]
        if not at_hand:
            return None
        return max(at_hand, key=lambda found: self.score(found.arrangement).ranked(self.goal))

    def score(self, arrangement: Arrangement) -> Score:
        return Score.of(self.board, arrangement)


@dataclass(frozen=True)
class Stage:
    """One stage: where the rules call for it (`applies`, before any search), whether the
    answers so far leave it anything to do (`wanted`), and its search (`solve`).
    `prepare`: one-off work done before a time limit's clock starts."""

    name: str
    applies: Callable[[Board, bool], bool]  # the board, and whether a time limit holds
    solve: Callable[[Search], Answer]
    wanted: Callable[[Search], bool] = lambda search: True
    prepare: Callable[[Board], None] = lambda board: None


def _strict(board: Board, timed: bool = False) -> bool:
    """The rules on jokers as written bind (STRICT retrieval, a joker on the table)."""
    return jokers_bind(board) and board.rules.joker_retrieval is JokerRetrieval.STRICT


def _glance(search: Search) -> Answer:
    return NO_MOVE if no_initial_meld(search.board) else Answer()


def _aside(search: Search) -> Answer:
    """The best move that leaves every set holding a joker as it lies (jokers free on the
    rest, which holds none): legal under every reading, and quick to find."""
    board = search.board
    aside = [n for n, s in enumerate(board.table) if JOKER in s]
    rest = [n for n, s in enumerate(board.table) if JOKER not in s]
    free = board.rules.replace(joker_retrieval=JokerRetrieval.FREE, locked_joker_sets=False)
    rest_table = tuple(board.table[n] for n in rest)  # no joker: nothing declared
    part = dataclasses.replace(board, table=rest_table, rules=free, declared=())
    solution, layout = solve_model(part, search.goal, search.solver, search.deadline)
    arrangement = arrangement_of(layout, solution)
    if arrangement is None:
        return Answer()
    arrangement.kept[:] = sorted([rest[n] for n in arrangement.kept] + aside)
    return Answer(Found(arrangement))


def _pinned(search: Search) -> Answer:
    board = search.board
    built = model_for(board, search.goal, JokerPart.PINNED, search.deadline)
    mip, layout = search.pinned_model = built
    solution = _solve(mip, layout, search.solver, search.deadline)
    relaxed = arrangement_of(layout, solution)
    if relaxed is None:
        return NO_MOVE if solution.proved else Answer()
    legal = pin_jokers(board, layout, solution, relaxed)
    if legal is not None:  # the best move where proved, else one at hand
        return Answer(_found(board, legal), solution.proved, ends=solution.proved)
    bound = search.score(relaxed) if solution.proved else None
    return Answer(proved=solution.proved, bound=bound)


def _refused(search: Search) -> bool:
    """The pinned answer was proved best of the relaxation, and the checker refused it."""
    pinned = search.said(PINNED.name)
    return pinned.bound is not None and pinned.found is None


def _homes(search: Search) -> Answer:
    board, pinned = search.board, search.said(PINNED.name)
    reach = pinned.bound.objective(board, search.goal) if pinned.bound is not None else None
    solution, _layout, relaxed, legal = solve_homes(
        board, search.goal, search.solver, search.deadline, search.pinned_model, reach
    )
    if relaxed is None:
        return NO_MOVE if solution.proved else Answer()
    if legal is not None:
        return Answer(_found(board, legal), solution.proved, ends=solution.proved)
    bound = search.score(relaxed) if solution.proved else None
    return Answer(proved=solution.proved, bound=bound)


def _looser(search: Search) -> Answer:
    board = search.board
    solution, layout = solve_model(looser(board), search.goal, search.solver, search.deadline)
    loose = arrangement_of(layout, solution)
    if loose is None:
        return NO_MOVE if solution.proved else Answer()
    # The kept sets lead the new table, in the order of `loose.kept`.
    new_table = [board.table[i] for i in loose.kept] + laid_sets(loose, board.rules)
    kept = [(i, k) for k, i in enumerate(loose.kept)]
    places = joker_places(board, new_table, loose.played, kept)
    if places is not None:
        found = Found(loose, laid_as(new_table, places, board.rules))
        return Answer(found, solution.proved, ends=True)
    bound = search.score(loose) if solution.proved else None
    return Answer(proved=solution.proved, bound=bound)


def _bound(search: Search) -> Score | None:
    """The bound the homes stage or the looser reading proved (at most one of them runs)."""
    bound = search.said(HOMES.name).bound
    return bound if bound is not None else search.said(LOOSER.name).bound


def _rack_only(search: Search) -> Answer:
    board = search.board
    part = JokerPart.RACK_ONLY
    solution, layout = solve_model(board, search.goal, search.solver, search.deadline, part)
    found = arrangement_of(layout, solution)
    if found is None:
        return Answer(proved=solution.proved)
    reached = solution.proved and search.score(found) == _bound(search)
    return Answer(Found(found), solution.proved, ends=reached)


def _whole(search: Search) -> Answer:
    """The whole model, asked only for a better move than the best legal one at hand."""
    board = search.board
    best = search.best()
    cutoff = None if best is None else search.score(best.arrangement).objective(board, search.goal)
    solution, layout = solve_model(
        board, search.goal, search.solver, search.deadline, cutoff=cutoff
    )
    arrangement = arrangement_of(layout, solution)
    if arrangement is None and solution.proved and best is not None:
        return Answer(best, proved=True, ends=True)
    found = None if arrangement is None else Found(arrangement)
    return Answer(found, solution.proved, ends=True)


def _found(board: Board, legal: Pinned) -> Found:
    """A relaxation's answer that the checker passes, with its jokers where they stand."""
    move, table, places = legal
    return Found(move, laid_as(table, places, board.rules))


# The stages in the order they run: the table in the package docstring says why.
GLANCE = Stage("glance", lambda board, timed: not board.opened, _glance)
ASIDE = Stage("aside", lambda board, timed: timed and jokers_bind(board), _aside)
PINNED = Stage("pinned", _strict, _pinned)
HOMES = Stage("homes", _strict, _homes, _refused, homes.prepare)
LOOSER = Stage(
    "looser",
    lambda board, timed: jokers_bind(board),
    _looser,
    lambda search: search.said(HOMES.name).bound is None,
)
RACK_ONLY = Stage("rack-only", _strict, _rack_only, lambda search: _bound(search) is not None)
WHOLE = Stage("whole", lambda board, timed: True, _whole)
STAGES = (GLANCE, ASIDE, PINNED, HOMES, LOOSER, RACK_ONLY, WHOLE)


def looser(board: Board) -> Board:
    """The board under a looser reading of its rules on jokers (where they bind): under
    STRICT, freed jokers anywhere (REPLACE); else jokers free and sets open."""
    rules = board.rules
    if rules.joker_retrieval is JokerRetrieval.STRICT:
        return dataclasses.replace(
            board, rules=rules.replace(joker_retrieval=JokerRetrieval.REPLACE)
        )
    free = rules.replace(joker_retrieval=JokerRetrieval.FREE, locked_joker_sets=False)
    return dataclasses.replace(board, rules=free)


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
    mip, layout = model_for(board, objective, part, deadline)
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


def model_for(
    board: Board, objective: Objective, part: JokerPart, deadline: Deadline | None
) -> tuple[Mip, Layout]:
    """The board's model, built before the deadline; the pinned relaxation's with its
    stay rows in (so built once where homes are added to it)."""
    stay_rows = add_stay_rows if part is JokerPart.PINNED else None
    layout = build_layout(board, objective, part, deadline, stay_rows)
    return model_mip(board, layout), layout


def solve_homes(
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
    first; nodes whose bound falls short wait for the rest of the search, in the same
    search (`Mip.reach`), which solves the root's LP once, not twice."""
    mip, layout = pinned or model_for(board, goal, JokerPart.PINNED, deadline)
    built = homes.with_homes(layout, board)
    if built is None:  # no joker can be freed: the pinned answer was refused otherwise
        return Solution(None, proved=False), layout, None, None
    mip, columns = built
    solution = _solve(dataclasses.replace(mip, reach=reach), layout, solver, deadline)
    relaxed = arrangement_of(layout, solution)
    if relaxed is None or solution.values is None:
        return solution, layout, None, None
    laid = homes.lay_homes(columns, solution.values, relaxed)
    legal = None if laid is None else pin_jokers(board, layout, solution, laid)
    return solution, layout, relaxed, legal
