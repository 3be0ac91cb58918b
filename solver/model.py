"""The one model builder: a position as an integer program, and its solution read back.

Columns (all integer, maximised), in this order:
- x[c]  copies of candidate set c (a joker-free run of 3-5 or group of 3-4) on the table;
- p[t]  copies of rack tile t played;
- j[t]  jokers standing in for tile t in candidate sets (and cores) after the move;
- q     rack jokers played;
- k[s]  1 if the table's set s stays exactly as it lies (only once opened);
- the joker part, where the table's jokers follow the rules as written (joker_model.py:
  readings, freed jokers, hosts);
- z     1 if an initial meld is made (only before opening).

Counting a joker as the tile it stands for keeps the model to the 185 joker-free sets
(197 with wraparound) instead of every set with jokers in every place, and is exact: any
table of valid sets cuts into candidates with some tiles replaced by jokers, and any such
replacement of a candidate is itself a valid set. In the plain case (opened, jokers
free to move) with two jokers or more, a tile with no copy in play needs no stand-in
column: the candidates holding it count a joker for it directly, and those that then
hold the same tiles and as many jokers are one column (`_fold_absent`).

Only this module, joker_model.py and the backends see integers and matrices.
"""

from __future__ import annotations

import enum
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from .board import Board
from .joker_model import Host, JokerPlan, OutOfTime, TileRow, plan_jokers
from .rules import Rules
from .sets import candidate_sets
from .tiles import ALL_COLOURED, JOKER, Tile, tile_value

Vector = Any  # a numpy array; numpy's own types would add nothing a reader needs here


class Objective(enum.Enum):
    """What "best" puts first: tiles played, or points taken off the rack."""

    TILES = "tiles"
    VALUE = "value"


@dataclass(frozen=True)
class Mip:
    """A maximisation over bounded integer columns with ranged rows, stored by column.

    `cutoff`: an objective value already reached by a known solution; only better ones are
    sought, and "none better" is a proved answer without values (backends that cannot take
    a cutoff solve as if there were none)."""

    cost: Vector
    lower: Vector
    upper: Vector
    row_lower: Vector
    row_upper: Vector
    col_start: Vector
    col_index: Vector
    col_value: Vector
    cutoff: float | None = None

    @property
    def columns(self) -> int:
        return len(self.cost)

    @property
    def rows(self) -> int:
        return len(self.row_lower)


@dataclass(frozen=True)
class Layout:
    """Which column means what, to read a solution back into tiles and sets.

    The candidate columns are sets of the catalogue, by number: a solution uses a few
    dozen of them, so they become tiles only when read back.
    """

    catalogue: tuple[tuple[Tile, ...], ...]
    piece_numbers: list[int]
    # Tiles with no copy in play, whose places in the pieces are jokers' (`_fold_absent`).
    absent: frozenset[Tile]
    played: list[Tile]
    stand_ins: list[Tile]
    rack_jokers: bool
    table_sets: int
    jokers: JokerLayout | None


@dataclass(frozen=True)
class Arrangement:
    """A solution in the domain's terms: which sets, which tiles played, which jokers where.

    `hosts` are whole sets with their jokers in place (joker_model.py); `stand_ins` are the
    loose jokers of the pieces; `holders` pairs a table set with each host holding its
    jokers or its tiles (by their numbers).
    """

    pieces: list[tuple[Tile, ...]]
    played: Counter[Tile]
    stand_ins: Counter[Tile]
    kept: list[int]
    hosts: list[tuple[Tile, ...]] = field(default_factory=list)
    holders: list[tuple[int, int]] = field(default_factory=list)


