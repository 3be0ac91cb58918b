"""The model's columns and rows for the table's jokers under the rules as written.

Under `joker-retrieval=strict` or `replace`, and under `locked-joker-sets`, a joker of the
table is either freed or stays with its set (docs/rules.md, "Jokers"):
- stays: it stands for the same tile, in a new set holding a real tile of its old set (with
  locked sets: the one new set holding all of them);
- freed: the tile it stands for is played from the rack; under STRICT the freed joker goes
  into a new set holding two or more tiles played from the rack this turn.

Each set of the table holding a joker (a "joker set") takes one reading (what its jokers
stand for) unless it is kept as it lies. Its jokers, under that reading, are "instances";
each instance lies in a host or is freed. A host is a whole set of the new table, laid with
some instances at their places and the tiles ("held" places) that keep them with their set:
- a core (not freeing) holds no freed joker: its other places are filled as the pieces'
  are (real tiles, or loose jokers from the stand-in columns), and a longer set of the new
  table is the core and pieces beside it, so a core reaches at most two places past the
  places it must hold (`_within_reach`);
- a freeing host (STRICT) may hold freed jokers: a whole set, each free place filled by a
  real tile (counted as the rack's copy or not) or a loose joker, and two of its places
  from the rack (rack copies, or loose jokers that are not freed) if it holds any.

Copies of a tile are alike, and so are jokers: counts decide. A held place is the table's
copy of its set, one set's copy each, and a joker set lies in one host per anchor tile,
so held places never need more real copies than the table has; where freeing hosts take
real tiles too, one row per tile says so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property, lru_cache
from itertools import combinations, product
from typing import NamedTuple

from ..jokers import table_readings
from ..jokers.readings import RULES_OF
from ..rules import JokerRetrieval, Rules
from ..sets import MIN_SET, candidate_shapes
from ..tiles import JOKER, MAX_NUMBER, Tile
from ..tiles import TileRow as TileRow  # (re-exported: joker_rows imports it from here)
from .lp import Deadline

# A core reaches this many places past the places it must hold, on each side (more where
# those span fewer than three places: a core needs three places at least; `_reach`).
CORE_REACH = 2


class JokerPart(Enum):
    """How much of the joker part a model holds."""

    # Every host: the rules as they are.
    WHOLE = "whole"
    # Freeing hosts only of rack tiles, freed and rack jokers: a restriction, far smaller,
    # that proves the best move wherever it reaches a looser reading's bound.
    RACK_ONLY = "rack-only"
    # No host: a joker that stays stands for its tile in any set, its set's tiles or not
    # (freed ones go anywhere). A relaxation nearly as small as jokers moving freely: its
    # answer, where the checker passes it, is the best move.
    PINNED = "pinned"


class OutOfTime(Exception):
    """The hosts were not all listed before the deadline: the model is not built."""


class Instance(NamedTuple):
    """A joker of a joker set under one of its readings: the set (its number on the table),
    the reading, and the tile it stands for (None: free retrieval with locked sets, where it
    may stand for any tile of its host; `copies` such jokers)."""

    set_number: int
    reading: int
    role: Tile | None
    copies: int = 1


@dataclass(frozen=True)
class Host:
    """A set of the new table laid whole: its joker-free shape; the instances it holds, each
    at the place of a tile; the held places (table set, tile), the table's copies; whether
    it is freeing (and so has a column for each way to fill each free place)."""

    shape: TileRow
    jokers: tuple[tuple[int, Tile], ...]
    held: tuple[tuple[int, Tile], ...]
    freeing: bool
    # A freeing host whose free places are all the rack's tiles or loose jokers.
    rack_only: bool = False

    @cached_property
    def free_places(self) -> TileRow:
        taken = {t for _, t in self.jokers} | {t for _, t in self.held}
        return tuple(t for t in self.shape if t not in taken)

    def tiles_with_jokers(self, loose: Sequence[Tile] = ()) -> TileRow:
        """The set as laid: jokers at the instances' places and at `loose` places."""
        at = {t for _, t in self.jokers} | set(loose)
        return tuple(JOKER if t in at else t for t in self.shape)


