"""What a player at the table sees, and what a strategy is: the only things the game
engine hands a strategy.

A `PlayerView` holds the player's own rack, the table, whether each player has opened,
the rack sizes, the pool's size and every turn so far (a draw as a count); never another
rack nor the order of the pool. Two games that differ only in those give a strategy the
same view, and so the same decision.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from .board import Board
from .move import Move, Objective
from .rules import Rules
from .tiles import Tile, TileRow, sort_tiles

Finder = Callable[[Board, Objective], Move]
"""Asks the solver for the best move on a board, under an objective (every call counted)."""


class TurnKind(enum.Enum):
    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"
    """Nothing to play and the pool is empty."""


@dataclass(frozen=True)
class Seen:
    """One turn as everyone saw it: who, what they did, the tiles laid (none for a draw)."""

    player: str
    kind: TurnKind
    played: TileRow

    @property
    def action(self) -> TurnKind:
        """`kind` by its former name, which plug-in strategies may read."""
        return self.kind


@dataclass(frozen=True)
class PlayerView:
    """One player's view of the game, at the start of its turn.

    `order`: every player's name in turn order, this player first; `racks` and `opened`
    by name. `luck`: a number of this player's own, for strategies that draw lots; it
    says nothing of the deal.
    """

    player: str
    rack: TileRow
    table: tuple[TileRow, ...]
    rules: Rules
    order: tuple[str, ...]
    racks: Mapping[str, int]
    opened: Mapping[str, bool]
    pool: int
    history: tuple[Seen, ...]
    luck: int
    # What the table's jokers stand for, as the moves that laid them showed (`Board.declared`):
    # a joker keeps standing for its tile until it is freed.
    declared: tuple[tuple[Tile | None, ...], ...] = ()

    @property
    def board(self) -> Board:
        """The position this player solves: the table and its own rack."""
        opened = self.opened[self.player]
        return Board(self.table, self.rack, opened, self.rules, declared=self.declared)

    @property
    def opponents(self) -> tuple[str, ...]:
        """The other players in the order they play after this one."""
        return self.order[1:]

    def unseen(self) -> list[Tile]:
        """The tiles this player cannot see: the box less its rack and the table (the
        opponents' racks and the pool, in some order)."""
        left = Counter(self.rules.box.tiles())
        left.subtract(self.rack)
        left.subtract(t for s in self.table for t in s)
        return sort_tiles(left.elements())


@runtime_checkable
class Strategy(Protocol):
    """How a player picks a move. `name` names it in reports; `choose` gets the player's
    view and a finder (the exact solver) and returns the move to make: one that plays
    nothing means draw (or pass, when the pool is empty). The engine checks the move."""

    @property
    def name(self) -> str: ...

    def choose(self, view: PlayerView, find: Finder) -> Move: ...
