"""find_move solves STRICT in stages (the pinned relaxation, the replace reading, the
rack-only restriction, the whole model with a cutoff): on joker-heavy positions its
answers are the whole strict model's optimum."""

from __future__ import annotations

import numpy as np

from rummisolve.board import Board, parse_board
from rummisolve.engine.backends import get_backend
from rummisolve.engine.branch import (
    LARGE_MODEL_NODE_LIMIT,
    LARGE_MODEL_ROWS,
    NODE_LIMIT,
    Branching,
)
from rummisolve.engine.builder import Floats, Mip
from rummisolve.engine.lp import LpEnd
from rummisolve.engine.model import read_solution
from rummisolve.engine.solve import find_move
from rummisolve.engine.stages import solve_model
from rummisolve.generate import generate_boards
from rummisolve.jokers import set_readings
from rummisolve.legality import check_move
from rummisolve.move import Move, Objective, SetChange, Status
from rummisolve.rules import Rules
from rummisolve.tiles import JOKER, tile_value

from .clocks import StopsAfter, frozen

Score = tuple[int, int, int]


def _can_free_a_joker(board: Board) -> bool:
    """A rack tile is one that a joker of the table stands for (in a reading of its set):
    the positions where STRICT and REPLACE part."""
    roles = {
        t
        for s in board.table
        if JOKER in s and not all(t.is_joker for t in s)
        for reading in set_readings(s, board.rules)
        for t in reading
    }
    return not roles.isdisjoint(board.rack)


def _score(board: Board, tiles: int, value: int, kept: int, goal: Objective) -> Score:
    return (tiles, value, kept) if goal is Objective.TILES else (value, tiles, kept)


def _move_score(board: Board, move: Move, goal: Objective) -> Score:
    kept = sum(1 for step in move.steps if step.change is SetChange.KEEP) if move.is_move else 0
    return _score(board, move.tiles_played, move.value_played, kept, goal)


def _whole_model_score(board: Board, goal: Objective) -> Score:
    """The optimum of the whole strict model, solved at once (no stages, no cutoff)."""
    solution, layout = solve_model(board, goal, get_backend("clp"), None)
    assert solution.proved
    if solution.values is None:
        return (0, 0, 0)
    arrangement = read_solution(layout, solution.values)
    if not +arrangement.played:
        return (0, 0, 0)
    tiles = sum(arrangement.played.values())
    penalty = board.rules.joker_penalty
    value = sum(tile_value(t, penalty) * n for t, n in arrangement.played.items())
    return _score(board, tiles, value, len(arrangement.kept), goal)


def _positions(count: int, seed: int, rules: Rules, jokers: tuple[int, int]) -> list[Board]:
    boards = generate_boards(
        count, seed, table_tiles=(12, 30), rack_tiles=(6, 14), jokers=jokers, rules=rules
    )
    return [b for b in boards if _can_free_a_joker(b)]


def _agree(boards: list[Board], goal: Objective) -> None:
    for board in boards:
        move = find_move(board, goal)
        assert check_move(board, move) == []
        assert _move_score(board, move, goal) == _whole_model_score(board, goal), board


def test_the_stages_reach_the_whole_models_optimum_with_two_jokers() -> None:
    boards = _positions(500, 11, Rules(), (2, 2))
    assert len(boards) > 120
    _agree(boards, Objective.TILES)


def test_the_stages_reach_the_whole_models_optimum_with_four_jokers() -> None:
    boards = _positions(100, 12, Rules(tile_set=160), (4, 4))
    assert len(boards) > 40
    _agree(boards, Objective.TILES)


def test_the_stages_reach_the_whole_models_optimum_on_points() -> None:
    boards = _positions(150, 13, Rules(), (2, 2))
    _agree(boards, Objective.VALUE)


def _slowest_of_seed_11() -> Board:
    """The slowest of seed 11's large 4-joker tables: every stage of the rules as written
    runs on it (its proof takes some 250 readings of the clock)."""
    (board,) = list(
        generate_boards(
            67,
            11,
            table_tiles=(40, 60),
            rack_tiles=(10, 20),
            jokers=(4, 4),
            rules=Rules(tile_set=160),
        )
    )[66:]
    return board


def test_a_time_limit_shorter_than_the_proof_gives_a_legal_move_at_hand() -> None:
    """Time up a few stages in: the answer is the best legal move found by then."""
    board = _slowest_of_seed_11()
    move = find_move(board, time_limit=1.0, clock=StopsAfter(80))
    assert check_move(board, move) == []
    assert move.status is Status.FEASIBLE and move.is_move


def test_with_time_left_a_time_limited_search_goes_on_to_the_proof() -> None:
    """A limit is no reason to give up while time remains, however large the models left
    (an estimate of an LP's time once gave up on the whole model long before the limit).
    CLP's LPs keep no time of their own: the frozen clock alone says time remains."""
    board = _slowest_of_seed_11()
    move = find_move(board, backend="clp", time_limit=0.001, clock=frozen)
    best = find_move(board, backend="clp")
    assert check_move(board, move) == []
    assert (move.status, move.tiles_played, move.value_played) == (
        Status.OPTIMAL,
        best.tiles_played,
        best.value_played,
    )


def test_a_locked_sets_one_tile_lies_where_its_freed_jokers_leave_it() -> None:
    """K8 and K9 free both jokers of the locked K10 J J; K10 then lies in K6 J K8 K9 K10,
    four places from its start: the replace reading's model (the looser stage under
    STRICT) must hold that set too, or its bound is wrong (it gave 4 tiles, not 5)."""
    for retrieval in ("replace", "strict"):
        board = parse_board(
            f"rules: joker-retrieval={retrieval} locked-joker-sets\n"
            "table:\nK10 J J\nrack: K8 K9 K8 K6 K6\n"
        )
        move = find_move(board)
        assert (move.tiles_played, check_move(board, move)) == (5, [])


class _EndlessLp:
    """An LP whose every node stays fractional: the search only ends at its node limit."""

    engine = "highs"

    def __init__(self) -> None:
        self.solves = 0

    def bound(self, lower: Floats, upper: Floats) -> None:
        pass

    def basis(self) -> object:
        return None

    def restore(self, basis: object) -> None:
        pass

    def solve(self, seconds: float) -> LpEnd:
        self.solves += 1
        return LpEnd.OPTIMAL

    def objective(self) -> float:
        return 10.0

    def values(self) -> Floats:
        return np.array([0.5, 0.5])


def _mip(rows: int) -> Mip:
    """Two columns, no entries, `rows` empty rows: only its size matters to the search."""
    zeros = np.zeros(rows)
    return Mip(
        cost=np.ones(2),
        lower=np.zeros(2),
        upper=np.ones(2),
        row_lower=zeros,
        row_upper=zeros,
        col_start=np.zeros(3, dtype=np.int32),
        col_index=np.zeros(0, dtype=np.int32),
        col_value=np.zeros(0),
    )


def test_a_large_models_search_hands_over_to_highs_mip_sooner() -> None:
    """The whole strict model's LPs take 10-500 ms each: past LARGE_MODEL_NODE_LIMIT of
    them its search hands over to HiGHS's MIP, a small model's only past NODE_LIMIT."""
    for rows, limit in ((10, NODE_LIMIT["highs"]), (LARGE_MODEL_ROWS + 1, LARGE_MODEL_NODE_LIMIT)):
        lp = _EndlessLp()
        assert Branching(lp, _mip(rows), None).run() is None
        assert lp.solves == limit
