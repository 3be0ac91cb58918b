"""The pinned relaxation of the rules as written (joker_model.JokerPart.PINNED): a joker of
the table that stays stands for its tile anywhere, but for a few rows of what it needs of
the pieces (a group's joker in a group holding a tile of its set, a run's in a run
reaching its set's nearest tile, or cut from it where the next piece goes on), and a
freed one goes anywhere. Nearly as small as jokers moving freely, it bounds the rules as
written: its answer, with each joker put back where it may stay, is the best move wherever
the checker passes it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from itertools import chain, combinations, islice, product
from typing import Any, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from ..board import Board
from ..jokers import joker_places, set_readings
from ..move import TileRow
from ..rules import Rules
from ..sets import HIGH_ONE, read_meld, run_tile
from ..tiles import COLOURS, JOKER, MAX_NUMBER, MIN_NUMBER, Tile
from .builder import INFINITY, Floats, Ints, Rows
from .candidates import catalogue_for
from .joker_model import Instance, JokerPlan, JokerSet
from .lp import Solution
from .model import Arrangement, Layout, StayEntries
from .steps import as_read, laid_sets
from .tile_rows import TILE_INDEX

_K = TypeVar("_K")
_Array = TypeVar("_Array", bound=npt.NDArray[Any])


@lru_cache(maxsize=4096)
def _in_groups(js: JokerSet, reading: int) -> bool:
    """Whether the joker set, in this reading, is a group (all one number)."""
    numbers = {t.number for t in js.real} | {t.number for t in js.readings[reading] if t}
    return len(numbers) == 1


def _is_group(tiles: TileRow) -> bool:
    return tiles[0].number == tiles[1].number


class _Need(NamedTuple):
    """What a staying joker needs of the pieces: a piece of its set's kind holding its
    tile ("kind"); a group holding its tile and one of its set's tiles ("group"); a run
    holding its tile and its set's nearest tile, or cut between them where the next piece
    goes on ("run", only where that tile lies on one side). A run's places are numbers,
    but a high 1's (wraparound) is sets.HIGH_ONE: `place` is the joker's, `nearest` its
    set's nearest tile's. A joker standing for a 1 with wraparound may lie at either end
    of a run holding a tile of its set: `other_end` is the need there, met instead."""

    kind: str
    role: Tile
    in_groups: bool = False
    own: frozenset[Tile] = frozenset()
    nearest: int = 0
    place: int = 0
    other_end: _Need | None = None

    def ends(self) -> tuple[_Need, ...]:
        """A run need at each end where the joker may lie (one, or a 1's two)."""
        return (self,) if self.other_end is None else (self, self.other_end)

    def met_by(self, index: _Index) -> list[int]:
        """The catalogue's sets (by number) that meet the need alone."""
        role = self.role
        if self.kind == "kind":
            return list(index.holding.get((role, self.in_groups), ()))
        if self.kind == "group":
            own = self.own
            groups = index.holding.get((role, True), ())
            return [n for n in groups if not own.isdisjoint(index.sets[n])]
        assert role.colour is not None
        near = {run_tile(role.colour, end.nearest) for end in self.ends()}
        return [
            n for n in index.holding.get((role, False), ()) if not near.isdisjoint(index.sets[n])
        ]

    def cuts(self) -> list[tuple[_Need, int]]:
        """A run need's cuts: each place b on the way from the joker to its set's nearest
        tile where the joker's piece may end (or, past the tile, start at b + 1) and the
        next piece go on. A run ends at a 1 only past the 13 (the high 1) and starts at one
        only before the 2. The next piece, of three places or more, reaches the nearest
        tile where two places at most lie between it and the joker: a set's jokers beside
        it, one or two, are exact; with more, it may stop short (the checker refuses).
        Each cut with the need at its end (`ends`)."""
        if self.kind != "run":
            return []
        cuts = []
        for end in self.ends():
            low, high = sorted((end.place, end.nearest))
            cuts += [(end, b) for b in range(max(low, MIN_NUMBER + 1), min(high, MAX_NUMBER))]
        return cuts

    def cut_by(self, index: _Index, b: int) -> tuple[list[int], list[int]]:
        """The catalogue's sets (by number) that may hold the joker cut at `b`, and those
        that may go on from them."""
        assert self.role.colour is not None
        ending = index.ending.get(run_tile(self.role.colour, b), ())
        starting = index.starting.get(run_tile(self.role.colour, b + 1), ())
        holding = set(index.holding.get((self.role, False), ()))
        if self.place <= b:  # the joker's piece ends at b, the next starts past it
            return [n for n in ending if n in holding], list(starting)
        return [n for n in starting if n in holding], list(ending)

    def met_by_parts(self, parts: Parts) -> npt.NDArray[np.bool_]:
        """Which of these sets or parts of sets, each place as its tile, meet the need
        alone: `met_by` for shapes outside the catalogue (homes.py's), as arrays. A place
        held for another joker or for a rack tile is not open: this one cannot stand
        there."""
        role = TILE_INDEX[self.role]
        at_role = parts.opens[:, role]
        if self.kind == "kind":
            return at_role & (parts.group if self.in_groups else ~parts.group)
        if self.kind == "group":
            own = [TILE_INDEX[t] for t in self.own]
            return parts.group & at_role & parts.holds[:, own].any(axis=1)
        assert self.role.colour is not None
        colour = self.role.colour
        near = [TILE_INDEX[run_tile(colour, end.nearest)] for end in self.ends()]
        return ~parts.group & at_role & parts.holds[:, near].any(axis=1)

    def cut_by_parts(
        self, parts: Parts, b: int
    ) -> tuple[tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]], ...]:
        """`cut_by` for homes and extensions, as arrays: a span cut from the extension
        beside it, or an extension from its span (homes.lay_homes joins no others)."""
        colour = ~parts.group & (parts.colour == COLOURS.index(self.role.colour))
        ends, starts = colour & (parts.last == b), colour & (parts.first == b + 1)
        span, at_role = ~parts.extension, parts.opens[:, TILE_INDEX[self.role]]
        before, past = parts.extension & ~parts.past_end, parts.extension & parts.past_end
        if self.place <= b:  # the joker's part ends at b
            return (ends & at_role & span, starts & past), (ends & at_role & before, starts & span)
        return (starts & at_role & span, ends & before), (starts & at_role & past, ends & span)


