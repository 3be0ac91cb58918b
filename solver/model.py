"""The one model builder: a position as an integer program, and its solution read back.

Columns (all integer, maximised):
- x[c]  copies of candidate set c (a joker-free run of 3-5 or group of 3-4) on the table;
- p[t]  copies of rack tile t played;
- j[t]  jokers standing in for tile t, anywhere on the table after the move;
- q     rack jokers played;
- k[s]  1 if the table's set s stays exactly as it lies (only once opened);
- z     1 if an initial meld is made (only before opening).

Counting a joker as the tile it stands for keeps the model to the 185 joker-free sets
(197 with wraparound) instead of every set with jokers in every place, and is exact: any
table of valid sets cuts into candidates with some tiles replaced by jokers, and any such
replacement of a candidate is itself a valid set.

Only this module and the backends see integers and matrices.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from .board import Board
from .rules import Rules
from .sets import candidate_sets
from .tiles import JOKER, Tile


class Objective(enum.Enum):
    """What "best" puts first: tiles played, or points taken off the rack."""

    TILES = "tiles"
    VALUE = "value"


@dataclass(frozen=True)
class Mip:
    """A maximisation over bounded integer columns with ranged rows, stored by row."""

    cost: list[float]
    lower: list[float]
    upper: list[float]
    row_lower: list[float]
    row_upper: list[float]
    row_start: list[int]
    row_index: list[int]
    row_value: list[float]

    @property
    def columns(self) -> int:
        return len(self.cost)

    @property
    def rows(self) -> int:
        return len(self.row_lower)


@dataclass(frozen=True)
class Layout:
    """Which column means what, to read a solution back into tiles and sets."""

    pieces: list[tuple[tuple[Tile, ...], int]]
    played: list[tuple[Tile, int]]
    stand_ins: list[tuple[Tile, int]]
    rack_jokers: int | None
    kept: list[tuple[int, int]]
    meld: int | None


@dataclass(frozen=True)
class Arrangement:
    """A solution in the domain's terms: which sets, which tiles played, which jokers where."""

    pieces: list[tuple[Tile, ...]]
    played: Counter[Tile]
    stand_ins: Counter[Tile]
    kept: list[int]


INFINITY = float("inf")


@lru_cache(maxsize=8)
def _candidates(rules: Rules) -> tuple[tuple[Tile, ...], ...]:
    return tuple(candidate_sets(rules))


class _Builder:
    """Collects columns and rows; rows are kept as {column: coefficient}."""

    def __init__(self) -> None:
        self.cost: list[float] = []
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.rows: list[tuple[dict[int, float], float, float]] = []

    def column(self, upper: float, cost: float = 0.0, lower: float = 0.0) -> int:
        self.cost.append(cost)
        self.lower.append(lower)
        self.upper.append(upper)
        return len(self.cost) - 1

    def row(self, terms: dict[int, float], lower: float, upper: float) -> None:
        self.rows.append((terms, lower, upper))

    def mip(self) -> Mip:
        start, index, value = [0], [], []
        for terms, _, _ in self.rows:
            for column, coefficient in terms.items():
                index.append(column)
                value.append(coefficient)
            start.append(len(index))
        return Mip(
            cost=self.cost,
            lower=self.lower,
            upper=self.upper,
            row_lower=[r[1] for r in self.rows],
            row_upper=[r[2] for r in self.rows],
            row_start=start,
            row_index=index,
            row_value=value,
        )


