"""The candidate sets: every joker-free run of 3-5 and group of 3-4 a rule set allows,
as matrices of tile rows, and the ones a position's tiles can make (`Position`, which
model.py builds on).

Longer runs are cut into these and joined again for display (steps.py); counting a joker
as the tile it stands for keeps the model to these 185 sets (197 with wraparound).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..board import Board
from ..move import TileRow
from ..rules import Rules
from ..sets import candidate_sets
from ..tiles import Tile
from .builder import Floats, Indices, Ints
from .tile_rows import JOKER_ROW, NO_TILE, ROW_OF, TILE_INDEX, TILES

# Jokers in play from which tiles with no copy in play are folded into them: with one,
# few candidates fold, and folding cost more than it saved (dealt positions, side by
# side with GLPK_MI: median ratio 0.236 without, 0.246 from one joker, 0.234-0.238 from
# two; with two jokers in every position 0.316 -> 0.272).
FOLD_FROM_JOKERS = 2


@dataclass(frozen=True)
class Catalogue:
    """The candidate sets of one rule set, as a padded matrix of tile indices, and the
    same flattened (every tile of every set, set by set) to select columns by mask."""

    sets: tuple[tuple[Tile, ...], ...]
    tiles: Ints  # (sets, width) tile indices, padded with NO_TILE
    lengths: Ints  # tiles in each set
    entry_set: Ints  # the set each flattened tile belongs to
    entry_row: Indices  # the flattened tiles' indices, as rows (int32)


def _catalogue_of(sets: tuple[tuple[Tile, ...], ...], width: int) -> Catalogue:
    tiles = np.full((len(sets), width), NO_TILE, dtype=np.int64)
    for i, c in enumerate(sets):
        tiles[i, : len(c)] = [TILE_INDEX[t] for t in c]
    lengths = np.array([len(c) for c in sets], dtype=np.int64)
    return Catalogue(
        sets,
        tiles,
        lengths,
        entry_set=np.repeat(np.arange(len(sets)), lengths),
        entry_row=tiles[tiles != NO_TILE].astype(np.int32),
    )


def catalogue_for(rules: Rules) -> Catalogue:
    """The rule set's candidates: they depend on wraparound alone, a cheaper key to look
    up than the whole of `Rules` (hashed field by field on every model built)."""
    return _catalogue_with(rules.wraparound)


@lru_cache(maxsize=2)
def _catalogue_with(wraparound: bool) -> Catalogue:
    return _catalogue_of(tuple(candidate_sets(Rules(wraparound=wraparound))), 5)


def makeable(in_play: Ints, jokers: int) -> npt.NDArray[np.bool_]:
    """Which sets the tiles in play can make, jokers filling the places of tiles with no
    copy in play: `in_play` holds each set's copies in play, a row a set (padding never 0)."""
    # Column by column, as bytes: twice as fast as numpy's sum along rows this narrow.
    absent = (in_play == 0).view(np.int8)
    missing = absent[:, 0].copy()
    for place in range(1, absent.shape[1]):
        missing += absent[:, place]
    makeable: npt.NDArray[np.bool_] = missing <= jokers
    return makeable


def fold_absent(
    catalogue: Catalogue, usable: Ints, rows: Indices, available: Ints, upper: Ints
) -> tuple[Ints, tuple[Ints, Floats, Ints, Ints, Floats]]:
    """The usable candidates with the tiles that have no copy in play folded into jokers:
    representatives in catalogue order, and their columns (upper, cost, lengths, rows,
    values) as `_Columns.add_block` takes them.

    A tile with no copy in play (none on the table or the rack) has a row saying that the
    jokers standing in for it are as many as the candidates holding it. Substituted, each
    candidate counts its absent tiles in the joker row instead, and candidates that then
    hold the same tiles and as many jokers (R3 R4 R5, R5 R6 R7 and R5 B5 K5 for R5 and
    two jokers) are one column, bounded by the sum of their bounds. Only the plain case:
    there the place a joker fills changes nothing else (before opening it changes its
    value; under the joker-retrieval rules, its role).
    """
    lengths = catalogue.lengths[usable]
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    is_absent = available[rows] == 0
    absent_count = np.add.reduceat(is_absent.astype(np.int64), starts)
    # A candidate holds a tile once: the sum of its present tiles' bits is their union.
    bits = np.left_shift(np.int64(1), rows.astype(np.int64))
    present = np.add.reduceat(np.where(is_absent, 0, bits), starts)
    _, first, same = np.unique(present * 8 + absent_count, return_index=True, return_inverse=True)
    order = np.argsort(first)
    chosen = first[order]
    # Entries: each representative's present tiles, then the joker row for its absent ones.
    column = np.repeat(np.arange(len(usable)), lengths)
    position = np.full(len(usable), -1)
    position[chosen] = np.arange(len(chosen))
    keep = ~is_absent & (position[column] >= 0)
    with_jokers = absent_count[chosen].nonzero()[0]
    owners = np.concatenate([position[column[keep]], with_jokers])
    in_order = np.argsort(owners, kind="stable")
    block = (
        np.bincount(same, weights=upper)[order],
        np.zeros(len(chosen)),
        lengths[chosen] - absent_count[chosen] + (absent_count[chosen] > 0),
        np.concatenate([rows[keep], np.full(len(with_jokers), JOKER_ROW)])[in_order],
        np.concatenate([np.ones(int(keep.sum())), absent_count[chosen][with_jokers]])[in_order],
    )
    return usable[chosen], block


def _counts(rows: list[int]) -> tuple[Ints, int]:
    """Copies of each coloured tile (plus a zero for the padding index), and jokers, from
    the tiles' rows."""
    counts = np.bincount(rows, minlength=TILES + 1)
    jokers = int(counts[JOKER_ROW])
    counts[JOKER_ROW] = 0
    return counts, jokers


@dataclass(frozen=True)
class Position:
    """The tiles in play, as counts by row, and the candidate sets they can make."""

    table_sets: tuple[TileRow, ...]
    table_rows: list[int]
    table: Ints
    table_jokers: int
    rack: Ints
    rack_jokers: int
    available: Ints
    catalogue: Catalogue
    in_play: Ints
    usable: Ints
    piece_rows: Indices
    in_sets: npt.NDArray[np.bool_]

    @property
    def jokers(self) -> int:
        return self.table_jokers + self.rack_jokers

    @classmethod
    def of(cls, board: Board) -> Position:
        # Before the initial meld the table is out of play: the model sees the rack alone.
        table_sets = board.table if board.opened else ()
        table_rows = [ROW_OF[t] for s in table_sets for t in s]
        table, table_jokers = _counts(table_rows)
        rack, rack_jokers = _counts([ROW_OF[t] for t in board.rack])
        available = table + rack
        available[NO_TILE] = 1 << 20
        # Only sets that the tiles in play (jokers filling the gaps) can make.
        catalogue = catalogue_for(board.rules)
        in_play = available[catalogue.tiles]
        is_usable = makeable(in_play, table_jokers + rack_jokers)
        piece_rows = catalogue.entry_row[is_usable[catalogue.entry_set]]
        return cls(
            table_sets=table_sets,
            table_rows=table_rows,
            table=table,
            table_jokers=table_jokers,
            rack=rack,
            rack_jokers=rack_jokers,
            available=available,
            catalogue=catalogue,
            in_play=in_play,
            usable=is_usable.nonzero()[0],
            piece_rows=piece_rows,
            in_sets=np.bincount(piece_rows, minlength=TILES) > 0,
        )