@dataclass(frozen=True)
class JokerSet:
    """A set of the table holding a joker and a real tile: its number, its real tiles, and
    its readings (each the tiles its jokers stand for; one reading of None roles where roles
    do not matter)."""

    number: int
    real: frozenset[Tile]
    readings: tuple[tuple[Tile | None, ...], ...]

    @property
    def jokers(self) -> int:
        return len(self.readings[0])


@dataclass(frozen=True)
class JokerPlan:
    """What the joker part of the model holds: the joker sets, the sets of jokers alone
    (kept as they lie), the instances, the hosts, and which rules apply."""

    joker_sets: tuple[JokerSet, ...]
    jokers_alone: tuple[int, ...]
    instances: tuple[Instance, ...]
    hosts: tuple[Host, ...]
    strict: bool
    locked: bool
    # PINNED: each instance that stays stands for its tile anywhere (joker_rows.py: its
    # staying column, or its reading's where no rack tile can free it).
    pinned: bool = False


def plan_jokers(
    table: Sequence[TileRow],
    rules: Rules,
    available: Counter[Tile],
    rack: Counter[Tile],
    loose_jokers: int,
    part: JokerPart = JokerPart.WHOLE,
    deadline: Deadline | None = None,
    declared: Sequence[Sequence[Tile | None]] = (),
) -> JokerPlan | None:
    """The joker part of the model for this table, or None where the table's jokers move
    freely (no joker on the table, or free retrieval without locked sets).

    `available`: copies in play (table and rack); `loose_jokers`: jokers that could fill a
    place of a core (the rack's and the table's); `part`: how much of the joker part (all
    of it, a restriction or a relaxation); past `deadline`
    OutOfTime is raised; `declared`: what each table set's jokers were declared to stand
    for (`Board.declared`). Each set's jokers take the readings the rules allow
    (`table_readings`: declared, else by their places).
    """
    by_role, locked = rules.by_replacement, rules.locked_joker_sets
    if not (by_role or locked):
        return None
    holding = tuple(
        (number, row, tuple(declared[number]) if declared else (None,) * row.count(JOKER))
        for number, row in enumerate(table)
        if JOKER in row
    )
    if not holding:
        return None
    joker_sets, alone, instances = _joker_sets(holding, by_role, locked, rules.wraparound)
    if part is JokerPart.PINNED:
        assert by_role, "jokers stand for tiles only where they are freed by them"
        return JokerPlan(joker_sets, alone, instances, (), strict=False, locked=False, pinned=True)
    strict = rules.joker_retrieval is JokerRetrieval.STRICT
    # Freeing hosts only where a rack tile can free a joker.
    freeing = strict and any(i.role is not None and rack[i.role] > 0 for i in instances)
    hosts = list(
        _hosts(
            joker_sets,
            instances,
            rules,
            available,
            rack,
            loose_jokers,
            freeing,
            by_role,
            part is JokerPart.RACK_ONLY,
            deadline,
        )
    )
    return JokerPlan(joker_sets, alone, instances, tuple(hosts), strict and freeing, locked)


@lru_cache(maxsize=1024)
def _joker_sets(
    holding: tuple[tuple[int, TileRow, tuple[Tile | None, ...]], ...],
    by_role: bool,
    locked: bool,
    wraparound: bool,
) -> tuple[tuple[JokerSet, ...], tuple[int, ...], tuple[Instance, ...]]:
    """The joker sets, the sets of jokers alone and the instances of a table's sets
    holding a joker (each its number, its tiles and what its jokers were declared to
    stand for): found once for them, as each stage of a solve and each solve of the same
    table (a search player's samples, a game's turns where they lie alike) asks it again."""
    rules = RULES_OF[wraparound]  # the only rule a reading depends on
    joker_sets, alone = [], []
    for number, row, said in holding:
        real = frozenset(t for t in row if not t.is_joker)
        # A set of jokers alone stays as it lies, but where jokers move freely with sets
        # locked: there it may grow, its jokers together (docs/rules.md, locked sets).
        if not real and (by_role or not locked):
            alone.append(number)
            continue
        readings: tuple[tuple[Tile | None, ...], ...] = (
            table_readings(row, said, rules) if by_role else ((None,) * row.count(JOKER),)
        )
        joker_sets.append(JokerSet(number, real, readings))
    instances: list[Instance] = []
    for js in joker_sets:
        for r, reading in enumerate(js.readings):
            if by_role:
                instances.extend(Instance(js.number, r, role) for role in reading)
            else:
                instances.append(Instance(js.number, r, None, len(reading)))
    return tuple(joker_sets), tuple(alone), tuple(instances)