class Parts(NamedTuple):
    """Sets or parts of sets as arrays, one row each: the tiles of their places (each
    place as its tile), their open places (neither a joker's nor a rack tile's), whether a
    group, a run's colour (its index in COLOURS) and its first and last places (a high
    1's: HIGH_ONE), whether an extension, and an extension's side (past a span's end)."""

    holds: npt.NDArray[np.bool_]
    opens: npt.NDArray[np.bool_]
    group: npt.NDArray[np.bool_]
    colour: Ints
    first: Ints
    last: Ints
    extension: npt.NDArray[np.bool_]
    past_end: npt.NDArray[np.bool_]


class _Index(NamedTuple):
    """The catalogue's sets by number, and, for each tile, the sets of each kind holding
    it and the runs ending and starting at it."""

    sets: tuple[TileRow, ...]
    holding: dict[tuple[Tile, bool], tuple[int, ...]]
    ending: dict[Tile, tuple[int, ...]]
    starting: dict[Tile, tuple[int, ...]]


@lru_cache(maxsize=8)
def _index(catalogue: tuple[TileRow, ...]) -> _Index:
    """Built once a catalogue: what the needs look up."""
    holding: dict[tuple[Tile, bool], list[int]] = {}
    ending: dict[Tile, list[int]] = {}
    starting: dict[Tile, list[int]] = {}
    for n, tiles in enumerate(catalogue):
        group = _is_group(tiles)
        for t in tiles:
            holding.setdefault((t, group), []).append(n)
        if not group:
            ending.setdefault(tiles[-1], []).append(n)
            starting.setdefault(tiles[0], []).append(n)

    def frozen(lists: dict[_K, list[int]]) -> dict[_K, tuple[int, ...]]:
        return {k: tuple(v) for k, v in lists.items()}

    return _Index(catalogue, frozen(holding), frozen(ending), frozen(starting))


