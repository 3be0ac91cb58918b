"""The pinned relaxation of the rules as written (joker_model.JokerPart.PINNED): a joker of
the table that stays stands for its tile anywhere, but for a few rows of what it needs of
the pieces (a group's joker in a group holding a tile of its set, a run's in a run
reaching its set's nearest tile), and a freed one goes anywhere. Nearly as small as
jokers moving freely, it bounds the rules as written: its answer, with each joker put
back where it may stay, is the best move wherever the checker passes it (on about seven
in ten large tables with four jokers)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from functools import lru_cache
from typing import NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from ..board import Board
from ..jokers import joker_places
from ..move import TileRow
from ..rules import Rules
from ..sets import read_meld, run_tile
from ..tiles import COLOURS, JOKER, MAX_NUMBER, MIN_NUMBER, Tile
from .builder import INFINITY, Ints
from .candidates import catalogue_for
from .joker_model import Instance, JokerSet
from .lp import Solution
from .model import Arrangement, Layout
from .steps import laid_sets
from .tile_rows import TILE_INDEX

_K = TypeVar("_K")


def _in_groups(js: JokerSet, reading: int) -> bool:
    """Whether the joker set, in this reading, is a group (all one number)."""
    numbers = {t.number for t in js.real} | {t.number for t in js.readings[reading] if t}
    return len(numbers) == 1


def _is_group(tiles: TileRow) -> bool:
    return tiles[0].number == tiles[1].number


class _Need(NamedTuple):
    """What a staying joker needs of the pieces: a piece of its set's kind holding its
    tile ("kind"); a group holding its tile and one of its set's tiles ("group"); a run
    holding its tile and its set's nearest tile, or cut between them ("run", only where
    that tile lies on one side). A run's places are numbers, but a high 1's (wraparound)
    is sets.HIGH_ONE: `place` is the joker's, `nearest` its set's nearest tile's."""

    kind: str
    role: Tile
    in_groups: bool = False
    own: frozenset[Tile] = frozenset()
    nearest: int = 0
    place: int = 0

    def met_by(self, index: _Index) -> list[int]:
        """The catalogue's sets (by number) that meet the need."""
        role = self.role
        if self.kind == "kind":
            return list(index.holding.get((role, self.in_groups), ()))
        if self.kind == "group":
            own = self.own
            groups = index.holding.get((role, True), ())
            return [n for n in groups if not own.isdisjoint(index.sets[n])]
        assert role.colour is not None
        near = run_tile(role.colour, self.nearest)
        met = [n for n in index.holding.get((role, False), ()) if near in index.sets[n]]
        # Cut between them: a run ending (or, past the joker, starting) on the way; a run
        # ends at a 1 only past the 13 (the high 1) and starts at one only before the 2.
        if self.nearest < self.place:
            way, ends = range(max(self.nearest, MIN_NUMBER + 1), self.place), index.ending
        else:
            way, ends = range(self.place + 1, min(self.nearest, MAX_NUMBER) + 1), index.starting
        return met + [n for k in way for n in ends.get(run_tile(role.colour, k), ())]

    def met_by_parts(self, parts: Parts) -> npt.NDArray[np.bool_]:
        """Which of these sets or parts of sets, each place as its tile, meet the need:
        `met_by` for shapes outside the catalogue (homes.py's), as arrays. A place held for
        another joker or for a rack tile is not open: this one cannot stand there."""
        role = TILE_INDEX[self.role]
        at_role = parts.opens[:, role]
        if self.kind == "kind":
            return at_role & (parts.group if self.in_groups else ~parts.group)
        if self.kind == "group":
            own = [TILE_INDEX[t] for t in self.own]
            return parts.group & at_role & parts.holds[:, own].any(axis=1)
        assert self.role.colour is not None
        run = ~parts.group
        near = TILE_INDEX[run_tile(self.role.colour, self.nearest)]
        met = at_role & parts.holds[:, near]
        # Cut between them: a run ending (or, past the joker, starting) on the way.
        colour: npt.NDArray[np.bool_] = parts.colour == COLOURS.index(self.role.colour)
        number = self.place
        if self.nearest < number:
            cut = (self.nearest <= parts.last) & (parts.last < number)
        else:
            cut = (number < parts.first) & (parts.first <= self.nearest)
        return run & (met | (colour & cut))