class _Shapes(NamedTuple):
    """Every joker-free set of any length (the shapes a host may take), each with its tiles
    as a set, and for each tile the shapes that hold it."""

    shapes: tuple[TileRow, ...]
    members: tuple[frozenset[Tile], ...]
    holding: dict[Tile, frozenset[int]]
    # Each shape's place of each of its tiles; groups have none (a group is whole anyway).
    places: tuple[dict[Tile, int] | None, ...]
    # Each run's first and last places as numbers (a wrapping run's 1 at 14; 0, 0: a group).
    ends: tuple[tuple[int, int], ...]


@lru_cache(maxsize=8)
def _shapes(rules: Rules) -> _Shapes:
    shapes = tuple(s for n in range(MIN_SET, MAX_NUMBER + 1) for s in candidate_shapes(n, rules))
    holding: dict[Tile, set[int]] = {}
    for i, shape in enumerate(shapes):
        for t in shape:
            holding.setdefault(t, set()).add(i)
    return _Shapes(
        shapes,
        tuple(frozenset(s) for s in shapes),
        {t: frozenset(at) for t, at in holding.items()},
        tuple(
            None if s[0].number == s[1].number else {t: i for i, t in enumerate(s)} for s in shapes
        ),
        tuple(
            (0, 0) if s[0].number == s[1].number else (s[0].number, s[0].number + len(s) - 1)
            for s in shapes
        ),
    )


# One joker set's part in a host: the instances it holds there (index, place) and its held
# places (set number, tile).
_Part = tuple[tuple[tuple[int, Tile], ...], tuple[tuple[int, Tile], ...]]


def _hosts(
    joker_sets: Sequence[JokerSet],
    instances: Sequence[Instance],
    rules: Rules,
    available: Counter[Tile],
    rack: Counter[Tile],
    loose_jokers: int,
    freeing: bool,
    by_role: bool,
    rack_only: bool,
    deadline: Deadline | None,
) -> Iterator[Host]:
    """Every host the tiles in play can make: the cores (`_cores`), and (`freeing`) the
    freeing hosts, for each shape each way joker sets can take part in it (none, or
    instances of one reading with their anchor or, locked, all their real tiles), where
    two of its places can come from the rack (`rack_only`: all its free places, but for
    those that jokers fill)."""
    by_set: dict[int, list[int]] = {}
    for index, instance in enumerate(instances):
        by_set.setdefault(instance.set_number, []).append(index)
    catalogue = _shapes(rules)
    if by_role:
        yield from _cores(joker_sets, by_set, instances, rules, available, loose_jokers, deadline)
    if not (freeing or not by_role):
        return
    rack_jokers = rack[JOKER]
    freeable = sum(1 for i in instances if i.role is not None and rack[i.role] > 0)
    # The shapes each joker set can take part in: those holding all its real tiles (locked
    # sets), or else one of its jokers' tiles.
    takes_part = []
    for js in joker_sets:
        if rules.locked_joker_sets:
            every = frozenset(range(len(catalogue.shapes)))  # a set of jokers alone
            takes_part.append(every.intersection(*(catalogue.holding[t] for t in js.real)))
        else:
            roles = {instances[i].role for i in by_set[js.number]}
            takes_part.append(frozenset().union(*(catalogue.holding[t] for t in roles if t)))
    # Without freeing hosts (free retrieval, locked sets), only shapes some joker set takes
    # part in are hosts, cores all.
    wanted = range(len(catalogue.shapes)) if freeing else sorted(frozenset().union(*takes_part))
    for at in wanted:
        if deadline is not None and deadline.passed():
            raise OutOfTime
        shape = catalogue.shapes[at]
        options: list[list[_Part | None]] = []
        for js, shapes_of_js in zip(joker_sets, takes_part, strict=True):
            parts: list[_Part | None] = [None]
            if at in shapes_of_js:
                parts += _parts(js, by_set[js.number], instances, shape, rules, by_role)
            options.append(parts)
        for chosen in product(*options):
            parts_in = [p for p in chosen if p is not None]
            jokers = tuple(j for p in parts_in for j in p[0])
            held = tuple(h for p in parts_in for h in p[1])
            places = [t for _, t in jokers] + [t for _, t in held]
            if len(set(places)) != len(places):
                continue
            free = [t for t in shape if t not in set(places)]
            # Places no copy in play can fill need loose jokers.
            if sum(1 for t in free if available[t] == 0) > loose_jokers:
                continue
            if not by_role:
                if parts_in and _within_reach(shape, catalogue.places[at], places):
                    yield Host(shape, jokers, held, freeing=False)
                continue
            from_rack = sum(1 for t in free if rack[t] > 0) + min(rack_jokers, len(free))
            if from_rack < 2:
                continue
            if not rack_only:
                yield Host(shape, jokers, held, freeing=True)
            elif sum(1 for t in free if rack[t] == 0) <= freeable + rack_jokers:
                yield Host(shape, jokers, held, freeing=True, rack_only=True)


