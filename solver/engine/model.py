"""The one model builder: a position as an integer program, and its solution read back.

Rows and columns are made in named groups, each with its one-line statement where it is
made (`Layout.program.describe()` lists them): the tile rows (one per coloured tile and
the joker count, the balance of the table after the move), the meld row (unopened), the
joker part's rows (joker_rows.py). Columns (all integer, maximised), in this order, each
group a named range of the layout (`ColumnRanges`), which the readers take by name:
- pieces     copies of candidate set c (a joker-free run of 3-5 or group of 3-4) on the
             table (candidates.py);
- played     copies of rack tile t played;
- stand_ins  jokers standing in for tile t in candidate sets (and cores) after the move;
- rack_jokers  rack jokers played;
- kept       1 if the table's set s stays exactly as it lies (only once opened);
- jokers     the joker part, where the table's jokers follow the rules as written
             (joker_model.py plans it, joker_rows.py builds it).

Before opening the model is of an initial meld alone, worth the initial-meld points, and
the move that plays nothing is its cutoff (`Mip.cutoff`, 0: only a better move is
sought): no switch between the two, whose fractional values cost two LPs more a solve.

Counting a joker as the tile it stands for keeps the model to the 185 joker-free sets
(197 with wraparound) instead of every set with jokers in every place, and is exact: any
table of valid sets cuts into candidates with some tiles replaced by jokers, and any such
replacement of a candidate is itself a valid set. In the plain case (opened, jokers
free to move) with two jokers or more, a tile with no copy in play needs no stand-in
column: the candidates holding it count a joker for it directly, and those that then
hold the same tiles and as many jokers are one column (`candidates.fold_absent`).

Only the engine sees integers and matrices.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from ..board import Board
from ..move import Objective, TileRow
from ..tiles import ALL_COLOURED, JOKER, Tile
from .builder import INFINITY, Floats, Indices, Ints, Mip, Program, Rows
from .candidates import FOLD_FROM_JOKERS, Position, fold_absent, makeable
from .joker_model import JokerPart, JokerPlan, plan_jokers
from .joker_rows import JokerLayout, JokerRows
from .lp import Deadline
from .tile_rows import JOKER_ROW, NUMBERS, ROW_OF, TILE_INDEX, TILES


@dataclass(frozen=True)
class Layout:
    """Which column means what, to read a solution back into tiles and sets.

    The candidate columns are sets of the catalogue, by number: a solution uses a few
    dozen of them, so they become tiles only when read back.
    """

    catalogue: tuple[tuple[Tile, ...], ...]
    piece_numbers: list[int]  # ascending
    # Tiles with no copy in play, whose places in the pieces are jokers' (`_fold_absent`).
    absent: frozenset[Tile]
    played: list[Tile]
    stand_ins: list[Tile]
    columns: ColumnRanges
    jokers: JokerLayout | None
    # The program as built, its groups of rows and columns by name: relaxations extend it.
    # (Layouts compare by what they say of the board; the programs by the Mip they build.)
    program: Program = field(compare=False)


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


# The played and stand-in columns' entries for every tile, a line a tile (a stand-in's:
# its tile's row and the joker row), selected by mask for each board.
_STAND_IN_ROWS = np.column_stack([np.arange(TILES), np.full(TILES, JOKER_ROW)]).astype(np.int32)
_STAND_IN_VALUES = np.tile([-1.0, 1.0], (TILES, 1))
_MINUS_ONES = np.full((TILES, 1), -1.0)
# The most a joker can stand for.
_HIGHEST = float(NUMBERS.max())
# Entries of 1 and costs of 0, sliced for each block (the blocks are copied when joined).
_ONES = np.ones(1 << 11)
_ZEROS = np.zeros(1 << 11)


def _ones(count: int) -> Floats:
    return _ONES[:count] if count <= len(_ONES) else np.ones(count)


def _zeros(count: int) -> Floats:
    return _ZEROS[:count] if count <= len(_ZEROS) else np.zeros(count)


def _weights(board: Board, objective: Objective) -> tuple[float, float]:
    """Lexicographic weights of a tile played and of a point played: primary over
    secondary over sets kept (each worth 1); all whole numbers."""
    # A joker's number is 0: the tiles' numbers, and the penalty for each joker.
    rack = board.rack
    rack_value = sum(t.number for t in rack) + board.rules.joker_penalty * rack.count(JOKER)
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


class ColumnRanges(NamedTuple):
    """Where each group of the model's columns lies, in the order they are built."""

    pieces: range  # copies of each usable candidate set (`Layout.piece_numbers`)
    played: range  # copies of each rack tile played (`Layout.played`)
    stand_ins: range  # jokers standing in for each tile (`Layout.stand_ins`)
    rack_jokers: range  # rack jokers played: one column, or none
    kept: range  # each set of the table kept as it lies (opened only)
    jokers: range  # the joker part (joker_rows.py)


