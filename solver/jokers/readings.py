"""What a set's jokers stand for: every reading the set allows, the one its places show
in a run, the ones the rules read on the table, and each tile's stand-in."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations

from ..rules import Rules
from ..sets import HIGH_ONE, MAX_GROUP, MIN_SET, Kind, candidate_shapes, read_meld, run_tile
from ..tiles import COLOURS, MAX_NUMBER, Colour, Tile, TileRow

# The rules a reading (and a laying) depends on, by wraparound, made once: a Rules checks its
# options when made, and a table's first solve reads each of its sets holding a joker.
RULES_OF = {False: Rules(), True: Rules(wraparound=True)}


def table_readings(
    row: TileRow, declared: Sequence[Tile | None], rules: Rules
) -> tuple[tuple[Tile, ...], ...]:
    """What the jokers of a table set may stand for as the rules read them (docs/rules.md,
    "Jokers"), each reading sorted: in a run, the tiles of the places they lie at (`J R3
    R4`: the R2); where the places do not say (a group, one tile with jokers, a run written
    out of order or off the end), any reading the set allows. Jokers declared (`J=R5`,
    `declared`: an entry a joker, None where not) keep their tiles: the readings that hold
    them (the place's, where it does)."""
    return _table_readings(row, tuple(declared), rules.wraparound)


@lru_cache(maxsize=4096)
def _table_readings(
    row: TileRow, declared: tuple[Tile | None, ...], wraparound: bool
) -> tuple[tuple[Tile, ...], ...]:
    rules = RULES_OF[wraparound]
    every = set_readings(row, rules)
    placed = place_reading(row, rules)
    by_place = (tuple(sorted(placed, key=Tile.sort_key)),) if placed is not None else every
    fitting = tuple(r for r in by_place if fits_declared(r, declared))
    return fitting or tuple(r for r in every if fits_declared(r, declared))


def set_readings(row: Sequence[Tile], rules: Rules) -> tuple[tuple[Tile, ...], ...]:
    """Every way the jokers of a set can be read: for each valid reading, the tiles its
    jokers stand for (sorted), the readings in one order. Empty if the tiles make no set;
    `((),)` if they hold no joker.

    A joker's reading matters where it may only leave its set for the tile it stands for
    (`JokerRetrieval.REPLACE`); `R3 R4 J` makes a set with the joker as R2 or as R5 (on the
    table its place says which: `table_readings`)."""
    return _readings_as_laid(tuple(row), rules.wraparound)


@lru_cache(maxsize=4096)
def _readings_as_laid(row: TileRow, wraparound: bool) -> tuple[tuple[Tile, ...], ...]:
    """`set_readings` of a row as laid: the checker asks it of each new set holding a
    joker, and a row sorted by a Python key costs more than the look-up."""
    return _readings_of(tuple(sorted(row, key=Tile.sort_key)), wraparound)


@lru_cache(maxsize=4096)
def _readings_of(row: TileRow, wraparound: bool) -> tuple[tuple[Tile, ...], ...]:
    """`set_readings` of a sorted row (a reading never depends on the order). The checker
    and the model ask this of every set holding a joker, several times a move: only the
    shapes that can hold its real tiles are made, and a row once read is not read again."""
    rules = RULES_OF[wraparound]
    if read_meld(row, rules) is None:
        return ()
    real = frozenset(t for t in row if not t.is_joker)
    jokers = len(row) - sum(1 for t in row if not t.is_joker)
    if not real:  # jokers alone: each joker-free set of the length, the jokers all of it
        shapes = candidate_shapes(len(row), rules)
        found = {tuple(sorted(shape, key=Tile.sort_key)) for shape in shapes}
    else:
        found = _roles_by_shape(real, len(row), jokers, wraparound)
    return tuple(sorted(found, key=lambda roles: [t.sort_key() for t in roles]))


def _roles_by_shape(
    real: frozenset[Tile], length: int, jokers: int, wraparound: bool
) -> set[tuple[Tile, ...]]:
    """The tiles the jokers stand for in each shape of `length` (as `candidate_shapes`
    makes them) that holds the real tiles: runs of their colour, groups of their number."""
    shapes: list[frozenset[Tile]] = []
    colours = {t.colour for t in real}
    if len(colours) == 1:
        (colour,) = colours
        assert colour is not None
        shapes.extend(_runs_of(colour, length, wraparound))
    numbers = {t.number for t in real}
    if MIN_SET <= length <= MAX_GROUP and len(numbers) == 1:
        (number,) = numbers
        missing = [c for c in COLOURS if Tile(c, number) not in real]
        for chosen in combinations(missing, length - len(real)):
            shapes.append(real | {Tile(c, number) for c in chosen})
    roles = {tuple(sorted(shape - real, key=Tile.sort_key)) for shape in shapes if real <= shape}
    return {r for r in roles if len(r) == jokers}


@lru_cache(maxsize=256)
def _runs_of(colour: Colour, length: int, wraparound: bool) -> tuple[frozenset[Tile], ...]:
    """Every run of the colour and length, as a set of tiles: made once, not for each set
    read (a table's first solve reads each of its sets holding a joker)."""
    last = HIGH_ONE if wraparound else MAX_NUMBER
    return tuple(
        frozenset(run_tile(colour, p) for p in range(start, start + length))
        for start in range(1, last - length + 2)
    )


def fits_declared(reading: Iterable[Tile | None], declared: Iterable[Tile | None]) -> bool:
    """Whether a reading of a set's jokers holds every tile they were declared to stand for
    (`J=R5` in a board file; None: a joker not declared)."""
    wanted = [t for t in declared if t is not None]
    # Nothing declared (most tables): every reading fits, and no Counters are made.
    return not wanted or not Counter(wanted) - Counter(t for t in reading if t is not None)


def in_place(row: Sequence[Tile], rules: Rules) -> tuple[Tile, ...] | None:
    """A run's tiles by the places they lie at (`J R3 R4`: R2 R3 R4), if its tiles lie in
    order and every place is one a run has (`R11 R12 R13 J` has none without wraparound)."""
    first = next((k for k, t in enumerate(row) if not t.is_joker), None)
    if first is None:
        return None  # jokers alone lie at no place
    colour = row[first].colour
    assert colour is not None
    last = HIGH_ONE if rules.wraparound else MAX_NUMBER
    number = row[first].number
    for place in {number, HIGH_ONE if number == 1 else number}:
        start = place - first
        if start < 1 or start + len(row) - 1 > last:
            continue
        places = [run_tile(colour, start + k) for k in range(len(row))]
        if all(t.is_joker or t == p for t, p in zip(row, places, strict=True)):
            return tuple(places)
    return None


def place_reading(row: Sequence[Tile], rules: Rules) -> tuple[Tile, ...] | None:
    """What a run's jokers stand for by the places they lie at, in the order they lie
    (`B3 B4 J`: the B5); None where the places do not say: a group, one tile with jokers
    (`R5 J J`, a run or a group), a run written out of order or off the end of the runs
    (docs/rules.md, "Jokers")."""
    if sum(not t.is_joker for t in row) < 2:
        return None
    places = in_place(row, rules)
    if places is None:
        return None
    return tuple(p for t, p in zip(row, places, strict=True) if t.is_joker)


def joker_stand_ins(row: Sequence[Tile], rules: Rules) -> tuple[Tile, ...]:
    """What each joker of a set stands for, in the order they lie; none for tiles that
    make no set (yet)."""
    read = stand_ins(row, rules)
    return tuple(s for t, s in zip(row, read, strict=True) if t.is_joker) if read else ()


def stand_ins(row: Sequence[Tile], rules: Rules) -> TileRow:
    """What each tile of a set stands for (a joker: the tile it replaces): in a run laid
    in order, the place it fills (`J R3 R4`: the R2); otherwise as the table reads the set.
    Empty for tiles that make no set."""
    meld = read_meld(row, rules)
    if meld is None:
        return ()
    laid = in_place(row, rules) if meld.kind is Kind.RUN else None
    return meld.stand_ins if laid is None else laid
