"""Every puzzle in puzzles/ gets its recorded answer, legally, from every backend.

The expect lines were worked out by hand and checked against the exhaustive reference
(tests/reference.py), so a failure here means the solver, not the puzzle, moved.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rummisolve.board import read_board
from rummisolve.engine.solve import find_move
from rummisolve.legality import check_move

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
PATHS = sorted(PUZZLES.rglob("*.txt"))
# The hand-made folders beside the rules' worked examples; each must keep its puzzles.
FOLDERS = (
    "rules",
    "manipulation",
    "jokers",
    "initial-meld",
    "wraparound",
    "tile-set-160",
    "no-move",
    "joker-retrieval",
    "locked-joker-sets",
    "rulebook",
    "profiles",
)


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.relative_to(PUZZLES).as_posix())
def test_puzzle_gets_its_expected_answer(path: Path, backend: str) -> None:
    board = read_board(path)
    assert board.expect is not None, "every puzzle records its answer: # expect: tiles=N value=N"
    move = find_move(board, backend=backend)
    assert (move.tiles_played, move.value_played) == tuple(board.expect)
    assert check_move(board, move) == []


def test_the_library_is_all_there() -> None:
    """A glob that silently finds nothing would pass every test above."""
    counts = {folder: len(list((PUZZLES / folder).glob("*.txt"))) for folder in FOLDERS}
    assert all(n >= 3 for n in counts.values()), counts
    assert len(PATHS) >= 60
