"""rummisolve: the proved-best Rummikub play from a table and a rack.

The names below are loaded when first used: importing the package costs nothing, so
that the command line can take Ctrl-C from its first moment (`_entry.py`).
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .board import Board, Expectation, format_board, parse_board, read_board
    from .engine.solve import find_move
    from .errors import BoardError, Problem, RummisolveError, SolverError
    from .legality import check_move
    from .move import Move, Objective, Status
    from .rules import Rules
    from .tiles import JOKER, Colour, Tile, format_tile, parse_tile

__version__ = "0.1.0"

_MODULE_OF = {
    **dict.fromkeys(["Board", "Expectation", "format_board", "parse_board", "read_board"], "board"),
    **dict.fromkeys(["BoardError", "Problem", "RummisolveError", "SolverError"], "errors"),
    "check_move": "legality",
    "Rules": "rules",
    **dict.fromkeys(["Move", "Objective", "Status"], "move"),
    "find_move": "engine.solve",
    **dict.fromkeys(["JOKER", "Colour", "Tile", "format_tile", "parse_tile"], "tiles"),
}

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


def __getattr__(name: str) -> Any:
    """A public name, or a module of the package (`rummisolve.board`), loaded on first use."""
    if name in _MODULE_OF:
        return getattr(importlib.import_module(f".{_MODULE_OF[name]}", __name__), name)
    if not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
