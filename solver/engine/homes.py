"""Homes for freed jokers: the pinned relaxation (pinned.py) made tighter, still a bound.

The pinned relaxation lets a freed joker stand for any tile anywhere; where the checker
then refuses its answer, the freed joker lies in a set without two tiles from the rack.
Here a freed joker needs a home: a set holding a joker and two tiles played from the
rack. Each home is a column holding the part of that set that spans its joker and its two
rack tiles (a run from the lowest of the three to the highest, or a whole group), each of
those tiles counted against the copies played. A run's home may be longer: what lies past
the span is pieces (three places or more) or a filler of one or two places beside it, at
most two fillers a home. Every legal move cuts into these (any run of three or more
places into pieces), so the optimum still bounds the rules as written, and its answer,
with the fillers put beside the spans and the staying jokers put back, is the best move
wherever the checker passes it. A joker from the rack counts as a tile from the rack:
a home may hold one rack tile and a rack joker, or two rack jokers, anywhere in its set.

Not for wraparound (a home may wrap): there the pinned stages go on as before.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from itertools import combinations
from typing import NamedTuple

import numpy as np

from ..board import Board
from ..sets import MIN_SET
from ..tiles import COLOURS, JOKER, MAX_NUMBER, Colour, Tile
from .builder import INFINITY, Floats, Mip
from .model import Arrangement, Layout
from .pinned import stay_needs, with_rows
from .tile_rows import JOKER_ROW, TILE_INDEX

TileRow = tuple[Tile, ...]
# Fillers a run's home may have: one on each side.
FILLERS_PER_HOME = 2
# Places a filler holds, at most: three or more are pieces.
FILLER_PLACES = 2


class Home(NamedTuple):
    """A column: the places of a set's part, each as its tile; the freed joker's place
    (None: a filler); the two rack tiles it holds; a group's or a run's."""

    shape: TileRow
    joker: Tile | None
    rack: tuple[Tile, ...]
    group: bool
    # Jokers from the rack it needs for its two rack places (its rack tiles fill the rest).
    assists: int = 0
    # A filler's side: past a span's end (else before its start).
    past_end: bool = False

    @property
    def filler(self) -> bool:
        return self.joker is None


@dataclasses.dataclass(frozen=True)
class Homes:
    """The homes' columns: the first one's number, each one's home, and the places that
    only a joker can fill (no copy in play, no stand-in)."""

    start: int
    homes: tuple[Home, ...]
    jokers_only: frozenset[Tile]


def applies(board: Board) -> bool:
    """Whether homes bound the rules as written here (see the module's docstring)."""
    return not board.rules.wraparound


def with_homes(
    mip: Mip, layout: Layout, board: Board, only_homes: bool = False
) -> tuple[Mip, Homes] | None:
    """The pinned model (its stay rows in) with the homes' columns and rows; None where no
    joker can be freed. `only_homes`: every freed joker at a home's joker place, the
    other stand-ins jokers from the rack: a restriction, whose answers the checker passes
    far more often (a freed joker beyond a home's own is what it refuses most)."""
    assert layout.jokers is not None
    jokers = layout.jokers
    freed = len(jokers.freed)
    if not freed:
        return None
    in_play = Counter(t for s in board.table for t in s) + Counter(board.rack)
    stand_ins = set(layout.stand_ins)
    played_column = {t: layout.columns.played.start + k for k, t in enumerate(layout.played)}
    rack = {t for t in board.rack if t in played_column}
    rack_jokers = min(board.rack.count(JOKER), 2)
    homes = _run_homes(rack, rack_jokers) + _group_homes(rack, rack_jokers)
    beside = {s for h in homes if not h.group for s in _sides(h)}
    homes += [f for f in _fillers() if _side_of(f) in beside]
    jokers_only = frozenset(
        t for h in homes for t in h.shape if not in_play[t] and t not in stand_ins
    )
    # Rows: the copies of each rack tile the homes hold (no more than were played); the
    # freed jokers (none without a home); for each place beside a run's span, the
    # fillers that end or start there (no more than the homes beside them).
    designated = sorted({t for h in homes for t in h.rack}, key=Tile.sort_key)
    first = mip.rows
    rack_row = {t: first + k for k, t in enumerate(designated)}
    freed_row = first + len(designated)
    sides = sorted(beside, key=lambda s: (s[0].sort_key(), s[1]))
    side_row = {s: freed_row + 1 + k for k, s in enumerate(sides)}
    # And for each tile, the jokers standing for it (beyond the homes' own): each freed
    # one in a home, a run of the tile's colour or a group holding its place, and one a
    # set at most; or a rack joker outside the homes (`outside`, one column a tile). And
    # the rack jokers the homes need and those outside: no more than were played.
    stand_in_row = {t: freed_row + 1 + len(sides) + k for k, t in enumerate(layout.stand_ins)}
    rack_joker_row = freed_row + 1 + len(sides) + len(stand_in_row)
    count = len(designated) + 2 + len(side_row) + len(stand_in_row)
    entries = [(played_column[t], rack_row[t] - first, -1.0) for t in designated]
    freed_at = layout.columns.jokers.start + jokers.readings
    entries += [(freed_at + k, freed_row - first, 1.0) for k in range(freed)]
    stand_ins_at = layout.columns.stand_ins.start
    entries += [(stand_ins_at + k, row - first, 1.0) for k, row in enumerate(stand_in_row.values())]
    entries += [(at, rack_joker_row - first, -1.0) for at in layout.columns.rack_jokers]
    if only_homes:
        entries += [(stand_ins_at + k, count, 1.0) for k in range(len(stand_in_row))]
        entries += [(at, count, -1.0) for at in layout.columns.rack_jokers]
        count += 1
    mip = with_rows(mip, entries, count, -INFINITY, 0.0)
    needs = stay_needs(layout, board.rules.wraparound)
    first_new = mip.rows - count
    need_row = {need: first_new - len(needs) + k for need, k in needs.items()}
    columns = []
    for home in homes:
        column: dict[int, float] = {}
        for t in home.shape:
            row = JOKER_ROW if t == home.joker or t in jokers_only else TILE_INDEX[t]
            column[row] = column.get(row, 0.0) + 1.0
        for t in home.rack:
            column[rack_row[t]] = 1.0
        if home.assists:
            column[rack_joker_row] = float(home.assists)
        if home.filler:
            column[side_row[_side_of(home)]] = 1.0
        else:
            column[freed_row] = -float(freed)
            if not home.group:
                for side in _sides(home):
                    column[side_row[side]] = -1.0
            for t in _kin(home):
                if t in stand_in_row:
                    column[stand_in_row[t]] = -1.0
        for need, row in need_row.items():
            if need.met_by_shape(home.shape, home.group, home.joker):
                column[row] = 1.0
        columns.append(column)
    uppers = [freed] * len(columns)
    if layout.columns.rack_jokers:
        outside = [{row: -1.0, rack_joker_row: 1.0} for row in stand_in_row.values()]
        columns += outside
        uppers += [board.rack.count(JOKER)] * len(outside)
    return _with_columns(mip, columns, uppers), Homes(mip.columns, tuple(homes), jokers_only)


# A place beside a run's span: the tile there, and whether it lies past the span's end
# (else before its start). A filler lies there, ending or starting beside the span.
_Side = tuple[Tile, bool]


def _sides(home: Home) -> list[_Side]:
    """The places beside a run's span where a filler may lie (on the board's numbers)."""
    first, last = home.shape[0], home.shape[-1]
    sides = []
    if first.number > 1:
        sides.append((Tile(first.colour, first.number - 1), False))
    if last.number < MAX_NUMBER:
        sides.append((Tile(last.colour, last.number + 1), True))
    return sides


def _side_of(filler: Home) -> _Side:
    """The place beside a span that a filler holds: its first past an end, or its last
    before a start."""
    return (filler.shape[0], True) if filler.past_end else (filler.shape[-1], False)


def _kin(home: Home) -> list[Tile]:
    """The tiles another joker in the home's set may stand for: a group's places, or a
    run's colour (the set may reach past the span), but for the home's joker's place."""
    if home.group:
        return [t for t in home.shape if t != home.joker]
    colour = home.shape[0].colour
    assert colour is not None
    return [Tile(colour, n) for n in range(1, MAX_NUMBER + 1) if Tile(colour, n) != home.joker]


def _run_homes(rack: set[Tile], rack_jokers: int) -> list[Home]:
    """Each run's part spanning a joker and its two rack places of its colour, from the
    lowest to the highest: two rack tiles, or one and a rack joker anywhere in the run,
    or two rack jokers."""
    homes = []
    for colour in COLOURS:
        numbers = sorted(t.number for t in rack if t.colour == colour)
        pairs: list[tuple[int, ...]] = list(combinations(numbers, 2))
        pairs += [(n,) for n in numbers if rack_jokers] + [() for _ in range(rack_jokers // 2)]
        for pair in pairs:
            for u in range(1, MAX_NUMBER + 1):
                if u in pair:
                    continue
                rack_tiles = tuple(Tile(colour, n) for n in pair)
                low, high = min((u, *pair)), max((u, *pair))
                # A run holds three places at least: the span, or each run of three
                # holding it (a rack joker, or a tile from the table, fills the rest).
                spans = [(low, high)] if high - low + 1 >= MIN_SET else []
                for first in range(high - MIN_SET + 1, low + 1) if not spans else ():
                    if 1 <= first <= MAX_NUMBER - MIN_SET + 1:
                        spans.append((first, first + MIN_SET - 1))
                for first, last in spans:
                    shape = tuple(Tile(colour, n) for n in range(first, last + 1))
                    homes.append(Home(shape, Tile(colour, u), rack_tiles, False, 2 - len(pair)))
    return homes


def _group_homes(rack: set[Tile], rack_jokers: int) -> list[Home]:
    """Each group holding a joker and its two rack places of its number: two rack tiles,
    or one and a rack joker, or two rack jokers."""
    homes = []
    for number in range(1, MAX_NUMBER + 1):
        mine = [c for c in COLOURS if Tile(c, number) in rack]
        pairs: list[tuple[Colour, ...]] = list(combinations(mine, 2))
        pairs += [(c,) for c in mine if rack_jokers] + [() for _ in range(rack_jokers // 2)]
        for pair in pairs:
            others = [c for c in COLOURS if c not in pair]
            for u in others:
                rest = [c for c in others if c != u]
                for size in range(3 - len(pair) - 1, len(rest) + 1):
                    for more in combinations(rest, size):
                        colours = sorted((*pair, u, *more), key=COLOURS.index)
                        shape = tuple(Tile(c, number) for c in colours)
                        rack_tiles = tuple(Tile(c, number) for c in pair)
                        homes.append(Home(shape, Tile(u, number), rack_tiles, True, 2 - len(pair)))
    return homes


def _fillers() -> list[Home]:
    """One or two places of a colour, beside a span: before its start or past its end."""
    fillers = []
    for colour in COLOURS:
        for size in range(1, FILLER_PLACES + 1):
            for first in range(1, MAX_NUMBER + 2 - size):
                shape = tuple(Tile(colour, n) for n in range(first, first + size))
                fillers.append(Home(shape, None, (), False, past_end=True))
                fillers.append(Home(shape, None, (), False, past_end=False))
    return fillers


def _with_columns(mip: Mip, columns: list[dict[int, float]], uppers: list[int]) -> Mip:
    """The model with these columns after its own (worth nothing; their upper bounds)."""
    lengths = np.array([len(c) for c in columns], dtype=np.int64)
    start = mip.col_start[-1] + np.concatenate([[0], np.cumsum(lengths)])
    index = np.array([r for c in columns for r in c], dtype=mip.col_index.dtype)
    value = np.array([v for c in columns for v in c.values()], dtype=mip.col_value.dtype)
    zeros: Floats = np.zeros(len(columns))
    return dataclasses.replace(
        mip,
        cost=np.append(mip.cost, zeros),
        lower=np.append(mip.lower, zeros),
        upper=np.append(mip.upper, np.array(uppers, dtype=np.float64)),
        col_start=np.append(mip.col_start, start[1:]).astype(mip.col_start.dtype),
        col_index=np.append(mip.col_index, index),
        col_value=np.append(mip.col_value, value),
    )


def lay_homes(homes: Homes, values: Floats, relaxed: Arrangement) -> Arrangement | None:
    """The relaxation's answer with its homes laid as whole sets (each filler beside a
    run's span, stand-ins at the places they fill first): None where a filler lies beside
    none."""
    counts = np.rint(values[homes.start : homes.start + len(homes.homes)]).astype(np.int64)
    laid: list[tuple[list[Tile], Home]] = []
    fillers: list[Home] = []
    for home, n in zip(homes.homes, counts.tolist(), strict=True):
        for _ in range(n):
            if home.filler:
                fillers.append(home)
            else:
                laid.append((list(home.shape), home))
    for filler in sorted(fillers, key=lambda f: -len(f.shape)):
        if not any(_join(shape, filler.shape) for shape, home in laid if not home.group):
            return None
    if any(len(shape) < MIN_SET for shape, _ in laid):  # a run's part not yet a set
        return None
    stand_ins = Counter(relaxed.stand_ins)
    hosts = []
    for shape, home in laid:
        tiles = []
        for t in shape:
            if t == home.joker or t in homes.jokers_only:
                t = JOKER
            elif stand_ins[t] > 0:
                stand_ins[t] -= 1
                t = JOKER
            tiles.append(t)
        hosts.append(tuple(tiles))
    return Arrangement(
        relaxed.pieces, relaxed.played, stand_ins, relaxed.kept, relaxed.hosts + hosts
    )


def _join(shape: list[Tile], filler: TileRow) -> bool:
    """Put the filler beside a run's shape where it continues it: whether it did."""
    if filler[0].colour != shape[0].colour:
        return False
    if len(shape) + len(filler) > MAX_NUMBER:
        return False
    if filler[0].number == shape[-1].number + 1:
        shape.extend(filler)
        return True
    if filler[-1].number == shape[0].number - 1:
        shape[:0] = filler
        return True
    return False