class Parts(NamedTuple):
    """Sets or parts of sets as arrays, one row each: the tiles of their places (each
    place as its tile), their open places (neither a joker's nor a rack tile's), whether a
    group, a run's colour (its index in COLOURS) and its first and last places (a high
    1's: HIGH_ONE)."""

    holds: npt.NDArray[np.bool_]
    opens: npt.NDArray[np.bool_]
    group: npt.NDArray[np.bool_]
    colour: Ints
    first: Ints
    last: Ints


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
            needs.append(_Need("run", role, nearest=nearest, place=place[role]))
    return tuple(needs)


def _run_places(js: JokerSet, reading: int, wraparound: bool) -> dict[Tile, int]:
    """Each tile of the joker set's run, in this reading, by its place (a high 1's is
    HIGH_ONE)."""
    roles = tuple(t for t in js.readings[reading] if t is not None)
    meld = read_meld(tuple(js.real) + roles, Rules(wraparound=wraparound))
    assert meld is not None, "a reading is a run"
    first = meld.ordered[0].number
    return {t: first + k for k, t in enumerate(meld.ordered)}


@lru_cache(maxsize=4096)
def _met_by(need: _Need, wraparound: bool) -> Ints:
    """The catalogue's sets (by number) that meet the need, once for each need."""
    return _read_only(np.array(need.met_by(_catalogue_index(wraparound)), dtype=np.int64))


@lru_cache(maxsize=2)
def _catalogue_index(wraparound: bool) -> _Index:
    """The catalogue's `_index`, found by wraparound: found by the catalogue, its 185-197
    sets were hashed for each need (a table's first solve finds its needs' sets)."""
    return _index(catalogue_for(Rules(wraparound=wraparound)).sets)


def _read_only(array: Ints) -> Ints:
    """A cached array, shared by every model that asks: no caller may change it."""
    array.flags.writeable = False
    return array


def with_stay_rows(layout: Layout, wraparound: bool) -> Layout:
    """The pinned model's layout with a row for each thing staying jokers need of the
    pieces (`_Need`): no more of them than pieces that meet it; its program holds them.
    Each holds of any table where the jokers stay with their sets, cut into pieces: a
    group is never cut, and a run that holds a joker and its set's nearest tile holds what
    lies between."""
    assert layout.jokers is not None
    plan = layout.jokers.plan
    stay = _stay_rows(plan.joker_sets, plan.instances, wraparound)
    if not stay.rows:
        return layout
    program = layout.program.extended()
    rows = program.rows.add(
        len(stay.rows),
        0.0,
        INFINITY,
        name="stay",
        says="sum_{c meeting need n} pieces[c] >= sum_{i needing n} stays[i]",
    )
    # Each staying joker takes one from each row of its needs (a reading's jokers each
    # stand for another tile: their needs differ); each piece meeting a need gives one.
    at = layout.columns.jokers.start
    staying = np.repeat(np.array(layout.jokers.stays, dtype=np.int64) + at, stay.counts)
    column_of = np.full(len(layout.catalogue), -1, dtype=np.int64)
    column_of[layout.piece_numbers] = (
        np.arange(len(layout.piece_numbers)) + layout.columns.pieces.start
    )
    pieces = column_of[stay.pieces]
    in_model = pieces >= 0
    pieces = pieces[in_model]
    program.columns.enter(
        np.concatenate((staying, pieces)),
        rows.start + np.concatenate((stay.instance_rows, stay.piece_rows[in_model])),
        np.concatenate((np.full(len(staying), -1.0), np.ones(len(pieces)))),
    )
    return dataclasses.replace(layout, program=program)


