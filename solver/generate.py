"""Random positions that could occur in a real game, for users, tests and benchmarks.

Every board is dealt from one box of tiles (`rules.box`): the table is built from
valid sets, the rack from what is left, so no tile appears more often than the box
holds. Board `i` of seed `s` depends only on `(s, i)`: asking for more boards never
changes the first ones.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Union

from .board import Board
from .errors import RummisolveError
from .rules import Rules
from .sets import HIGH_ONE, MAX_GROUP, MIN_SET, run_tile
from .tiles import COLOURS, JOKER, MAX_NUMBER, Colour, Tile, TileSet, sort_tiles

# A set on the table holds at most this many jokers: a set of jokers alone says nothing.
_JOKERS_PER_SET = 2
# Building a table can paint itself into a corner (the pool runs out of fitting tiles);
# it then starts again from a fresh deal, this many times before giving up.
_ATTEMPTS = 200


class GenerateError(RummisolveError):
    """A position that cannot be dealt as asked."""


class SizeError(GenerateError):
    """Sizes no position can have, known before any deal (a table of 2 tiles, more tiles
    than the box, jokers that fit nowhere). `arguments` names the sizes at fault, as
    `generate_boards` calls them, so that a caller can point at what to change."""

    def __init__(self, message: str, *arguments: str) -> None:
        super().__init__(message)
        self.arguments = arguments


class Span(NamedTuple):
    """A size chosen at random between low and high, both included."""

    low: int
    high: int

    @classmethod
    def of(cls, size: SpanLike) -> Span:
        span = cls(size, size) if isinstance(size, int) else cls(*size)
        if span.low < 0 or span.low > span.high:
            raise GenerateError(f"invalid size range {span.low}-{span.high}")
        return span

    def __str__(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


SpanLike = Union[int, tuple[int, int], Span]  # noqa: UP007 (a runtime alias: 3.10 has no `type`)


@dataclass
class _Run:
    """A run under construction: positions start..end of one colour (14 is a high 1)."""

    colour: Colour
    start: int
    end: int

    def tiles(self) -> list[Tile]:
        return [run_tile(self.colour, p) for p in range(self.start, self.end + 1)]


@dataclass
class _Group:
    """A group under construction: one number, distinct colours."""

    number: int
    colours: list[Colour] = field(default_factory=list)

    def tiles(self) -> list[Tile]:
        return [Tile(c, self.number) for c in sorted(self.colours, key=COLOURS.index)]


_Piece = Union[_Run, _Group]  # noqa: UP007


def generate_boards(
    count: int,
    seed: int,
    *,
    table_tiles: SpanLike = (0, 60),
    rack_tiles: SpanLike = (5, 20),
    jokers: SpanLike | None = None,
    rules: Rules | None = None,
    opened: bool = True,
) -> Iterator[Board]:
    """`count` boards; the same arguments always give the same boards.

    `table_tiles` and `rack_tiles` are exact sizes or (low, high) ranges; `jokers` is
    how many jokers the position holds, table and rack together, or None to deal them
    as chance has it (each joker of the box is in play as often as any other tile).
    Every board has sizes and jokers as asked; a set holds at most two jokers. Sizes
    that no position can have raise `SizeError` at once, before the first board.
    """
    rules = rules or Rules()
    joker_span = None if jokers is None else Span.of(jokers)
    request = _Request(Span.of(table_tiles), Span.of(rack_tiles), joker_span, rules.box)
    # Checked now, not at the first board: a caller may act (make a folder) in between.
    _check_sizes(request, rules)
    return (
        _Dealer(random.Random(f"rummisolve-generate/{seed}/{index}"), rules).board(request, opened)
        for index in range(count)
    )


def _joker_room(table: int, rack: int, box: TileSet) -> range:
    """How many jokers a position of these sizes can hold: at least what its coloured
    tiles fall short of the box's, at most one a rack tile and two a set."""
    coloured = box.size - box.jokers
    fewest = max(0, table + rack - coloured)
    return range(fewest, min(box.jokers, rack + _JOKERS_PER_SET * (table // MIN_SET)) + 1)


class _Request:
    """The sizes asked for, and which of them go together in one position."""

    def __init__(self, table: Span, rack: Span, jokers: Span | None, box: TileSet) -> None:
        self.table, self.rack, self.jokers, self.box = table, rack, jokers, box
        # What a deal draws its table size from (every size a rack leaves room for)...
        self.table_sizes = [n for n in _table_sizes(table) if n + rack.low <= box.size]
        # ...and what it keeps: sizes that some rack size and joker count go with.
        self.dealable = {
            n for n in self.table_sizes if any(self.joker_counts(n, r) for r in self.rack_sizes(n))
        }

    def rack_sizes(self, table: int) -> range:
        return range(self.rack.low, min(self.rack.high, self.box.size - table) + 1)

    def joker_counts(self, table: int, rack: int) -> range:
        """The jokers asked for that a position of these sizes can hold."""
        room = _joker_room(table, rack, self.box)
        if self.jokers is None:
            return room
        return range(max(room.start, self.jokers.low), min(room.stop, self.jokers.high + 1))


def _check_sizes(request: _Request, rules: Rules) -> None:
    table, rack, jokers, box = request.table, request.rack, request.jokers, request.box
    if not _table_sizes(table):
        raise SizeError(
            f"no table holds {table} tiles: every set has at least {MIN_SET}", "table_tiles"
        )
    if not request.table_sizes:
        raise SizeError(
            f"a table of {table} tiles and a rack of {rack} do not fit in the "
            f"{rules.tile_set}-tile set",
            "table_tiles",
            "rack_tiles",
        )
    if jokers is None:
        return
    # A range's upper end too: a count past the box is never dealt, so never asked for.
    if jokers.high > box.jokers:
        raise SizeError(f"the {rules.tile_set}-tile set has only {box.jokers} jokers", "jokers")
    if request.dealable:
        return
    rooms = [_joker_room(t, r, box) for t in request.table_sizes for r in request.rack_sizes(t)]
    possible = Span(min(room.start for room in rooms), max(room.stop - 1 for room in rooms))
    raise SizeError(
        f"a table of {table} tiles and a rack of {rack} hold {possible} jokers, not {jokers}",
        "jokers",
        "table_tiles",
        "rack_tiles",
    )


def _table_sizes(table: Span) -> list[int]:
    return [n for n in range(table.low, table.high + 1) if n == 0 or n >= MIN_SET]


class _Dealer:
    """Deals one position from a fresh box with its own random stream."""

    def __init__(self, rng: random.Random, rules: Rules) -> None:
        self.rng = rng
        self.rules = rules
        self.last = HIGH_ONE if rules.wraparound else MAX_NUMBER

    def board(self, request: _Request, opened: bool) -> Board:
        box = self.rules.box
        table_size = self.pick(request.table_sizes, request.dealable.__contains__)
        rack_size = self.pick(
            request.rack_sizes(table_size), lambda n: bool(request.joker_counts(table_size, n))
        )
        if request.jokers is None:
            share = (table_size + rack_size) / box.size
            in_play = sum(self.rng.random() < share for _ in range(box.jokers))
        else:
            in_play = self.rng.randint(request.jokers.low, request.jokers.high)
        # The sizes hold a range of jokers (`_joker_room`), and were picked to meet the
        # count asked for: a count below it is raised here, one above it cut in the split.
        in_play = max(in_play, request.joker_counts(table_size, rack_size).start)
        table_jokers, rack_jokers = self.split_jokers(in_play, table_size, rack_size)
        # A table larger than the box's coloured tiles has jokers that stand for tiles
        # beyond them: such tiles are dealt into the table, and a joker takes each place.
        beyond = max(0, table_size - (box.size - box.jokers))
        for _ in range(_ATTEMPTS):
            pool = Counter({t: box.copies for t in self.coloured()})
            stand_ins = self.rng.sample(self.coloured(), beyond)
            pool.update(stand_ins)
            pieces = self.build_table(table_size, pool)
            if pieces is not None:
                sets = self.place_jokers(pieces, table_jokers, stand_ins, pool)
                if sets is not None and pool.total() >= rack_size - rack_jokers:
                    hand = self.rng.sample(sort_tiles(pool.elements()), rack_size - rack_jokers)
                    return Board(
                        table=tuple(sets),
                        rack=tuple(sort_tiles([*hand, *[JOKER] * rack_jokers])),
                        opened=opened,
                        rules=self.rules,
                    )
        raise GenerateError(
            f"could not build a table of {table_size} tiles with a rack of {rack_size} "
            f"from the {self.rules.tile_set}-tile set"
        )

    def pick(self, choices: Sequence[int], fits: Callable[[int], bool]) -> int:
        """One of the choices that fit, each as likely. The first draw is among them all,
        as deals always drew, so that seeds keep their boards wherever all choices fit."""
        choice = self.rng.choice(choices)
        return choice if fits(choice) else self.rng.choice([c for c in choices if fits(c)])

    def coloured(self) -> list[Tile]:
        return [Tile(c, n) for c in COLOURS for n in range(1, MAX_NUMBER + 1)]

    def split_jokers(self, in_play: int, table_size: int, rack_size: int) -> tuple[int, int]:
        """Each joker lies on the table or the rack in proportion to their sizes."""
        total = table_size + rack_size
        share = table_size / total if total else 0.0
        on_table = sum(self.rng.random() < share for _ in range(in_play))
        room_on_table = (table_size // MIN_SET) * _JOKERS_PER_SET
        on_rack = in_play - on_table
        # Keep both within what they can hold; a joker that fits nowhere stays in the box.
        if on_rack > rack_size:
            on_table, on_rack = on_table + on_rack - rack_size, rack_size
        if on_table > room_on_table:
            spare = min(on_table - room_on_table, rack_size - on_rack)
            on_table, on_rack = room_on_table, on_rack + spare
        return on_table, on_rack

    def build_table(self, size: int, pool: Counter[Tile]) -> list[_Piece] | None:
        """Sets of exactly `size` tiles taken from the pool, or None if the deal jams.

        New sets first; when none fits any more, existing sets grow a tile at a time
        (a run at either end, a group to four), which is how crowded tables look.
        """
        pieces: list[_Piece] = []
        remaining = size
        while remaining >= MIN_SET:
            piece = self.new_piece(remaining, pool)
            if piece is None:
                break
            pieces.append(piece)
            remaining -= len(piece.tiles())
        while remaining > 0:
            if not self.grow(pieces, pool):
                return None
            remaining -= 1
        return pieces

    def new_piece(self, remaining: int, pool: Counter[Tile]) -> _Piece | None:
        """A random set that fits both the pool and the tiles still to place."""
        longest = min(MAX_NUMBER, remaining)
        lengths = [n for n in range(MIN_SET, longest + 1) if remaining - n not in (1, 2)]
        # Short sets are the common case; long runs come mostly from growth.
        weights = [1.0 / (n - MIN_SET + 1) ** 2 for n in lengths]
        while lengths:
            length = self.rng.choices(lengths, weights)[0]
            options = self.runs(length, pool) + self.groups(length, pool)
            if options:
                piece = self.rng.choice(options)
                pool.subtract(piece.tiles())
                return piece
            at = lengths.index(length)
            del lengths[at], weights[at]
        return None

    def runs(self, length: int, pool: Counter[Tile]) -> list[_Piece]:
        """Every run of `length` the pool holds, by colour, then lowest first.

        One look at each tile a colour has, not one per run it could be in: this is
        where dealing spends its time."""
        found: list[_Piece] = []
        for colour in COLOURS:
            in_a_row = 0
            for position in range(1, self.last + 1):
                in_a_row = in_a_row + 1 if pool[run_tile(colour, position)] > 0 else 0
                if in_a_row >= length:
                    found.append(_Run(colour, position - length + 1, position))
        return found

    def groups(self, length: int, pool: Counter[Tile]) -> list[_Piece]:
        found: list[_Piece] = []
        if length > MAX_GROUP:
            return found
        for number in range(1, MAX_NUMBER + 1):
            present = [c for c in COLOURS if pool[Tile(c, number)] > 0]
            if len(present) >= length:
                found.append(_Group(number, self.rng.sample(present, length)))
        return found

    def grow(self, pieces: list[_Piece], pool: Counter[Tile]) -> bool:
        """Add one tile from the pool to a random set that can take it."""
        moves: list[tuple[_Piece, str]] = []
        for piece in pieces:
            if isinstance(piece, _Group):
                if self.missing_colours(piece, pool):
                    moves.append((piece, "colour"))
                continue
            if piece.end - piece.start + 1 >= MAX_NUMBER:
                continue
            if piece.start > 1 and pool[Tile(piece.colour, piece.start - 1)] > 0:
                moves.append((piece, "low"))
            above = piece.end + 1
            if above <= self.last and pool[run_tile(piece.colour, above)] > 0:
                moves.append((piece, "high"))
        if not moves:
            return False
        piece, where = self.rng.choice(moves)
        if isinstance(piece, _Group):
            colour = self.rng.choice(self.missing_colours(piece, pool))
            piece.colours.append(colour)
            pool[Tile(colour, piece.number)] -= 1
        elif where == "low":
            piece.start -= 1
            pool[Tile(piece.colour, piece.start)] -= 1
        else:
            piece.end += 1
            pool[run_tile(piece.colour, piece.end)] -= 1
        return True

    def missing_colours(self, group: _Group, pool: Counter[Tile]) -> list[Colour]:
        """Colours the group lacks and the pool still has (a group of 4 lacks none)."""
        return [c for c in COLOURS if c not in group.colours and pool[Tile(c, group.number)] > 0]

    def place_jokers(
        self, pieces: list[_Piece], jokers: int, stand_ins: list[Tile], pool: Counter[Tile]
    ) -> list[tuple[Tile, ...]] | None:
        """The sets as they lie, with `jokers` tiles swapped for jokers (back into the pool).

        A joker takes the place of the tile it stands for, so every set stays valid and
        the player may well hold that tile: the position then invites a joker retrieval.
        Each of the `stand_ins` (tiles beyond the box) is swapped first, and not kept.
        """
        rows = [p.tiles() for p in pieces]
        self.rng.shuffle(rows)
        slots = [(r, i) for r, row in enumerate(rows) for i in range(len(row))]
        in_set = Counter[int]()
        for tile in stand_ins:
            holders = [
                (r, i) for r, i in slots if rows[r][i] == tile and in_set[r] < _JOKERS_PER_SET
            ]
            if not holders:
                return None
            r, i = self.rng.choice(holders)
            rows[r][i] = JOKER
            in_set[r] += 1
            jokers -= 1
        for r, i in self.rng.sample(slots, len(slots)):
            if jokers == 0:
                break
            if in_set[r] < _JOKERS_PER_SET and rows[r][i] != JOKER:
                pool[rows[r][i]] += 1
                rows[r][i] = JOKER
                in_set[r] += 1
                jokers -= 1
        return None if jokers else [tuple(row) for row in rows]