class StayEntries(NamedTuple):
    """The pinned model's stay rows' entries (pinned.add_stay_rows), its rows numbered
    before its columns are built, so that each column is built with them: each joker
    instance's rows (its staying column takes -1 in each); the catalogue's entries, set by
    set (each set's tile rows, then its stay rows), their rows and values, and each set's
    count."""

    instance_rows: list[list[int]]
    entry_set: Ints
    entry_row: Ints
    entry_value: Floats
    lengths: Ints


# What adds the pinned model's stay rows to the rows so far (pinned.add_stay_rows), given
# the joker plan and wraparound: their entries, or None where there are none.
StayRows = Callable[[JokerPlan, Rows, bool], StayEntries | None]


def jokers_bind(board: Board) -> bool:
    """Whether the rules on jokers can bind: the player has opened, a joker lies on the
    table, and the rules tie it to its set (joker retrieval by replacement, or locked sets)."""
    rules = board.rules
    if not board.opened or not (rules.by_replacement or rules.locked_joker_sets):
        return False
    return any(JOKER in s for s in board.table)


def build_model(
    board: Board,
    objective: Objective,
    part: JokerPart = JokerPart.WHOLE,
    deadline: Deadline | None = None,
) -> tuple[Mip, Layout]:
    """The integer program whose optimum is the best move on this board (docs/format.md,
    "What best means"); `part`: the joker part whole, or a restriction or relaxation of it
    (joker_model.py); past `deadline`, joker_model.OutOfTime."""
    layout = build_layout(board, objective, part, deadline)
    return model_mip(board, layout), layout


def model_mip(board: Board, layout: Layout) -> Mip:
    """The layout's program as the backends take it (before opening, the move that plays
    nothing, the one besides a meld, is its cutoff)."""
    mip = layout.program.mip()
    return mip if board.opened else dataclasses.replace(mip, cutoff=0.0)


def build_layout(
    board: Board,
    objective: Objective,
    part: JokerPart = JokerPart.WHOLE,
    deadline: Deadline | None = None,
    stay_rows: StayRows | None = None,
) -> Layout:
    """`build_model`'s layout alone, its program not yet made a Mip: a relaxation that
    extends it (homes) has it joined once, not twice. `stay_rows`: the pinned model's
    (pinned.add_stay_rows), added after the joker part's rows, entered as each column is
    built."""
    position = Position.of(board)
    plan = None
    # No joker on the table, or jokers free and sets open: no joker part (plan_jokers
    # would say None too, after counting the tiles in play).
    if jokers_bind(board):
        # The table's jokers under the rules as written: their instances and hosts, if any.
        # Copies in play, read from the tiles present only (a third of the 52, or fewer).
        available = position.available[:TILES]
        present = available.nonzero()[0]
        tiles = [ALL_COLOURED[i] for i in present.tolist()]
        in_play = zip(tiles, available[present].tolist(), strict=True)
        plan = plan_jokers(
            position.table_sets,
            board.rules,
            Counter(dict(in_play)),
            Counter(board.rack),
            position.jokers,
            part,
            deadline,
            board.declared,
        )
    return _Builder(board, objective, position, plan, deadline, stay_rows).build()


def no_initial_meld(board: Board) -> bool:
    """Whether an unopened rack surely cannot make its initial meld: the tiles that some
    set of the rack's tiles and jokers could hold, each joker at the highest number, are
    worth less than the meld needs. An exact proof of "no move" for a tenth of a model
    and its LP: in greedy four-player games, 358 of the 404 unopened turns with no move."""
    if board.opened:
        return False
    position = Position.of(board)
    rack = position.rack[:TILES]
    worth = float(NUMBERS @ (rack * position.in_sets)) + _HIGHEST * position.rack_jokers
    return worth < board.rules.initial_meld


