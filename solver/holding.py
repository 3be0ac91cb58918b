"""Moves that keep tiles on the rack: the best play with some tiles held back, which the
cautious strategy, `search`'s candidates and the environment's actions each weigh."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable

from .board import Board
from .move import Move, Objective
from .tiles import JOKER, Tile, sort_tiles
from .view import Finder, PlayerView


def without_jokers(view: PlayerView, find: Finder, best: Move) -> Move:
    """The best move that keeps every joker on the rack (nothing when there is none)."""
    return held_back(view.board, find, [JOKER] * view.board.rack.count(JOKER))


def held_back(board: Board, find: Finder, held: Iterable[Tile]) -> Move:
    """The most tiles with `held` kept on the rack; the move's rack is the whole rack
    left (the no-move of the smaller rack when nothing else lays)."""
    rest = Counter(board.rack)
    rest.subtract(held)
    move = find(dataclasses.replace(board, rack=tuple(rest.elements())), Objective.TILES)
    if not move.is_move:
        return move
    left = Counter(board.rack) - Counter(move.played)
    return dataclasses.replace(move, rack=tuple(sort_tiles(left.elements())))
