"""Which rows of tiles are valid sets (runs and groups), and what a set is worth. What
its jokers may stand for beyond the reading here: `jokers`."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from .rules import Rules
from .tiles import COLOURS, JOKER, MAX_NUMBER, NUMBERS, Colour, Tile

MIN_SET = 3
MAX_GROUP = len(COLOURS)
# With wraparound a 1 may follow the 13: it then sits at position 14.
HIGH_ONE = MAX_NUMBER + 1


class Kind(enum.Enum):
    RUN = "run"
    GROUP = "group"


class Meld(NamedTuple):
    """A valid set: its tiles as they lie, what each stands for, and the canonical order.

    `stand_ins[i]` is `tiles[i]` itself, or for a joker the tile it replaces. `ordered`
    is the row as output writes it: a run ascending, a group by colour, each joker at
    the place it fills.
    """

    kind: Kind
    tiles: tuple[Tile, ...]
    stand_ins: tuple[Tile, ...]
    ordered: tuple[Tile, ...]

    @property
    def face_value(self) -> int:
        """Points the set is worth in an initial meld: a joker counts what it stands for."""
        return sum(t.number for t in self.stand_ins)


def meld_value(sets: Iterable[Sequence[Tile]], rules: Rules) -> int:
    """What sets are worth as an initial meld: face values, a joker at the tile it stands
    for (not its penalty on a rack); a row that is no set, nothing."""
    total = 0
    for row in sets:
        meld = read_meld(row, rules)
        total += meld.face_value if meld is not None else 0
    return total


def read_meld(tiles: Sequence[Tile], rules: Rules) -> Meld | None:
    """The set these tiles make, or None if they make none.

    The tiles may lie in any order. Where a joker could stand for more than one tile
    (R3 R4 J: R2 or R5), the reading worth most wins: the player names what a joker
    stands for, and an initial meld counts that value (docs/rules.md), so `face_value` is the
    most the set can be worth. A reading never depends on the order of the row, so
    `read_meld(meld.ordered)` means the same set as `meld`.
    """
    return _read_row(tuple(tiles), rules.wraparound)


# Sets recur from move to move (a game's referee reads the whole table each turn, most
# of it as it lay): each row is read once, and kept.
@lru_cache(maxsize=1 << 14)
def _read_row(row: tuple[Tile, ...], wraparound: bool) -> Meld | None:
    """`read_meld`: the only rule a reading depends on is wraparound."""
    if len(row) < MIN_SET:
        return None
    run, group = _read_run(row, wraparound), _read_group(row)
    if run is None or group is None:
        return run or group
    return group if group.face_value > run.face_value else run


def is_valid_set(tiles: Sequence[Tile], rules: Rules) -> bool:
    return read_meld(tiles, rules) is not None


def _read_group(row: tuple[Tile, ...]) -> Meld | None:
    if len(row) > MAX_GROUP:
        return None
    real = [t for t in row if not t.is_joker]
    numbers = {t.number for t in real}
    colours = [t.colour for t in real]
    if len(numbers) > 1 or len(set(colours)) != len(colours):
        return None
    number = numbers.pop() if numbers else MAX_NUMBER
    free = iter(c for c in COLOURS if c not in colours)
    stand_ins = tuple(t if not t.is_joker else Tile(next(free), number) for t in row)
    by_colour = sorted(
        zip(stand_ins, row, strict=True), key=lambda pair: COLOURS.index(pair[0].colour)
    )
    return Meld(Kind.GROUP, row, stand_ins, tuple(tile for _, tile in by_colour))


def _read_run(row: tuple[Tile, ...], wraparound: bool) -> Meld | None:
    length = len(row)
    if length > MAX_NUMBER:
        return None
    real = [t for t in row if not t.is_joker]
    colours = {t.colour for t in real if t.colour is not None}
    if len(colours) > 1:
        return None
    colour = colours.pop() if colours else COLOURS[0]
    numbers = [t.number for t in real]
    # Jokers alone fit any window.
    low, high = min(numbers, default=MAX_NUMBER), max(numbers, default=1)
    # Windows to try, the richest first: a joker counts the most it can stand for.
    for start in _starts_by_value(length, HIGH_ONE if wraparound else MAX_NUMBER):
        end = start + length - 1
        # A window short of the 14 (the 1 after the 13) must hold the lowest and highest.
        if end < HIGH_ONE and not (start <= low and high <= end):
            continue
        positions = _place_in_window(row, start)
        if positions is not None:
            stand_ins = tuple(run_tile(colour, p) for p in positions)
            by_place = sorted(zip(positions, row, strict=True), key=lambda pair: pair[0])
            ordered = tuple(tile for _, tile in by_place)
            return Meld(Kind.RUN, row, stand_ins, ordered)
    return None


def run_tile(colour: Colour, position: int) -> Tile:
    """The tile at a run position: position 14 is the 1 that follows the 13."""
    return Tile(colour, 1 if position == HIGH_ONE else position)


@lru_cache(maxsize=64)
def _starts_by_value(length: int, last: int) -> tuple[int, ...]:
    starts = range(1, last - length + 2)
    return tuple(
        sorted(
            starts,
            key=lambda s: -sum(run_tile(COLOURS[0], p).number for p in range(s, s + length)),
        )
    )


def _place_in_window(row: tuple[Tile, ...], start: int) -> list[int] | None:
    """The position of each tile if the row fills positions start.. exactly once each."""
    end = start + len(row) - 1
    wanted = list(range(start, end + 1))

    def position(number: int) -> int:
        return HIGH_ONE if number == 1 and end == HIGH_ONE else number

    real_positions = [position(t.number) for t in row if not t.is_joker]
    if len(set(real_positions)) != len(real_positions) or not set(real_positions) <= set(wanted):
        return None
    # Keep jokers where they lie if the row is already in order; else fill the gaps in order.
    in_order = all(t.is_joker or position(t.number) == start + i for i, t in enumerate(row))
    if in_order:
        return [start + i for i in range(len(row))]
    gaps = iter(p for p in wanted if p not in real_positions)
    return [position(t.number) if not t.is_joker else next(gaps) for t in row]


def candidate_shapes(length: int, rules: Rules) -> list[tuple[Tile, ...]]:
    """Every joker-free set of this many tiles: runs of one colour, groups of one number."""
    return list(_shapes_of(length, rules.wraparound))


@lru_cache(maxsize=64)
def _shapes_of(length: int, wraparound: bool) -> tuple[tuple[Tile, ...], ...]:
    """`candidate_shapes`, made once for each length (each rule set with jokers asks for
    all of them, and a first `hint` pays for it)."""
    last = HIGH_ONE if wraparound else MAX_NUMBER
    shapes: list[tuple[Tile, ...]] = []
    for colour in COLOURS:  # each run a slice of the colour's tiles, made once
        positions = tuple(run_tile(colour, p) for p in range(1, last + 1))
        shapes.extend(positions[start : start + length] for start in range(last - length + 1))
    if MIN_SET <= length <= MAX_GROUP:
        shapes.extend(
            tuple(Tile(c, number) for c in colours)
            for number in NUMBERS
            for colours in combinations(COLOURS, length)
        )
    return tuple(shapes)


def candidate_sets(rules: Rules) -> list[tuple[Tile, ...]]:
    """Every joker-free set of 3 to 5 tiles (runs) or 3 to 4 (groups).

    Any valid table can be cut into these: a longer run splits into pieces of 3 to 5,
    and a joker is counted as the tile it stands for.
    """
    found: list[tuple[Tile, ...]] = []
    last = HIGH_ONE if rules.wraparound else MAX_NUMBER
    for colour in COLOURS:
        for length in range(MIN_SET, 6):
            for start in range(1, last - length + 2):
                found.append(tuple(run_tile(colour, p) for p in range(start, start + length)))
    for number in NUMBERS:
        for left_out in (None, *COLOURS):
            found.append(tuple(Tile(c, number) for c in COLOURS if c is not left_out))
    return found


__all__ = ["JOKER", "Kind", "Meld", "candidate_sets", "is_valid_set", "read_meld"]
