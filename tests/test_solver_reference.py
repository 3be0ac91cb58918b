"""The MIP's optimum equals the exhaustive reference's on random small positions."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rummisolve.board import Board
from rummisolve.legality import check_move
from rummisolve.solve import Action, find_move

from .positions import positions
from .reference import best_move

# Examples per backend in the default profile; HYPOTHESIS_PROFILE=thorough multiplies them by 50.
EXAMPLES = {"highs": 600, "pulp-highs": 150, "cbc": 120}
SCALE = max(1, settings.default.max_examples // 100)


def kept_sets(steps: tuple) -> int:  # type: ignore[type-arg]
    return sum(1 for s in steps if s.action is Action.KEEP)


def test_mip_agrees_with_reference(backend: str) -> None:
    @settings(max_examples=EXAMPLES[backend] * SCALE)
    @given(board=positions(), objective=st.sampled_from(["tiles", "value"]))
    def agrees(board: Board, objective: str) -> None:
        move = find_move(board, objective=objective, backend=backend)
        assert check_move(board, move) == []
        expected = best_move(board, objective)
        assert (move.tiles_played, move.value_played) == (expected.tiles, expected.value)
        assert kept_sets(move.steps) == expected.kept

    agrees()