INFINITY = float("inf")
# Jokers in play from which tiles with no copy in play are folded into them: with one,
# few candidates fold, and folding cost more than it saved (dealt positions, side by
# side with GLPK_MI: median ratio 0.236 without, 0.246 from one joker, 0.234-0.238 from
# two; with two jokers in every position 0.316 -> 0.272).
FOLD_FROM_JOKERS = 2
TILE_INDEX = {t: i for i, t in enumerate(ALL_COLOURED)}
_TILES = len(ALL_COLOURED)
# Row of the joker count; a padding index in the candidate table, never a real tile.
_JOKER_ROW = _NO_TILE = _TILES
_NUMBERS = np.array([t.number for t in ALL_COLOURED], dtype=np.float64)
# Each tile's row: a coloured tile's own, the joker's the joker count's.
_ROW_OF = TILE_INDEX | {JOKER: _JOKER_ROW}


@dataclass(frozen=True)
class _Catalogue:
    """The candidate sets of one rule set, as a padded matrix of tile indices, and the
    same flattened (every tile of every set, set by set) to select columns by mask."""

    sets: tuple[tuple[Tile, ...], ...]
    tiles: Vector  # (sets, width) tile indices, padded with _NO_TILE
    lengths: Vector  # tiles in each set
    entry_set: Vector  # the set each flattened tile belongs to
    entry_row: Vector  # the flattened tiles' indices, as rows (int32)


def _catalogue_of(sets: tuple[tuple[Tile, ...], ...], width: int) -> _Catalogue:
    tiles = np.full((len(sets), width), _NO_TILE, dtype=np.int64)
    for i, c in enumerate(sets):
        tiles[i, : len(c)] = [TILE_INDEX[t] for t in c]
    lengths = np.array([len(c) for c in sets], dtype=np.int64)
    return _Catalogue(
        sets,
        tiles,
        lengths,
        entry_set=np.repeat(np.arange(len(sets)), lengths),
        entry_row=tiles[tiles != _NO_TILE].astype(np.int32),
    )


@lru_cache(maxsize=8)
def _catalogue(rules: Rules) -> _Catalogue:
    return _catalogue_of(tuple(candidate_sets(rules)), 5)


def _makeable(in_play: Vector, jokers: int) -> Vector:
    """Which sets the tiles in play can make, jokers filling the places of tiles with no
    copy in play: `in_play` holds each set's copies in play, a row a set (padding never 0)."""
    return (in_play == 0).sum(axis=1) <= jokers


# The plain case's played and stand-in columns, for every tile: rows of the model, two
# entries a stand-in (its tile's row, the joker row), selected by mask for each board.
_STAND_IN_ROWS = np.column_stack([np.arange(_TILES), np.full(_TILES, _JOKER_ROW)]).astype(np.int32)
_STAND_IN_VALUES = np.tile([-1.0, 1.0], _TILES)
_MINUS_ONES = np.full(_TILES, -1.0)


def _counts(rows: list[int]) -> tuple[Vector, int]:
    """Copies of each coloured tile (plus a zero for the padding index), and jokers, from
    the tiles' rows."""
    counts = np.bincount(rows, minlength=_TILES + 1)
    jokers = int(counts[_JOKER_ROW])
    counts[_JOKER_ROW] = 0
    return counts, jokers


def _fold_absent(
    catalogue: _Catalogue, usable: Vector, rows: Vector, available: Vector, upper: Vector
) -> tuple[Vector, tuple[Vector, Vector, Vector, Vector, Vector]]:
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
    with_jokers = np.flatnonzero(absent_count[chosen])
    owners = np.concatenate([position[column[keep]], with_jokers])
    in_order = np.argsort(owners, kind="stable")
    block = (
        np.bincount(same, weights=upper)[order],
        np.zeros(len(chosen)),
        lengths[chosen] - absent_count[chosen] + (absent_count[chosen] > 0),
        np.concatenate([rows[keep], np.full(len(with_jokers), _JOKER_ROW)])[in_order],
        np.concatenate([np.ones(int(keep.sum())), absent_count[chosen][with_jokers]])[in_order],
    )
    return usable[chosen], block


