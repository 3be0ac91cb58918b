"""Whether tiles can be cut into sets at all, without the solver.

A rack that goes out leaves every tile of the table and the rack in valid sets, whatever
the rules on table jokers (they only forbid more), and before the initial meld the rack
alone in sets of its own. So where those tiles cannot be cut into runs and groups, the
rack cannot go out: `search` asks this of most racks it weighs, and a solve costs far
more (benchmarks/README.md, section 11).

`can_partition` asks whether the tiles other than jokers cut into sets with at most the
jokers there are: a search over the run places 1 to 13 (14: the 1 after the 13, with
wraparound) that carries from one place to the next only the runs still open in each
colour, by how many tiles they hold (1, 2, or 3 and more), and remembers the states that
fail. At each place each tile there extends an open run, starts one, or joins a group of
its number; a joker fills a place inside a run, or the places a run or a group of fewer
than three lacks (what it stands for never matters here). A run longer than 13 never
needs forbidding: it cuts into two runs.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache
from itertools import combinations
from typing import NamedTuple

from .board import Board
from .sets import HIGH_ONE, MIN_SET, is_valid_set
from .tiles import COLOURS, MAX_NUMBER, TILE_SETS, Tile

Runs = tuple[int, int, int]
"""The open runs of one colour that hold 1, 2, and 3 or more tiles."""
Open = tuple[Runs, ...]
"""The open runs of each colour."""

_NONE_OPEN: Open = ((0, 0, 0),) * len(COLOURS)
_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}


def cannot_go_out(board: Board) -> bool:
    """Whether the rack provably cannot go out: the tiles that would then lie on the table
    (the table's and the rack's; before the initial meld the rack's alone, in sets of its
    own) cannot be cut into sets. A table set the rules do not read as one may stay as it
    lies, so such a table proves nothing."""
    rules = board.rules
    if not board.opened:
        return not can_partition(board.rack, rules.wraparound)
    if not all(is_valid_set(row, rules) for row in board.table):
        return False
    return not can_partition((*board.rack, *board.table_tiles), rules.wraparound)


def can_partition(tiles: Iterable[Tile], wraparound: bool) -> bool:
    """Whether the tiles can be cut into valid sets, their jokers used as fillers: False
    is a proof that they cannot. True is exact except where one or two jokers are left
    over and every set the other tiles can make is full (a group of four, a run of 13):
    then a solve settles it."""
    counts = [[0] * (HIGH_ONE + 1) for _ in COLOURS]
    jokers = 0
    for tile in tiles:
        if tile.colour is None:
            jokers += 1
        else:
            counts[_COLOUR_INDEX[tile.colour]][tile.number] += 1
    if max(max(row) for row in counts) > _MOST_COPIES:
        return True  # more copies than any box holds: not a position this proves anything of
    cut = _Cut(tuple(tuple(row) for row in counts), wraparound, jokers)
    return cut.fits(1, _NONE_OPEN, (0,) * len(COLOURS), jokers)


class _Cut:
    """The search over places for one multiset of tiles (`counts[colour][number]`) and
    at most `most` jokers.

    `fits(place, open, high, jokers)`: whether the tiles from `place` on cut into sets
    with the runs `open` before it and at most `jokers` jokers; `high`, with wraparound:
    the 1s of each colour kept for place 14. A state that does not fit remembers the
    jokers it was asked with."""

    def __init__(self, counts: tuple[tuple[int, ...], ...], wraparound: bool, most: int) -> None:
        self.last = HIGH_ONE if wraparound else MAX_NUMBER
        self.spots = list(zip(*(_spots(row, wraparound, most) for row in counts), strict=True))
        self.short: dict[tuple[int, Open, tuple[int, ...]], int] = {}

    def fits(self, place: int, open: Open, high: tuple[int, ...], jokers: int) -> bool:
        if place > self.last:
            return sum(_closing(runs) for runs in open) <= jokers
        key = (place, open, high)
        if self.short.get(key, -1) >= jokers:
            return False
        first, second, third, fourth = (
            _moves(runs, *spot, high=kept, jokers=jokers)
            for runs, spot, kept in zip(open, self.spots[place], high, strict=True)
        )
        # Each colour's move, cheapest first, then the groups of what they leave.
        for runs0, held0, left0, spent0, cost0 in first:
            for runs1, held1, left1, spent1, cost1 in second:
                cost01 = cost0 + cost1
                if cost01 > jokers:
                    break
                for runs2, held2, left2, spent2, cost2 in third:
                    cost012 = cost01 + cost2
                    if cost012 > jokers:
                        break
                    for runs3, held3, left3, spent3, cost3 in fourth:
                        cost = cost012 + cost3
                        if cost > jokers:
                            break
                        grouping = _GROUPING[left0][left1][left2][left3]
                        if cost + grouping <= jokers and self.fits(
                            place + 1,
                            (runs0, runs1, runs2, runs3),
                            (held0, held1, held2, held3),
                            jokers - spent0 - spent1 - spent2 - spent3 - grouping,
                        ):
                            return True
        self.short[key] = jokers
        return False


class _Spot(NamedTuple):
    """What one colour's moves at a place depend on, besides its open runs."""

    tiles: int
    """The tiles of the colour there (at place 14, `_moves` counts the 1s kept instead)."""
    bridge: int
    """How far the next tile of the colour lies: a run takes a joker only if as many
    jokers reach it."""
    worth: int
    """The runs of 3 or more worth keeping open: one for each tile of the next place, and
    one for each joker that bridges to a tile beyond it; the others may as well end."""
    next_one: int
    next_two: int
    """The tiles of the next two places, which the runs of one or two tiles need."""
    kind: int