class _StayRows(NamedTuple):
    """The stay rows of a table's joker sets, whatever else the board holds: each need's
    row; for each instance, how many needs it has, and their rows, instance by instance;
    the catalogue's sets meeting each need, and the need's row for each."""

    rows: dict[_Need, int]
    counts: tuple[int, ...]
    instance_rows: Ints
    pieces: Ints
    piece_rows: Ints


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
    rows: dict[_Need, int] = {}
    for needs in instance_needs:
        for need in needs:
            rows.setdefault(need, len(rows))
    met = [_met_by(need, wraparound) for need in rows]
    return _StayRows(
        rows,
        tuple(len(needs) for needs in instance_needs),
        _read_only(
            np.array([rows[need] for needs in instance_needs for need in needs], dtype=np.int64)
        ),
        _read_only(np.concatenate(met) if met else np.zeros(0, dtype=np.int64)),
        _read_only(np.repeat(np.arange(len(rows)), [len(m) for m in met])),
    )


def stay_needs(layout: Layout, wraparound: bool) -> dict[_Need, int]:
    """The needs of the staying jokers, each with its row (of the "stay" group)."""
    assert layout.jokers is not None
    plan = layout.jokers.plan
    needs = _stay_rows(plan.joker_sets, plan.instances, wraparound).rows
    if not needs:
        return {}
    rows = layout.program.rows["stay"]
    return {need: rows[k] for need, k in needs.items()}


# A relaxation's answer made a move: the move (its new sets as hosts), its new table, and
# where its jokers stand.
Pinned = tuple[Arrangement, list[TileRow], dict[int, tuple[Tile, ...]]]


def pin_jokers(
    board: Board, layout: Layout, solution: Solution, relaxed: Arrangement
) -> Pinned | None:
    """The relaxation's answer with each joker that stays put in a set of its kind holding
    its tile, one holding a tile of its own set where there is one: where the rules on
    jokers pass that table, the move (its new sets as hosts), its new table and where its
    jokers stand (`joker_places`); else None."""
    assert layout.jokers is not None and solution.values is not None
    plan = layout.jokers.plan
    counts = np.rint(solution.values[layout.columns.jokers]).astype(np.int64).tolist()
    sets = {js.number: js for js in plan.joker_sets}
    rows = [list(row) for row in laid_sets(relaxed, board.rules)]
    holders = []
    for instance in layout.jokers.staying(counts):
        role, group = instance.role, _in_groups(sets[instance.set_number], instance.reading)
        assert role is not None
        holding = [n for n, row in enumerate(rows) if role in row]
        if not holding:  # never, by the tile rows; a refusal all the same, not a crash
            return None
        # Best: a set of its kind with a tile of its own set; then one of its kind.
        kind = [n for n in holding if _may_be(rows[n], group)]
        with_own = [n for n in kind if sets[instance.set_number].real.intersection(rows[n])]
        n = (with_own or kind or holding)[0]
        rows[n][rows[n].index(role)] = JOKER
        holders.append((instance.set_number, n))
    hosts = [tuple(row) for row in rows]
    pinned = Arrangement([], relaxed.played, Counter(), relaxed.kept, hosts, holders)
    new_table = [board.table[i] for i in pinned.kept] + laid_sets(pinned, board.rules)
    kept = [(i, k) for k, i in enumerate(pinned.kept)]
    places = joker_places(board, new_table, pinned.played, kept)
    if places is None:
        return None
    return pinned, new_table, places


def _may_be(row: list[Tile], group: bool) -> bool:
    """Whether the row may be a group (or a run): one real tile and jokers may be either."""
    real = [t for t in row if not t.is_joker]
    return len(real) < 2 or _is_group(tuple(real)) == group
