"""Clocks a test runs itself, for `find_move(..., clock=...)`: time limits whose end the
test chooses, never the machine's speed."""

from __future__ import annotations

# Far past any deadline a test sets.
LATE = 1e9


class StopsAfter:
    """A clock that stands still for `readings` readings, then reads LATE: time is up
    where the test says, however fast or loaded the machine."""

    def __init__(self, readings: int) -> None:
        self.left = readings
        self.read = 0

    def __call__(self) -> float:
        self.read += 1
        if self.left > 0:
            self.left -= 1
            return 0.0
        return LATE

    @property
    def up(self) -> bool:
        """Whether time is up, asked without reading the clock."""
        return self.left == 0


def frozen() -> float:
    """A clock that never moves: time always remains."""
    return 0.0