def build_model(board: Board, objective: Objective) -> tuple[Mip, Layout]:
    """The integer program whose optimum is the best move on this board (interface.md)."""
    rules = board.rules
    meld_only = not board.opened
    rack = Counter(board.rack)
    rack_jokers = rack.pop(JOKER, 0)
    # Before the initial meld the table is out of play: the model sees the rack alone.
    table_sets = () if meld_only else board.table
    table = Counter(t for s in table_sets for t in s)
    table_jokers = table.pop(JOKER, 0)
    jokers = table_jokers + rack_jokers
    available = table + rack

    # Only sets that the tiles in play (jokers filling the gaps) can make.
    usable = [c for c in _candidates(rules) if sum(1 for t in c if not available[t]) <= jokers]
    # Sorted, so that the model (and so the move among equals) is the same in every process.
    usable_tiles = {t for c in usable for t in c}
    in_sets = sorted(usable_tiles, key=Tile.sort_key)

    # Lexicographic weights: primary over secondary over sets kept; all integral.
    rack_value = sum(t.number * n for t, n in rack.items()) + rules.joker_penalty * rack_jokers
    rack_size = sum(rack.values()) + rack_jokers
    keep_weight = 1.0
    secondary_weight = keep_weight * (len(table_sets) + 1)
    secondary_top = rack_value if objective is Objective.TILES else rack_size
    primary_weight = secondary_weight * (secondary_top + 1)

    def worth(count: float, value: float) -> float:
        if objective is Objective.TILES:
            return primary_weight * count + secondary_weight * value
        return primary_weight * value + secondary_weight * count

    m = _Builder()
    pieces = []
    for c in usable:
        bound = min(available[t] + jokers for t in c)
        pieces.append((c, m.column(bound)))
    played = [(t, m.column(n, worth(1, t.number))) for t, n in rack.items() if t in usable_tiles]
    stand_ins = [(t, m.column(jokers)) for t in in_sets] if jokers else []
    rack_joker_col = m.column(rack_jokers, worth(1, rules.joker_penalty)) if rack_jokers else None
    kept = [(i, m.column(1, keep_weight)) for i in range(len(table_sets))]

    # Every tile on the table after the move is a tile from before, a played one, or a joker.
    uses: dict[Tile, dict[int, float]] = {
        t: {} for t in sorted(usable_tiles | set(table), key=Tile.sort_key)
    }
    for c, col in pieces:
        for t in c:
            uses[t][col] = uses[t].get(col, 0.0) + 1.0
    for i, col in kept:
        for t in table_sets[i]:
            if not t.is_joker:
                uses[t][col] = uses[t].get(col, 0.0) + 1.0
    for t, col in played:
        uses[t][col] = -1.0
    for t, col in stand_ins:
        uses[t][col] = -1.0
    for t, terms in uses.items():
        m.row(terms, table[t], table[t])

    # Every joker stays on the table, and a played joker joins them.
    if jokers:
        terms = {col: 1.0 for _, col in stand_ins}
        for i, col in kept:
            if held := table_sets[i].count(JOKER):
                terms[col] = float(held)
        if rack_joker_col is not None:
            terms[rack_joker_col] = -1.0
        m.row(terms, table_jokers, table_jokers)

    meld_col = None
    if meld_only:
        meld_col = m.column(1)
        # An initial meld is worth the initial-meld points, a joker what it stands for...
        terms = {col: float(t.number) for t, col in played}
        for t, col in stand_ins:
            terms[col] = float(t.number)
        terms[meld_col] = -float(rules.initial_meld)
        m.row(terms, 0.0, INFINITY)
        # ...or nothing is played at all.
        terms = {col: 1.0 for _, col in played}
        if rack_joker_col is not None:
            terms[rack_joker_col] = 1.0
        terms[meld_col] = -float(rack_size)
        m.row(terms, -INFINITY, 0.0)

    layout = Layout(pieces, played, stand_ins, rack_joker_col, kept, meld_col)
    return m.mip(), layout


def read_solution(layout: Layout, values: list[float]) -> Arrangement:
    """The arrangement a backend's column values describe."""

    def count(col: int) -> int:
        return round(values[col])

    pieces = [c for c, col in layout.pieces for _ in range(count(col))]
    played: Counter[Tile] = Counter({t: count(col) for t, col in layout.played if count(col)})
    if layout.rack_jokers is not None and count(layout.rack_jokers):
        played[JOKER] = count(layout.rack_jokers)
    stand_ins = Counter({t: count(col) for t, col in layout.stand_ins if count(col)})
    kept = [i for i, col in layout.kept if count(col)]
    return Arrangement(pieces, played, stand_ins, kept)
