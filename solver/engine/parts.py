"""How `every_best_move` cuts its search into parts that do not overlap, and the outline of
a solution: what of it makes a move (all but how its runs are cut).

A part is column bounds and rows added to the jokers-free model; `rest_of` is a part less
the solutions equal to one found on some columns, as parts again. The outline's columns
and the parts' rows enter the model through the builder (`with_columns`, `with_rows`).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import NamedTuple

import numpy as np

from ..tiles import JOKER, Colour, Tile
from .builder import Floats, Ints, Mip, Program
from .model import Layout


class Row(NamedTuple):
    """A row added to the model: its columns, their coefficients, its bounds."""

    columns: Sequence[int]
    values: Sequence[float]
    lower: float
    upper: float


class Part(NamedTuple):
    """A part of the solutions still to search: column bounds and rows added."""

    lower: Floats
    upper: Floats
    rows: tuple[Row, ...]


# From this many columns strictly between their bounds, they are cut by their sum first.
MANY = 3


def rest_of(part: Part, values: Floats, columns: Ints) -> Iterator[Part]:
    """The part less the solutions equal to `values` on `columns`, cut into parts that do
    not overlap: a column it leaves at 0 used; or those at 0, and one of its columns at its
    upper bound lower; or those too as they are, and the first of the others that differs
    lower or higher."""
    mine = np.zeros(len(values), dtype=bool)
    mine[columns] = True
    zero = np.flatnonzero(mine & (values == 0) & (part.upper > 0))
    if len(zero):
        yield part._replace(rows=(*part.rows, Row(zero.tolist(), [1.0] * len(zero), 1, np.inf)))
    upper = part.upper.copy()
    upper[zero] = 0
    top = np.flatnonzero(mine & (values > 0) & (values == part.upper))
    if len(top):
        at_most = float(values[top].sum()) - 1
        yield part._replace(
            upper=upper, rows=(*part.rows, Row(top.tolist(), [1.0] * len(top), -np.inf, at_most))
        )
    lower = part.lower.copy()
    lower[top] = values[top]
    middle = np.flatnonzero(mine & (values > 0) & (values < part.upper))
    if len(middle) < MANY:
        yield from one_by_one(Part(lower, upper, part.rows), values, middle)
        return
    # Many: their sum higher, or lower, or the same with one lower, the ones before not.
    ones, total = [1.0] * len(middle), float(values[middle].sum())
    for low, high in ((total + 1, np.inf), (-np.inf, total - 1)):
        yield Part(lower, upper, (*part.rows, Row(middle.tolist(), ones, low, high)))
    rows = (*part.rows, Row(middle.tolist(), ones, total, total))
    lower = lower.copy()
    for j in middle.tolist():
        if values[j] - 1 >= lower[j]:
            below = upper.copy()
            below[j] = values[j] - 1
            yield Part(lower.copy(), below, rows)
        lower[j] = values[j]


def one_by_one(part: Part, values: Floats, middle: Ints) -> Iterator[Part]:
    """The part less `values` on `middle`: the first column that differs lower or higher."""
    lower, upper = part.lower.copy(), part.upper.copy()
    for j in middle.tolist():
        if values[j] - 1 >= lower[j]:
            below = upper.copy()
            below[j] = values[j] - 1
            yield Part(lower.copy(), below, part.rows)
        above = lower.copy()
        above[j] = values[j] + 1
        yield Part(above, upper.copy(), part.rows)
        lower[j] = upper[j] = values[j]


def alike(part: Part, values: Floats, columns: Ints) -> Part:
    """The part's solutions equal to `values` on `columns`."""
    lower, upper = part.lower.copy(), part.upper.copy()
    lower[columns] = upper[columns] = values[columns]
    return part._replace(lower=lower, upper=upper)


