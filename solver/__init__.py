"""rummisolve: the proved-best Rummikub play from a table and a rack."""

from .board import Board, Expectation, format_board, parse_board, read_board
from .errors import BoardError, Problem, RummisolveError, SolverError
from .rules import Rules
from .tiles import JOKER, Colour, Tile, format_tile, parse_tile

__version__ = "0.1.0"

__all__ = [
    "JOKER",
    "Board",
    "BoardError",
    "Colour",
    "Expectation",
    "Problem",
    "Rules",
    "RummisolveError",
    "SolverError",
    "Tile",
    "__version__",
    "format_board",
    "format_tile",
    "parse_board",
    "parse_tile",
    "read_board",
]