def _weights(board: Board, objective: Objective) -> tuple[float, float]:
    """Lexicographic weights of a tile played and of a point played: primary over
    secondary over sets kept (each worth 1); all whole numbers."""
    rack_value = sum(tile_value(t, board.rules.joker_penalty) for t in board.rack)
    sets = len(board.table) if board.opened else 0
    secondary_weight = float(sets + 1)
    first = rack_value if objective is Objective.TILES else len(board.rack)
    primary_weight = secondary_weight * (first + 1)
    if objective is Objective.TILES:
        return primary_weight, secondary_weight
    return secondary_weight, primary_weight


def objective_value(board: Board, objective: Objective, tiles: int, value: int, kept: int) -> float:
    """The model's objective for a move playing `tiles` tiles worth `value`, keeping `kept`
    sets of the table as they lie."""
    tiles_weight, value_weight = _weights(board, objective)
    return tiles_weight * tiles + value_weight * value + kept


def build_model(
    board: Board,
    objective: Objective,
    rack_only_freeing: bool = False,
    deadline: float | None = None,
) -> tuple[Mip, Layout]:
    """The integer program whose optimum is the best move on this board (docs/format.md,
    "What best means"); `rack_only_freeing`: freed jokers go only into sets of rack tiles
    and jokers, a restriction (joker_model.py); past `deadline` (perf_counter seconds),
    joker_model.OutOfTime."""
    rules = board.rules
    meld_only = not board.opened
    # Before the initial meld the table is out of play: the model sees the rack alone.
    table_sets = () if meld_only else board.table
    table_rows = [_ROW_OF[t] for s in table_sets for t in s]
    table, table_jokers = _counts(table_rows)
    rack, rack_jokers = _counts([_ROW_OF[t] for t in board.rack])
    jokers = table_jokers + rack_jokers
    available = table + rack
    available[_NO_TILE] = 1 << 20

    # Only sets that the tiles in play (jokers filling the gaps) can make.
    catalogue = _catalogue(rules)
    in_play = available[catalogue.tiles]
    is_usable = _makeable(in_play, jokers)
    usable = np.flatnonzero(is_usable)
    piece_rows = catalogue.entry_row[is_usable[catalogue.entry_set]]
    in_sets = np.bincount(piece_rows, minlength=_TILES) > 0
    played = np.flatnonzero(in_sets & (rack[:_TILES] > 0))
    stand_ins = np.flatnonzero(in_sets) if jokers else np.zeros(0, dtype=np.int64)

    penalty = rules.joker_penalty
    rack_size = int(rack.sum()) + rack_jokers
    tiles_weight, value_weight = _weights(board, objective)

    # The table's jokers under the rules as written: their instances and hosts, if any.
    plan = None
    if not meld_only:
        plan = plan_jokers(
            table_sets,
            rules,
            Counter({t: int(available[i]) for i, t in enumerate(ALL_COLOURED) if available[i]}),
            Counter(board.rack),
            jokers,
            rack_only_freeing,
            deadline,
        )
    if plan is not None and plan.hosts:
        # Rack tiles that only a host's place can take still need their played column.
        in_sets[[TILE_INDEX[t] for h in plan.hosts for t in h.shape]] = True
        played = np.flatnonzero(in_sets & (rack[:_TILES] > 0))
        stand_ins = np.flatnonzero(in_sets) if jokers else np.zeros(0, dtype=np.int64)

    rows = _Rows()
    # Every tile on the table after the move is a tile from before, a played one, or a
    # joker; every joker stays on the table, and a played joker joins them.
    rows.add(
        _TILES + 1, np.append(table[:_TILES], table_jokers), np.append(table[:_TILES], table_jokers)
    )
    columns = _Columns()
    plain = not (meld_only or plan is not None)
    piece_upper = in_play[usable].min(axis=1) + jokers
    absent: frozenset[Tile] = frozenset()
    if plain and jokers >= FOLD_FROM_JOKERS and len(usable):
        # Tiles with no copy in play fill their places in candidates with jokers alone.
        usable, block = _fold_absent(catalogue, usable, piece_rows, available, piece_upper)
        columns.add_block(*block)
        absent = frozenset(ALL_COLOURED[i] for i in np.flatnonzero(available[:_TILES] == 0))
        stand_ins = stand_ins[available[stand_ins] > 0]
    else:
        # Candidate sets: one entry per tile they hold, in that tile's row.
        columns.add_block(
            upper=piece_upper,
            cost=np.zeros(len(usable)),
            lengths=catalogue.lengths[usable],
            rows=piece_rows,
            values=np.ones(len(piece_rows)),
        )
    # Before opening: an initial meld is worth the initial-meld points (meld row), or
    # nothing is played at all (link row: tiles played <= rack size x the meld's switch).
    meld_row, link_row = (
        rows.add(2, [0.0, -INFINITY], [INFINITY, 0.0]) if meld_only else (None, None)
    )
    joker_rows = _JokerRows(plan, rows, table_sets, rack, deadline) if plan is not None else None
    if plain:
        # The plain case of the two loops below, by numpy: a played tile leaves the rack
        # for its tile's row; a joker standing in counts there and in the joker row.
        columns.add_block(
            upper=rack[played],
            cost=tiles_weight + value_weight * _NUMBERS[played],
            lengths=np.ones(len(played), dtype=np.int64),
            rows=played,
            values=_MINUS_ONES[: len(played)],
        )
        columns.add_block(
            upper=np.full(len(stand_ins), jokers),
            cost=np.zeros(len(stand_ins)),
            lengths=np.full(len(stand_ins), 2),
            rows=_STAND_IN_ROWS[stand_ins].ravel(),
            values=_STAND_IN_VALUES[: 2 * len(stand_ins)],
        )
    else:
        # Rack tiles played: each leaves the rack for its tile's row.
        for i in played.tolist():
            entries: dict[int, float] = {i: -1.0}
            if meld_row is not None and link_row is not None:
                entries |= {meld_row: _NUMBERS[i], link_row: 1.0}
            if joker_rows is not None:
                entries |= joker_rows.played_entries(ALL_COLOURED[i])
            columns.add(rack[i], tiles_weight + value_weight * _NUMBERS[i], entries)
        # Jokers standing in for a tile: counted in that tile's row and in the joker row;
        # before opening they are worth the tile they stand for.
        for i in stand_ins.tolist():
            entries = {i: -1.0, _JOKER_ROW: 1.0}
            if meld_row is not None:
                entries[meld_row] = _NUMBERS[i]
            columns.add(jokers, 0.0, entries)
    if rack_jokers:
        entries = {_JOKER_ROW: -1.0}
        if link_row is not None:
            entries[link_row] = 1.0
        columns.add(rack_jokers, tiles_weight + value_weight * penalty, entries)
    # Sets of the table kept as they lie: their real tiles and their jokers, all at once
    # (plain, and no set holding a joker twice: an entry for each of its tiles).
    if plain and all(s.count(JOKER) < 2 for s in table_sets):
        columns.add_block(
            upper=np.ones(len(table_sets)),
            cost=np.ones(len(table_sets)),
            lengths=np.array([len(s) for s in table_sets], dtype=np.int64),
            rows=np.array(table_rows, dtype=np.int64),
            values=np.ones(len(table_rows)),
        )
    else:
        for number, s in enumerate(table_sets):
            entries = {}
            for tile in s:
                row = _ROW_OF[tile]
                entries[row] = entries.get(row, 0.0) + 1.0
            if joker_rows is not None:
                entries |= joker_rows.kept_entries(number, s)
            columns.add(1, 1.0, entries)
    if joker_rows is not None:
        joker_rows.add_columns(columns)
    if meld_row is not None and link_row is not None:
        # The initial meld's switch: worth the initial-meld points, and lets the tiles go.
        columns.add(1, 0.0, {meld_row: -float(rules.initial_meld), link_row: -float(rack_size)})

    layout = Layout(
        catalogue=catalogue.sets,
        piece_numbers=usable.tolist(),
        absent=absent,
        played=[ALL_COLOURED[i] for i in played.tolist()],
        stand_ins=[ALL_COLOURED[i] for i in stand_ins.tolist()],
        rack_jokers=bool(rack_jokers),
        table_sets=len(table_sets),
        jokers=joker_rows.layout if joker_rows is not None else None,
    )
    return columns.mip(*rows.bounds()), layout


