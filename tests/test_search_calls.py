"""`search` asks the solver once a position, and not at all where a rack cannot go out."""

from __future__ import annotations

import pytest
from hypothesis import given

from rummisolve.board import Board
from rummisolve.engine.solve import find_move
from rummisolve.move import Move, Objective
from rummisolve.partition import cannot_go_out
from rummisolve.rules import Rules
from rummisolve.search import MIN_SAMPLES, Search, goes_out, remembering
from rummisolve.tiles import Tile, parse_tile
from rummisolve.view import Finder, PlayerView

from .positions import positions


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tile(t) for t in text.split())


def board(table: str, rack: str, rules: Rules | None = None) -> Board:
    rows = tuple(tiles(s) for s in table.split(",") if s.strip())
    return Board(rows, tiles(rack), True, rules or Rules())


def counted(calls: list[tuple[Board, Objective]]) -> Finder:
    def find(position: Board, objective: Objective) -> Move:
        calls.append((position, objective))
        return find_move(position, objective)

    return find


def test_a_position_asked_again_is_solved_once_and_answered_as_a_fresh_solve() -> None:
    position = board("R4 R5 R6, K9 B9 O9", "R7 R8 K1 R9 J")
    calls: list[tuple[Board, Objective]] = []
    find = remembering(counted(calls))
    answers = [find(position, Objective.TILES) for _ in range(5)]
    value = find(position, Objective.VALUE)
    assert len(calls) == 2  # one solve for each objective
    fresh = find_move(position, Objective.TILES)
    assert all(
        (a.table, a.rack, a.played) == (fresh.table, fresh.rack, fresh.played) for a in answers
    )
    assert value.played == find_move(position, Objective.VALUE).played


def test_a_decision_makes_fewer_solver_calls_than_samples() -> None:
    """Every sampled round ends on a rack that cannot go out (K9 has no partner): after
    the first call, the samples cost no solve at all."""
    view = PlayerView(
        player="P1",
        rack=tiles("R1 R2 R3 K9"),
        table=(),
        rules=Rules(),
        order=("P1", "P2"),
        racks={"P1": 4, "P2": 14},
        opened={"P1": True, "P2": True},
        pool=20,
        history=(),
        luck=7,
    )
    calls: list[tuple[Board, Objective]] = []
    move = Search(think=1.0).choose(view, counted(calls))
    assert not move.is_move  # it holds: laying R1-R3 goes out no sooner
    assert len(calls) < MIN_SAMPLES <= Search(think=1.0).samples
    assert len(set(calls)) == len(calls)  # no position solved twice


@pytest.mark.parametrize(
    ("table", "rack", "rules", "out"),
    [
        pytest.param("R4 R5 R6", "R7 R8", Rules(), True, id="out-on-a-run"),
        pytest.param("R4 R5 R6", "R7 K1", Rules(), False, id="a-tile-with-no-partner"),
        pytest.param("R4 R5 R6, K9 B9 O9", "R7 R9", Rules(), True, id="a-group-given-up"),
        pytest.param("R12 R13 R1", "K1 B1 O1", Rules(), True, id="a-group-of-ones"),
        pytest.param("K11 K12 K13", "K1 K2", Rules(wraparound=True), False, id="no-13-1-2"),
        pytest.param("K12 K13", "K1", Rules(wraparound=True), True, id="12-13-1"),
        pytest.param("R4 J R6", "B2 K2", Rules(), False, id="a-joker-helps-one-set"),
        pytest.param("R4 R5 R6", "J O1", Rules(), False, id="a-joker-alone-with-a-one"),
    ],
)
def test_goes_out_is_the_solvers_answer(table: str, rack: str, rules: Rules, out: bool) -> None:
    position = board(table, rack, rules)
    assert_goes_out_as_solved(position)
    assert goes_out(position, counted([])) is out


@pytest.mark.parametrize(
    ("table", "rack"),
    [
        pytest.param("R4 R5 R6, K9 B9 J", "R7 K1", id="every-tile-pairs-with-the-joker"),
        pytest.param("R4 J R6, K9 B9 O9", "K3 O8 B12", id="one-joker-three-lone-tiles"),
    ],
)
def test_a_joker_on_the_table_does_not_make_every_rack_a_question(table: str, rack: str) -> None:
    """With a joker every tile pairs with some tile and the joker, so a test of each
    tile alone would ask the solver here; the tiles still cannot be cut into sets."""
    calls: list[tuple[Board, Objective]] = []
    assert not goes_out(board(table, rack), counted(calls))
    assert not calls


@given(positions(max_sets=3, max_rack=6))
def test_goes_out_is_the_solvers_answer_under_every_rule(position: Board) -> None:
    assert_goes_out_as_solved(position)


def assert_goes_out_as_solved(position: Board) -> None:
    """`goes_out` gives a fresh solve's answer, and asks the solver only where the rack
    is not proved unable to go out."""
    calls: list[tuple[Board, Objective]] = []
    fresh = find_move(position, Objective.TILES)
    assert goes_out(position, counted(calls)) is (fresh.is_move and not fresh.rack)
    assert len(calls) == (not cannot_go_out(position))
