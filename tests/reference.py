"""An exhaustive reference solver for small positions, sharing no code with the model.

The rules it follows (docs/rules.md; `best_move` gives the best (tiles, value, kept)):

- Before the initial meld the table stays as it lies; the played tiles make new sets of
  their own worth at least `initial_meld` (a joker counts the most it can stand for).
- Opened, the final table is every table tile and every played tile, cut into valid sets.
- FREE: nothing more.
- REPLACE and STRICT: each table set holding a joker and a real tile has one reading (what
  each of its jokers stands for): in a run, the tiles of the places its jokers lie at;
  where its places do not say (a group, one tile with jokers, a run out of order or off the
  end), any; one holding every tile its jokers were declared to stand for, `J=R5`, where
  the board says. Each of its jokers is either not freed: it lies in a set
  where it stands for the same tile, beside at least one real tile physically from its own
  set (two jokers in two sets need two such tiles, as a tile lies in one set); or freed: a
  rack copy of the tile it stands for is played, one copy per joker freed, and under
  STRICT the freed joker's set holds two tiles played from the rack (rack jokers and the
  freeing tile count, tiles from the table do not). A table set of jokers only stays as it
  lies. Jokers played from the rack go anywhere.
- locked-joker-sets: the real tiles of a table set holding a joker lie in one final set,
  with each of its jokers not freed (under FREE, where none is freed: all its jokers).
- kept: a table set one final set is made of exactly, physically.

How: tiles are followed as physical objects, by kind: a table tile by the set it lay in
where the rules care (a set they follow, above), else as a plain table tile; the jokers of
the followed sets under REPLACE or STRICT as one kind, each one's owner settled by where it
lies; rack tiles as the rack's. The final table is searched set by set: the first table
tile not yet laid goes into every set it can (each run window and group, each place filled
by a tile of that face or a joker, from the table or the rack), noting what each table
joker that is not freed stands for, until every table tile lies in a set; the rack tiles
left may then make new sets of their own, which must hold the copies the freed jokers owe.
A memoised search over what is left gives the best, lexicographically.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cache, lru_cache
from itertools import combinations, product
from typing import NamedTuple

from rummisolve.board import Board
from rummisolve.rules import JokerRetrieval, Rules
from rummisolve.tiles import COLOURS, JOKER, Tile, tile_value

Bag = tuple[Tile, ...]
# The origin of a rack tile; a table tile's origin is the index of the set it lies in.
RACK = -1


class Best(NamedTuple):
    tiles: int
    value: int
    kept: int


class Item(NamedTuple):
    """A kind of physical tile: its face, and where it lay when the turn began."""

    origin: int
    tile: Tile


# --- Sets ------------------------------------------------------------------------------


@cache
def shapes(wraparound: bool) -> tuple[Bag, ...]:
    """Every complete set, jokers read as the tiles they stand for: each run window of 3 to
    13 tiles (with wraparound also those ending 12-13-1, the 1 high; never 13-1-2) and
    each group of 3 or 4 colours."""
    found: dict[frozenset[Tile], Bag] = {}
    last = 14 if wraparound else 13  # 14 is the 1 after 13
    for colour in COLOURS:
        for size in range(3, 14):
            for start in range(1, last - size + 2):
                run = tuple(Tile(colour, 1 if n == 14 else n) for n in range(start, start + size))
                found.setdefault(frozenset(run), run)  # 1..13 and 2..13-1 hold the same tiles
    for number in range(1, 14):
        for size in (3, 4):
            for colours in combinations(COLOURS, size):
                group = tuple(Tile(c, number) for c in colours)
                found[frozenset(group)] = group
    return tuple(found.values())


@cache
def shapes_with(tile: Tile, wraparound: bool) -> tuple[Bag, ...]:
    return tuple(s for s in shapes(wraparound) if tile in s)


@cache
def readings(tiles: Bag, wraparound: bool) -> tuple[frozenset[Tile], ...]:
    """Each reading of a set: the tiles its jokers stand for, one each."""
    real = frozenset(t for t in tiles if t != JOKER)
    return tuple({frozenset(s) - real for s in _readings_as_shapes(tiles, wraparound)})


def table_readings(
    tiles: Bag, declared: tuple[Tile | None, ...], rules: Rules
) -> tuple[frozenset[Tile], ...]:
    """The readings of a table set the rules allow. A run's joker is the tile of the place
    it lies at: the set's tiles as written, laid on a window of the run's places, each real
    tile on its own place. Where no window does that (a run out of order, a joker's place
    off the end), or the set is a group or one tile with jokers, any reading. A declared
    joker (`J=R5`) stands for its tile: the readings holding the declared tiles (the
    place's, if it holds them)."""
    every = readings(_key(tiles), rules.wraparound)
    said = {t for t in declared if t is not None}
    real = [t for t in tiles if t != JOKER]
    allowed = every
    if len(set(real)) >= 2 and len({t.number for t in real}) > 1:
        last = 14 if rules.wraparound else 13
        for start in range(1, last - len(tiles) + 2):
            colour = real[0].colour
            window = [Tile(colour, 1 if n == 14 else n) for n in range(start, start + len(tiles))]
            if all(t in (JOKER, w) for t, w in zip(tiles, window, strict=True)):
                allowed = (frozenset(w for t, w in zip(tiles, window, strict=True) if t == JOKER),)
    fitting = tuple(r for r in allowed if said <= r)
    return fitting or tuple(r for r in every if said <= r)


def set_value(tiles: Bag, wraparound: bool) -> int | None:
    """The highest face value these tiles can have as one set, or None if they make none."""
    found = [
        sum(t.number for t in shape) for shape in _readings_as_shapes(tuple(tiles), wraparound)
    ]
    return max(found, default=None)


def _readings_as_shapes(tiles: Bag, wraparound: bool) -> list[Bag]:
    real = [t for t in tiles if t != JOKER]
    if len(set(real)) != len(real):
        return []
    return [s for s in shapes(wraparound) if len(s) == len(tiles) and set(real) <= set(s)]


def _sort_key(item: Item) -> tuple[bool, int, int, int]:
    """The table's tiles before the rack's, then by colour and number (jokers last): laid
    in this order, the tiles left to lay are mostly the higher ones of each colour."""
    return (item.origin == RACK, *item.tile.sort_key(), item.origin)


def _key(tiles: Bag) -> Bag:
    return tuple(sorted(tiles, key=Tile.sort_key))


@cache
def meldable(rack: Bag, wraparound: bool) -> dict[Bag, int]:
    """Every sub-multiset of the (sorted) bag that can be laid as sets of its own, with the
    most points it can count (a joker as the tile it stands for, at the most)."""
    if not rack:
        return {(): 0}
    first, rest = rack[0], rack[1:]
    found = dict(meldable(rest, wraparound))  # the first tile (this copy) left out
    for part, value in _sets_from(first, rest, wraparound).items():
        others = Counter(rest)
        others.subtract(part[1:])
        for more, more_value in meldable(_key(tuple(others.elements())), wraparound).items():
            key = _key(part + more)
            found[key] = max(found.get(key, 0), value + more_value)
    return found


def _sets_from(first: Tile, others: Bag, wraparound: bool) -> dict[Bag, int]:
    """Each set of `first` and some of `others` (first in it first), with its best value."""
    found: dict[Bag, int] = {}
    have = Counter(others)
    jokers = have[JOKER]
    for shape in shapes(wraparound) if first == JOKER else shapes_with(first, wraparound):
        present = [t for t in shape if have[t]]
        places = len(shape) - 1  # all but first's
        if places - len(present) > jokers:
            continue  # more places than jokers that no tile of `others` can fill
        value = sum(t.number for t in shape)
        for spot in range(len(shape)) if first == JOKER else [shape.index(first)]:
            real = [t for t in present if t != shape[spot]]
            # Each place a tile of its own or a joker: every choice of the real ones.
            for size in range(max(0, places - jokers), len(real) + 1):
                for chosen in combinations(real, size):
                    part = (first, *chosen, *[JOKER] * (places - size))
                    key = (first, *_key(part[1:]))
                    found[key] = max(found.get(key, 0), value)
    return found


# --- The search ------------------------------------------------------------------------

# The origin of a table tile no rule follows: in a set without a joker, or any table tile
# under FREE without locked-joker-sets. Such tiles differ only in which set they keep, so
# they are one kind per face (a final set of them alone keeps a table set it equals).
PLAIN = -2
# REPLACE, STRICT: the origin of the followed sets' jokers, all one kind. Where each joker
# lies, not freed, says whose it is (it stands for a tile of that set's reading, beside a
# real tile of it); the jokers of a set not so placed are its freed ones.
TABLE_JOKER = -3
FREED = -1
Choice = tuple[int, Tile] | int  # a table joker not freed (set's slot, tile), or FREED
Used = tuple[frozenset[Tile], ...]
# Each table joker of a set that may stay there: the tile it stands for, and the slots of
# the followed sets it may stay for.
Roles = tuple[tuple[Tile, tuple[int, ...]], ...]


class _Step(NamedTuple):
    """One set laid: the counts it leaves; the rank it adds (kept sets aside); the kind of
    plain set it may keep; the slot of the followed set it keeps if all its table jokers
    stay for that set; and each table joker's choices in it."""

    left: tuple[int, ...]
    gain: tuple[int, int, int]
    plain: int | None
    keeps: int | None
    jokers: tuple[tuple[Choice, ...], ...]


class _Search:
    """The best final table of one opened board, for one objective.

    Items are numbered; a state is how many of each item are left to lay, what the table
    jokers laid so far (not freed) stand for, and how many plain sets are kept. The table's
    items come first, by colour and number; the first one left is laid next, in each set it
    can go in. When every table tile lies in a set, the rack tiles left may make new sets.
    """

    def __init__(self, board: Board, objective: str) -> None:
        rules = board.rules
        self.objective = objective
        self.wraparound = rules.wraparound
        self.penalty = rules.joker_penalty
        by_replacement = rules.joker_retrieval is not JokerRetrieval.FREE
        self.strict = rules.joker_retrieval is JokerRetrieval.STRICT
        locked = rules.locked_joker_sets
        self.kept_already = 0  # table sets of jokers only (REPLACE, STRICT): they stay
        # The table sets the rules follow (holding a joker and a real tile; or under FREE
        # with locked-joker-sets, holding a joker), as their items; the others, by tiles.
        followed: dict[int, Counter[Item]] = {}
        plain: Counter[Bag] = Counter()
        for i, tiles in enumerate(board.table):
            if by_replacement and all(t == JOKER for t in tiles):
                self.kept_already += 1
            elif JOKER in tiles and (by_replacement or locked):
                joker = Item(TABLE_JOKER if by_replacement else i, JOKER)
                followed[i] = Counter(joker if t == JOKER else Item(i, t) for t in tiles)
            else:
                plain[_key(tiles)] += 1
        whole = Counter(Item(RACK, t) for t in board.rack)
        for items in followed.values():
            whole.update(items)
            if by_replacement and not locked:
                # Once the table jokers all lie somewhere, a followed set's tiles left can
                # anchor none and (the set broken) keep nothing: they become plain ones.
                whole.update({Item(PLAIN, i.tile): 0 for i in items if i.tile != JOKER})
        for bag, copies in plain.items():
            for t in bag:
                whole[Item(PLAIN, t)] += copies
        self.items = sorted(whole, key=_sort_key)
        self.index = {item: n for n, item in enumerate(self.items)}
        self.table_size = sum(item.origin != RACK for item in self.items)
        self.start = tuple(whole[item] for item in self.items)
        self.rack = Counter(board.rack)
        self.origin = [item.origin for item in self.items]
        self.worth = [tile_value(item.tile, self.penalty) for item in self.items]
        self.jokers = [n for n, item in enumerate(self.items) if item.tile == JOKER]
        self.of_tile: dict[Tile, list[int]] = {}
        for n, item in enumerate(self.items):
            if item.tile != JOKER:
                self.of_tile.setdefault(item.tile, []).append(n)
        self.table_joker = self.index.get(Item(TABLE_JOKER, JOKER))
        # REPLACE, STRICT: each followed set's jokers stand for the tiles of one reading.
        self.tracked = sorted(followed) if by_replacement else []
        self.readings = [
            table_readings(board.table[i], board.declared[i] if board.declared else (), rules)
            for i in self.tracked
        ]
        self.stays = [frozenset().union(*r) for r in self.readings]
        # kept: a followed set, as its items (with its slot if tracked); plain sets by kind.
        self.whole_set = {
            tuple(sorted(self.index[item] for item in items.elements())): i
            for i, items in followed.items()
        }
        kinds = sorted(plain, key=lambda bag: [t.sort_key() for t in bag])
        self.plain_kinds = {bag: n for n, bag in enumerate(kinds)}
        self.plain_limit = tuple(plain[bag] for bag in kinds)
        # locked-joker-sets: per followed set, the items that must lie in one final set.
        self.bound = [
            [self.index[item] for item in items if item.tile != JOKER or not by_replacement]
            for items in followed.values()
            if locked
        ]
        self.unbound = [
            (self.index[item], self.index[Item(PLAIN, item.tile)])
            for items in followed.values()
            for item in items
            if item.tile != JOKER and by_replacement and not locked
        ]
        self.memo: dict[tuple[tuple[int, ...], Used, tuple[int, ...]], tuple[int, ...] | None]
        self.memo = {}
        self.steps_memo: dict[tuple[int, ...], list[_Step]] = {}
        self.shapes_memo: dict[Tile, list[tuple[Bag, frozenset[Tile]]]] = {}
        self.leaf_memo: dict[tuple[Bag, Bag], tuple[int, ...] | None] = {}

    def rank(self, tiles: int, value: int, kept: int) -> tuple[int, int, int]:
        if self.objective == "tiles":
            return (tiles, value, kept)
        return (value, tiles, kept)

    def best(self) -> Best | None:
        used = tuple(frozenset[Tile]() for _ in self.tracked)
        found = self.search(self.start, used, tuple(0 for _ in self.plain_limit))
        if found is None:
            return None
        first, second, kept = found
        tiles, value = (first, second) if self.objective == "tiles" else (second, first)
        return Best(tiles, value, kept + self.kept_already)

    def search(
        self, counts: tuple[int, ...], used: Used, plain_kept: tuple[int, ...]
    ) -> tuple[int, ...] | None:
        """The best rank of what is still to lay: `counts` of each item left; `used`, per
        tracked set, the tiles its jokers laid so far (not freed) stand for; `plain_kept`,
        per kind of plain set, how many are kept so far."""
        key = (counts, used, plain_kept)
        if key not in self.memo:
            self.memo[key] = self._search(counts, used, plain_kept)
        return self.memo[key]

    def _search(
        self, counts: tuple[int, ...], used: Used, plain_kept: tuple[int, ...]
    ) -> tuple[int, ...] | None:
        if not any(counts[: self.table_size]):
            return self.leaf(counts, used)
        best = None
        for step in self.steps(counts):
            gain, kept_after = step.gain, plain_kept
            if step.plain is not None and plain_kept[step.plain] < self.plain_limit[step.plain]:
                # Keeping a plain set whenever one can is never worse: it only counts.
                gain = (gain[0], gain[1], gain[2] + 1)
                kept_after = tuple(k + (n == step.plain) for n, k in enumerate(plain_kept))
            for picked, used_after in self.joker_choices(step, used):
                rest = self.search(step.left, used_after, kept_after)
                if rest is None:
                    continue
                kept = int(
                    step.keeps is not None
                    and all(pick != FREED and pick[0] == step.keeps for pick in picked)  # type: ignore[index]
                )
                total = (gain[0] + rest[0], gain[1] + rest[1], gain[2] + kept + rest[2])
                if best is None or total > best:
                    best = total
        return best

    def steps(self, counts: tuple[int, ...]) -> list[_Step]:
        """Each set that may hold the first table item left, from the items left."""
        if counts not in self.steps_memo:
            first = next(n for n in range(self.table_size) if counts[n])
            found = [
                step
                for items, roles in self.sets_with(first, counts)
                if (step := self.step(counts, items, roles)) is not None
            ]
            self.steps_memo[counts] = found
        return self.steps_memo[counts]

    def shapes_with(self, tile: Tile) -> list[tuple[Bag, frozenset[Tile]]]:
        """The shapes holding the tile (any, for a joker) that the board's tiles can fill."""
        if tile not in self.shapes_memo:
            jokers = sum(self.start[n] for n in self.jokers)
            faces = frozenset(self.of_tile)
            every = shapes(self.wraparound) if tile == JOKER else shapes_with(tile, self.wraparound)
            self.shapes_memo[tile] = [
                (shape, _faces(shape)) for shape in every if len(_faces(shape) - faces) <= jokers
            ]
        return self.shapes_memo[tile]

    def sets_with(self, first: int, counts: tuple[int, ...]) -> set[tuple[tuple[int, ...], Roles]]:
        """Every set holding item `first` and other items left: its items (sorted), and for
        each table joker in it that may stay there, the tile it stands for and the slots of
        the sets it may stay for (beside a real tile of that set, standing for a tile of one
        of its readings)."""
        left = list(counts)
        jokers = [j for j in self.jokers if left[j]]
        spare = sum(left[j] for j in jokers)
        # A place's options: an item of its face, or a joker; the first item's face, that item.
        options_of = {}
        for t, ns in self.of_tile.items():
            if here := [n for n in ns if left[n]]:
                options_of[t] = [*here, *jokers]
        faces = frozenset(options_of)
        tile = self.items[first].tile
        only_first = [first]
        found: set[tuple[tuple[int, ...], Roles]] = set()
        for shape, shape_faces in self.shapes_with(tile):
            if not shape_faces <= faces and len(shape_faces - faces) > spare:
                continue  # more places than jokers that no tile left can fill
            options = [only_first if t == tile else options_of.get(t, jokers) for t in shape]
            for fill in _fills(options, left):
                if first not in fill:
                    continue  # a joker first: some place holds it
                if self.table_joker not in fill:
                    found.add((tuple(sorted(fill)), ()))
                    continue
                roles = []
                anchors = {self.origin[n] for n in fill}
                for n, role in zip(fill, shape, strict=True):
                    if n == self.table_joker:
                        slots = tuple(
                            k
                            for k, i in enumerate(self.tracked)
                            if i in anchors and role in self.stays[k]
                        )
                        if slots:
                            roles.append((role, slots))
                roles.sort(key=lambda pair: pair[0].sort_key())
                found.add((tuple(sorted(fill)), tuple(roles)))
        return found

    def step(
        self,
        counts: tuple[int, ...],
        items: tuple[int, ...],
        roles: Roles,
    ) -> _Step | None:
        """A set laid, or None where the rules forbid it."""
        # locked-joker-sets: a set holding any bound item of a table set holds all of them.
        for bound in self.bound:
            if any(n in items for n in bound) and any(items.count(n) != counts[n] for n in bound):
                return None
        from_rack = [n for n in items if self.origin[n] == RACK]
        value = sum(self.worth[n] for n in from_rack)
        kept, keeps = 0, None
        if items in self.whole_set:
            i = self.whole_set[items]
            if i in self.tracked:
                keeps = self.tracked.index(i)  # kept if its jokers stay for it
            else:
                kept = 1
        plain = None
        if all(self.origin[n] == PLAIN for n in items):
            plain = self.plain_kinds.get(_key(tuple(self.items[n].tile for n in items)))
        # Each table joker: not freed (then `roles` has it), or freed (STRICT: in a set
        # holding two tiles played from the rack).
        freeable = not self.strict or len(from_rack) >= 2
        jokers: list[tuple[Choice, ...]] = [
            (*((k, role) for k in slots), *([FREED] if freeable else [])) for role, slots in roles
        ]
        only_freed = (items.count(self.table_joker) if self.table_joker is not None else 0) - len(
            roles
        )
        if only_freed and not freeable:
            return None
        jokers.extend([(FREED,)] * only_freed)
        left = list(counts)
        for n in items:
            left[n] -= 1
        if self.table_joker is not None and counts[self.table_joker] and not left[self.table_joker]:
            for real, plain_copy in self.unbound:
                left[plain_copy] += left[real]
                left[real] = 0
        gain = self.rank(len(from_rack), value, kept)
        return _Step(tuple(left), gain, plain, keeps, tuple(jokers))

    def joker_choices(self, step: _Step, used: Used) -> Iterator[tuple[tuple[Choice, ...], Used]]:
        """Each way the step's table jokers may lie, with the tiles used after it: jokers of
        one set not freed stand for different tiles, all of one of its readings."""
        for picked in set(product(*step.jokers)):
            after = list(used)
            for pick in picked:
                if pick == FREED:
                    continue
                k, role = pick  # type: ignore[misc]
                if role in after[k]:
                    break
                after[k] = after[k] | {role}
                if not any(after[k] <= reading for reading in self.readings[k]):
                    break
            else:
                yield picked, tuple(after)

    def leaf(self, counts: tuple[int, ...], used: Used) -> tuple[int, ...] | None:
        """Every table tile lies in a set: the rack tiles left may form new sets, holding
        (with those played already) a copy for each joker freed, in some reading."""
        left: Counter[Tile] = Counter()
        for item, k in zip(self.items[self.table_size :], counts[self.table_size :], strict=True):
            left[item.tile] += k
        played = self.rack - left
        choices = [[r for r in rs if u <= r] for rs, u in zip(self.readings, used, strict=True)]
        best = None
        for chosen in product(*choices):
            freed = Counter(t for reading, u in zip(chosen, used, strict=True) for t in reading - u)
            owed = freed - played
            if owed - left:
                continue
            found = self.new_sets(_key(tuple(left.elements())), _key(tuple(owed.elements())))
            if found is not None and (best is None or found > best):
                best = found
        return best

    def new_sets(self, left: Bag, owed: Bag) -> tuple[int, ...] | None:
        """The best new sets of rack tiles alone among `left`, holding at least `owed`."""
        key = (left, owed)
        if key not in self.leaf_memo:
            best = None
            need = Counter(owed)
            for bag in meldable(left, self.wraparound):
                if need - Counter(bag):
                    continue
                value = sum(tile_value(t, self.penalty) for t in bag)
                found = self.rank(len(bag), value, 0)
                if best is None or found > best:
                    best = found
            self.leaf_memo[key] = best
        return self.leaf_memo[key]


@cache
def _faces(shape: Bag) -> frozenset[Tile]:
    return frozenset(shape)


def _fills(options: list[list[int]], left: list[int]) -> list[tuple[int, ...]]:
    """Every way to fill the places, each with one of its options; `left` counts the items
    still free (restored on return)."""
    found: list[tuple[int, ...]] = []
    chosen: list[int] = []

    def fill(at: int) -> None:
        if at == len(options):
            found.append(tuple(chosen))
            return
        for n in options[at]:
            if left[n]:
                left[n] -= 1
                chosen.append(n)
                fill(at + 1)
                chosen.pop()
                left[n] += 1

    fill(0)
    return found


# The property tests of several backends draw the same positions: each is solved once.
@lru_cache(maxsize=4096)
def best_move(board: Board, objective: str = "tiles") -> Best:
    """The best (tiles, value, sets kept) over every legal play of the rack."""
    if not board.opened:
        return _best_meld(board, objective)
    found = _Search(board, objective).best()
    assert found is not None  # playing nothing is always possible
    return found


def _best_meld(board: Board, objective: str) -> Best:
    """Before the initial meld: new sets of rack tiles alone, worth the meld, or nothing."""
    rules = board.rules
    best = Best(0, 0, len(board.table))
    for bag, points in meldable(_key(board.rack), rules.wraparound).items():
        if bag and points < rules.initial_meld:
            continue
        value = sum(tile_value(t, rules.joker_penalty) for t in bag)
        candidate = Best(len(bag), value, len(board.table))
        if _rank(candidate, objective) > _rank(best, objective):
            best = candidate
    return best


def _rank(best: Best, objective: str) -> tuple[int, int, int]:
    if objective == "tiles":
        return (best.tiles, best.value, best.kept)
    return (best.value, best.tiles, best.kept)


# --- Every best move (jokers free) ---------------------------------------------------------
#
# Two moves are the same when they lay the same groups and, per colour, the same tiles in
# sets of that colour alone (runs, and a tile with jokers), however those are cut; jokers
# go with the set they lie in. Written from those words alone, as the rest of this file.

Key = tuple[tuple[Bag, ...], tuple[tuple[str, Bag], ...]]


def table_key(table: list[Bag]) -> Key:
    """A final table up to the order of its sets and how runs of one colour are cut."""
    groups: list[Bag] = []
    runs: dict[str, list[Tile]] = {}
    for tiles in table:
        real = [t for t in tiles if t != JOKER]
        colours = {t.colour for t in real}
        if len(colours) <= 1 and len(set(real)) == len(real):
            name = real[0].colour.letter if real and real[0].colour is not None else "J"
            runs.setdefault(name, []).extend(tiles)
        else:
            groups.append(_key(tiles))
    return (
        tuple(sorted(groups, key=_bag_order)),
        tuple(sorted((c, _key(tuple(ts))) for c, ts in runs.items())),
    )


def every_best_table(board: Board, objective: str = "tiles") -> tuple[Best, set[Key]]:
    """The best (tiles, value, kept) and every final table reaching it, by `table_key`,
    with jokers free (FREE, no locked sets): each sub-bag of the rack played, the table
    and it cut into sets every way (before the initial meld: it alone, worth the meld)."""
    rules = board.rules
    assert rules.joker_retrieval is JokerRetrieval.FREE and not rules.locked_joker_sets
    old = Counter(_key(s) for s in board.table)
    rank_best: tuple[int, int, int] | None = None
    found: set[Key] = set()
    rack = _key(board.rack)
    for size in range(len(rack) + 1):
        for played in set(combinations(rack, size)):
            value = sum(tile_value(t, rules.joker_penalty) for t in played)
            if board.opened:
                tiles = _key(tuple(board.table_tiles) + played)
                cuts = [list(cut) for cut in _cuts(tiles, rules.wraparound)]
                tables = [(cut, sum((Counter(cut) & old).values())) for cut in cuts]
            else:
                meld = [list(cut) for cut in _cuts(played, rules.wraparound)]
                worth = [sum(set_value(s, rules.wraparound) or 0 for s in cut) for cut in meld]
                tables = [
                    ([*map(_key, board.table), *cut], len(board.table))
                    for cut, points in zip(meld, worth, strict=True)
                    if not played or points >= rules.initial_meld
                ]
            for table, kept in tables:
                rank = (size, value, kept) if objective == "tiles" else (value, size, kept)
                if rank_best is None or rank > rank_best:
                    rank_best, found = rank, set()
                if rank == rank_best:
                    found.add(table_key(table))
    assert rank_best is not None
    first, second, kept = rank_best
    count, points = (first, second) if objective == "tiles" else (second, first)
    return Best(count, points, kept), found


def _bag_order(bag: Bag) -> list[tuple[int, int]]:
    return [t.sort_key() for t in bag]


@cache
def _cuts(tiles: Bag, wraparound: bool) -> frozenset[tuple[Bag, ...]]:
    """Every way to cut the (sorted) bag into sets, each cut as its sorted sets."""
    if not tiles:
        return frozenset({()})
    first, rest = tiles[0], tiles[1:]
    cuts = set()
    for part in _sets_from(first, rest, wraparound):
        left = Counter(rest)
        left.subtract(part[1:])
        for cut in _cuts(_key(tuple(left.elements())), wraparound):
            cuts.add(tuple(sorted((_key(part), *cut), key=_bag_order)))
    return frozenset(cuts)


def partitionable(tiles: Bag, wraparound: bool) -> bool:
    """Whether the bag cuts into sets at all: its first tile in some set with others of
    it, and the rest likewise (any order of the bag)."""
    return _partitionable(_key(tiles), wraparound)


@cache
def _partitionable(tiles: Bag, wraparound: bool) -> bool:
    if not tiles:
        return True
    first, rest = tiles[0], tiles[1:]
    for part in _sets_from(first, rest, wraparound):
        left = Counter(rest)
        left.subtract(part[1:])
        if _partitionable(_key(tuple(left.elements())), wraparound):
            return True
    return False
