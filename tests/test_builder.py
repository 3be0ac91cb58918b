"""The model builder: named groups of rows and columns that cover the program, and rows
added later entering the columns already there."""

from __future__ import annotations

import numpy as np
import pytest

from rummisolve.board import Board
from rummisolve.engine import homes, stages
from rummisolve.engine.builder import Group, Mip, Program
from rummisolve.engine.joker_model import JokerPart
from rummisolve.engine.model import Layout, build_model
from rummisolve.generate import generate_boards
from rummisolve.move import Objective
from rummisolve.rules import Rules

GOAL = Objective.TILES


def _dense(mip: Mip) -> np.ndarray:
    matrix = np.zeros((mip.rows, mip.columns))
    for column in range(mip.columns):
        at = slice(mip.col_start[column], mip.col_start[column + 1])
        np.add.at(matrix[:, column], mip.col_index[at], mip.col_value[at])
    return matrix


def _covered(groups: dict[str, Group], count: int) -> None:
    """The groups lie one after another, from the first row (or column) to the last."""
    ranges = sorted((g.at for g in groups.values()), key=lambda r: (r.start, r.stop))
    assert [r.start for r in ranges] == [0, *(r.stop for r in ranges[:-1])]
    assert ranges[-1].stop == count
    assert all(g.says and g.name for g in groups.values())


def _assert_named(mip: Mip, layout: Layout) -> None:
    _covered(layout.program.rows.groups, mip.rows)
    _covered(layout.program.columns.groups, mip.columns)


def test_rows_entered_later_follow_each_columns_own_entries() -> None:
    program = Program()
    first = program.rows.add(2, 0.0, 1.0, name="first", says="x[0] + x[1] <= 1")
    program.columns.add(1.0, 1.0, {first[0]: 1.0})
    program.columns.add_block(
        np.array([2.0, 3.0]),
        np.zeros(2),
        np.array([1, 2]),
        np.array([first[1], first[0], first[1]]),
        np.array([1.0, 2.0, 3.0]),
    )
    program.columns.named("all", 0, "three columns")
    base = program.mip()
    more = program.extended()
    later = more.rows.add(2, -np.inf, 4.0, name="later", says="a sum or two")
    more.columns.enter([2, 0, 2], [later[0], later[0], later[1]], [5.0, 6.0, 7.0])
    extended = more.mip()
    # The program extended is left as it was; the copy has the rows below.
    assert program.mip().rows == base.rows == 2
    assert extended.col_start.tolist() == [0, 2, 3, 7]
    assert extended.col_index.tolist() == [0, 2, 1, 0, 1, 2, 3]
    assert extended.col_value.tolist() == [1.0, 6.0, 1.0, 2.0, 3.0, 5.0, 7.0]
    assert extended.row_lower.tolist() == [0.0, 0.0, -np.inf, -np.inf]
    assert more.rows["later"] == range(2, 4) and "later" not in program.rows.groups
    assert (_dense(extended)[:2] == _dense(base)).all()


def test_a_group_name_is_given_once() -> None:
    program = Program()
    program.rows.add(1, 0.0, 1.0, name="once", says="x <= 1")
    with pytest.raises(AssertionError):
        program.rows.add(1, 0.0, 1.0, name="once", says="x <= 1")


def _boards() -> list[Board]:
    dealt = generate_boards(
        40, 5, table_tiles=(20, 40), rack_tiles=(8, 16), jokers=(2, 4), rules=Rules(tile_set=160)
    )
    return list(dealt)


def test_every_row_and_column_of_the_models_lies_in_a_named_group() -> None:
    """The whole model, the pinned one with its stay rows, and homes on it: each group of
    rows and of columns named, with what it says, and nothing left out."""
    extended = homed = 0
    for board in _boards():
        _assert_named(*build_model(board, GOAL))
        if build_model(board, GOAL, JokerPart.PINNED)[1].jokers is None:
            continue  # no joker the rules bind: no pinned model
        mip, layout = stages.model_for(board, GOAL, JokerPart.PINNED, None)
        _assert_named(mip, layout)
        extended += "stay" in layout.program.rows.groups
        built = homes.with_homes(layout, board)
        if built is not None:
            homed += 1
            with_homes, found = built
            _covered(found.program.rows.groups, with_homes.rows)
            _covered(found.program.columns.groups, with_homes.columns)
            assert found.start == mip.columns and with_homes.rows > mip.rows
    assert extended and homed


def test_homes_enter_the_stay_rows_by_name() -> None:
    """The homes model holds the pinned one, row for row, with its new rows below."""
    for board in _boards():
        if build_model(board, GOAL, JokerPart.PINNED)[1].jokers is None:
            continue
        mip, layout = stages.model_for(board, GOAL, JokerPart.PINNED, None)
        built = homes.with_homes(layout, board)
        if built is None or "stay" not in layout.program.rows.groups:
            continue
        dense = _dense(built[0])
        assert (dense[: mip.rows, : mip.columns] == _dense(mip)).all()
        stay = layout.program.rows["stay"]
        # Some home meets a staying joker's need: an entry in a stay row.
        assert dense[stay.start : stay.stop, mip.columns :].any()
        return
    pytest.fail("no board with stay rows and homes")
