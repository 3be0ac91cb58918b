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

import numpy as np
import numpy.typing as npt

from ..board import Board
from ..sets import MIN_SET
from ..tiles import ALL_COLOURED, JOKER, MAX_NUMBER, Tile
from .builder import INFINITY, Floats, Ints, Mip, Program
from .home_catalogue import (
    ASSISTS,
    FREED,
    JOKERS,
    NONE,
    RACK,
    ROWS,
    SIDE,
    STAND,
    Home,
    catalogue_for,
)
from .joker_rows import JokerLayout
from .model import Arrangement, Layout
from .pinned import Parts, stay_needs
from .tile_rows import JOKER_ROW, TILE_INDEX, TILES


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
    has[NONE] = True
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
    # Their rows, which the catalogue's entries are numbered in (ROWS) given numbers.
    program = layout.program.extended()
    add = program.rows.add
    rows = np.full(ROWS, -1, dtype=np.int64)
    rows[:TILES] = np.arange(TILES)
    rows[JOKERS] = JOKER_ROW
    says = "sum_h rack[h,t] home[h] <= played[t]"
    rows[RACK + designated] = add(len(designated), -INFINITY, 0.0, name="home rack", says=says)
    says = "sum_i freed[i] <= sum_h freed_places[h] home[h] + sum_t home_stands[t]"
    rows[FREED] = program.rows.one(-INFINITY, 0.0, name="home freed", says=says)
    says = "sum_{e beside p} extension[e] <= sum_{h whose span ends beside p} home[h]"
    rows[SIDE + sides] = add(len(sides), -INFINITY, 0.0, name="home sides", says=says)
    says = "home_stands[t] <= sum_h open[h,t] home[h]: a joker a home's open place"
    rows[STAND + stands] = add(len(stands), -INFINITY, 0.0, name="home places", says=says)
    program.columns.enter(
        [played_column[ALL_COLOURED[t]] for t in designated] + list(jokers.freed_columns),
        rows[RACK + designated].tolist() + [int(rows[FREED])] * freed,
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
    # And the stay rows: each home or extension that meets a staying joker's need, in each
    # of its rows, and each on a side of a cut of it (`_Need.cut_by_parts`), in the cut's.
    needs = stay_needs(layout, board.rules.wraparound)
    parts = Parts(*(getattr(catalogue, name)[chosen] for name in Parts._fields))
    cuts: list[tuple[int, ...]] = []  # each cut's need's rows
    cut_sides: list[npt.NDArray[np.bool_]] = []  # each cut's two sides
    for need, need_rows in needs.items():
        meeting = np.flatnonzero(need.met_by_parts(parts))
        column.append(np.tile(meeting, len(need_rows)))
        row.append(np.repeat(need_rows, len(meeting)))
        value.append(np.ones(len(meeting) * len(need_rows)))
        for end, b in need.cuts():
            for joker, going_on in end.cut_by_parts(parts, b):
                if joker.any() and going_on.any():
                    cuts.append(need_rows)
                    cut_sides += (joker, going_on)
    says = "sum_{h holding n's tile, cut at b} home[h] >= home_cuts[n,b]; then sum_{h going on}"
    cut_rows = add(len(cut_sides), 0.0, INFINITY, name="home cuts", says=says)
    for side, r in zip(cut_sides, cut_rows, strict=True):
        on_side = np.flatnonzero(side)
        column.append(on_side)
        row.append(np.full(len(on_side), r))
        value.append(np.ones(len(on_side)))
    # Then a column for each tile that jokers may stand in for at homes' places, freed
    # jokers or jokers from the rack: in its tile's row, the jokers', its own, the freed.
    column.append(np.repeat(len(chosen) + np.arange(len(stands)), 4))
    stand_rows = [stands, np.full(len(stands), JOKER_ROW), rows[STAND + stands]]
    row.append(np.column_stack([*stand_rows, np.full(len(stands), rows[FREED])]).ravel())
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
    # A column for each cut of a staying joker's need through homes: one in each of the
    # need's rows, less one in each of the cut's own two.
    if cuts:
        start = columns.count
        cut_lengths = np.array([len(need_rows) + 2 for need_rows in cuts])
        own = cut_rows.start + 2 * np.arange(len(cuts))
        columns.add_block(
            np.full(len(cuts), len(jokers.plan.instances)),
            np.zeros(len(cuts)),
            cut_lengths,
            np.concatenate([(*r, k, k + 1) for r, k in zip(cuts, own.tolist(), strict=True)]),
            np.concatenate([(1.0,) * len(r) + (-1.0, -1.0) for r in cuts]),
        )
        columns.named("home cuts", start, "staying jokers of need n whose home is cut at b")
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
