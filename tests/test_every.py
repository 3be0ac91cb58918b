"""Every best move (`hint --all`, engine/every.py): against the exhaustive reference, the
README's first example, the limit, and the checker on every move listed."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import assume, given, settings

from rummisolve.board import Board, parse_board, read_board
from rummisolve.engine.every import Criteria, every_best_move, move_key
from rummisolve.legality import check_move
from rummisolve.move import SetChange
from rummisolve.rules import JokerRetrieval
from rummisolve.tiles import JOKER, parse_tiles

from .cli import run
from .positions import positions
from .profiles import examples
from .reference import best_move, every_best_table, table_key

FIRST_EXAMPLE = "puzzles/rules/012-interface-hint-example.txt"


def free(board: Board) -> Board:
    rules = board.rules.replace(joker_retrieval=JokerRetrieval.FREE, locked_joker_sets=False)
    return dataclasses.replace(board, rules=rules)


@settings(max_examples=examples(150))
@given(board=positions(max_sets=2, max_rack=4, retrieval=JokerRetrieval.FREE))
def test_every_best_move_is_the_references(board: Board) -> None:
    """Jokers free: the moves listed are exactly the reference's best tables, one each."""
    # At most one joker: a set then holds two real tiles, which say run or group.
    if [*board.table_tiles, *board.rack].count(JOKER) > 1:
        board = dataclasses.replace(board, rack=tuple(t for t in board.rack if not t.is_joker))
        assume(board.table_tiles.count(JOKER) <= 1)
    best, tables = every_best_table(board)
    found = every_best_move(board)
    assert found.complete
    if best.tiles == 0:
        assert found.moves == ()
        return
    keys = [table_key(list(move.table)) for move in found.moves]
    assert len(set(keys)) == len(keys)
    assert set(keys) == tables
    for move in found.moves:
        assert check_move(board, move) == []


BOUND_JOKERS = {
    "strict": positions(max_sets=2, max_rack=4, retrieval=JokerRetrieval.STRICT, freeing=True),
    "replace": positions(max_sets=2, max_rack=4, retrieval=JokerRetrieval.REPLACE, freeing=True),
    "locked": positions(max_sets=2, max_rack=4, locked=True),
}


@pytest.mark.parametrize("rules", list(BOUND_JOKERS))
def test_where_jokers_are_bound_every_move_listed_is_best_and_legal(rules: str) -> None:
    @settings(max_examples=40)
    @given(board=BOUND_JOKERS[rules])
    def listed(board: Board) -> None:
        assert_best_and_legal(board)

    listed()


def assert_best_and_legal(board: Board) -> None:
    """Each move listed is legal, as good as the reference's best, and no two are the
    same; find_move's move is the first."""
    best = best_move(board)
    found = every_best_move(board)
    assert found.complete
    keys = {move_key(move.table) for move in found.moves}
    assert len(keys) == found.count
    for move in found.moves:
        assert check_move(board, move) == []
        kept = sum(s.change is SetChange.KEEP for s in move.steps)
        assert (move.tiles_played, move.value_played, kept) == best
    # Where jokers free do no better, each move is one of the jokers-free reference's.
    if board.opened:
        loose, tables = every_best_table(free(board))
        if loose == best:
            assert keys <= tables


def test_the_first_example_has_three_best_moves() -> None:
    code, out, err = run("hint", FIRST_EXAMPLE, "--all", "--json")
    assert (code, err) == (0, "")
    found = json.loads(out)
    assert (found["count"], found["complete"]) == (3, True)
    tables = {tuple(sorted(" ".join(sorted(s)) for s in m["table"])) for m in found["moves"]}
    assert len(tables) == 3
    assert all(m["tiles_played"] == 4 and m["value_played"] == 42 for m in found["moves"])


def test_the_limit_says_at_least() -> None:
    code, out, _ = run("hint", FIRST_EXAMPLE, "--all", "--limit", "2")
    assert code == 0
    assert out.count("Play 4 tiles") == 2
    assert out.splitlines()[-1].startswith("at least 2 best moves (stopped by the limit:")


def test_a_unique_answer_is_exactly_one() -> None:
    board = read_board("puzzles/rules/000-extend-and-split.txt")
    found = every_best_move(board)
    assert (found.count, found.complete, found.unique) == (1, True, True)
    code, out, _ = run("hint", "puzzles/rules/000-extend-and-split.txt", "--all")
    assert code == 0 and "Best move" not in out
    assert out.splitlines()[-1].startswith("exactly 1 best move (proved:")


def test_criteria_tiles_lists_moves_whatever_their_points() -> None:
    board = Board(
        table=(tuple(parse_tiles("R3 R4 R5")),), rack=tuple(parse_tiles("R6 K9 O9 B9 R1"))
    )
    by_points = every_best_move(board)
    by_tiles = every_best_move(board, criteria=Criteria.TILES)
    assert by_points.count == 1 and by_tiles.complete
    assert by_tiles.count >= by_points.count
    assert {m.tiles_played for m in by_tiles.moves} == {by_points.moves[0].tiles_played}


def test_no_move_lists_none() -> None:
    code, out, _ = run("hint", "-", "--all", "--json", stdin="table:\nR3 R4 R5\nrack: K9\n")
    assert code == 0
    assert json.loads(out) == {
        "count": 0,
        "complete": True,
        "moves": [],
        "solves": 0,
        "seconds": json.loads(out)["seconds"],
    }


def test_every_backend_proves_the_first_example_s_three(backend: str) -> None:
    """Parts with no solution are a proved none on every backend, not an error."""
    found = every_best_move(read_board(FIRST_EXAMPLE), backend=backend)
    assert (found.count, found.complete) == (3, True)


def test_the_cuts_of_a_run_are_one_move_solved_once() -> None:
    """R1-R5 R5-R12 and B1-B9 B9-B12 cut into sets of 3-5 many ways, all one move: the
    search solves each outline once, not each cut (that took 19 integer programs)."""
    board = Board(
        table=(
            tuple(parse_tiles("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13")),
            tuple(parse_tiles("B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13")),
        ),
        rack=tuple(parse_tiles("R5 B9 K13")),
    )
    found = every_best_move(board, max_solves=5)
    assert (found.count, found.complete) == (1, True)


BOUND_JOKER = """\
table:
O1 O2 O3
R7 R8 R9
K3 K4 K5
O8 O9 O10
R4 R5 R6
K6 K7 K8 J
K6 K7 K8
R2 R3 R4
rack: K2 K5 K11 R1 R3 R10 R11
"""


def test_a_table_joker_that_cannot_be_freed_is_not_searched_elsewhere() -> None:
    """Official rules: the joker of K6 K7 K8 J stays a K9 (no K9 on the rack). The
    jokers-free model's solutions that move it lay tables the rules refuse: the search
    leaves them out (searching them took 433 integer programs)."""
    board = parse_board(BOUND_JOKER)
    found = every_best_move(board, max_solves=10)
    assert (found.count, found.complete) == (1, True)
    assert check_move(board, found.moves[0]) == []
