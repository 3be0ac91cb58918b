"""The catalogue of homes (homes.py): every home and extension there can be, on the board's
numbers, built once a process as arrays a board selects its columns from, with their
entries numbered in the rows below (each tile's, the jokers', ...), which a board gives
numbers.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..sets import HIGH_ONE, run_tile
from ..tiles import ALL_COLOURED, COLOURS, MAX_NUMBER, Tile, TileRow
from .builder import Floats, Ints
from .tile_rows import TILE_INDEX, TILES

# Jokers from the rack a home may count as its rack places: two at most.
ASSISTS = 2


class Home(NamedTuple):
    """A column: the places of a set's part, each as its tile; the places jokers hold (a
    home's: its freed joker's and its assists', jokers from the rack that count as its
    rack places); the places that hold rack tiles; a group's or a run's; an extension's
    side (past a span's end, else before its start); a run's first and last places (a
    high 1's is HIGH_ONE)."""

    shape: TileRow
    jokers: frozenset[Tile]
    rack: tuple[Tile, ...]
    group: bool
    extension: bool = False
    past_end: bool = False
    first: int = 0
    last: int = 0


# The rows a home's column touches, before a board gives them numbers: each tile's, the
# jokers', the rack copies of each tile the homes hold, the jokers standing in for each
# tile at homes' places, the freed jokers, and each place beside a span (twice its tile's
# index, plus one past a span's end).
JOKERS = TILES
RACK = JOKERS + 1
STAND = RACK + TILES
FREED = STAND + TILES
SIDE = FREED + 1
ROWS = SIDE + 2 * TILES
# A rack place that none is: a home of one rack tile, or of none.
NONE = TILES


@dataclasses.dataclass(frozen=True)
class Catalogue:
    """Every home and extension there can be (on the board's numbers), as arrays a board
    selects them by, and their columns' entries in the rows above."""

    rack: Ints  # (homes, 2): the tiles of its rack places, padded with NONE
    jokers: Ints  # its joker places
    at_jokers: npt.NDArray[np.bool_]  # (homes, TILES): its joker places
    opens: npt.NDArray[np.bool_]  # (homes, TILES): its open places
    places: Ints  # how many places it has
    holds: npt.NDArray[np.bool_]  # (homes, TILES): its places
    group: npt.NDArray[np.bool_]
    extension: npt.NDArray[np.bool_]
    past_end: npt.NDArray[np.bool_]  # an extension's side
    colour: Ints  # a run's colour (-1: a group)
    first: Ints  # a run's first place and its last (a high 1's: HIGH_ONE); a group's number
    last: Ints
    sides: Ints  # (homes, 2): a span's sides, or an extension's own, padded with -1
    start: Ints  # each one's first entry
    row: Ints  # its entries' rows, as above
    value: Floats
    # Each one as a Home, made when first asked for.
    made: dict[int, Home] = dataclasses.field(default_factory=dict, compare=False)

    def home(self, k: int) -> Home:
        """The k-th as a Home, for laying the answer out."""
        if k not in self.made:
            first, last = int(self.first[k]), int(self.last[k])
            if self.group[k]:
                shape = tuple(ALL_COLOURED[t] for t in np.flatnonzero(self.holds[k]).tolist())
            else:  # in the order of its places
                colour = COLOURS[int(self.colour[k])]
                shape = tuple(run_tile(colour, n) for n in range(first, last + 1))
            self.made[k] = Home(
                shape,
                frozenset(ALL_COLOURED[t] for t in np.flatnonzero(self.at_jokers[k]).tolist()),
                tuple(ALL_COLOURED[t] for t in self.rack[k].tolist() if t != NONE),
                bool(self.group[k]),
                bool(self.extension[k]),
                bool(self.past_end[k]),
                first,
                last,
            )
        return self.made[k]


@lru_cache(maxsize=2 * (ASSISTS + 1))
def catalogue_for(assists: int, wraparound: bool) -> Catalogue:
    """Built once: every run's home and extension (one colour's, then the same in the
    others), every group's home, with up to `assists` jokers from the rack as rack places
    (most racks hold none: their catalogue is two fifths of the largest)."""
    # A run's places, counted from 0; with wraparound the last is the 1 past the 13.
    span = HIGH_ONE if wraparound else MAX_NUMBER
    runs = _run_homes(assists, span) + _extensions(span)
    groups = _group_homes(assists)
    size = len(COLOURS) * len(runs) + len(groups)
    rack = np.full((size, 2), NONE, dtype=np.int64)
    at_jokers = np.zeros((size, TILES), dtype=np.bool_)
    holds = np.zeros((size, TILES), dtype=np.bool_)
    sides = np.full((size, 2), -1, dtype=np.int64)
    # One colour's runs, on places counted from 0, then moved to each colour's tiles
    # (a place's tile: its number, the high 1's the 1's).
    first = np.array([r.places[0] for r in runs])
    last = np.array([r.places[-1] for r in runs])
    places = np.arange(span)
    local_holds = _folded((places >= first[:, None]) & (places <= last[:, None]))
    local_jokers = _folded(_marked(span, [r.jokers for r in runs]))
    local_rack = _padded([r.rack for r in runs], 2)
    local_rack = np.where(local_rack >= 0, local_rack % MAX_NUMBER, -1)
    run_extension = np.array([r.extension for r in runs])
    run_past_end = np.array([r.past_end for r in runs])
    own_side = 2 * (np.where(run_past_end, first, last) % MAX_NUMBER) + run_past_end
    before = np.where(first > 0, 2 * (first - 1), -1)
    past = np.where(last < span - 1, 2 * ((last + 1) % MAX_NUMBER) + 1, -1)
    local_sides = np.where(
        run_extension[:, None],
        np.column_stack([own_side, np.full(len(runs), -1)]),
        np.column_stack([before, past]),
    )
    for c in range(len(COLOURS)):
        at = slice(c * len(runs), (c + 1) * len(runs))
        its = slice(c * MAX_NUMBER, (c + 1) * MAX_NUMBER)
        holds[at, its], at_jokers[at, its] = local_holds, local_jokers
        rack[at] = np.where(local_rack >= 0, local_rack + c * MAX_NUMBER, NONE)
        sides[at] = np.where(local_sides >= 0, local_sides + 2 * c * MAX_NUMBER, -1)
    at = slice(len(COLOURS) * len(runs), size)
    holds[at] = _marked(TILES, [g.places for g in groups])
    at_jokers[at] = _marked(TILES, [g.jokers for g in groups])
    group_rack = _padded([g.rack for g in groups], 2)
    rack[at] = np.where(group_rack >= 0, group_rack, NONE)
    no_group = np.zeros(len(groups), dtype=np.bool_)
    extension = np.concatenate([np.tile(run_extension, len(COLOURS)), no_group])
    past_end = np.concatenate([np.tile(run_past_end, len(COLOURS)), no_group])
    in_rack = np.zeros((size, TILES + 1), dtype=np.bool_)
    in_rack[np.arange(size)[:, None], rack] = True
    in_rack = in_rack[:, :TILES]
    opens = holds & ~at_jokers & ~in_rack
    jokers = at_jokers.sum(axis=1)
    # A home's freed jokers: its joker places but those of jokers from the rack that it
    # counts as rack places.
    freed = jokers - np.where(extension, 0, ASSISTS - (rack != NONE).sum(axis=1))
    # Each column's entries: its tiles' rows (but at joker places), the jokers', the
    # rack copies', the stand-ins', the freed jokers' (homes), and its sides'.
    holding, tiles = np.nonzero(holds & ~at_jokers)
    with_jokers = np.flatnonzero(jokers)
    racked, rack_tiles = np.nonzero(in_rack)
    opened, open_tiles = np.nonzero(opens)
    home_rows = np.flatnonzero(~extension)
    sided, which = np.nonzero(sides >= 0)
    columns = np.concatenate([holding, with_jokers, racked, opened, home_rows, sided])
    entry_rows = np.concatenate(
        [
            tiles,
            np.full(len(with_jokers), JOKERS),
            RACK + rack_tiles,
            STAND + open_tiles,
            np.full(len(home_rows), FREED),
            SIDE + sides[sided, which],
        ]
    )
    values = np.concatenate(
        [
            np.ones(len(holding)),
            jokers[with_jokers].astype(np.float64),
            np.ones(len(racked)),
            -np.ones(len(opened)),
            -freed[home_rows].astype(np.float64),
            np.where(extension[sided], 1.0, -1.0),
        ]
    )
    order = np.argsort(columns, kind="stable")
    start = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(np.bincount(columns, minlength=size), out=start[1:])
    colour = np.concatenate(
        [np.repeat(np.arange(len(COLOURS)), len(runs)), np.full(len(groups), -1)]
    )
    group_number = np.array([t.number for t in ALL_COLOURED])[holds[at].argmax(axis=1)]
    return Catalogue(
        rack=rack,
        jokers=jokers,
        at_jokers=at_jokers,
        opens=opens,
        places=holds.sum(axis=1),
        holds=holds,
        group=colour < 0,
        extension=extension,
        past_end=past_end,
        colour=colour,
        first=np.concatenate([np.tile(first + 1, len(COLOURS)), group_number]),
        last=np.concatenate([np.tile(last + 1, len(COLOURS)), group_number]),
        sides=sides,
        start=start,
        row=entry_rows[order].astype(np.int64),
        value=values[order],
    )


def _folded(places: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """One colour's places (a column each) as its tiles: the high 1's column, if any, is
    the 1's (no run holds both)."""
    tiles = places[:, :MAX_NUMBER].copy()
    tiles[:, : places.shape[1] - MAX_NUMBER] |= places[:, MAX_NUMBER:]
    return tiles


def _padded(rows: list[tuple[int, ...]], width: int) -> Ints:
    """Rows of numbers as a matrix, each padded with -1."""
    return np.array([(*row, *(-1,) * (width - len(row))) for row in rows], dtype=np.int64)


def _marked(width: int, rows: list[tuple[int, ...]]) -> npt.NDArray[np.bool_]:
    """A matrix of `width` columns, each row true at the numbers it is given."""
    numbers = _padded(rows, max(len(row) for row in rows))
    marked = np.zeros((len(rows), width + 1), dtype=np.bool_)
    marked[np.arange(len(rows))[:, None], numbers] = True  # -1: the last, dropped
    return marked[:, :width]


class _Part(NamedTuple):
    """A home or an extension as the catalogue lists it: its places, its joker places and
    its rack places (a run's by number counted from 0, a group's by tile index)."""

    places: tuple[int, ...]
    jokers: tuple[int, ...]
    rack: tuple[int, ...]
    extension: bool = False
    past_end: bool = False


def _run_homes(assists: int, span: int) -> list[_Part]:
    """Each run's span, in one colour, from the lowest to the highest of a freed joker's
    place and two rack places: two rack tiles, or one and a joker from the rack, or two
    jokers from the rack (each joker at its place); of `span` places, never both 1s."""
    homes = []
    for helping in range(assists + 1):
        for tiles in combinations(range(span), ASSISTS - helping):
            others = [n for n in range(span) if n not in tiles]
            for places in combinations(others, 1 + helping):
                low, high = min(*tiles, *places), max(*tiles, *places)
                if high - low < MAX_NUMBER:
                    homes.append(_Part(tuple(range(low, high + 1)), places, tiles))
    return homes


def _group_homes(assists: int) -> list[_Part]:
    """Each group holding a freed joker and two rack places of its number: two rack
    tiles, or one and a joker from the rack, or two jokers from the rack; three places or
    four."""
    homes = []
    for number in range(1, MAX_NUMBER + 1):
        tile = [TILE_INDEX[Tile(c, number)] for c in COLOURS]
        for helping in range(assists + 1):
            for tiles in combinations(tile, ASSISTS - helping):
                others = [t for t in tile if t not in tiles]
                for places in combinations(others, 1 + helping):
                    rest = [t for t in others if t not in places]
                    for more in range(4 - len(tiles) - len(places) + 1):
                        for extra in combinations(rest, more):
                            homes.append(
                                _Part(tuple(sorted((*tiles, *places, *extra))), places, tiles)
                            )
    return homes


def _extensions(span: int) -> list[_Part]:
    """Places of one colour beside a span, one or more: before its start or past its end;
    of `span` places, never both 1s."""
    extensions = []
    for first in range(span):
        for last in range(first, min(first + MAX_NUMBER, span)):
            places = tuple(range(first, last + 1))
            if last < span - 1:
                extensions.append(_Part(places, (), (), True, False))
            if first > 0:
                extensions.append(_Part(places, (), (), True, True))
    return extensions
