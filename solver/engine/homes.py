"""Homes for freed jokers: the pinned relaxation (pinned.py) made exact for freed jokers.

The pinned relaxation lets a freed joker stand for any tile anywhere; where the checker
then refuses its answer, the freed joker lies in a set without two tiles from the rack.
Here every freed joker lies in a home: a set holding a joker and two places played from
the rack (rack tiles, or jokers from the rack). Copies of a tile are alike, so "from the
rack" is a count: a home's rack places of each tile are no more than the copies played.

A home is a column: the part of its set from the lowest to the highest of its joker and
its two rack places (a run's span, or a whole group), each of those places explicit
(jokers: the freed one and those from the rack that count; tiles: the rack's copies).
What lies beyond a run's span, on each side, is an extension (a column of one place or
more of its colour, no more of them beside a span's end than spans ending there). Every
set holding freed jokers cuts so, whatever its length, with its other freed jokers at its
other places: the freed jokers are no more than the homes' freed places and the jokers
standing in at their other places (`Homes.stands`), at most one a home's place.
Jokers standing in elsewhere are from the rack. So the model is exact for freed jokers;
what stays a relaxation is the pinned one's (a staying joker's place among the pieces).
Its answer, laid out, is the best move wherever the checker passes it.

With wraparound a run's places go on past the 13 to a 1 (its 14th place, sets.HIGH_ONE):
a home or an extension may hold it, never with the low 1 (a tile's row holds either).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..board import Board
from ..sets import HIGH_ONE, MIN_SET, run_tile
from ..tiles import ALL_COLOURED, COLOURS, JOKER, MAX_NUMBER, Tile, TileRow
from .builder import INFINITY, Floats, Ints, Mip, Program
from .joker_rows import JokerLayout
from .model import Arrangement, Layout
from .pinned import Parts, stay_needs
from .tile_rows import JOKER_ROW, TILE_INDEX, TILES

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


@dataclasses.dataclass(frozen=True)
class Homes:
    """The homes' columns in the program that holds them: each one's home, and then the
    jokers standing in at their open places (a column a tile, `stands`)."""

    program: Program
    homes: Ints  # their numbers in the catalogue
    stands: tuple[Tile, ...]
    assists: int  # the catalogue's
    wraparound: bool

    @property
    def start(self) -> int:
        return self.program.columns["homes"].start


# The rows a home's column touches, before a board gives them numbers: each tile's, the
# jokers', the rack copies of each tile the homes hold, the jokers standing in for each
# tile at homes' places, the freed jokers, and each place beside a span (twice its tile's
# index, plus one past a span's end).
_JOKERS = TILES
_RACK = _JOKERS + 1
_STAND = _RACK + TILES
_FREED = _STAND + TILES
_SIDE = _FREED + 1
_ROWS = _SIDE + 2 * TILES
# A rack place that none is: a home of one rack tile, or of none.
_NONE = TILES


@dataclasses.dataclass(frozen=True)
class _Catalogue:
    """Every home and extension there can be (on the board's numbers), as arrays a board
    selects them by, and their columns' entries in the rows above."""

    rack: Ints  # (homes, 2): the tiles of its rack places, padded with _NONE
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
                tuple(ALL_COLOURED[t] for t in self.rack[k].tolist() if t != _NONE),
                bool(self.group[k]),
                bool(self.extension[k]),
                bool(self.past_end[k]),
                first,
                last,
            )
        return self.made[k]


