"""The CLP binding: every entry point checked at start-up, CoinBigIndex asked of the
library, and its answers the same as HiGHS's."""

from __future__ import annotations

import ctypes
import dataclasses
import types
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from rummisolve.engine import backends, clp
from rummisolve.engine.builder import Mip
from rummisolve.engine.lp import LpEnd, Solution
from rummisolve.engine.model import build_model, objective_value
from rummisolve.engine.solve import find_move
from rummisolve.errors import SolverError
from rummisolve.generate import generate_boards
from rummisolve.legality import check_move
from rummisolve.move import Move, Objective, SetChange, Status
from rummisolve.rules import Rules

# Dealt positions compared with HiGHS: large enough tables and racks that most need a
# branch-and-bound (re-solves from the last basis), not only the root LP.
COMPARED = 300


class Without:
    """A loaded library that lacks one function, as an older or other build might."""

    def __init__(self, lib: Any, missing: str) -> None:
        self.lib, self.missing = lib, missing

    def __getattr__(self, name: str) -> Any:
        if name == self.missing:
            raise AttributeError(name)
        return getattr(self.lib, name)


@pytest.mark.parametrize("missing", sorted(clp.ENTRY_POINTS))
def test_a_library_without_an_entry_point_is_named_at_start(missing: str) -> None:
    lib, path = clp.load_library()
    with pytest.raises(SolverError) as raised:
        clp.declare(Without(lib, missing), path)
    assert str(raised.value) == (
        f"backend clp: {path} lacks {missing} of CLP's C interface (--backend highs needs no CLP)"
    )


def simulated_library(index: type[ctypes.c_int32 | ctypes.c_int64] | None) -> Any:
    """Every entry point, in Python: loadProblem reads the column starts as `index` (a
    32- or 64-bit CoinBigIndex), or makes no matrix (None), as a C library would."""
    lengths: list[ctypes.Array[ctypes.c_int]] = []

    def load_problem(model: int, columns: int, rows: int, starts: int, *rest: object) -> None:
        if index is not None:
            read = (index * (columns + 1)).from_address(starts)
            lengths.append(
                (ctypes.c_int * columns)(*(read[j + 1] - read[j] for j in range(columns)))
            )

    def vector_lengths(model: int) -> int | None:
        return ctypes.addressof(lengths[-1]) if lengths else None

    library = types.SimpleNamespace(**{name: returning(None) for name in clp.ENTRY_POINTS})
    library.Clp_newModel = returning(1)
    library.Clp_loadProblem = load_problem
    library.Clp_getVectorLengths = vector_lengths
    return library


def returning(result: object) -> Callable[..., object]:
    """A function of its own (declaring sets its argtypes) that returns `result`."""

    def function(*arguments: object) -> object:
        return result

    return function


@pytest.mark.parametrize(
    ("index", "expected"),
    [(ctypes.c_int32, np.int32), (ctypes.c_int64, np.int64)],
    ids=["int-coin-big-index", "64-bit-coin-big-index"],
)
def test_coin_big_index_is_read_from_the_library(
    index: type[ctypes.c_int32 | ctypes.c_int64], expected: type[np.signedinteger[Any]]
) -> None:
    assert clp.declare(simulated_library(index), "libClp.so").index_type is expected


def test_a_library_whose_index_width_cannot_be_told_is_a_named_error() -> None:
    with pytest.raises(SolverError) as raised:
        clp.declare(simulated_library(None), "libClp.so")
    assert str(raised.value) == (
        "backend clp: cannot tell the width of libClp.so's CoinBigIndex "
        "(--backend highs needs no CLP)"
    )


def test_the_shipped_library_passes_its_own_probe() -> None:
    assert clp.api().index_type in (np.int32, np.int64)


def lexicographic_objective(board: Any, goal: Objective, move: Move) -> float:
    kept = sum(1 for step in move.steps if step.change is SetChange.KEEP)
    return objective_value(board, goal, move.tiles_played, move.value_played, kept)


def test_clp_agrees_with_highs_on_dealt_positions() -> None:
    """Each answer's objective (tiles, then value, then sets kept) equals HiGHS's, on
    positions dealt with a fixed seed, both objectives; every answer is legal and proved."""
    boards = generate_boards(COMPARED, 12, table_tiles=(0, 60), rack_tiles=(5, 30), rules=Rules())
    for number, board in enumerate(boards, start=1):
        goal = (Objective.TILES, Objective.VALUE)[number % 2]
        ours = find_move(board, goal, backend="clp")
        theirs = find_move(board, goal, backend="highs")
        assert check_move(board, ours) == [], f"position {number}"
        assert ours.status is theirs.status is not Status.FEASIBLE, f"position {number}"
        assert lexicographic_objective(board, goal, ours) == lexicographic_objective(
            board, goal, theirs
        ), f"position {number}"