# What kind of place a `_Spot` is.
INNER = 0
FIRST_WRAPPED = 1
"""The 1s, with wraparound: each is cut here or kept for place 14."""
HIGH_ONE_PLACE = 2
"""Place 14, the 1 after the 13: runs end here, no group."""


@lru_cache(maxsize=1 << 12)
def _spots(row: tuple[int, ...], wraparound: bool, most: int) -> tuple[_Spot, ...]:
    """A colour's `_Spot` at each place (0 unused), from its tiles of each number."""
    last = HIGH_ONE if wraparound else MAX_NUMBER
    # Place 14 holds the 1s, with wraparound (the most it may hold); nothing lies past the last.
    reach = [*row[1 : MAX_NUMBER + 1], row[1] if wraparound else 0][:last]
    reach = [0, *reach, *[0] * (most + 2)]
    spots = []
    bridge = last + 1
    for place in range(last, -1, -1):
        kind = INNER
        if place == HIGH_ONE:
            kind = HIGH_ONE_PLACE
        elif place == 1 and wraparound:
            kind = FIRST_WRAPPED
        spots.append(
            _Spot(
                tiles=reach[place] if place <= MAX_NUMBER else 0,
                bridge=bridge - place,
                worth=reach[place + 1] + min(most, sum(reach[place + 2 : place + 2 + most])),
                next_one=reach[place + 1],
                next_two=reach[place + 2],
                kind=kind,
            )
        )
        if reach[place]:
            bridge = place
    return tuple(reversed(spots))


class _Move(NamedTuple):
    """A colour's move at a place: its runs open after it, its 1s kept for place 14, its
    tiles left for groups, the jokers it spends, and those and the jokers its short runs
    will need at least (`cost`, which orders and prunes the search)."""

    runs: Runs
    held: int
    left: int
    spent: int
    cost: int


@lru_cache(maxsize=1 << 16)
def _moves(
    runs: Runs,
    tiles: int,
    bridge: int,
    worth: int,
    next_one: int,
    next_two: int,
    kind: int,
    high: int,
    jokers: int,
) -> tuple[_Move, ...]:
    """One colour's moves at a place (`_Spot`) with at most `jokers` to spend, cheapest
    first; `high`: its 1s kept for place 14."""
    found = []
    if kind == HIGH_ONE_PLACE:
        tiles = high
    # The 1s are cut at place 1 or kept for place 14; the 1s kept pass on to it.
    keep = range(tiles + 1) if kind == FIRST_WRAPPED else (0,)
    for saved in keep:
        held = saved if kind == FIRST_WRAPPED else 0 if kind == HIGH_ONE_PLACE else high
        for after, left, spent in _colour_moves(runs, tiles - saved, bridge <= jokers):
            if left and kind == HIGH_ONE_PLACE:
                continue
            after = (after[0], after[1], min(after[2], worth))
            owed = max(0, after[0] + after[1] - next_one) + max(0, after[0] - next_two)
            if spent + owed <= jokers:
                found.append(_Move(after, held, left, spent, spent + owed))
    return tuple(sorted(found, key=_cost))


