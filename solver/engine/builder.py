"""The integer program as the backends take it, and the builder that makes one: rows
handed out in named groups with their bounds, columns in named ranges, each group with
a one-line statement of what it says (`Program.describe` lists them).

Nothing here knows Rummikub: model.py, joker_rows.py and the relaxations (pinned.py,
homes.py) say what each group means; lp.py, branch.py and the LP engines read only `Mip`.
A relaxation extends a built program (`Program.extended`): new rows with entries in the
columns there are, and new columns; it never edits a `Mip`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
# Row numbers and column starts as the LP engines take them.
Indices = npt.NDArray[np.int32]
INFINITY = float("inf")


@dataclass(frozen=True)
class Mip:
    """A maximisation over bounded integer columns with ranged rows, stored by column.

    `cutoff`: an objective value already reached by a known solution; only better ones are
    sought, and "none better" is a proved answer without values (backends that cannot take
    a cutoff solve as if there were none).

    `reach`: where the optimum is expected, at most (a looser reading's optimum, which
    bounds it): solutions reaching it are sought first, and nodes that cannot reach it
    are searched only if none does. The optimum is the same whatever it says; backends
    without a search of ours ignore it."""

    cost: Floats
    lower: Floats
    upper: Floats
    row_lower: Floats
    row_upper: Floats
    col_start: Indices
    col_index: Indices
    col_value: Floats
    cutoff: float | None = None
    reach: float | None = None

    @property
    def columns(self) -> int:
        return len(self.cost)

    @property
    def rows(self) -> int:
        return len(self.row_lower)


class Group(NamedTuple):
    """A named group of rows or columns: where it lies, and what it says."""

    name: str
    at: range
    says: str


Bounds = float | Sequence[float] | Ints


class Rows:
    """Rows handed out in named groups, each group with its bounds and its statement."""

    def __init__(self) -> None:
        # The bounds of the rows made before the last `bounds()`, and of those since.
        self.made: tuple[Floats, Floats] | None = None
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.groups: dict[str, Group] = {}

    def __getitem__(self, name: str) -> range:
        """The rows of the group so named."""
        return self.groups[name].at

    def add(self, count: int, lower: Bounds, upper: Bounds, *, name: str, says: str) -> range:
        """A group of `count` new rows, with these bounds (one for all, or one each):
        their numbers."""
        assert name not in self.groups, name
        first = len(self.lower) + (len(self.made[0]) if self.made is not None else 0)
        for bounds, given in ((self.lower, lower), (self.upper, upper)):
            if isinstance(given, (int, float)):
                bounds.extend([given] * count)
            else:  # numpy's tolist converts a whole array at once
                bounds.extend(given.tolist() if isinstance(given, np.ndarray) else given)
        at = range(first, first + count)
        self.groups[name] = Group(name, at, says)
        return at

    def one(self, lower: float, upper: float, *, name: str, says: str) -> int:
        """A group of one row: its number."""
        return self.add(1, lower, upper, name=name, says=says)[0]

    def bounds(self) -> tuple[Floats, Floats]:
        """Every row's lower and upper bounds (kept, so that a copy converts only its own)."""
        if self.made is None or self.lower:
            lower = np.array(self.lower, dtype=np.float64)
            upper = np.array(self.upper, dtype=np.float64)
            if self.made is not None:
                lower, upper = (
                    np.concatenate((self.made[0], lower)),
                    np.concatenate((self.made[1], upper)),
                )
            self.made = lower, upper
            self.lower, self.upper = [], []
        return self.made

    def copy(self) -> Rows:
        rows = Rows()
        rows.made = self.bounds()  # arrays never changed: concatenation makes new ones
        rows.groups = self.groups.copy()
        return rows


# A block of columns: each column's upper bound and cost, how many entries it has, and
# its entries' rows and values, column by column.
_Block = tuple[Any, Any, Any, Any, Any]