@lru_cache(maxsize=4096)
def _needs(js: JokerSet, reading: int, role: Tile, wraparound: bool) -> tuple[_Need, ...]:
    """What a joker of this set, in this reading, standing for `role`, needs of the pieces
    to stay: the same on every model of a table that holds the set, so found once."""
    group = _in_groups(js, reading)
    needs = [_Need("kind", role, group)]
    if group:
        needs.append(_Need("group", role, own=js.real))
    else:
        place = _run_places(js, reading, wraparound)
        below = [place[t] for t in js.real if place[t] < place[role]]
        above = [place[t] for t in js.real if place[t] > place[role]]
        if not (below and above):
            nearest = max(below) if below else min(above)
            need = _Need("run", role, nearest=nearest, place=place[role])
            if wraparound and role.number == MIN_NUMBER:  # a 1: first, or past the 13
                numbers = [t.number for t in js.real]
                low = _Need("run", role, nearest=min(numbers), place=MIN_NUMBER)
                need = low._replace(other_end=low._replace(nearest=max(numbers), place=HIGH_ONE))
            needs.append(need)
    return tuple(needs)


def _run_places(js: JokerSet, reading: int, wraparound: bool) -> dict[Tile, int]:
    """Each tile of the joker set's run, in this reading, by its place (a high 1's is
    HIGH_ONE)."""
    roles = tuple(t for t in js.readings[reading] if t is not None)
    meld = read_meld(tuple(js.real) + roles, Rules(wraparound=wraparound))
    assert meld is not None, "a reading is a run"
    first = meld.ordered[0].number
    return {t: first + k for k, t in enumerate(meld.ordered)}


# The most cuts a need's rows hold every choice of sides for (2 ** EXACT_CUTS rows).
EXACT_CUTS = 3


@lru_cache(maxsize=4096)
def _need_rows(need: _Need, wraparound: bool) -> tuple[int, Ints, Ints, Ints]:
    """The need's rows, once for each need: how many, and the catalogue's sets in them,
    each with its row (counted from the need's first) and its entry there. A cut counts
    the fewer of its two sides' sets (the joker's, ending at b, and those going on,
    starting at b + 1): a row for each choice of one side at each cut, holding of every
    table that meets the need; past EXACT_CUTS cuts (a 1's far end, or three jokers beside
    their set's tile), two of them, which do too."""
    index = _catalogue_index(wraparound)
    meeting = need.met_by(index)
    sides = [end.cut_by(index, b) for end, b in need.cuts()]
    ways = list(product(*sides)) if len(sides) <= EXACT_CUTS else list(zip(*sides, strict=True))
    held = [meeting + [n for side in chosen for n in side] for chosen in ways]
    if need.other_end is not None:  # a set may meet it at both ends: it counts twice
        counted = [Counter(row) for row in held]
        held = [list(row) for row in counted]
        times = [k for row in counted for k in row.values()]
    else:
        times = [1] * sum(len(row) for row in held)
    return (
        len(ways),
        _read_only(np.array([n for row in held for n in row], dtype=np.int64)),
        _read_only(np.repeat(np.arange(len(ways)), [len(row) for row in held])),
        _read_only(np.array(times, dtype=np.int64)),
    )


@lru_cache(maxsize=2)
def _catalogue_index(wraparound: bool) -> _Index:
    """The catalogue's `_index`, by wraparound: made once, not for each need."""
    return _index(catalogue_for(Rules(wraparound=wraparound)).sets)


def _read_only(array: _Array) -> _Array:
    """A cached array, shared by every model that asks: no caller may change it."""
    array.flags.writeable = False
    return array


def add_stay_rows(plan: JokerPlan, rows: Rows, wraparound: bool) -> StayEntries | None:
    """Rows for what staying jokers need of the pieces (`_Need`), added to the pinned
    program's rows before its columns are built, and their entries, which the builder puts
    in its column blocks (no merge after): no more of them than pieces that meet it, and
    cuts. Each holds of any table where the jokers stay with their sets, cut into pieces:
    a group is never cut, and a run that holds a joker and its set's nearest tile holds
    what lies between, in one piece or in pieces where one ends and the next starts."""
    stay = _stay_rows(plan.joker_sets, plan.instances, wraparound)
    if not stay.rows:
        return None
    # Each need's rows (`_need_rows`): a cut counts the fewer of its two sides' pieces.
    at = rows.add(
        stay.size,
        0.0,
        INFINITY,
        name="stay",
        says="sum_{c meeting n} pieces[c] + sum_{b} sum_{c on b's side s_b} pieces[c] "
        ">= sum_{i needing n} stays[i], each choice of sides s",
    ).start
    # Each staying joker takes one from each row of its needs (a reading's jokers each
    # stand for another tile: their needs differ); each piece meeting a need gives one.
    return StayEntries(
        [[at + k for k in ks] for ks in stay.instance_rows],
        stay.entry_set,
        stay.entry_row + at * stay.entry_in_stay,
        stay.entry_value,
        stay.lengths,
    )