def with_homes(layout: Layout, board: Board) -> tuple[Mip, Homes] | None:
    """The pinned model (its stay rows in) with the homes' columns and rows; None where no
    joker can be freed."""
    assert layout.jokers is not None
    jokers = layout.jokers
    freed = len(jokers.freed)
    if not freed:
        return None
    assists, wraparound = _assists(board), board.rules.wraparound
    catalogue = catalogue_for(assists, wraparound)
    in_play = Counter(t for s in board.table for t in s) + Counter(board.rack)
    all_jokers = in_play[JOKER]
    played_column = {t: layout.columns.played.start + k for k, t in enumerate(layout.played)}
    has = np.zeros(TILES + 1, dtype=np.bool_)
    has[[TILE_INDEX[t] for t in set(board.rack) if t in played_column]] = True
    has[_NONE] = True
    absent = np.array([not in_play[t] for t in ALL_COLOURED], dtype=np.bool_)
    # Jokers each needs: at its joker places, and where no copy is in play.
    needed = catalogue.jokers + catalogue.opens[:, absent].sum(axis=1)
    homes_here = ~catalogue.extension & (needed <= all_jokers)
    homes_here &= has[catalogue.rack[:, 0]] & has[catalogue.rack[:, 1]]
    beside = np.zeros(2 * TILES + 1, dtype=np.bool_)
    beside[catalogue.sides[homes_here].ravel()] = True
    beside[-1] = False  # the padding's
    # An extension beside a span, with a joker left for the span; of three places or more
    # only where two jokers can be freed (one of them there: else pieces will do).
    extensions = catalogue.extension & beside[catalogue.sides[:, 0]] & (needed < all_jokers)
    several = _most_freed(jokers) > 1
    if not several:
        extensions &= catalogue.places < MIN_SET
    chosen = np.flatnonzero(homes_here | extensions)
    # The tiles of the homes' rack places, the places beside spans, and the tiles that
    # jokers may stand in for at homes' places.
    racked = np.zeros(TILES + 1, dtype=np.bool_)
    racked[catalogue.rack[chosen].ravel()] = True
    designated = np.flatnonzero(racked[:TILES])
    sides = np.flatnonzero(beside)
    # (A joker standing in at a home's place is a freed one only where two can be freed.)
    stands = np.flatnonzero(catalogue.opens[chosen].any(axis=0) & several)
    # Their rows, which the catalogue's entries are numbered in (_ROWS) given numbers.
    program = layout.program.extended()
    add = program.rows.add
    rows = np.full(_ROWS, -1, dtype=np.int64)
    rows[:TILES] = np.arange(TILES)
    rows[_JOKERS] = JOKER_ROW
    says = "sum_h rack[h,t] home[h] <= played[t]"
    rows[_RACK + designated] = add(len(designated), -INFINITY, 0.0, name="home rack", says=says)
    says = "sum_i freed[i] <= sum_h freed_places[h] home[h] + sum_t home_stands[t]"
    rows[_FREED] = program.rows.one(-INFINITY, 0.0, name="home freed", says=says)
    says = "sum_{e beside p} extension[e] <= sum_{h whose span ends beside p} home[h]"
    rows[_SIDE + sides] = add(len(sides), -INFINITY, 0.0, name="home sides", says=says)
    says = "home_stands[t] <= sum_h open[h,t] home[h]: a joker a home's open place"
    rows[_STAND + stands] = add(len(stands), -INFINITY, 0.0, name="home places", says=says)
    program.columns.enter(
        [played_column[ALL_COLOURED[t]] for t in designated] + list(jokers.freed_columns),
        rows[_RACK + designated].tolist() + [int(rows[_FREED])] * freed,
        [-1.0] * len(designated) + [1.0] * freed,
    )
    # The homes' columns: their entries, as the catalogue has them in rows given numbers.
    lengths = catalogue.start[chosen + 1] - catalogue.start[chosen]
    ends = np.cumsum(lengths)
    at = np.repeat(catalogue.start[chosen] - (ends - lengths), lengths) + np.arange(lengths.sum())
    given = rows[catalogue.row[at]]
    kept = given >= 0  # (no stand-in rows where one joker at most is freed)
    column = [np.repeat(np.arange(len(chosen)), lengths)[kept]]
    row = [given[kept]]
    value = [catalogue.value[at][kept]]
    # And the stay rows: each home or extension that meets a staying joker's need.
    needs = stay_needs(layout, board.rules.wraparound)
    if needs:
        parts = Parts(*(getattr(catalogue, name)[chosen] for name in Parts._fields))
        for need, k in needs.items():
            meeting = np.flatnonzero(need.met_by_parts(parts))
            column.append(meeting)
            row.append(np.full(len(meeting), k))
            value.append(np.ones(len(meeting)))
    # Then a column for each tile that jokers may stand in for at homes' places, freed
    # jokers or jokers from the rack: in its tile's row, the jokers', its own, the freed.
    column.append(np.repeat(len(chosen) + np.arange(len(stands)), 4))
    stand_rows = [stands, np.full(len(stands), JOKER_ROW), rows[_STAND + stands]]
    row.append(np.column_stack([*stand_rows, np.full(len(stands), rows[_FREED])]).ravel())
    value.append(np.tile([-1.0, 1.0, 1.0, -1.0], len(stands)))
    uppers = np.concatenate([np.full(len(chosen), freed), np.full(len(stands), all_jokers)])
    by_column = np.concatenate(column)
    order = np.argsort(by_column, kind="stable")
    lengths = np.bincount(by_column, minlength=len(uppers))
    rows_in, values_in = np.concatenate(row)[order], np.concatenate(value)[order]
    zeros: Floats = np.zeros(len(uppers))
    columns, count, cut = program.columns, len(chosen), int(lengths[: len(chosen)].sum())
    start = columns.count
    columns.add_block(
        uppers[:count], zeros[:count], lengths[:count], rows_in[:cut], values_in[:cut]
    )
    says = "copies of home or extension h: its places in their rows, its jokers in the count"
    columns.named("homes", start, says)
    start = columns.count
    columns.add_block(
        uppers[count:], zeros[count:], lengths[count:], rows_in[cut:], values_in[cut:]
    )
    says = "jokers standing in for t at homes' open places: -1 in t's row, +1 in the count"
    columns.named("home stands", start, says)
    stand_tiles = tuple(ALL_COLOURED[t] for t in stands.tolist())
    return program.mip(), Homes(program, chosen, stand_tiles, assists, wraparound)


