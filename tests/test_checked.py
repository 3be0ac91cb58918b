"""One way to solve and check (checked.py): an answer the legality checker refuses is a
named SolverBug, told alike by the server and a batch, never a move."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from rummisolve.batch.rows import BatchSettings, solve_path
from rummisolve.board import Board, parse_board
from rummisolve.checked import every_checked, solve_checked
from rummisolve.engine.every import every_best_move
from rummisolve.engine.solve import find_move
from rummisolve.errors import SolverBug
from rummisolve.move import Move
from rummisolve.rules import Rules
from rummisolve.sets import meld_value
from rummisolve.tiles import parse_tile, parse_tiles
from rummisolve.web import api

BOARD = parse_board("table:\nR3 R4 R5\nrack: R6 B5 O5 K5\n")
BUG = "the answer breaks the rules (a solver bug): "
WORTH = find_move(BOARD).value_played  # R6 and B5 O5 K5, with the table's R5
MISCOUNTED = f"value_played is {WORTH + 1}, but the tiles are worth {WORTH}"


def wrong_value(board: Board, **options: Any) -> Move:
    """A stand-in solver that miscounts the points it played."""
    move = find_move(board, **options)
    return dataclasses.replace(move, value_played=move.value_played + 1)


def test_a_legal_answer_is_the_solvers_own() -> None:
    move = solve_checked(BOARD, source="a.txt")
    assert (move.tiles_played, move.table) == (4, find_move(BOARD).table)


def test_an_illegal_answer_is_a_solver_bug_naming_the_board() -> None:
    with pytest.raises(SolverBug) as raised:
        solve_checked(BOARD, source="a.txt", find=wrong_value)
    assert str(raised.value) == f"a.txt: {BUG}{MISCOUNTED}"


def test_a_played_tile_not_on_the_rack_is_named() -> None:
    def foreign(board: Board, **options: Any) -> Move:
        move = find_move(board, **options)
        return dataclasses.replace(move, played=(*move.played, parse_tile("K13")))

    with pytest.raises(SolverBug, match="played tiles not on the rack: K13"):
        solve_checked(BOARD, source="a.txt", find=foreign)


def test_the_server_and_a_batch_tell_a_solver_bug_alike(tmp_path: Any) -> None:
    reply = api.solve(BOARD, api.HintSettings(find=wrong_value))
    assert reply.status == 500
    said = json.loads(reply.text)["error"]
    assert said == f"board: {BUG}{MISCOUNTED}"
    path = tmp_path / "a.txt"
    path.write_text("table:\nR3 R4 R5\nrack: R6 B5 O5 K5\n", encoding="utf-8")
    row = json.loads(solve_path(str(path), BatchSettings(), find=wrong_value).row)
    assert row["error"] == said.replace("board", str(path), 1)


def test_every_best_move_checked_is_every_best_move() -> None:
    board = parse_board("table:\nR3 R4 R5\nrack: R6 R7 B6\n")
    found = every_checked(board, source="a.txt")
    assert [m.table for m in found.moves] == [m.table for m in every_best_move(board).moves]


@pytest.mark.parametrize(
    ("rows", "worth"),
    [
        (["R10 R11 R12"], 33),
        (["K7 R7 B7 J", "O1 O2 O3"], 34),  # a joker counts as the tile it stands for
        (["R12 R13 J", "R5 R6"], 36),  # R11 J: the most it can be; no set, nothing
    ],
    ids=["run", "group-with-joker", "joker-high-and-no-set"],
)
def test_meld_value_is_the_sets_face_value(rows: list[str], worth: int) -> None:
    assert meld_value([parse_tiles(row) for row in rows], Rules()) == worth