class _StayRows(NamedTuple):
    """The stay rows of a table's joker sets, whatever else the board holds, counted from
    the first: each need's rows (one for each choice of sides at its cuts); each
    instance's rows (those of its needs); how many rows in all. And the catalogue's
    entries with theirs, set by set (each set's tile rows, then its stay rows in order):
    each entry's set, row, whether a stay row, and value; each set's count."""

    rows: dict[_Need, tuple[int, ...]]
    instance_rows: tuple[tuple[int, ...], ...]
    size: int
    entry_set: Ints
    entry_row: Ints
    entry_in_stay: Ints
    entry_value: Floats
    lengths: Ints


@lru_cache(maxsize=256)
def _stay_rows(
    joker_sets: tuple[JokerSet, ...], instances: tuple[Instance, ...], wraparound: bool
) -> _StayRows:
    """Found once for the joker sets of a table: a table changes a few sets a turn, and
    each position is solved by stages that ask this of the same sets."""
    sets = {js.number: js for js in joker_sets}
    instance_needs = []
    for instance in instances:
        assert instance.role is not None
        js = sets[instance.set_number]
        instance_needs.append(_needs(js, instance.reading, instance.role, wraparound))
    rows: dict[_Need, tuple[int, ...]] = {}
    met = []  # each need's rows' sets, their rows (counted from the need's first), entries
    size = 0
    for need in dict.fromkeys(need for needs in instance_needs for need in needs):
        count, pieces, need_rows, times = _need_rows(need, wraparound)
        rows[need] = tuple(range(size, size + count))
        met.append((pieces, need_rows + size, times))
        size += count
    catalogue = catalogue_for(Rules(wraparound=wraparound))
    # The catalogue's entries (each 1 in its tile's row), then the stay rows': sorted by
    # set, stably, each set's tile rows first.
    tiles = len(catalogue.entry_row)
    of_sets, entry_rows, values = zip(
        (catalogue.entry_set, catalogue.entry_row, np.ones(tiles)), *met, strict=True
    )
    entry_set = np.concatenate(of_sets)
    order = np.argsort(entry_set, kind="stable")
    in_stay = np.repeat([0, 1], [tiles, len(entry_set) - tiles])
    return _StayRows(
        rows,
        tuple(tuple(k for need in needs for k in rows[need]) for needs in instance_needs),
        size,
        _read_only(entry_set[order]),
        _read_only(np.concatenate(entry_rows, dtype=np.int64)[order]),
        _read_only(in_stay[order]),
        _read_only(np.concatenate(values, dtype=np.float64)[order]),
        _read_only(np.bincount(entry_set, minlength=len(catalogue.sets))),
    )


def stay_needs(layout: Layout, wraparound: bool) -> dict[_Need, tuple[int, ...]]:
    """The needs of the staying jokers, each with its rows (of the "stay" group)."""
    assert layout.jokers is not None
    plan = layout.jokers.plan
    needs = _stay_rows(plan.joker_sets, plan.instances, wraparound).rows
    if not needs:
        return {}
    rows = layout.program.rows["stay"]
    return {need: tuple(rows[k] for k in ks) for need, ks in needs.items()}


# A relaxation's answer made a move: the move (its new sets as hosts), its new table, and
# where its jokers stand.
Pinned = tuple[Arrangement, list[TileRow], dict[int, tuple[Tile, ...]]]


