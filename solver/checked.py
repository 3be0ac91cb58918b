"""One way to solve and check: every answer that `hint`, `hint --all`, the server and a
batch give goes through the legality checker (legality.py, which knows nothing of the
integer program), and an answer it refuses is a named `SolverBug`, never a move."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from .board import Board
from .engine.solve import find_move
from .errors import SolverBug
from .legality import check_move
from .move import Move, Objective

if TYPE_CHECKING:  # every.py loads only for `hint --all`: not on every hint's start-up
    from .engine.every import BestMoves, Criteria

Checker = Callable[[Board, Move], list[str]]


class Finder(Protocol):
    """What finds a move: `find_move`, or a test's stand-in."""

    def __call__(
        self,
        board: Board,
        *,
        objective: Objective | str,
        backend: str | None,
        time_limit: float | None,
    ) -> Move: ...


def checked(board: Board, move: Move, source: str, check: Checker = check_move) -> Move:
    """The move, where the checker passes it; else SolverBug, naming `source` (the board's
    file, or what stands for it)."""
    if problems := check(board, move):
        raise SolverBug(source, problems)
    return move


def solve_checked(
    board: Board,
    objective: Objective | str = Objective.TILES,
    backend: str | None = None,
    time_limit: float | None = None,
    *,
    source: str,
    find: Finder = find_move,
    check: Checker = check_move,
) -> Move:
    """The best move on the board (`find_move`), checked."""
    move = find(board, objective=objective, backend=backend, time_limit=time_limit)
    return checked(board, move, source, check)


def every_checked(
    board: Board,
    objective: Objective | str = Objective.TILES,
    criteria: Criteria | str = "best",
    limit: int | None = None,
    backend: str | None = None,
    time_limit: float | None = None,
    *,
    source: str,
    listed: Callable[[BestMoves], None] | None = None,
) -> BestMoves:
    """Every best move on the board (`every_best_move`), each checked; `listed` is told
    of the list as it grows (a move is checked once the list is whole)."""
    from .engine.every import every_best_move

    found = every_best_move(board, objective, criteria, limit, backend, time_limit, listed=listed)
    for move in found.moves:
        checked(board, move, source)
    return found