class _Rows:
    """Rows handed out in groups, each group with its bounds."""

    def __init__(self) -> None:
        self.lower: list[float] = []
        self.upper: list[float] = []

    def add(self, count: int, lower: Vector | float, upper: Vector | float) -> list[int]:
        """`count` new rows, with these bounds (one for all, or one each): their numbers."""
        first = len(self.lower)
        self.lower.extend(
            [float(lower)] * count if isinstance(lower, (int, float)) else map(float, lower)
        )
        self.upper.extend(
            [float(upper)] * count if isinstance(upper, (int, float)) else map(float, upper)
        )
        return list(range(first, first + count))

    def one(self, lower: float, upper: float) -> int:
        return self.add(1, lower, upper)[0]

    def bounds(self) -> tuple[Vector, Vector]:
        return np.array(self.lower), np.array(self.upper)


@dataclass(frozen=True)
class JokerLayout:
    """Where the joker part's columns are: after the kept sets, the readings' (one per
    joker set and reading), the freed instances', then each host's (its copy; if freeing,
    its freed count and each free place's fills, in `fills` order)."""

    plan: JokerPlan
    readings: int
    freed: list[int]
    fills: list[list[tuple[Tile, str]]]


class _JokerRows:
    """The rows of the joker part (joker_model.py says what they mean), and its columns."""

    def __init__(
        self,
        plan: JokerPlan,
        rows: _Rows,
        table_sets: Sequence[TileRow],
        rack: Vector,
        deadline: float | None = None,
    ) -> None:
        self.plan = plan
        self.deadline = deadline
        self.rack = rack
        self.table_sets = table_sets
        numbers = [js.number for js in plan.joker_sets]
        # A joker set is kept as it lies, or takes one of its readings.
        self.choice = dict(zip(numbers, rows.add(len(numbers), 1.0, 1.0), strict=True))
        # A set of jokers alone is kept as it lies.
        self.alone = dict(
            zip(plan.jokers_alone, rows.add(len(plan.jokers_alone), 1.0, 1.0), strict=True)
        )
        # Each joker of the reading taken lies in a host or is freed (its count, times the
        # reading's column, equals that).
        self.instance = rows.add(len(plan.instances), 0.0, 0.0)
        # A joker is freed by a copy of its tile played from the rack, one copy each.
        self.freeable = [
            i
            for i, inst in enumerate(plan.instances)
            if inst.role is not None and rack[TILE_INDEX[inst.role]] > 0
        ]
        freed_tiles = sorted({plan.instances[i].role for i in self.freeable}, key=Tile.sort_key)  # type: ignore[arg-type]
        self.cap = dict(zip(freed_tiles, rows.add(len(freed_tiles), -INFINITY, 0.0), strict=True))
        # A tile of a joker set with two jokers or more anchors them in one host at most.
        anchors = sorted(
            {
                (s, t)
                for h in plan.hosts
                for s, t in h.held
                if not plan.locked and self._jokers_of(s) > 1
            },
            key=lambda anchor: (anchor[0], anchor[1].sort_key()),
        )
        self.anchor = dict(zip(anchors, rows.add(len(anchors), -INFINITY, 1.0), strict=True))
        # Locked sets: a joker set is kept, or lies with all its real tiles in one host.
        locked = numbers if plan.locked else []
        self.lock = dict(zip(locked, rows.add(len(locked), 1.0, 1.0), strict=True))
        self.freed_total = self.rack_count = self.real = None
        self.place: list[dict[Tile, int]] = []
        self.rackish: list[int] = []
        self.room: list[int] = []
        if plan.strict:
            # STRICT: the freed jokers are the freeing hosts' freed ones.
            self.freed_total = rows.one(0.0, 0.0)
            rack_tiles = sorted(
                {
                    t
                    for h in plan.hosts
                    if h.freeing
                    for t in h.free_places
                    if rack[TILE_INDEX[t]] > 0
                },
                key=Tile.sort_key,
            )
            # Places counted as the rack's copies: no more than were played.
            self.rack_count = dict(
                zip(rack_tiles, rows.add(len(rack_tiles), -INFINITY, 0.0), strict=True)
            )
            real_tiles = sorted(
                {t for h in plan.hosts for _, t in h.held}
                | {t for h in plan.hosts if h.freeing for t in h.free_places},
                key=Tile.sort_key,
            )
            # Places that hold real tiles (held places, freeing hosts' real fills, kept
            # sets) hold no more than the copies there are (table and played).
            table_counts = Counter(t for s in table_sets for t in s)
            self.real = dict(
                zip(
                    real_tiles,
                    rows.add(len(real_tiles), -INFINITY, [table_counts[t] for t in real_tiles]),
                    strict=True,
                )
            )
            for h in plan.hosts:
                if not h.freeing:
                    self.place.append({})
                    self.rackish.append(-1)
                    self.room.append(-1)
                    continue
                # Each free place of a freeing host copy holds one tile or joker.
                self.place.append(
                    dict(zip(h.free_places, rows.add(len(h.free_places), 0.0, 0.0), strict=True))
                )
                # A copy holding freed jokers holds two tiles from the rack: rack copies,
                # or loose jokers not freed (2 x copy + freed <= those).
                self.rackish.append(rows.one(-INFINITY, 0.0))
                # Its freed jokers are among its loose ones.
                self.room.append(rows.one(-INFINITY, 0.0))
        self.fills: list[list[tuple[Tile, str]]] = []

    def _jokers_of(self, number: int) -> int:
        return self.table_sets[number].count(JOKER)

    def played_entries(self, tile: Tile) -> dict[int, float]:
        """A played tile's entries beyond its tile row: the copies that free jokers, and
        the copies counted as the rack's, come out of it."""
        entries = {}
        for row in (
            self.cap.get(tile),
            (self.rack_count or {}).get(tile),
            (self.real or {}).get(tile),
        ):
            if row is not None:
                entries[row] = -1.0
        return entries

    def kept_entries(self, number: int, tiles: TileRow) -> dict[int, float]:
        """A kept table set's entries beyond its tiles': its choice or lock, its real tiles."""
        entries: dict[int, float] = {}
        for row in (self.choice.get(number), self.alone.get(number), self.lock.get(number)):
            if row is not None:
                entries[row] = 1.0
        for t in tiles:
            if self.real is not None and t in self.real:
                entries[self.real[t]] = entries.get(self.real[t], 0.0) + 1.0
        return entries

    def add_columns(self, columns: _Columns) -> None:
        plan = self.plan
        reading_column = {}
        readings = 0
        for js in plan.joker_sets:
            for r in range(len(js.readings)):
                # Joker set js takes reading r.
                entries = {self.choice[js.number]: 1.0}
                for i, inst in enumerate(plan.instances):
                    if inst.set_number == js.number and inst.reading == r:
                        entries[self.instance[i]] = -float(inst.copies)
                columns.add(1, 0.0, entries)
                reading_column[js.number, r] = readings
                readings += 1
        for i in self.freeable:
            # Instance i is freed by a copy of its tile from the rack.
            role = plan.instances[i].role
            assert role is not None
            entries = {self.instance[i]: 1.0, self.cap[role]: 1.0}
            if self.freed_total is not None:
                entries[self.freed_total] = -1.0
            columns.add(1, 0.0, entries)
        for n, host in enumerate(plan.hosts):
            # Thousands of hosts (STRICT) take tens of milliseconds: the deadline holds.
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise OutOfTime
            self.fills.append(self._add_host(columns, n, host))
        self.layout = JokerLayout(plan, readings, self.freeable, self.fills)

    def _add_host(self, columns: _Columns, n: int, host: Host) -> list[tuple[Tile, str]]:
        """One host's columns: its copy; if freeing, its freed jokers and its fills."""
        entries: dict[int, float] = {}
        for i, _ in host.jokers:
            entries[self.instance[i]] = entries.get(self.instance[i], 0.0) + 1.0
        entries[_JOKER_ROW] = float(len(host.jokers))
        for s, t in host.held:
            entries[TILE_INDEX[t]] = 1.0
            if (s, t) in self.anchor:
                entries[self.anchor[s, t]] = 1.0
            if self.real is not None:
                entries[self.real[t]] = 1.0
        for s in {s for s, _ in host.held}:
            if s in self.lock:
                entries[self.lock[s]] = 1.0
        if not host.freeing:
            # A core: its free places are filled as the pieces' are.
            for t in host.free_places:
                entries[TILE_INDEX[t]] = 1.0
            columns.add(1, 0.0, entries)
            return []
        place, rackish, room = self.place[n], self.rackish[n], self.room[n]
        entries |= {row: -1.0 for row in place.values()} | {rackish: 2.0}
        columns.add(1, 0.0, entries)
        # Freed jokers in the copy.
        assert (
            self.freed_total is not None and self.real is not None and self.rack_count is not None
        )
        columns.add(len(host.free_places), 0.0, {self.freed_total: 1.0, rackish: 1.0, room: 1.0})
        fills = []
        for t in host.free_places:
            index = TILE_INDEX[t]
            if not host.rack_only:
                # A real tile at t (the table's copy, or the rack's not counted as such).
                columns.add(1, 0.0, {place[t]: 1.0, index: 1.0, self.real[t]: 1.0})
                fills.append((t, "real"))
            if t in self.rack_count:
                # The rack's copy of t, counted towards the two.
                entries = {place[t]: 1.0, index: 1.0, self.real[t]: 1.0}
                columns.add(1, 0.0, entries | {self.rack_count[t]: 1.0, rackish: -1.0})
                fills.append((t, "rack"))
            # A loose joker at t: from the rack, or freed.
            columns.add(1, 0.0, {place[t]: 1.0, _JOKER_ROW: 1.0, rackish: -1.0, room: -1.0})
            fills.append((t, "joker"))
        return fills


