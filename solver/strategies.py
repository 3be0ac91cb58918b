"""The strategies a game knows by name, and plug-ins named `package.module:Class`.

Each sees only its player's view (view.py) and asks the exact solver through `find`.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from .errors import RummisolveError
from .holding import without_jokers
from .move import Move, Objective, no_move
from .tiles import JOKER
from .view import Finder, PlayerView, Strategy


class SetupError(RummisolveError):
    """A game that cannot be set up: too few or too many players, an unknown strategy."""


class StrategyError(RummisolveError):
    """A plug-in strategy that raised, or chose something that is not a move. `details`:
    the whole traceback of what it raised (for --debug), kept as text so that it crosses
    from a worker process with the error."""

    def __init__(self, message: str, details: str = "") -> None:
        super().__init__(message, details)
        self.details = details

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class Greedy:
    """The best move every turn: most tiles off the rack (or most points, `objective`)."""

    name: str = "greedy"
    objective: Objective = Objective.TILES

    def choose(self, view: PlayerView, find: Finder) -> Move:
        return find(view.board, self.objective)


@dataclass(frozen=True)
class Cautious:
    """Holds back: keeps its jokers on the rack until they let it go out, or until the
    pool is empty and holding them would only cost points. Otherwise plays like greedy
    with the rest of the rack."""

    name: str = "cautious"

    def choose(self, view: PlayerView, find: Finder) -> Move:
        board = view.board
        best = find(board, Objective.TILES)
        if not best.is_move or not best.rack or view.pool == 0 or JOKER not in best.played:
            return best
        return without_jokers(view, find, best)


@dataclass(frozen=True)
class Hoarder:
    """After its initial meld, lays nothing until it can lay its whole rack in one turn,
    or the pool is empty (the strategy that won 70 of 100 four-player games against
    value-maximising players in a hobby simulation)."""

    name: str = "hoarder"

    def choose(self, view: PlayerView, find: Finder) -> Move:
        best = find(view.board, Objective.TILES)
        if not view.opened[view.player] or not best.rack or view.pool == 0:
            return best
        return no_move(view.board)


@dataclass(frozen=True)
class PlugIn:
    """A plug-in strategy (`module:Class`), its bugs told in one line that names the
    plug-in's file and line, the seat and the turn, as an illegal move is, not as a
    traceback from inside the game."""

    spec: str
    strategy: Strategy
    file: str  # the plug-in's module's file, where its lines are looked for

    @property
    def name(self) -> str:
        return self.strategy.name

    def choose(self, view: PlayerView, find: Finder) -> Move:
        where = f"turn {len(view.history) + 1}: {view.player} ({self.name}), strategy {self.spec!r}"
        try:
            move = self.strategy.choose(view, find)
        except RummisolveError:
            raise  # the solver's own errors, told as they are
        except Exception as error:
            raised = f"{type(error).__name__}: {error}"
            raise StrategyError(
                f"{self.line_of(error)}{where} failed: {raised}",
                "".join(traceback.format_exception(error)),
            ) from error
        if not isinstance(move, Move):
            raise StrategyError(f"{where} returned a {type(move).__name__}, not a Move")
        return move

    def line_of(self, error: BaseException) -> str:
        return _line_in(self.file, error)


def _line_in(file: str, error: BaseException) -> str:
    """`FILE:LINE: ` of the plug-in's own line that raised (the deepest in its file: a
    library it called raised below it), as the current folder names it; "" if none did."""
    frames = traceback.extract_tb(error.__traceback__)
    home = os.path.realpath(file) if file else None
    own = [f for f in frames if os.path.realpath(f.filename) == home]
    return _place(file, own[-1].lineno) if own else ""


def _place(file: str, line: int | None) -> str:
    """`FILE:LINE: `, the file as the current folder names it."""
    try:
        shown = os.path.relpath(file)
    except ValueError:  # another drive
        shown = file
    if shown.startswith(os.pardir):
        shown = file
    return f"{shown}:{line}: " if line else f"{shown}: "


def _module(name: str) -> ModuleType:
    if name.endswith(".py"):
        path = Path(name).resolve()
        found = importlib.util.spec_from_file_location(f"rummisolve_plug_in_{path.stem}", path)
        if found is None or found.loader is None or not path.is_file():
            raise ImportError(f"no file {name}")
        module = importlib.util.module_from_spec(found)
        found.loader.exec_module(module)
        return module
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    return importlib.import_module(name)


def _file_of(name: str) -> str:
    """The file of a plug-in's module, found without running it ("" where it is not)."""
    if name.endswith(".py"):
        return str(Path(name).resolve())
    try:
        found = importlib.util.find_spec(name)
    except Exception:  # a package above it that cannot be imported
        return ""
    return (found.origin or "") if found is not None else ""


# What a module that cannot be found (or read) raises: told by its message alone.
IMPORT_ERRORS = (ImportError, OSError, ValueError)

BUILT_IN = ("greedy", "heavy", "cautious", "hoarder", "search")


def strategy_named(name: str, think: float | None = None) -> Strategy:
    """A built-in strategy by name (`search` thinks `think` seconds a decision), or a
    plug-in, `package.module:Class`, made with no arguments."""
    key = name.strip()
    if ":" in key:
        return _plug_in(key)
    match key.lower():
        case "greedy":
            return Greedy()
        case "heavy":
            return Greedy("heavy", Objective.VALUE)
        case "cautious":
            return Cautious()
        case "hoarder":
            return Hoarder()
        case "search":
            from .search import DEFAULT_THINK, Search

            return Search(think=DEFAULT_THINK if think is None else think)
    raise SetupError(f"unknown strategy {name!r} (known: {', '.join(BUILT_IN)}, or module:Class)")


def _plug_in(spec: str) -> Strategy:
    """`package.module:Class` (found as `python -m` finds it: from the current folder
    too), or `path/to/file.py:Class`."""
    module_name, _, class_name = spec.rpartition(":")
    relative = module_name.startswith(".") and not module_name.endswith(".py")
    if not module_name.strip() or relative or not class_name.isidentifier():
        raise SetupError(f"strategy {spec!r}: name a module (or file.py) and a class, module:Class")
    try:
        module = _module(module_name)
    except SyntaxError as error:  # IndentationError too
        where = _place(error.filename, error.lineno) if error.filename else ""
        said = f"{type(error).__name__}: {error.msg}"
        raise SetupError(
            f"{where}strategy {spec!r}: cannot import {module_name!r} ({said})"
        ) from None
    except Exception as error:  # the plug-in's own code raised while it was imported
        where = _line_in(_file_of(module_name), error)
        said = (
            str(error) if isinstance(error, IMPORT_ERRORS) else f"{type(error).__name__}: {error}"
        )
        raise SetupError(
            f"{where}strategy {spec!r}: cannot import {module_name!r} ({said})"
        ) from None
    made_by = getattr(module, class_name, None)
    if made_by is None:
        raise SetupError(f"strategy {spec!r}: {module_name!r} has no {class_name!r}")
    try:
        made = made_by()
    except Exception as error:
        where = _line_in(module.__file__ or "", error)
        if isinstance(error, TypeError) and not where:  # not its code: the call
            raise SetupError(
                f"strategy {spec!r}: cannot make one with no arguments ({error})"
            ) from None
        said = f"{type(error).__name__}: {error}"
        raise SetupError(f"{where}strategy {spec!r}: making one raised {said}") from None
    if not isinstance(made, Strategy):
        raise SetupError(f"strategy {spec!r} has no `name` and `choose(view, find)`")
    return PlugIn(spec, made, module.__file__ or "")
