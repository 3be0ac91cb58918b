"""The one model builder: a position as an integer program, and its solution read back.

Columns (all integer, maximised):
- x[c]  copies of candidate set c (a joker-free run of 3-5 or group of 3-4) on the table;
- p[t]  copies of rack tile t played;
- j[t]  jokers standing in for tile t in candidate sets on the table after the move;
- q     rack jokers played;
- k[s]  1 if the table's set s stays exactly as it lies (only once opened);
- z     1 if an initial meld is made (only before opening);
- y[s,r] 1 if the jokers of table set s, not kept, take reading r of it (only under
        `joker-retrieval=replace` or `strict`).

Under `joker-retrieval=strict`, and only when a rack tile could free a joker of the table,
a freed joker (one whose role the tile from the rack took) must end in a "host": a set of
the new table holding two tiles played from the rack. A host may be a long run, so hosts
are whole sets, laid beside the candidate sets (whose jokers j[t] then fill places in
candidates only):
- f[t]   table jokers freed by rack tile t (at most p[t]; the roles left need j or u);
- h[H]   copies of host shape H (any joker-free set) on the table;
- g[H]   freed jokers in them (all freed jokers are in hosts);
- l[H,t] jokers there standing in for t that are loose: freed, or from the rack;
- u[H,t] jokers there standing in for t that keep their role t;
- r[H,t] tiles t there counted as played from the rack (at most p[t] over all hosts).
Rows: each place of a host holds one of these, or a real tile; real tiles in hosts and
kept sets are no more than the table's and the played ones; g[H] <= sum l[H,.] and
g[H] + 2 h[H] <= sum l[H,.] + sum r[H,.]. For one copy that says: its rack jokers (loose
ones not freed) and rack tiles are two or more. Over several copies it is still exact:
deal the rack tiles round the copies in turn, and each copy gets at most two or each at
least two; either way the freed jokers fit. Copies of a tile from the rack and from the
table are alike, as are jokers, so counts decide.

Under `locked-joker-sets` a table set with a joker that is not kept must have all its real
tiles in one set of the new table (it may grow; its jokers move as the retrieval rule
allows). One real tile is always together, so the sets with two or more are "locked", and
each is kept or lies in a "locked host", a whole set of the new table (any length, like the
hosts above):
- b[S,H] 1 if one copy of shape H is laid holding the real tiles of the locked sets S (sets
  whose real tiles differ: a set holds a tile once; at most four, one joker each);
- a row per locked set s: k[s] + sum of b[S,H] with s in S = 1.
A locked host puts one place in each of its tiles' rows, as a piece does, and its jokers are
among the j[t]; all it adds is that its held places (the tiles of S) hold real tiles. That
needs no row: the real copies of a tile t outside kept sets (the table's not kept, and the
played ones) are at least the held places for t, each being the copy of one set not kept,
so the j[t] jokers fit in the other places of t. Conversely a legal table is a solution:
each new set holding the real tiles of one or more locked sets S is b[S, its shape], the
other sets cut into pieces. Under STRICT, where jokers may be freed, a new set may hold both
locked tiles and a freed joker: each b[S,H] then has a twin with the host columns above (two
tiles from the rack among them), one copy at most, and no joker or from-rack column at a
held place (it holds the table's tile); and the held places of b[S,H] join the real-tile
rows, for the hosts draw on the real copies too.

Counting a joker as the tile it stands for keeps the model to the 185 joker-free sets
(197 with wraparound) instead of every set with jokers in every place, and is exact: any
table of valid sets cuts into candidates with some tiles replaced by jokers, and any such
replacement of a candidate is itself a valid set. In the plain case (opened, jokers
free to move) with two jokers or more, a tile with no copy in play needs no stand-in
column: the candidates holding it count a joker for it directly, and those that then
hold the same tiles and as many jokers are one column (`_fold_absent`).

Only this module and the backends see integers and matrices.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np

from .board import Board
from .rules import JokerRetrieval, Rules
from .sets import MIN_SET, candidate_sets, candidate_shapes, joker_roles
from .tiles import ALL_COLOURED, JOKER, MAX_NUMBER, Tile

Vector = Any  # a numpy array; numpy's own types would add nothing a reader needs here


class Objective(enum.Enum):
    """What "best" puts first: tiles played, or points taken off the rack."""

    TILES = "tiles"
    VALUE = "value"


@dataclass(frozen=True)
class Mip:
    """A maximisation over bounded integer columns with ranged rows, stored by column."""

    cost: Vector
    lower: Vector
    upper: Vector
    row_lower: Vector
    row_upper: Vector
    col_start: Vector
    col_index: Vector
    col_value: Vector

    @property
    def columns(self) -> int:
        return len(self.cost)

    @property
    def rows(self) -> int:
        return len(self.row_lower)


@dataclass(frozen=True)
class Host:
    """A set laid whole: one a freed joker may end in (STRICT), or one holding the real tiles
    of table sets with a joker (LOCKED). Its joker-free shape, the tiles that have a column
    for jokers keeping their role, and those that may count as from the rack; the table sets
    whose real tiles it holds (`locked`), and those tiles (`held`: real, and the table's).

    A host that is not `freeing` holds no freed joker: it has one column, its copy, and its
    jokers are among the stand-ins j[t], as the pieces' are.
    """

    shape: tuple[Tile, ...]
    roles: tuple[Tile, ...]
    from_rack: tuple[Tile, ...]
    locked: tuple[int, ...] = ()
    held: tuple[Tile, ...] = ()
    freeing: bool = True

    @property
    def slots(self) -> tuple[Tile, ...]:
        """The places a joker may take: all but the held tiles'."""
        return tuple(t for t in self.shape if t not in self.held)


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
    hosts: list[Host]


@dataclass(frozen=True)
class Arrangement:
    """A solution in the domain's terms: which sets, which tiles played, which jokers where.

    `hosts` are whole sets with their jokers in place (STRICT, LOCKED); `stand_ins` are the
    jokers of the pieces; `holders[s]` is the host holding table set s's real tiles (LOCKED).
    """

    pieces: list[tuple[Tile, ...]]
    played: Counter[Tile]
    stand_ins: Counter[Tile]
    kept: list[int]
    hosts: list[tuple[Tile, ...]] = field(default_factory=list)
    holders: dict[int, int] = field(default_factory=dict)


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


@lru_cache(maxsize=8)
def _host_catalogue(rules: Rules) -> _Catalogue:
    """Every joker-free set of any length: the shapes a host may take."""
    sets = tuple(s for n in range(MIN_SET, MAX_NUMBER + 1) for s in candidate_shapes(n, rules))
    return _catalogue_of(sets, MAX_NUMBER)


def _makeable(in_play: Vector, jokers: int) -> Vector:
    """Which sets the tiles in play can make, jokers filling the places of tiles with no
    copy in play: `in_play` holds each set's copies in play, a row a set (padding never 0)."""
    return (in_play == 0).sum(axis=1) <= jokers


@lru_cache(maxsize=8)
def _host_members(rules: Rules) -> Vector:
    """(shapes, tiles) booleans: which tiles each host shape holds (the padding index none)."""
    shapes = _host_catalogue(rules)
    members = np.zeros((len(shapes.sets), _TILES + 1), dtype=bool)
    members[np.arange(len(shapes.sets))[:, None], shapes.tiles] = True
    members[:, _NO_TILE] = False
    return members


def _locked_hosts(
    locked_sets: list[tuple[int, tuple[Tile, ...]]],
    rules: Rules,
    available: Vector,
    jokers: int,
    rack: Vector,
    rack_jokers: int,
    role_row: dict[int, int],
    strict: bool,
) -> list[Host]:
    """LOCKED: the hosts that could hold the real tiles of the locked sets (number, tiles).

    For every group of those sets whose real tiles differ (one set of the new table holds a
    tile once), every shape holding all of them that the tiles in play and the jokers can
    make. Under STRICT, where jokers may be freed, each also as a `freeing` host that needs
    two tiles from the rack but its held ones, which are the table's.
    """
    locked = [
        (number, frozenset(TILE_INDEX[t] for t in s if not t.is_joker)) for number, s in locked_sets
    ]
    shapes = _host_catalogue(rules)
    members = _host_members(rules)
    enough = _makeable(available[shapes.tiles], jokers)
    hosts = []
    for size in range(1, len(locked) + 1):
        for group in combinations(locked, size):
            held = frozenset().union(*(real for _, real in group))
            if len(held) < sum(len(real) for _, real in group):
                continue
            for i in np.flatnonzero(enough & members[:, sorted(held)].all(axis=1)):
                shape = shapes.sets[i]
                numbers = tuple(number for number, _ in group)
                tiles = tuple(t for t in shape if TILE_INDEX[t] in held)
                hosts.append(Host(shape, (), (), numbers, tiles, freeing=False))
                free = [TILE_INDEX[t] for t in shape if TILE_INDEX[t] not in held]
                if strict and sum(rack[j] > 0 for j in free) + rack_jokers >= 2:
                    hosts.append(
                        Host(
                            shape,
                            roles=tuple(ALL_COLOURED[j] for j in free if j in role_row),
                            from_rack=tuple(ALL_COLOURED[j] for j in free if rack[j] > 0),
                            locked=numbers,
                            held=tiles,
                        )
                    )
    return hosts


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


def build_model(board: Board, objective: Objective) -> tuple[Mip, Layout]:
    """The integer program whose optimum is the best move on this board (interface.md)."""
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

    # Lexicographic weights: primary over secondary over sets kept; all whole numbers.
    penalty = rules.joker_penalty
    rack_value = float(rack[:_TILES] @ _NUMBERS) + penalty * rack_jokers
    rack_size = int(rack.sum()) + rack_jokers
    secondary_weight = float(len(table_sets) + 1)
    primary_weight = secondary_weight * (
        (rack_value if objective is Objective.TILES else rack_size) + 1
    )
    tiles_weight, value_weight = (
        (primary_weight, secondary_weight)
        if objective is Objective.TILES
        else (secondary_weight, primary_weight)
    )

    # REPLACE: each joker of a table set that is not kept goes on standing for a tile it
    # stands for in one reading of its set, unless that tile is played from the rack.
    readings = []
    if rules.joker_retrieval.by_replacement:
        readings = [
            (number, sorted(joker_roles(s, rules), key=lambda r: [t.sort_key() for t in r]))
            for number, s in enumerate(table_sets)
            if JOKER in s
        ]
    next_row = _JOKER_ROW + 1
    choice_row = {}
    for number, _ in readings:
        choice_row[number], next_row = next_row, next_row + 1
    role_row = {}
    for index in sorted({TILE_INDEX[t] for _, roles in readings for r in roles for t in r}):
        role_row[index], next_row = next_row, next_row + 1
    # STRICT: the rack tiles that could free a joker; if there are any, the hosts that
    # could hold a freed joker and two tiles from the rack.
    freed = [int(i) for i in played if i in role_row] if role_row else []
    strict = rules.joker_retrieval is JokerRetrieval.STRICT and bool(freed)
    hosts: list[Host] = []
    if strict:
        shapes = _host_catalogue(rules)
        enough = _makeable(available[shapes.tiles], jokers)
        from_rack = (rack[shapes.tiles] > 0).sum(axis=1) + rack_jokers >= 2
        for i in np.flatnonzero(enough & from_rack):
            shape = shapes.sets[i]
            hosts.append(
                Host(
                    shape,
                    roles=tuple(t for t in shape if TILE_INDEX[t] in role_row),
                    from_rack=tuple(t for t in shape if rack[TILE_INDEX[t]] > 0),
                )
            )
    freed = freed if strict else []
    # LOCKED: the table sets with a joker and two real tiles or more, a row each, and the
    # hosts that could hold their real tiles.
    locked = []
    if rules.locked_joker_sets:
        locked = [
            n for n, s in enumerate(table_sets) if JOKER in s and len(s) - s.count(JOKER) >= 2
        ]
    lock_row = {}
    for number in locked:
        lock_row[number], next_row = next_row, next_row + 1
    if locked:
        hosts += _locked_hosts(
            [(n, table_sets[n]) for n in locked],
            rules,
            available,
            jokers,
            rack,
            rack_jokers,
            role_row,
            strict,
        )
    freed_row, next_row = next_row, next_row + int(strict)
    cap_row = {}
    for index in freed:
        cap_row[index], next_row = next_row, next_row + 1
    rack_row = {}
    for index in sorted({TILE_INDEX[t] for host in hosts for t in host.from_rack}):
        rack_row[index], next_row = next_row, next_row + 1
    # Real tiles: every place of a freeing host; only the held ones of the others (whose other
    # places are filled as the pieces' are).
    real_row = {}
    real_tiles = {TILE_INDEX[t] for host in hosts if host.freeing for t in host.shape}
    real_tiles |= {TILE_INDEX[t] for host in hosts for t in host.held} if strict else set()
    for index in sorted(real_tiles):
        real_row[index], next_row = next_row, next_row + 1
    # All these rows are "<= 0" but the real tiles', "<= the table's copies".
    strict_upper = [0.0] * (next_row - freed_row - len(real_row)) + [
        float(table[i]) for i in real_row
    ]

    columns = _Columns()
    plain = not (meld_only or role_row or freed or hosts)
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
    meld_row, link_row = _JOKER_ROW + 1, _JOKER_ROW + 2
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
        played_by_loop = stand_ins_by_loop = np.zeros(0, dtype=np.int64)
    else:
        played_by_loop, stand_ins_by_loop = played, stand_ins
    # Rack tiles played: each leaves the rack for its tile's row.
    for i in played_by_loop:
        entries = {int(i): -1.0}
        if i in role_row and not strict:
            entries[role_row[int(i)]] = -1.0
        for row in (cap_row.get(int(i)), rack_row.get(int(i)), real_row.get(int(i))):
            if row is not None:
                entries[row] = -1.0
        if meld_only:
            entries |= {meld_row: _NUMBERS[i], link_row: 1.0}
        columns.add(rack[i], tiles_weight + value_weight * _NUMBERS[i], entries)
    # Jokers standing in for a tile: counted in that tile's row and in the joker row;
    # before opening they are worth the tile they stand for.
    for i in stand_ins_by_loop:
        entries = {int(i): -1.0, _JOKER_ROW: 1.0}
        if i in role_row:
            entries[role_row[int(i)]] = -1.0
        if meld_only:
            entries[meld_row] = _NUMBERS[i]
        columns.add(jokers, 0.0, entries)
    if rack_jokers:
        entries = {_JOKER_ROW: -1.0}
        if meld_only:
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
        table_sets_by_loop: tuple[tuple[Tile, ...], ...] = ()
    else:
        table_sets_by_loop = table_sets
    for number, s in enumerate(table_sets_by_loop):
        entries = {}
        for tile in s:
            row = _JOKER_ROW if tile.is_joker else TILE_INDEX[tile]
            entries[row] = entries.get(row, 0.0) + 1.0
            if row in real_row:
                entries[real_row[row]] = entries.get(real_row[row], 0.0) + 1.0
        if number in choice_row:
            entries[choice_row[number]] = 1.0
        if number in lock_row:
            entries[lock_row[number]] = 1.0
        columns.add(1, 1.0, entries)
    for host in hosts:
        locks = {lock_row[number]: 1.0 for number in host.locked}
        if not host.freeing:
            # LOCKED: one copy of a host holds the real tiles of its table sets; its other
            # places are filled as the pieces' are, its held ones (STRICT) by real tiles.
            entries = {TILE_INDEX[t]: 1.0 for t in host.shape} | locks
            entries |= {real_row[TILE_INDEX[t]]: 1.0 for t in host.held if strict}
            columns.add(1, 0.0, entries)
            continue
        # STRICT: each host copy is a whole set of the new table; each of its places holds one
        # tile, a joker (free, or keeping a role) or a real tile, perhaps counted as from the
        # rack; a held place (LOCKED) holds its table set's tile.
        slot_row = {TILE_INDEX[t]: next_row + n for n, t in enumerate(host.slots)}
        loose_row, rack_ish_row = next_row + len(slot_row), next_row + len(slot_row) + 1
        next_row += len(slot_row) + 2
        strict_upper += [0.0] * (len(slot_row) + 2)
        copies = {TILE_INDEX[t]: 1.0 for t in host.shape} | {row: -1.0 for row in slot_row.values()}
        copies |= {real_row[TILE_INDEX[t]]: 1.0 for t in host.shape}
        columns.add(1 if host.locked else table_jokers, 0.0, copies | {rack_ish_row: 2.0} | locks)
        # Freed jokers in a copy: no more than its loose jokers, and two rack tiles besides.
        columns.add(table_jokers, 0.0, {freed_row: -1.0, loose_row: 1.0, rack_ish_row: 1.0})
        for index, row in slot_row.items():
            entries = {index: -1.0, _JOKER_ROW: 1.0, row: 1.0, loose_row: -1.0, rack_ish_row: -1.0}
            columns.add(jokers, 0.0, entries | {real_row[index]: -1.0})
        for index in map(TILE_INDEX.__getitem__, host.roles):
            entries = {index: -1.0, _JOKER_ROW: 1.0, slot_row[index]: 1.0, role_row[index]: -1.0}
            columns.add(jokers, 0.0, entries | {real_row[index]: -1.0})
        for index in map(TILE_INDEX.__getitem__, host.from_rack):
            entries = {slot_row[index]: 1.0, rack_ish_row: -1.0, rack_row[index]: 1.0}
            columns.add(rack[index], 0.0, entries)
    # STRICT: a role is held by a joker standing for its tile, or the joker is freed by that
    # tile from the rack; every freed joker goes to a host.
    for index in freed:
        columns.add(rack[index], 0.0, {role_row[index]: -1.0, cap_row[index]: 1.0, freed_row: 1.0})
    # REPLACE: a set with jokers is kept, or its jokers take one reading's roles, each
    # role then held by a joker standing for that tile or by that tile from the rack.
    for number, roles in readings:
        for reading in roles:
            entries = {choice_row[number]: 1.0}
            for tile in reading:
                row = role_row[TILE_INDEX[tile]]
                entries[row] = entries.get(row, 0.0) + 1.0
            columns.add(1, 0.0, entries)
    if meld_only:
        # An initial meld is worth the initial-meld points, or nothing is played at all.
        columns.add(1, 0.0, {meld_row: -float(rules.initial_meld), link_row: -float(rack_size)})

    # Every tile on the table after the move is a tile from before, a played one, or a
    # joker; every joker stays on the table, and a played joker joins them.
    row_lower = np.concatenate([table[:_TILES], [table_jokers]]).astype(np.float64)
    row_upper = row_lower.copy()
    if meld_only:
        row_lower = np.concatenate([row_lower, [0.0, -INFINITY]])
        row_upper = np.concatenate([row_upper, [INFINITY, 0.0]])
    if readings:
        row_lower = np.concatenate(
            [row_lower, [1.0] * len(choice_row), [-INFINITY] * len(role_row)]
        )
        row_upper = np.concatenate([row_upper, [1.0] * len(choice_row), [0.0] * len(role_row)])
    if lock_row:
        row_lower = np.concatenate([row_lower, [1.0] * len(lock_row)])
        row_upper = np.concatenate([row_upper, [1.0] * len(lock_row)])
    if strict:
        row_lower = np.concatenate([row_lower, [-INFINITY] * len(strict_upper)])
        row_upper = np.concatenate([row_upper, strict_upper])

    layout = Layout(
        catalogue=catalogue.sets,
        piece_numbers=usable.tolist(),
        absent=absent,
        played=[ALL_COLOURED[i] for i in played.tolist()],
        stand_ins=[ALL_COLOURED[i] for i in stand_ins.tolist()],
        rack_jokers=bool(rack_jokers),
        table_sets=len(table_sets),
        hosts=hosts,
    )
    return columns.mip(row_lower, row_upper), layout


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


def _read_hosts(layout: Layout, counts: Vector, arrangement: Arrangement) -> None:
    """The hosts, from their columns (those right after the kept sets'), into the arrangement.

    A host that is not freeing (LOCKED) takes its jokers from the stand-ins before the pieces
    do, so that a table set's joker tends to stay with it: the stand-ins of a tile are never
    fewer than its places in the pieces, nor more than those and the hosts' places that are
    not held (the real copies of a tile are at least the places held for it).
    """
    if not layout.hosts:
        return
    at = len(layout.piece_numbers) + len(layout.played) + len(layout.stand_ins)
    at += layout.rack_jokers + layout.table_sets
    host_counts = iter(counts[at:].tolist())
    for host in layout.hosts:
        copies = next(host_counts)
        if host.freeing:
            _freed = next(host_counts)
            jokers = Counter({t: next(host_counts) for t in host.slots})
            jokers.update({t: next(host_counts) for t in host.roles})
            from_rack = Counter({t: next(host_counts) for t in host.from_rack})
            laid = _lay_host(host.shape, copies, jokers, from_rack)
        else:
            stand_ins = arrangement.stand_ins
            laid = [tuple(_stand_in(t, host, stand_ins) for t in host.shape)] if copies else []
        if laid:
            arrangement.holders.update({number: len(arrangement.hosts) for number in host.locked})
        arrangement.hosts.extend(laid)


def _stand_in(tile: Tile, host: Host, stand_ins: Counter[Tile]) -> Tile:
    """A joker at the tile's place in a host, if one stands in for it and the place is not
    held; else the tile."""
    if tile in host.held or stand_ins[tile] <= 0:
        return tile
    stand_ins[tile] -= 1
    return JOKER


def _lay_host(
    shape: tuple[Tile, ...], copies: int, jokers: Counter[Tile], from_rack: Counter[Tile]
) -> list[tuple[Tile, ...]]:
    """The copies of a host with their jokers in place: the rack tiles dealt round the copies
    in turn (so each copy has its share), the jokers in places those left free."""
    rows = [list(shape) for _ in range(copies)]
    dealt = 0
    for t in shape:
        taken = {(dealt + k) % copies for k in range(from_rack[t])}
        dealt += from_rack[t]
        free = [c for c in range(copies) if c not in taken]
        for c in free[: jokers[t]]:
            rows[c][shape.index(t)] = JOKER
    return [tuple(row) for row in rows]


def read_solution(layout: Layout, values: Vector) -> Arrangement:
    """The arrangement a backend's column values describe: candidates, then hosts."""
    counts = np.rint(values).astype(np.int64)
    arrangement = _read_candidates(layout, counts)
    _read_hosts(layout, counts, arrangement)
    return arrangement


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