class _Columns:
    """Collects columns in order: blocks built by numpy, and single ones between them."""

    # The parts of a block, each a sequence with an item per column or per entry.
    UPPER, COST, LENGTHS, ROWS, VALUES = range(5)

    def __init__(self) -> None:
        self.parts: list[tuple[Any, ...]] = []
        self.singles: tuple[list[Any], ...] = ([], [], [], [], [])

    def add_block(
        self, upper: Vector, cost: Vector, lengths: Vector, rows: Vector, values: Vector
    ) -> None:
        """Columns whose entries are `rows` and `values`, `lengths[i]` of them for column i."""
        self._close_singles()
        self.parts.append((upper, cost, lengths, rows, values))

    def add(self, upper: float, cost: float, entries: dict[int, float]) -> None:
        singles = self.singles
        singles[self.UPPER].append(float(upper))
        singles[self.COST].append(float(cost))
        singles[self.LENGTHS].append(len(entries))
        singles[self.ROWS].extend(entries)
        singles[self.VALUES].extend(entries.values())

    def _close_singles(self) -> None:
        if self.singles[self.UPPER]:
            self.parts.append(self.singles)
            self.singles = ([], [], [], [], [])

    def mip(self, row_lower: Vector, row_upper: Vector) -> Mip:
        self._close_singles()

        def joined(part: int, dtype: Any) -> Vector:
            return np.concatenate([p[part] for p in self.parts]).astype(dtype, copy=False)

        lengths = joined(self.LENGTHS, np.int64)
        return Mip(
            cost=joined(self.COST, np.float64),
            lower=np.zeros(len(lengths)),
            upper=joined(self.UPPER, np.float64),
            row_lower=row_lower,
            row_upper=row_upper,
            col_start=np.concatenate(([0], np.cumsum(lengths))).astype(np.int32),
            col_index=joined(self.ROWS, np.int32),
            col_value=joined(self.VALUES, np.float64),
        )