def _cores(
    joker_sets: Sequence[JokerSet],
    by_set: dict[int, list[int]],
    instances: Sequence[Instance],
    rules: Rules,
    available: Counter[Tile],
    loose_jokers: int,
    deadline: Deadline | None,
) -> Iterator[Host]:
    """The cores: for each way joker sets can share one set of the new table (each with
    instances of one reading and an anchor, or, locked, all its real tiles), the shapes
    that hold all those places and reach no further than they must. Built from the places
    up, not by trying every shape: without freeing hosts they are the whole joker part."""
    catalogue = _shapes(rules)
    parts = [list(_shapeless_parts(js, by_set[js.number], instances, rules)) for js in joker_sets]
    everything = frozenset(range(len(catalogue.shapes)))
    seen: set[tuple[object, ...]] = set()

    jokers_of = {js.number: js.jokers for js in joker_sets}
    Combined = tuple[list[_Part], list[Tile], frozenset[int]]

    def combine(
        at: int, chosen: list[_Part], places: list[Tile], shapes: frozenset[int]
    ) -> Iterator[Combined]:
        """Each way the sets from `at` on can join the parts chosen, with all their places
        and the shapes holding them."""
        if deadline is not None and deadline.passed():
            raise OutOfTime
        if at == len(joker_sets):
            if chosen:
                yield chosen, places, shapes
            return
        yield from combine(at + 1, chosen, places, shapes)
        for part in parts[at]:
            mine = [t for _, t in part[0]] + [t for _, t in part[1]]
            if set(mine) & set(places):
                continue
            fits = shapes.intersection(*(catalogue.holding[t] for t in mine))
            if fits:
                yield from combine(at + 1, [*chosen, part], places + mine, fits)

    for chosen, places, shapes in combine(0, [], [], everything):
        jokers = tuple(j for p in chosen for j in p[0])
        held = tuple(h for p in chosen for h in p[1])
        # One joker's anchor matters not: its cores are one whichever tile holds it.
        key = (
            jokers,
            tuple((s, t if jokers_of[s] > 1 or rules.locked_joker_sets else None) for s, t in held),
        )
        taken = set(places)
        numbers = [t.number for t in places]
        lowest, highest = min(numbers), max(numbers)
        # A run holding no 1 reads its places by number (a 1 may be a wrapping run's last).
        by_number = lowest > 1
        reach = _reach(highest - lowest)
        for at in sorted(shapes):
            if (at, key) in seen:
                continue
            first, last = catalogue.ends[at]
            if by_number and first:
                if lowest - first > reach or last - highest > reach:
                    continue
            elif not _within_reach(catalogue.shapes[at], catalogue.places[at], places):
                continue
            shape = catalogue.shapes[at]
            free = [t for t in shape if t not in taken]
            # Places no copy in play can fill need loose jokers.
            if sum(1 for t in free if available[t] == 0) > loose_jokers:
                continue
            seen.add((at, key))
            yield Host(shape, jokers, held, freeing=False)


