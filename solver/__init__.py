"""rummisolve: the proved-best Rummikub play from a table and a rack."""

from .board import Board, Expectation, format_board, parse_board, read_board
from .errors import BoardError, Problem, RummisolveError, SolverError
from .legality import check_move
from .model import Objective
from .rules import Rules
from .solve import Move, Status, find_move
from .tiles import JOKER, Colour, Tile, format_tile, parse_tile

__version__ = "0.1.0"

__all__ = [
    "JOKER",
    "Board",
    "BoardError",
    "Colour",
    "Expectation",
    "Move",
    "Objective",
    "Problem",
    "Rules",
    "RummisolveError",
    "SolverError",
    "Status",
    "Tile",
    "__version__",
    "check_move",
    "find_move",
    "format_board",
    "format_tile",
    "parse_board",
    "parse_tile",
    "read_board",
]