def read_solution(layout: Layout, values: Vector) -> Arrangement:
    """The arrangement a backend's column values describe: candidates, then hosts."""
    counts = np.rint(values).astype(np.int64)
    arrangement = _read_candidates(layout, counts)
    if layout.jokers is not None:
        _read_hosts(layout.jokers, counts[_joker_part_at(layout) :].tolist(), arrangement)
    return arrangement


def _joker_part_at(layout: Layout) -> int:
    """The first column of the joker part: right after the kept sets'."""
    pieces_and_played = len(layout.piece_numbers) + len(layout.played)
    return pieces_and_played + len(layout.stand_ins) + layout.rack_jokers + layout.table_sets


def _read_hosts(jokers: JokerLayout, counts: list[int], arrangement: Arrangement) -> None:
    """The hosts laid, with their jokers: a freeing host's loose jokers where its fills say;
    a core's at free places, from the stand-ins before the pieces take theirs (the
    stand-ins of a tile are no more than the places of pieces and cores that are not
    held)."""
    at = jokers.readings + len(jokers.freed)
    for host, fills in zip(jokers.plan.hosts, jokers.fills, strict=True):
        copies = counts[at]
        at += 1
        values: list[int] = []
        if host.freeing:
            values = counts[at + 1 : at + 1 + len(fills)]
            at += 1 + len(fills)
        if not copies:
            continue
        if host.freeing:
            loose = [t for (t, kind), v in zip(fills, values, strict=True) if kind == "joker" and v]
        else:
            loose = []
            for t in host.free_places:
                if arrangement.stand_ins[t] > 0:
                    arrangement.stand_ins[t] -= 1
                    loose.append(t)
        number = len(arrangement.hosts)
        arrangement.hosts.append(host.tiles_with_jokers(loose))
        holding = dict.fromkeys([s for s, _ in host.held])
        arrangement.holders.extend((s, number) for s in holding)


def _read_candidates(layout: Layout, counts: Vector) -> Arrangement:
    """The arrangement the columns' whole-number values describe (columns in build order)."""
    used = np.flatnonzero(counts)
    played_at = len(layout.piece_numbers)
    stand_ins_at = played_at + len(layout.played)
    rack_joker_at = stand_ins_at + len(layout.stand_ins)
    kept_at = rack_joker_at + layout.rack_jokers
    arrangement = Arrangement([], Counter(), Counter(), [])
    # Only the columns in use: a few dozen of a few hundred.
    for i, n in zip(used.tolist(), counts[used].tolist(), strict=True):
        if i < played_at:
            piece = layout.catalogue[layout.piece_numbers[i]]
            arrangement.pieces.extend([piece] * n)
            for t in layout.absent.intersection(piece):
                arrangement.stand_ins[t] += n
        elif i < stand_ins_at:
            arrangement.played[layout.played[i - played_at]] = n
        elif i < rack_joker_at:
            arrangement.stand_ins[layout.stand_ins[i - stand_ins_at]] = n
        elif i < kept_at:
            arrangement.played[JOKER] = n
        elif i < kept_at + layout.table_sets:
            arrangement.kept.append(i - kept_at)
    return arrangement