def pin_jokers(
    board: Board, layout: Layout, solution: Solution, relaxed: Arrangement
) -> Pinned | None:
    """The relaxation's answer with each joker that stays put in a set of its kind holding
    its tile, one holding a tile of its own set where there is one: where the rules on
    jokers pass that table, the move (its new sets as hosts), its new table and where its
    jokers stand (`joker_places`); else None. The sets as laid first, then each other way
    its stand-ins may lie (`_layings`): alike tiles, the same move."""
    assert layout.jokers is not None and solution.values is not None
    jokers = layout.columns.jokers
    counts = np.rint(solution.values[jokers.start : jokers.stop]).astype(np.int64).tolist()
    staying = layout.jokers.staying(counts)
    sets = {js.number: js for js in layout.jokers.plan.joker_sets}
    for rows in _layings(board, relaxed):
        holders = []
        for instance in staying:
            role = instance.role
            group = _in_groups(sets[instance.set_number], instance.reading)
            assert role is not None
            holding = [n for n, row in enumerate(rows) if role in row]
            # Never for the model's answers (its tile rows are equalities, each staying
            # joker gives its tile a place, and only stand-ins are laid as jokers). Every
            # laying holds the same tiles, so one short of a place is short in all: refused.
            if not holding:
                return None
            # Best: a set of its kind with a tile of its own set; then one of its kind.
            kind = [n for n in holding if _may_be(rows[n], group)]
            with_own = [n for n in kind if sets[instance.set_number].real.intersection(rows[n])]
            n = (with_own or kind or holding)[0]
            rows[n] = _replaced(rows[n], role, JOKER)
            holders.append((instance.set_number, n))
        # The sets laid lie as read (`_layings`) but those given a staying joker.
        given = {n for _, n in holders}
        laid = [as_read(row, board.rules) if n in given else row for n, row in enumerate(rows)]
        new_table = [board.table[i] for i in relaxed.kept] + laid
        kept = [(i, k) for k, i in enumerate(relaxed.kept)]
        places = joker_places(board, new_table, relaxed.played, kept)
        if places is not None:
            pinned = Arrangement([], relaxed.played, Counter(), relaxed.kept, rows, holders)
            return pinned, new_table, places
    return None


# The other ways of laying a relaxation's stand-ins that `pin_jokers` tries, at most.
LAYINGS = 32


def _layings(board: Board, relaxed: Arrangement) -> Iterator[list[TileRow]]:
    """The relaxation's new sets as laid (each as read: `steps.laid_sets`); then with a
    stand-in (a joker of its pieces) changed places with a tile it may stand for that
    another set holds, for one joker or two (up to LAYINGS ways). Alike tiles, the same
    move: the rules on freed jokers may pass one where they refused the other."""
    rules = board.rules
    rows = laid_sets(relaxed, rules)
    yield list(rows)
    pieces = range(len(rows) - len(relaxed.hosts))  # the hosts hold their jokers already
    swaps = [
        (a, t, b)
        for a in pieces
        if JOKER in rows[a]
        for t in dict.fromkeys(t for reading in set_readings(rows[a], rules) for t in reading)
        for b in pieces
        if b != a and t in rows[b]
    ]
    ways = chain(((swap,) for swap in swaps), combinations(swaps, 2))
    laid = (_swapped(rows, swapped, rules) for swapped in ways)
    yield from islice((way for way in laid if way is not None), LAYINGS)


def _swapped(
    rows: list[TileRow], swaps: tuple[tuple[int, Tile, int], ...], rules: Rules
) -> list[TileRow] | None:
    """The sets with each swap's joker (of set a) and tile t (of set b) changed places,
    each set changed laid as read; None where a swap finds no joker or tile left there, or
    a set changed is no set."""
    laid = list(rows)
    for a, t, b in swaps:
        if JOKER not in laid[a] or t not in laid[b]:
            return None
        laid[a] = _replaced(laid[a], JOKER, t)
        laid[b] = _replaced(laid[b], t, JOKER)
    for n in {n for a, _, b in swaps for n in (a, b)}:
        meld = read_meld(laid[n], rules)
        if meld is None:
            return None
        laid[n] = meld.ordered
    return laid


def _replaced(row: TileRow, tile: Tile, by: Tile) -> TileRow:
    """The row with its first `tile` replaced by `by`, in its place."""
    k = row.index(tile)
    return (*row[:k], by, *row[k + 1 :])


def _may_be(row: TileRow, group: bool) -> bool:
    """Whether the row may be a group (or a run): one real tile and jokers may be either."""
    real = [t for t in row if not t.is_joker]
    return len(real) < 2 or _is_group(tuple(real)) == group
