"""The integer program as the backends take it, and the allocators that build one: rows
handed out in groups with their bounds, columns collected in named ranges.

Nothing here knows Rummikub: model.py and joker_rows.py say what each row and column
means; lp.py, branch.py and the LP engines read only `Mip`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

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


class Rows:
    """Rows handed out in groups, each group with its bounds."""

    def __init__(self) -> None:
        self.lower: list[float] = []
        self.upper: list[float] = []

    def add(
        self,
        count: int,
        lower: float | Sequence[float] | Ints,
        upper: float | Sequence[float] | Ints,
    ) -> range:
        """`count` new rows, with these bounds (one for all, or one each): their numbers."""
        first = len(self.lower)
        for bounds, given in ((self.lower, lower), (self.upper, upper)):
            if isinstance(given, (int, float)):
                bounds.extend([given] * count)
            else:  # numpy's tolist converts a whole array at once
                bounds.extend(given.tolist() if isinstance(given, np.ndarray) else given)
        return range(first, first + count)

    def one(self, lower: float, upper: float) -> int:
        self.lower.append(lower)
        self.upper.append(upper)
        return len(self.lower) - 1

    def bounds(self) -> tuple[Floats, Floats]:
        return np.array(self.lower, dtype=np.float64), np.array(self.upper, dtype=np.float64)


class Columns:
    """Collects columns in order: blocks built by numpy, and single ones between them.
    `count` is how many there are so far, so that each group's range can be named."""

    # The parts of a block, each a sequence with an item per column or per entry.
    UPPER, COST, LENGTHS, ROWS, VALUES = range(5)

    def __init__(self) -> None:
        self.parts: list[tuple[Any, ...]] = []
        self.singles: tuple[list[Any], ...] = ([], [], [], [], [])
        self.count = 0

    def since(self, start: int) -> range:
        """The columns added since there were `start`."""
        return range(start, self.count)

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
        start, self.count = self.count, self.count + len(lengths)
        return self.since(start)

    def add(self, upper: float, cost: float, entries: dict[int, float]) -> int:
        """One column: its bound, its cost, its entries by row; its number."""
        # Tens of thousands of these make a joker model: numbers are converted when joined.
        uppers, costs, lengths, rows, values = self.singles
        uppers.append(upper)
        costs.append(cost)
        lengths.append(len(entries))
        rows.extend(entries)
        values.extend(entries.values())
        self.count += 1
        return self.count - 1

    def _close_singles(self) -> None:
        if self.singles[self.UPPER]:
            self.parts.append(self.singles)
            self.singles = ([], [], [], [], [])

    def mip(self, rows: Rows) -> Mip:
        self._close_singles()

        def joined(part: int, dtype: Any) -> Any:
            # Each list converted on its own with its type given: numpy reads a list of
            # numbers into a typed array 2-3 times as fast as it concatenates the list.
            # Arrays are cast as they are joined.
            return np.concatenate(
                [
                    p[part] if isinstance(p[part], np.ndarray) else np.asarray(p[part], dtype)
                    for p in self.parts
                ],
                dtype=dtype,
            )

        lengths = joined(self.LENGTHS, np.int64)
        col_start = np.zeros(len(lengths) + 1, dtype=np.int32)
        np.cumsum(lengths, out=col_start[1:])
        row_lower, row_upper = rows.bounds()
        return Mip(
            cost=joined(self.COST, np.float64),
            lower=np.zeros(len(lengths)),
            upper=joined(self.UPPER, np.float64),
            row_lower=row_lower,
            row_upper=row_upper,
            col_start=col_start,
            col_index=joined(self.ROWS, np.int32),
            col_value=joined(self.VALUES, np.float64),
        )