def test_a_basis_restored_is_where_the_next_solve_starts() -> None:
    """Kept at the root, the basis survives other bounds' solves: restored, the root's
    bounds solve to the root's optimum again."""
    board = next(generate_boards(1, 5, table_tiles=40, rack_tiles=12, rules=Rules()))
    mip, _layout = build_model(board, Objective.TILES)
    lp = clp.ClpLp(mip)
    try:
        assert lp.solve(1.0) is LpEnd.OPTIMAL
        root, values, basis = lp.objective(), lp.values(), lp.basis()
        lp.bound(mip.lower, np.zeros_like(mip.upper))  # nothing but the table kept
        lp.solve(1.0)
        assert lp.basis() != basis
        lp.bound(mip.lower, mip.upper)
        lp.restore(basis)
        assert lp.solve(1.0) is LpEnd.OPTIMAL
        assert (lp.objective(), lp.values().tolist()) == (root, values.tolist())
    finally:
        lp.close()


def test_searches_from_parents_bases_find_the_same_optima(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A node's LP starts from its parent's basis (branch.py): the optimum of every search
    is the one found when each LP starts from the last, on dealt positions with jokers."""
    boards = generate_boards(60, 8, table_tiles=(20, 60), rack_tiles=(8, 25), jokers=(1, 2))
    mips = [build_model(board, Objective.TILES)[0] for board in boards]
    restored = []
    restore = clp.ClpLp.restore

    def counted(self: clp.ClpLp, basis: object) -> None:
        restored.append(basis)
        restore(self, basis)

    monkeypatch.setattr(clp.ClpLp, "restore", counted)
    with_parents = [backends.solve_clp(mip, None) for mip in mips]
    assert len(restored) > 20  # (54 here): the searches did start from parents' bases
    monkeypatch.setattr(clp.ClpLp, "restore", lambda self, basis: None)
    from_last = [backends.solve_clp(mip, None) for mip in mips]
    for mip, ours, theirs in zip(mips, with_parents, from_last, strict=True):
        assert ours.proved and theirs.proved
        assert ours.values is not None and theirs.values is not None
        assert mip.cost @ ours.values == mip.cost @ theirs.values


@pytest.fixture(scope="module")
def untold() -> list[tuple[Mip, Solution, int]]:
    """Dealt positions with jokers, some of whose searches branch: each one's model, what
    a search not told what it may reach finds, and how many LPs that search solved. Solved
    once for the module; no test changes them."""
    boards = generate_boards(25, 9, table_tiles=(30, 60), rack_tiles=(8, 25), jokers=(1, 2))
    lps: list[int] = []

    def counted(mip: Mip) -> clp.ClpLp:
        lp = clp.ClpLp(mip)
        solve = lp.solve

        def counting(seconds: float) -> LpEnd:
            lps[-1] += 1
            return solve(seconds)

        lp.solve = counting  # type: ignore[method-assign]
        return lp

    found = []
    for board in boards:
        mip = build_model(board, Objective.TILES)[0]
        lps.append(0)
        found.append((mip, backends.solve_clp(mip, None, open_lp=counted), lps[-1]))
    return found


@pytest.mark.parametrize("off_by", [-2, 0, 3], ids=lambda k: f"reach-optimum{k:+d}")
def test_a_search_told_what_it_may_reach_finds_the_same_optima(
    untold: list[tuple[Mip, Solution, int]], off_by: int
) -> None:
    """`Mip.reach` only orders the search (solutions reaching it first, the other nodes
    after): a reach above the optimum, at it or below it, the optimum is the same, on
    dealt positions with jokers, some of whose searches branch."""
    for mip, plain, _ in untold:
        assert plain.proved and plain.values is not None
        optimum = float(mip.cost @ plain.values)
        told = backends.solve_clp(dataclasses.replace(mip, reach=optimum + off_by), None)
        assert told.proved and told.values is not None
        assert mip.cost @ told.values == optimum
    assert sum(lps > 1 for _, _, lps in untold) >= 3