def _shapeless_parts(
    js: JokerSet, indices: list[int], instances: Sequence[Instance], rules: Rules
) -> Iterator[_Part]:
    """The ways one joker set can take part in a core, whatever its shape: instances of one
    reading, with one of its tiles as their anchor (locked: all its real tiles)."""
    real = sorted(js.real, key=Tile.sort_key)
    for reading in range(len(js.readings)):
        mine = [i for i in indices if instances[i].reading == reading]
        for size in range(0 if rules.locked_joker_sets else 1, len(mine) + 1):
            for chosen in combinations(mine, size):
                jokers = tuple((i, _role(instances[i])) for i in chosen)
                if rules.locked_joker_sets:
                    yield jokers, tuple((js.number, t) for t in real)
                    continue
                for anchor in real:
                    yield jokers, ((js.number, anchor),)


def _parts(
    js: JokerSet,
    indices: list[int],
    instances: Sequence[Instance],
    shape: TileRow,
    rules: Rules,
    by_role: bool,
) -> Iterator[_Part]:
    """The ways one joker set can take part in a host of this shape."""
    members = frozenset(shape)
    if not by_role:
        # Free retrieval, locked: all its jokers lie here, at any places its tiles leave.
        (index,) = indices
        open_places = [t for t in shape if t not in js.real]
        held = tuple((js.number, t) for t in sorted(js.real, key=Tile.sort_key))
        for at in combinations(open_places, instances[index].copies):
            yield tuple((index, t) for t in at), held
        return
    for reading in range(len(js.readings)):
        mine = [i for i in indices if instances[i].reading == reading]
        here = [i for i in mine if instances[i].role in members]
        smallest = 0 if rules.locked_joker_sets else 1
        for size in range(smallest, len(here) + 1):
            for chosen in combinations(here, size):
                jokers = tuple((i, _role(instances[i])) for i in chosen)
                if rules.locked_joker_sets:
                    held = tuple((js.number, t) for t in sorted(js.real, key=Tile.sort_key))
                    yield jokers, held
                    continue
                # The anchor matters between hosts of one set only where it has two jokers
                # or more; else any of its tiles here will do: the nearest.
                anchors = _anchors_by_nearness(shape, js.real, [t for _, t in jokers])
                for anchor in anchors if js.jokers > 1 else anchors[:1]:
                    yield jokers, ((js.number, anchor),)


def _role(instance: Instance) -> Tile:
    assert instance.role is not None
    return instance.role


def _anchors_by_nearness(shape: TileRow, real: frozenset[Tile], at: list[Tile]) -> list[Tile]:
    """The set's real tiles that the shape holds, nearest to the jokers' places first."""
    index = {t: i for i, t in enumerate(shape)}
    held = [t for t in shape if t in real]
    return sorted(held, key=lambda t: min(abs(index[t] - index[j]) for j in at))


def _within_reach(shape: TileRow, index: dict[Tile, int] | None, places: list[Tile]) -> bool:
    """A core: a run reaching no further past the places it must hold than `_reach` says
    (a group is whole anyway). Any run holding them cuts into such a core and runs of three
    or more. `index`: the shape's place of each of its tiles (None for a group)."""
    if index is None:
        return True
    lowest = min(index[t] for t in places)
    highest = max(index[t] for t in places)
    reach = _reach(highest - lowest)
    return lowest <= reach and len(shape) - 1 - highest <= reach


def _reach(span: int) -> int:
    """How far a core reaches past places `span` apart (first to last): past them a side
    of one or two places joins the core, a longer side stays apart, and a core of fewer
    than three places takes what it lacks from a side too. Two places side by side reach
    three; one place alone (a locked set's one real tile, its jokers freed) reaches four:
    K10 alone in K6 K7 K8 K9 K10 needs K8 K9, and K6 K7 cannot stand apart."""
    return CORE_REACH + max(0, 2 - span)