class _Builder:
    """One model's rows and columns, group by group (the order of `ColumnRanges`); each
    group says what it means where it is made."""

    def __init__(
        self,
        board: Board,
        objective: Objective,
        position: Position,
        plan: JokerPlan | None,
        deadline: Deadline | None,
        stay_rows: StayRows | None,
    ) -> None:
        self.board, self.position, self.plan, self.deadline = board, position, plan, deadline
        self.stay_rows = stay_rows if plan is not None and plan.pinned else None
        self.stay: StayEntries | None = None
        self.weights = _weights(board, objective)
        # Plain: opened, and no joker of the table bound by the rules as written; there
        # the place a joker fills changes nothing else, and columns are built by numpy.
        self.plain = board.opened and plan is None
        in_sets = position.in_sets.copy()
        if plan is not None and plan.hosts:
            # Rack tiles that only a host's place can take still need their played column.
            in_sets[[TILE_INDEX[t] for h in plan.hosts for t in h.shape]] = True
        self.played = (in_sets & (position.rack[:TILES] > 0)).nonzero()[0]
        # Pinned, the tiles the table's jokers that stay stand for (in some reading).
        self.roles: list[int] = []
        if plan is not None and plan.pinned:
            self.roles = sorted({TILE_INDEX[i.role] for i in plan.instances if i.role is not None})
        self.wild = self._wild(plan)
        self.stand_ins = in_sets.nonzero()[0] if self.wild else np.zeros(0, np.int64)
        self.program = Program()
        self.rows, self.columns = self.program.rows, self.program.columns
        # Every tile on the table after the move is a tile from before, a played one, or a
        # joker standing in for it (the joker part's hosts hold some of them).
        table = position.table[:TILES].tolist()
        self.rows.add(
            TILES,
            table,
            table,
            name="tiles",
            says="sum_c a[t,c] pieces[c] + sum_s a[t,s] kept[s] + jokers[t]"
            " = table[t] + played[t] + stand_ins[t]",
        )
        # Every joker stays on the table, and a played joker joins them.
        jokers = float(position.table_jokers)
        self.rows.one(
            jokers,
            jokers,
            name="joker count",
            says="sum_t stand_ins[t] + sum_c absent[c] pieces[c] + sum_s jokers[s] kept[s]"
            " + jokers[J] = table[J] + rack_jokers",
        )
        self.meld_row = -1

    def _wild(self, plan: JokerPlan | None) -> int:
        """How many jokers may stand in for any tile. Pinned, the table's jokers stay
        (their readings stand for their tiles) unless freed, each by a rack copy of its
        tile: only those and the rack's are wild (a smaller, tighter LP)."""
        position = self.position
        if plan is None or not plan.pinned:
            return position.jokers
        freeable = int(position.rack[self.roles].sum())
        return position.rack_jokers + min(position.table_jokers, freeable)

    def build(self) -> Layout:
        position, board = self.position, self.board
        if not board.opened:
            # An initial meld is worth the initial-meld points at least.
            self.meld_row = self.rows.one(
                float(board.rules.initial_meld),
                INFINITY,
                name="meld",
                says="sum_t number[t] (played[t] + stand_ins[t]) >= initial_meld",
            )
        joker_rows = None
        if self.plan is not None:
            joker_rows = JokerRows(
                self.plan, self.rows, position.table_sets, position.rack, self.deadline
            )
            if self.stay_rows is not None:
                self.stay = self.stay_rows(self.plan, self.rows, board.rules.wraparound)
        usable, absent = self._pieces()
        self._played(joker_rows)
        self._stand_ins()
        self._rack_jokers()
        self._kept(joker_rows)
        at = self.columns.count
        if joker_rows is not None:
            joker_rows.add_columns(self.columns, self.stay.instance_rows if self.stay else ())
        self.columns.named("jokers", at, "the joker part's (joker_rows.py)")
        named = self.columns.groups
        ranges = ColumnRanges(*[named[name].at for name in ColumnRanges._fields])
        return Layout(
            catalogue=position.catalogue.sets,
            piece_numbers=usable.tolist(),
            absent=absent,
            played=[ALL_COLOURED[i] for i in self.played.tolist()],
            stand_ins=[ALL_COLOURED[i] for i in self.stand_ins.tolist()],
            columns=ranges,
            jokers=joker_rows.layout if joker_rows is not None else None,
            program=self.program,
        )

    def _pieces(self) -> tuple[Ints, frozenset[Tile]]:
        """Candidate sets: one entry per tile they hold, in that tile's row; with jokers
        enough, tiles with no copy in play fill their places with jokers alone."""
        position = self.position
        usable, available = position.usable, position.available
        upper = position.in_play[usable].min(axis=1) + position.jokers
        name, says = "pieces", "copies of candidate set c on the table: +1 in each tile's row"
        start = self.columns.count
        if self.plain and position.jokers >= FOLD_FROM_JOKERS and len(usable):
            usable, block = fold_absent(
                position.catalogue, usable, position.piece_rows, available, upper
            )
            absent = frozenset(ALL_COLOURED[i] for i in (available[:TILES] == 0).nonzero()[0])
            self.stand_ins = self.stand_ins[available[self.stand_ins] > 0]
            self.columns.add_block(*block)
            says += ", absent[c] in the joker count's for its tiles with no copy in play"
            self.columns.named(name, start, says)
            return usable, absent
        if self.wild < position.jokers:
            # Fewer jokers wild than in play (pinned): a set needs a copy in play, or a
            # staying joker's tile, of each tile it holds but for as many as jokers are wild.
            held = available.copy()
            held[self.roles] += position.jokers
            in_play = held[position.catalogue.tiles[usable]]
            fillable = makeable(in_play, self.wild)
            usable, upper = usable[fillable], in_play[fillable].min(axis=1) + self.wild
        lengths, rows, values = self._piece_entries(usable)
        self.columns.add_block(
            upper=upper, cost=_zeros(len(usable)), lengths=lengths, rows=rows, values=values
        )
        if self.stay is not None:
            says += "; pinned, in the stay rows of the needs it meets"
        self.columns.named(name, start, says)
        return usable, frozenset()

    def _piece_entries(self, usable: Ints) -> tuple[Ints, Ints | Indices, Floats]:
        """The candidates' entries, set by set: their tiles' rows, then (pinned) their
        stay rows' (pinned.add_stay_rows); with each one's count."""
        position, stay = self.position, self.stay
        catalogue = position.catalogue
        if stay is None and len(usable) == len(position.usable):  # all: made already
            return catalogue.lengths[usable], position.piece_rows, _ones(len(position.piece_rows))
        chosen = np.zeros(len(catalogue.sets), dtype=np.bool_)
        chosen[usable] = True
        if stay is None:
            rows = catalogue.entry_row[chosen[catalogue.entry_set]]
            return catalogue.lengths[usable], rows, _ones(len(rows))
        keep = chosen[stay.entry_set]
        return stay.lengths[usable], stay.entry_row[keep], stay.entry_value[keep]

    def _played(self, joker_rows: JokerRows | None) -> None:
        """Rack tiles played: each leaves the rack for its tile's row; before opening it
        counts towards the meld, and in the joker part it may free a joker."""
        tiles_weight, value_weight = self.weights
        rack, played = self.position.rack, self.played
        cost = tiles_weight + value_weight * NUMBERS[played]
        at = self.columns.count
        if joker_rows is None:
            # All at once: the tile's row, and the meld row if any.
            lengths, rows, values = self._entries(
                played[:, None], _MINUS_ONES[: len(played)], played
            )
            self.columns.add_block(rack[played], cost, lengths, rows, values)
        else:
            # A column at a time: the few tiles that may free a joker have more entries.
            more = joker_rows.entered_tiles()
            for i, copies, worth in zip(
                played.tolist(), rack[played].tolist(), cost.tolist(), strict=True
            ):
                entries: dict[int, float] = {i: -1.0}
                if (tile := ALL_COLOURED[i]) in more:
                    entries |= joker_rows.played_entries(tile)
                self.columns.add(copies, worth, entries)
        says = "copies of rack tile t played: -1 in t's row, number[t] in the meld's"
        self.columns.named("played", at, says)

    def _stand_ins(self) -> None:
        """Jokers standing in for a tile: counted in that tile's row and in the joker row;
        before opening they are worth the tile they stand for."""
        stand_ins, count = self.stand_ins, len(self.stand_ins)
        lengths, rows, values = self._entries(
            _STAND_IN_ROWS[stand_ins], _STAND_IN_VALUES[:count], stand_ins
        )
        at = self.columns.count
        self.columns.add_block(
            upper=np.full(count, self.wild),
            cost=_zeros(count),
            lengths=lengths,
            rows=rows,
            values=values,
        )
        says = "jokers standing in for tile t: -1 in t's row, +1 in the joker count's"
        self.columns.named("stand_ins", at, says)

    def _entries(
        self, rows: Ints | Indices, values: Floats, tiles: Ints
    ) -> tuple[Ints, Ints | Indices, Floats]:
        """A block's entries, a line of `rows` and `values` for each column, and before
        opening each column's tile's number in the meld row; with each column's length."""
        if self.meld_row >= 0:
            rows = np.column_stack([rows, np.full(len(tiles), self.meld_row)])
            values = np.column_stack([values, NUMBERS[tiles]])
        return np.full(len(tiles), rows.shape[1]), rows.ravel(), values.ravel()

    def _rack_jokers(self) -> None:
        """The rack's jokers played: out of the joker row, worth the joker penalty."""
        at = self.columns.count
        if count := self.position.rack_jokers:
            entries = {JOKER_ROW: -1.0}
            tiles_weight, value_weight = self.weights
            penalty = self.board.rules.joker_penalty
            self.columns.add(count, tiles_weight + value_weight * penalty, entries)
        self.columns.named("rack_jokers", at, "rack jokers played: -1 in the joker count's")

    def _kept(self, joker_rows: JokerRows | None) -> None:
        """Sets of the table kept as they lie: their real tiles and their jokers."""
        table_sets, table_rows = self.position.table_sets, self.position.table_rows
        at = self.columns.count
        if self.plain and all(s.count(JOKER) < 2 for s in table_sets):
            # All at once: no set holding a joker twice, an entry for each of its tiles.
            self.columns.add_block(
                upper=_ones(len(table_sets)),
                cost=_ones(len(table_sets)),
                lengths=np.array([len(s) for s in table_sets], dtype=np.int64),
                rows=np.array(table_rows, dtype=np.int64),
                values=_ones(len(table_rows)),
            )
        else:
            for number, s in enumerate(table_sets):
                entries = _tile_entries(s)
                if joker_rows is not None and (more := joker_rows.kept_entries(number, s)):
                    entries = entries | more
                self.columns.add(1, 1.0, entries)
        says = "1 if table set s stays as it lies: a[t,s] in each tile's row, worth 1"
        self.columns.named("kept", at, says)


