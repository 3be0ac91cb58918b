"""One turn against the best move of its position: the most tiles it could have laid.

The best is `find_move`'s under the game's rules, objective tiles (then points). The
positions are solved here or by the batch's worker processes (`solve_boards`, the one
place the runner is called), each sent as its board file's text.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

from ..board import Board, format_board, parse_board
from ..engine.solve import find_move
from ..move import Status
from ..render import move_json, render_move, tiles_json
from ..view import TurnKind
from .positions import Position


@dataclass(frozen=True)
class Solving:
    """How each turn's best move is found."""

    backend: str | None = None
    time_limit: float | None = None  # seconds per turn: then the best found, not proved


@dataclass(frozen=True)
class Best:
    """The best move of a position, as `hint --json` gives it (`answer`), and its steps
    as `hint` prints them."""

    answer: dict[str, Any]
    steps: str

    @property
    def status(self) -> Status:
        return Status(self.answer["status"])

    @property
    def tiles(self) -> int:
        return int(self.answer["tiles_played"])

    @property
    def value(self) -> int:
        return int(self.answer["value_played"])

    @property
    def goes_out(self) -> bool:
        return self.tiles > 0 and not self.answer["rack"]


def board_text(board: Board) -> str:
    """A position as the board file that `hint` reads (every rule written out)."""
    return format_board(board, full_rules=True)


def best_on(text: str, solving: Solving) -> Best:
    """The best move on a board file's text."""
    board = parse_board(text)
    move = find_move(board, backend=solving.backend, time_limit=solving.time_limit)
    shown = render_move(board, move).splitlines()[:-1]  # without the footer's time
    return Best(move_json(move, board), "\n".join(line for line in shown if line))


# How a board's best move is found: `best_on`, or a stand-in (a module's function, so that
# worker processes can be handed it).
BestOn = Callable[[str, Solving], Best]

CRASHED = (
    "the solver crashed on this position (its worker process died twice: killed, or a crash"
    " inside a solver library)"
)


def solve_boards(
    texts: Sequence[str], solving: Solving, jobs: int, best: BestOn = best_on
) -> Iterator[Best | str]:
    """Each board's best move, in order; with `jobs` > 1 by the batch's worker processes
    (a board whose worker died twice: CRASHED instead)."""
    if jobs <= 1 or len(texts) <= 1:
        for text in texts:
            yield best(text, solving)
        return
    from ..batch.pool import SolveBoard, Workers
    from ..batch.rows import BatchSettings

    settings = BatchSettings(backend=solving.backend, time_limit=solving.time_limit)
    workers = Workers(settings, jobs, solve=cast(SolveBoard, partial(_best_in_worker, best)))
    try:
        for result in cast(Iterator[object], workers.solve(texts)):
            yield result if isinstance(result, Best) else CRASHED
    finally:
        workers.close()


def _best_in_worker(best: BestOn, text: str, settings: Any) -> Best:
    """A worker's task: the batch pool hands it a board and the batch's settings."""
    return best(text, Solving(settings.backend, settings.time_limit))


class Mark(enum.Enum):
    """A turn against its best, the decisive miss first."""

    BEST = "best"  # as many tiles as the best move (or nothing to lay)
    OUT = "could-have-gone-out"  # the whole rack could have been laid, and was not
    DREW = "drew-with-a-move"  # drew (or passed) when tiles could have been laid
    MISSED = "missed"  # laid fewer tiles than the best move


@dataclass(frozen=True)
class TurnReview:
    """A turn, what was done, and the most that could have been done."""

    position: Position
    best: Best

    @property
    def tiles_missed(self) -> int:
        return max(0, self.best.tiles - len(self.position.played))

    @property
    def points_missed(self) -> int:
        """What the best move lays beyond what was laid, in points (never below 0)."""
        return max(0, self.best.value - self.position.value_played) if self.tiles_missed else 0

    @property
    def mark(self) -> Mark:
        if not self.tiles_missed:
            return Mark.BEST
        if self.best.goes_out:
            return Mark.OUT
        return Mark.DREW if self.position.kind is not TurnKind.PLAY else Mark.MISSED

    @property
    def proved(self) -> bool:
        return self.best.status is not Status.FEASIBLE

    def mark_text(self) -> str:
        """`best`, `missed 2 tiles`, `could have gone out`, `drew with a move`, and
        `(not proved)` where the time limit cut the search short."""
        mark = self.mark
        if mark is Mark.MISSED:
            text = f"missed {self.tiles_missed} tile{'s' * (self.tiles_missed != 1)}"
        else:
            text = mark.value.replace("-", " ")
        return text if self.proved else f"{text} (not proved)"

    def as_json(self) -> dict[str, Any]:
        p, answer = self.position, self.best.answer
        return {
            "log": p.source,
            "line": p.line,
            "game": p.game,
            "turn": p.turn,
            "player": p.player,
            "action": p.kind.value,
            "played": tiles_json(p.played),
            "tiles_played": len(p.played),
            "value_played": p.value_played,
            "best_tiles": self.best.tiles,
            "best_value": self.best.value,
            "tiles_missed": self.tiles_missed,
            "points_missed": self.points_missed,
            "mark": self.mark.value,
            "status": self.best.status.value,
            "best_played": answer["played"],
            "table": answer["table"],
            "stand_for": answer["stand_for"],
        }


def impossible(review: TurnReview) -> str | None:
    """A proved best below what the turn laid: the log or the review is wrong."""
    if review.proved and len(review.position.played) > review.best.tiles:
        p = review.position
        return (
            f"{p.source}, line {p.line}: turn {p.turn} lays {len(p.played)} tiles, more than"
            f" the best move's {review.best.tiles} under the game's rules"
        )
    return None