def _most_freed(jokers: JokerLayout) -> int:
    """How many jokers can be freed at once, at most: in each set, those of one reading."""
    instances = jokers.plan.instances
    by_reading = Counter((instances[i].set_number, instances[i].reading) for i in jokers.freed)
    most: dict[int, int] = {}
    for (number, _), count in by_reading.items():
        most[number] = max(most.get(number, 0), count)
    return sum(most.values())


def prepare(board: Board) -> None:
    """Build the catalogue this board's homes select from: once a process, 15-30 ms,
    which a search under a time limit does before its clock starts (as an import), so
    that the limit is the search's own."""
    catalogue_for(_assists(board), board.rules.wraparound)


def _assists(board: Board) -> int:
    return min(board.rack.count(JOKER), ASSISTS)


@lru_cache(maxsize=2 * (ASSISTS + 1))
def catalogue_for(assists: int, wraparound: bool) -> _Catalogue:
    """Built once: every run's home and extension (one colour's, then the same in the
    others), every group's home, with up to `assists` jokers from the rack as rack places
    (most racks hold none: their catalogue is two fifths of the largest)."""
    # A run's places, counted from 0; with wraparound the last is the 1 past the 13.
    span = HIGH_ONE if wraparound else MAX_NUMBER
    runs = _run_homes(assists, span) + _extensions(span)
    groups = _group_homes(assists)
    size = len(COLOURS) * len(runs) + len(groups)
    rack = np.full((size, 2), _NONE, dtype=np.int64)
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
        rack[at] = np.where(local_rack >= 0, local_rack + c * MAX_NUMBER, _NONE)
        sides[at] = np.where(local_sides >= 0, local_sides + 2 * c * MAX_NUMBER, -1)
    at = slice(len(COLOURS) * len(runs), size)
    holds[at] = _marked(TILES, [g.places for g in groups])
    at_jokers[at] = _marked(TILES, [g.jokers for g in groups])
    group_rack = _padded([g.rack for g in groups], 2)
    rack[at] = np.where(group_rack >= 0, group_rack, _NONE)
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
    freed = jokers - np.where(extension, 0, ASSISTS - (rack != _NONE).sum(axis=1))
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
            np.full(len(with_jokers), _JOKERS),
            _RACK + rack_tiles,
            _STAND + open_tiles,
            np.full(len(home_rows), _FREED),
            _SIDE + sides[sided, which],
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
    return _Catalogue(
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


def lay_homes(homes: Homes, values: Floats, relaxed: Arrangement) -> Arrangement | None:
    """The relaxation's answer with its homes laid as whole sets: each extension beside a
    span it continues, jokers at the homes' joker places, then standing in at their open
    places (those of `Homes.stands` first, then from the rack), rack places real. None
    where a span and its extensions hold both 1s (wraparound): no set, so no move."""
    count = len(homes.homes)
    counts = np.rint(values[homes.start : homes.start + count + len(homes.stands)])
    used = counts.astype(np.int64).tolist()
    catalogue = catalogue_for(homes.assists, homes.wraparound)
    # Each home's places as laid so far, and its first and last places.
    laid: list[tuple[list[Tile], Home, list[int]]] = []
    extensions: list[Home] = []
    for c in np.flatnonzero(counts[:count]).tolist():
        home = catalogue.home(int(homes.homes[c]))
        for _ in range(used[c]):
            if home.extension:
                extensions.append(home)
            else:
                laid.append((list(home.shape), home, [home.first, home.last]))
    # Each extension beside a span ending (or starting) where it starts (or ends): the side
    # rows leave one for each.
    for extension in extensions:
        colour = extension.shape[0].colour
        for shape, home, ends in laid:
            if home.group or shape[0].colour != colour:
                continue
            if extension.past_end and ends[1] + 1 == extension.first:
                shape.extend(extension.shape)
                ends[1] = extension.last
                break
            if not extension.past_end and extension.last + 1 == ends[0]:
                shape[:0] = extension.shape
                ends[0] = extension.first
                break
    if any(last - first >= MAX_NUMBER for _, _, (first, last) in laid):
        return None
    stands = Counter(dict(zip(homes.stands, used[count:], strict=True)))
    stand_ins = Counter(relaxed.stand_ins)
    hosts = []
    for shape, home, _ in laid:
        tiles = []
        for t in shape:
            if t in home.jokers:
                t = JOKER
            elif t not in home.rack:
                for jokers in (stands, stand_ins):
                    if jokers[t] > 0:
                        jokers[t] -= 1
                        t = JOKER
                        break
            tiles.append(t)
        hosts.append(tuple(tiles))
    return Arrangement(
        relaxed.pieces, relaxed.played, stand_ins, relaxed.kept, relaxed.hosts + hosts
    )
