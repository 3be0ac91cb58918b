"""Puzzles from real play: the turns that missed the most, kept where the best move is
the only one (`puzzle.only_best`), scored as `rummisolve puzzle` scores them."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from ..board import Expectation, format_board
from ..puzzle import Difficulty, only_best
from ..render import render_move
from .turns import TurnReview


@dataclass(frozen=True)
class ReviewPuzzle:
    """A missed turn's position as a board file, its only best move as comments."""

    name: str  # LOG-STEM-gGAME-tTURN.txt
    text: str
    difficulty: Difficulty


def puzzle_of(turn: TurnReview, backend: str | None = None) -> ReviewPuzzle | None:
    """The turn's position as a puzzle, or None where its best move is not the only one."""
    p = turn.position
    found = only_best(p.board, backend)
    if found is None:
        return None
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
    name = f"{Path(p.source).stem}-g{p.game}-t{p.turn}.txt"
    return ReviewPuzzle(
        name, "\n".join(lines) + "\n" + format_board(board, full_rules=True), difficulty
    )