class Outline(NamedTuple):
    """What of a solution makes its moves: every column but the runs', and a column per
    colour counting the jokers its runs hold for tiles with no copy in play
    (`fold_absent`), added to the model with the rows that define them.

    A move's key counts a colour's runs by their tiles alone, however they are cut, and
    the outline fixes those: each tile's row says how many of its copies the runs hold,
    given the groups, the tiles played, the stand-ins and the sets kept. So two solutions
    alike on the outline can lay the same keys: their loose jokers lie in the same groups,
    or in runs of their tile's colour. Where the rules refuse a table, only the sets
    holding jokers are in question: the cuts of the runs of their colours."""

    program: Program  # the model's program with the outline's columns
    mip: Mip
    shown: Ints
    rows: list[Row]
    runs: dict[Colour, Ints]  # each colour's run columns
    jokers: dict[Colour, Ints]  # each colour's columns of jokers in runs: stand-ins, folded

    def cuts(self, values: Floats) -> Ints:
        """The run columns of the colours whose runs may hold a joker in this solution."""
        found = [self.runs[c] for c, j in self.jokers.items() if c in self.runs and values[j].any()]
        return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)


def outline_of(mip: Mip, layout: Layout, in_play: Counter[Tile]) -> Outline:
    """The outline's columns added to the model. With three jokers or more a run could be
    all jokers, a colour of its own: then the outline is every column."""
    if in_play[JOKER] > 2:
        return Outline(layout.program, mip, np.arange(mip.columns), [], {}, {})
    folded: dict[Colour, dict[int, float]] = {}
    runs: dict[Colour, list[int]] = {}
    for n, number in zip(layout.columns.pieces, layout.piece_numbers, strict=True):
        piece = layout.catalogue[number]
        real = [t for t in piece if t not in layout.absent]
        colours = {t.colour for t in real}
        if len(colours) != 1 or len(set(real)) != len(real):
            continue  # a group
        colour = real[0].colour
        assert colour is not None
        runs.setdefault(colour, []).append(n)
        if len(real) < len(piece):
            folded.setdefault(colour, {})[n] = -float(len(piece) - len(real))
    rows = [
        Row([mip.columns + number, *entries], [1.0, *entries.values()], 0, 0)
        for number, entries in enumerate(folded.values())
    ]
    jokers: dict[Colour, list[int]] = {}
    for n, tile in zip(layout.columns.stand_ins, layout.stand_ins, strict=True):
        assert tile.colour is not None
        jokers.setdefault(tile.colour, []).append(n)
    for number, colour in enumerate(folded):
        jokers.setdefault(colour, []).append(mip.columns + number)
    program, wider = with_columns(layout.program, mip, np.full(len(rows), float(in_play[JOKER])))
    every_run = [n for columns in runs.values() for n in columns]
    return Outline(
        program,
        wider,
        np.setdiff1d(np.arange(wider.columns), every_run),
        rows,
        {c: np.array(columns) for c, columns in runs.items()},
        {c: np.array(columns) for c, columns in jokers.items()},
    )


def with_columns(program: Program, mip: Mip, upper: Floats) -> tuple[Program, Mip]:
    """The program, and the model (its costs, bounds and cutoff), with columns added after
    their own through the builder: no entries, no cost, these bounds."""
    wider = program.extended()
    start, empty = wider.columns.count, np.zeros(len(upper), dtype=np.int64)
    wider.columns.add_block(upper, np.zeros(len(upper)), empty, empty[:0], np.zeros(0))
    wider.columns.named("outline", start, "each colour's jokers in runs for tiles not in play")
    built = dataclasses.replace(
        wider.mip(),
        cost=np.concatenate((mip.cost, np.zeros(len(upper)))),
        lower=np.concatenate((mip.lower, np.zeros(len(upper)))),
        upper=np.concatenate((mip.upper, upper)),
        cutoff=mip.cutoff,
    )
    return wider, built


def with_rows(program: Program, mip: Mip, rows: Sequence[Row]) -> Mip:
    """The model (its costs, bounds and cutoff) with these rows added below its own,
    through the builder: each column's new entries after its own."""
    part = program.extended()
    says = "the score, and the rows that cut this part of the search from the rest"
    lowers, uppers = [row.lower for row in rows], [row.upper for row in rows]
    numbers = part.rows.add(len(rows), lowers, uppers, name="part", says=says)
    part.columns.enter(
        [c for row in rows for c in row.columns],
        [n for row, n in zip(rows, numbers, strict=True) for _ in row.columns],
        [v for row in rows for v in row.values],
    )
    built = part.mip()
    return dataclasses.replace(
        built, cost=mip.cost, lower=mip.lower, upper=mip.upper, cutoff=mip.cutoff
    )