def _cost(move: _Move) -> int:
    return move.cost


def _closing(runs: Runs) -> int:
    """The jokers that make the open runs of a colour sets as they end: a run of one tile
    needs two more places, of two tiles one (on either side, where there is room)."""
    return 2 * runs[0] + runs[1]


@cache
def _colour_moves(runs: Runs, tiles: int, gap: bool) -> tuple[tuple[Runs, int, int], ...]:
    """The ways one colour's open runs and its `tiles` at a place go on, cheapest first:
    (the runs open after, the tiles left for groups, the jokers spent). Each open run
    takes a tile, a joker (only where `gap`: a tile of its colour lies within the jokers'
    reach, else the joker could as well close it), or ends (`_closing`); the tiles left
    start runs or join groups. Choices another always does as well as are left out: a run
    that ends while a tile of its colour starts a new one (extend it), and a joker in a
    run while a tile of its colour joins a group (the tile takes its place, the group
    takes the joker)."""
    found: dict[tuple[Runs, int], int] = {}
    for splits in _splits(runs, gap):
        (t1, j1, e1), (t2, j2, e2), (t3, j3, e3) = splits
        used = t1 + t2 + t3
        if used > tiles:
            continue
        spent = j1 + j2 + j3 + _closing((e1, e2, 0))
        for started in range(tiles - used + 1):
            left = tiles - used - started
            if started and (e1 or e2 or e3):
                continue
            if left and (j1 or j2 or j3):
                continue
            key = ((started, t1 + j1, t2 + j2 + t3 + j3), left)
            found[key] = min(found.get(key, spent), spent)
    return tuple(sorted(((r, left, spent) for (r, left), spent in found.items()), key=_third))


def _third(move: tuple[Runs, int, int]) -> int:
    return move[2]


def _splits(runs: Runs, gap: bool) -> list[tuple[tuple[int, int, int], ...]]:
    """Each way to split each count of open runs into (take a tile, take a joker, end)."""
    options = []
    for count in runs:
        options.append(
            [
                (tile, joker, count - tile - joker)
                for tile in range(count + 1)
                for joker in range(count - tile + 1 if gap else 1)
            ]
        )
    return [(a, b, c) for a in options[0] for b in options[1] for c in options[2]]


@cache
def _group_jokers(counts: tuple[int, ...]) -> int:
    """The fewest jokers that make groups of one number's tiles, `counts` of each colour
    (largest first): each group takes one tile of some colours, and jokers up to three."""
    present = [c for c, n in enumerate(counts) if n]
    if not present:
        return 0
    first, others = present[0], present[1:]
    best = len(counts) * max(counts) * MIN_SET
    # The group holding a tile of the first colour present, with any others.
    for size in range(len(others) + 1):
        for chosen in combinations(others, size):
            rest = list(counts)
            for c in (first, *chosen):
                rest[c] -= 1
            here = max(0, MIN_SET - 1 - size)
            best = min(best, here + _group_jokers(tuple(sorted(rest, reverse=True))))
    return best


_MOST_COPIES = max(box.copies for box in TILE_SETS.values())
_UP_TO = range(_MOST_COPIES + 1)
# `_group_jokers` of what each colour leaves for the groups: _GROUPING[k][r][o][b].
_GROUPING = [
    [
        [[_group_jokers(tuple(sorted((k, r, o, b), reverse=True))) for b in _UP_TO] for o in _UP_TO]
        for r in _UP_TO
    ]
    for k in _UP_TO
]