# A table's sets recur from turn to turn and from stage to stage: each read once. Callers
# never change the dictionary (`|` makes a new one).
@lru_cache(maxsize=1 << 12)
def _tile_entries(tiles: TileRow) -> dict[int, float]:
    """A kept set's entries in its tiles' rows: one for each copy it holds."""
    entries: dict[int, float] = {}
    for tile in tiles:
        row = ROW_OF[tile]
        entries[row] = entries.get(row, 0.0) + 1.0
    return entries


def read_solution(layout: Layout, values: Floats) -> Arrangement:
    """The arrangement a backend's column values describe: candidates, then hosts."""
    counts = np.rint(values).astype(np.int64)
    arrangement = _read_candidates(layout, counts)
    if layout.jokers is not None:
        _read_hosts(layout.jokers, counts[layout.columns.jokers.start :].tolist(), arrangement)
    return arrangement


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


def _read_candidates(layout: Layout, counts: Ints) -> Arrangement:
    """The arrangement the columns' whole-number values describe, group by group."""
    ranges = layout.columns
    used = counts.nonzero()[0]
    arrangement = Arrangement([], Counter(), Counter(), [])
    # Only the columns in use: a few dozen of a few hundred.
    for i, n in zip(used.tolist(), counts[used].tolist(), strict=True):
        if i in ranges.pieces:
            piece = layout.catalogue[layout.piece_numbers[i - ranges.pieces.start]]
            arrangement.pieces.extend([piece] * n)
            for t in layout.absent.intersection(piece):
                arrangement.stand_ins[t] += n
        elif i in ranges.played:
            arrangement.played[layout.played[i - ranges.played.start]] = n
        elif i in ranges.stand_ins:
            arrangement.stand_ins[layout.stand_ins[i - ranges.stand_ins.start]] = n
        elif i in ranges.rack_jokers:
            arrangement.played[JOKER] = n
        elif i in ranges.kept:
            arrangement.kept.append(i - ranges.kept.start)
    return arrangement