class Columns:
    """Collects columns in order, in named ranges: blocks built by numpy, single ones
    between them, and entries that later rows give columns already there."""

    def __init__(self) -> None:
        self.parts: list[_Block] = []
        self.singles: _Block = ([], [], [], [], [])
        self.entered: list[tuple[Any, Any, Any]] = []
        self.groups: dict[str, Group] = {}
        self.count = 0
        # Whether `parts` is one block joined already.
        self.whole = False

    def __getitem__(self, name: str) -> range:
        """The columns of the range so named."""
        return self.groups[name].at

    def named(self, name: str, start: int, says: str) -> range:
        """Names the columns added since there were `start`: their range."""
        assert name not in self.groups, name
        at = range(start, self.count)
        self.groups[name] = Group(name, at, says)
        return at

    def add_block(
        self,
        upper: Floats | Ints,
        cost: Floats,
        lengths: Ints,
        rows: Ints | Indices,
        values: Floats,
    ) -> range:
        """Columns whose entries are `rows` and `values`, `lengths[i]` of them for column i."""
        self._close_singles()
        self.parts.append((upper, cost, lengths, rows, values))
        self.whole = False
        start, self.count = self.count, self.count + len(lengths)
        return range(start, self.count)

    def add(self, upper: float, cost: float, entries: dict[int, float]) -> int:
        """One column: its bound, its cost, its entries by row; its number."""
        # Tens of thousands of these make a joker model: numbers are converted when joined.
        uppers, costs, lengths, rows, values = self.singles
        self.whole = False
        uppers.append(upper)
        costs.append(cost)
        lengths.append(len(entries))
        rows.extend(entries)
        values.extend(entries.values())
        self.count += 1
        return self.count - 1

    def enter(self, columns: Sequence[int] | Ints, rows: Sequence[int] | Ints, values: Any) -> None:
        """Entries in columns already there (of rows added since): each column's after its
        own, in the order given."""
        self.entered.append((columns, rows, values))

    def _close_singles(self) -> None:
        if self.singles[0]:  # a column's upper bound, or none
            self.parts.append(self.singles)
            self.singles = ([], [], [], [], [])

    def joined(self) -> _Block:
        """Every column as one block, the entries entered merged in; kept as the only part,
        so that a program extended joins only what it adds."""
        self._close_singles()
        if not self.whole:
            self.whole = True
            parts = self.parts
            upper, cost, lengths, rows, values = [
                _joined([p[k] for p in parts], dtype) for k, dtype in enumerate(_DTYPES)
            ]
            self.parts = [(upper, cost, lengths, rows, values)]
        if self.entered:
            self.parts = [_merged(self.parts[0], self.entered)]
            self.entered = []
        return self.parts[0]

    def copy(self) -> Columns:
        """A copy sharing the parts and entries so far (joining makes new arrays, never
        changes them): a program extended before it was ever made a Mip is joined once."""
        self._close_singles()
        columns = Columns()
        columns.parts, columns.entered = list(self.parts), list(self.entered)
        columns.whole, columns.groups, columns.count = self.whole, self.groups.copy(), self.count
        return columns


_DTYPES = (np.float64, np.float64, np.int64, np.int32, np.float64)


def _joined(parts: list[Any], dtype: Any) -> Any:
    """One array of the parts, cast to `dtype`."""
    # Each list converted on its own with its type given: numpy reads a list of numbers
    # into a typed array 2-3 times as fast as it concatenates the list.
    return np.concatenate(
        [p if isinstance(p, np.ndarray) else np.asarray(p, dtype) for p in parts], dtype=dtype
    )


def _merged(block: _Block, entered: list[tuple[Any, Any, Any]]) -> _Block:
    """The block with entries entered in its columns: each column's after its own, in the
    order they were entered."""
    upper, cost, lengths, rows, values = block
    new_columns = [np.asarray(c, dtype=np.int64) for c, _, _ in entered]
    # All entries sorted by column, stably (timsort: the block's are a run already).
    column_of = np.concatenate([np.repeat(np.arange(len(lengths)), lengths), *new_columns])
    order = np.argsort(column_of, kind="stable")
    merged_rows = np.concatenate([rows, *(r for _, r, _ in entered)], dtype=np.int32)
    merged_values = np.concatenate([values, *(v for _, _, v in entered)], dtype=np.float64)
    new_lengths = lengths + np.bincount(column_of[len(rows) :], minlength=len(lengths))
    return upper, cost, new_lengths, merged_rows[order], merged_values[order]


class Program:
    """An integer program being built: its rows and its columns, each in named groups."""

    def __init__(self, rows: Rows | None = None, columns: Columns | None = None) -> None:
        self.rows = rows if rows is not None else Rows()
        self.columns = columns if columns is not None else Columns()

    def extended(self) -> Program:
        """A copy to add rows and columns to, this one left as it is."""
        return Program(self.rows.copy(), self.columns.copy())

    def mip(self) -> Mip:
        upper, cost, lengths, rows, values = self.columns.joined()
        col_start = np.zeros(len(lengths) + 1, dtype=np.int32)
        np.cumsum(lengths, out=col_start[1:])
        row_lower, row_upper = self.rows.bounds()
        return Mip(
            cost=cost,
            lower=np.zeros(len(lengths)),
            upper=upper,
            row_lower=row_lower,
            row_upper=row_upper,
            col_start=col_start,
            col_index=rows,
            col_value=values,
        )

    def describe(self) -> list[str]:
        """Each group of rows, then of columns, in order: its name, where it lies, what it
        says."""
        lines = []
        for kind, groups in (("rows", self.rows.groups), ("columns", self.columns.groups)):
            for group in sorted(groups.values(), key=lambda g: (g.at.start, g.at.stop)):
                where = f"{group.at.start}-{group.at.stop - 1}" if group.at else "none"
                lines.append(f"{kind} {where:>11}  {group.name}: {group.says}")
        return lines
