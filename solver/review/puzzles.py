"""Puzzles from real play: the turns that missed the most, kept where the best move is
the only one (`puzzle.only_best`), scored as `rummisolve puzzle` scores them.

Proving a best move the only one on a rack of 20-30 tiles can take thousands of solves:
the proof is bounded (`PROOF_SOLVES`, a bound on work, so that the same logs give the same
puzzles on any machine), and a turn whose proof is cut is skipped, never written."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from ..board import Expectation, format_board
from ..puzzle import Difficulty, ProofCut, only_best
from ..render import render_move
from .positions import Position
from .turns import TurnReview

# Integer programs a uniqueness proof may solve by default (`review --proof-solves`).
PROOF_SOLVES = 100


@dataclass(frozen=True)
class ReviewPuzzle:
    """A missed turn's position as a board file, its only best move as comments."""

    name: str  # LOG-STEM-gGAME-tTURN.txt
    text: str
    difficulty: Difficulty


def puzzle_name(position: Position) -> str:
    """The file a position's puzzle is written to: LOG-STEM-gGAME-tTURN.txt."""
    return f"{Path(position.source).stem}-g{position.game}-t{position.turn}.txt"


def puzzle_of(
    turn: TurnReview, backend: str | None = None, max_solves: int | None = PROOF_SOLVES
) -> ReviewPuzzle | ProofCut | None:
    """The turn's position as a puzzle; None where its best move is not the only one,
    ProofCut where proving it would take more than `max_solves` solves."""
    p = turn.position
    found = only_best(p.board, backend, max_solves=max_solves)
    if not isinstance(found, tuple):
        return found
    answer, difficulty = found
    board = dataclasses.replace(
        p.board, expect=Expectation(answer.tiles_played, answer.value_played)
    )
    shown = render_move(board, answer).splitlines()[:-1]
    did = f"{len(p.played)} tile{'s' * (len(p.played) != 1)}" if p.played else "nothing (drew)"
    lines = [
        f"# rummisolve review: {p.source}, game {p.game}, turn {p.turn}: {p.player} laid {did};"
        f" {turn.mark_text()}",
        f"# difficulty: {difficulty.describe()}",
        "# the only best move (rummisolve hint shows it):",
        *(f"#   {line}".rstrip() for line in shown if line),
    ]
    return ReviewPuzzle(
        puzzle_name(p), "\n".join(lines) + "\n" + format_board(board, full_rules=True), difficulty
    )
