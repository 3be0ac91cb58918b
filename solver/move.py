"""The answer's vocabulary, shared by the engine that finds a move, the checker that
judges it and the commands that print it: what "best" puts first, the move and its steps.

Nothing here knows how a move is found: the checker (legality.py) imports this module,
never the engine.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .board import Board
from .tiles import TileRow as TileRow  # (re-exported: the engine imports it from here)


class Objective(enum.Enum):
    """What "best" puts first: tiles played, or points taken off the rack."""

    TILES = "tiles"
    VALUE = "value"


class Status(enum.Enum):
    OPTIMAL = "optimal"
    NO_MOVE = "no-move"
    FEASIBLE = "feasible"


class SetChange(enum.Enum):
    """What happened to one set of the new table."""

    KEEP = "keep"
    EXTEND = "extend"
    NEW = "new"
    REBUILD = "rebuild"


class Source(NamedTuple):
    """Tiles a new set takes from one set of the table as it lay."""

    set_index: int
    tiles: TileRow


class Step(NamedTuple):
    """One set of the new table and where each of its tiles comes from (a NamedTuple:
    a move makes dozens, and a frozen dataclass costs three times as much to build)."""

    change: SetChange
    tiles: TileRow
    from_table: tuple[Source, ...]
    from_rack: TileRow


@dataclass(frozen=True)
class Move:
    """The answer for a board: what to play, the table after it, and how to get there."""

    status: Status
    played: TileRow
    table: tuple[TileRow, ...]
    rack: TileRow
    tiles_played: int
    value_played: int
    seconds: float
    steps: tuple[Step, ...]
    backend: str

    @property
    def is_move(self) -> bool:
        return bool(self.played)

    @property
    def changed_sets(self) -> list[int]:
        """The sets of the table as it lay (by index) that do not stay exactly as they were."""
        return sorted({s.set_index for step in self.steps for s in step.from_table})

    @property
    def sets_changed(self) -> int:
        return len(self.changed_sets)


def no_move(board: Board, proved: bool = True, seconds: float = 0.0, backend: str = "") -> Move:
    """Nothing played, the table as it lies: proved (no-move), or all a search found."""
    steps = tuple(Step(SetChange.KEEP, s, (), ()) for s in board.table)
    status = Status.NO_MOVE if proved else Status.FEASIBLE
    return Move(status, (), board.table, board.rack, 0, 0, seconds, steps, backend)


def kept_sets(board: Board, steps: Sequence[Step]) -> list[tuple[int, int]]:
    """The sets the steps keep as they lay, each as (its index on the table before the
    move, its index after): a kept step's set is a table set no other step takes from."""
    taken = {source.set_index for step in steps for source in step.from_table}
    untouched = [i for i in range(len(board.table)) if i not in taken]
    pairs = []
    for n, step in enumerate(steps):
        if step.change is SetChange.KEEP:
            i = next((i for i in untouched if board.table[i] == step.tiles), None)
            if i is not None:
                untouched.remove(i)
                pairs.append((i, n))
    return pairs
