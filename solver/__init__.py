"""rummisolve: the proved-best Rummikub play from a table and a rack.

The names below are loaded when first used: importing the package costs nothing, so
that the command line can take Ctrl-C from its first moment (`_entry.py`).
"""

# Not `typing.TYPE_CHECKING` (nor `from __future__ import annotations`, an import too):
# this module imports nothing, so that the command's first line (`_entry.py`, which
# holds Ctrl-C) runs as early as it can. Type checkers read a constant of this name as
# true.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any

    from .board import Board, Expectation, format_board, parse_board, read_board
    from .engine.every import BestMoves, Criteria, every_best_move
    from .engine.solve import find_move
    from .errors import BoardError, Problem, RummisolveError, SolverError
    from .game import GameOptions, GameRecord, Seat, play_game
    from .generate import generate_boards
    from .legality import check_move
    from .move import Move, Objective, Status, no_move
    from .narration import Do, TableAction, TablePlan, plan_move
    from .render import move_json, render_move
    from .rules import Rules
    from .strategies import strategy_named
    from .table_reading import read_move
    from .tiles import JOKER, Colour, Tile, format_tile, parse_tile
    from .tournament import TournamentReport, run_tournament
    from .view import Finder, PlayerView, Strategy

__version__ = "0.1.0"

_MODULE_OF = {
    **dict.fromkeys(["Do", "TableAction", "TablePlan", "plan_move"], "narration"),
    "read_move": "table_reading",
    **dict.fromkeys(["BestMoves", "Criteria", "every_best_move"], "engine.every"),
    "generate_boards": "generate",
    **dict.fromkeys(["move_json", "render_move"], "render"),
    **dict.fromkeys(["Board", "Expectation", "format_board", "parse_board", "read_board"], "board"),
    **dict.fromkeys(["BoardError", "Problem", "RummisolveError", "SolverError"], "errors"),
    "check_move": "legality",
    **dict.fromkeys(["GameOptions", "GameRecord", "Seat", "play_game"], "game"),
    "strategy_named": "strategies",
    **dict.fromkeys(["TournamentReport", "run_tournament"], "tournament"),
    **dict.fromkeys(["Finder", "PlayerView", "Strategy"], "view"),
    "Rules": "rules",
    **dict.fromkeys(["Move", "Objective", "Status", "no_move"], "move"),
    "find_move": "engine.solve",
    **dict.fromkeys(["JOKER", "Colour", "Tile", "format_tile", "parse_tile"], "tiles"),
}

__all__ = [
    "JOKER",
    "BestMoves",
    "Board",
    "BoardError",
    "Colour",
    "Criteria",
    "Do",
    "Expectation",
    "Finder",
    "GameOptions",
    "GameRecord",
    "Move",
    "Objective",
    "PlayerView",
    "Problem",
    "Rules",
    "RummisolveError",
    "Seat",
    "SolverError",
    "Status",
    "Strategy",
    "TableAction",
    "TablePlan",
    "Tile",
    "TournamentReport",
    "__version__",
    "check_move",
    "every_best_move",
    "find_move",
    "format_board",
    "format_tile",
    "generate_boards",
    "move_json",
    "no_move",
    "parse_board",
    "parse_tile",
    "plan_move",
    "play_game",
    "read_board",
    "read_move",
    "render_move",
    "run_tournament",
    "strategy_named",
]


def __getattr__(name: str) -> "Any":
    """A public name, or a module of the package (`rummisolve.board`), loaded on first use."""
    import importlib
    import importlib.util

    if name in _MODULE_OF:
        return getattr(importlib.import_module(f".{_MODULE_OF[name]}", __name__), name)
    if not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
