"""An exhaustive reference solver for small positions, sharing no code with the model.

It follows every tile as a physical object: each table tile is labelled with the set it
lies in, each played rack tile with the rack. A final table is searched for set by set:
the first table tile not yet laid goes into some set (every run window and group, its
places filled by tiles of that type or by jokers, from the table or the rack), until
every table tile lies in one; the rack tiles left over may then form new sets of their
own. Along the way it keeps, for the joker rules, what each table joker that is not freed
stands for. The best (tiles, value, kept) over all of it is found by a memoised search.

The rules it follows (opened boards; before the initial meld the table stays as it lies
and the played tiles form new sets worth at least the initial meld):

- FREE: any cutting of the table's tiles and the played tiles into sets.
- REPLACE and STRICT: each table set holding a joker and a real tile has one reading (what
  its jokers stand for). Each of its jokers is either not freed (it lies in a set where it
  stands for the same tile, beside at least one real tile physically from its own set) or
  freed (a rack copy of the tile it stands for is played, one copy per joker freed; under
  STRICT the freed joker's set holds at least two tiles played from the rack). A table set
  of jokers only stays exactly as it lies.
- locked-joker-sets: the real tiles of a table set holding a joker all lie in one final
  set, and so does each of its jokers not freed (under FREE: all of them).
- kept: a table set is kept when one final set is made of exactly its physical tiles.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cache
from itertools import combinations, product
from typing import NamedTuple

from rummisolve.board import Board
from rummisolve.rules import JokerRetrieval
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
    real = [t for t in tiles if t != JOKER]
    if len(set(real)) != len(real):
        return ()
    found = {
        frozenset(shape) - frozenset(real)
        for shape in shapes(wraparound)
        if len(shape) == len(tiles) and set(real) <= set(shape)
    }
    return tuple(found)


def _sort_key(item: Item) -> tuple[bool, int, tuple[int, int]]:
    """Real tiles before jokers, the table's before the rack's."""
    return (item.tile == JOKER, item.origin == RACK, item.origin, *item.tile.sort_key())


def _key(tiles: Bag) -> Bag:
    return tuple(sorted(tiles, key=Tile.sort_key))


# A set laid: its items (sorted), the tile each tracked joker stands for (sorted pairs),
# and its face value as read so (the most, over its readings).
Laid = tuple[tuple[Item, ...], tuple[tuple[Item, Tile], ...]]


def sets_with(
    first: Item, pool: Counter[Item], wraparound: bool, tracked: frozenset[int]
) -> dict[Laid, int]:
    """Every set holding `first` and other items of `pool`, each with what the jokers of a
    `tracked` origin stand for in it, and its highest face value."""
    jokers = [i for i in pool if i.tile == JOKER and pool[i] > 0]
    by_tile: dict[Tile, list[Item]] = {}
    for item, count in pool.items():
        if count > 0 and item.tile != JOKER:
            by_tile.setdefault(item.tile, []).append(item)
    joker_count = sum(pool[j] for j in jokers)
    if first.tile == JOKER:
        spots = [(s, k) for s in shapes(wraparound) for k in range(len(s))]
    else:
        spots = [(s, s.index(first.tile)) for s in shapes_with(first.tile, wraparound)]
    found: dict[Laid, int] = {}
    left = Counter(pool)
    for shape, spot in spots:
        places = [t for k, t in enumerate(shape) if k != spot]
        if sum(t not in by_tile for t in places) > joker_count:
            continue
        value = sum(t.number for t in shape)
        for fill in _fills(places, by_tile, jokers, left):
            items = (first, *fill)
            roles = tuple(
                sorted(
                    (
                        (item, role)
                        for item, role in zip(items, (shape[spot], *places), strict=True)
                        if item.tile == JOKER and item.origin in tracked
                    ),
                    key=lambda pair: (pair[0].origin, *pair[1].sort_key()),
                )
            )
            laid = (tuple(sorted(items, key=_sort_key)), roles)
            found[laid] = max(found.get(laid, 0), value)
    return found


def _fills(
    places: list[Tile], by_tile: dict[Tile, list[Item]], jokers: list[Item], left: Counter[Item]
) -> Iterator[tuple[Item, ...]]:
    """Every way to fill the places, each with an item of its tile or a joker; `left`
    counts what is still free (restored on return)."""
    if not places:
        yield ()
        return
    for item in [*by_tile.get(places[0], ()), *jokers]:
        if left[item] > 0:
            left[item] -= 1
            for rest in _fills(places[1:], by_tile, jokers, left):
                yield (item, *rest)
            left[item] += 1


@cache
def meldable(rack: Bag, wraparound: bool) -> dict[Bag, int]:
    """Every sub-multiset of the (sorted) bag that can be laid as sets of its own, with the
    most points it can count (a joker as the tile it stands for, at the most)."""
    if not rack:
        return {(): 0}
    first, rest = rack[0], rack[1:]
    found = dict(meldable(rest, wraparound))  # the first tile (this copy) left out
    pool = Counter(Item(RACK, t) for t in rest)
    for (items, _), value in sets_with(Item(RACK, first), pool, wraparound, frozenset()).items():
        others = Counter(rest)
        others.subtract(i.tile for i in items[1:])
        for more, more_value in meldable(_key(tuple(others.elements())), wraparound).items():
            key = _key(tuple(i.tile for i in items) + more)
            found[key] = max(found.get(key, 0), value + more_value)
    return found


# --- The search ------------------------------------------------------------------------


class _Search:
    """The best final table of one opened board, for one objective."""

    def __init__(self, board: Board, objective: str) -> None:
        rules = board.rules
        self.objective = objective
        self.wraparound = rules.wraparound
        self.penalty = rules.joker_penalty
        self.by_replacement = rules.joker_retrieval is not JokerRetrieval.FREE
        self.strict = rules.joker_retrieval is JokerRetrieval.STRICT
        # A table set of jokers only stays as it lies (REPLACE, STRICT): kept, and out of play.
        self.kept_already = 0
        self.sets: dict[int, Counter[Item]] = {}
        for i, tiles in enumerate(board.table):
            if self.by_replacement and all(t == JOKER for t in tiles):
                self.kept_already += 1
            else:
                self.sets[i] = Counter(Item(i, t) for t in tiles)
        # Origins whose jokers keep standing for a tile: their readings.
        self.readings: dict[int, tuple[frozenset[Tile], ...]] = {}
        if self.by_replacement:
            for i in self.sets:
                tiles = _key(board.table[i])
                if JOKER in tiles:
                    self.readings[i] = readings(tiles, self.wraparound)
        self.tracked = frozenset(self.readings)
        self.tracked_order = sorted(self.readings)
        # locked-joker-sets: per set holding a joker, the items that must lie together.
        self.bound: dict[int, list[Item]] = {}
        if rules.locked_joker_sets:
            for i, items in self.sets.items():
                if Item(i, JOKER) in items:
                    self.bound[i] = [
                        item for item in items if not (self.by_replacement and item.tile == JOKER)
                    ]
        table_items = sorted({item for s in self.sets.values() for item in s}, key=_sort_key)
        rack_items = sorted({Item(RACK, t) for t in board.rack}, key=_sort_key)
        self.items = table_items + rack_items
        self.table_size = len(table_items)
        whole = Counter(Item(RACK, t) for t in board.rack)
        for items in self.sets.values():
            whole.update(items)
        self.start = tuple(whole[item] for item in self.items)
        self.rack = Counter(board.rack)
        self.memo: dict[tuple[tuple[int, ...], tuple[frozenset[Tile], ...]], tuple[int, ...] | None]
        self.memo = {}
        self.leaf_memo: dict[tuple[Bag, Bag], tuple[int, ...] | None] = {}
        self.laid_memo: dict[tuple[int, ...], dict[Laid, int]] = {}

    def rank(self, tiles: int, value: int, kept: int) -> tuple[int, int, int]:
        if self.objective == "tiles":
            return (tiles, value, kept)
        return (value, tiles, kept)

    def best(self) -> Best | None:
        used = tuple(frozenset[Tile]() for _ in self.tracked_order)
        found = self.search(self.start, used)
        if found is None:
            return None
        first, second, kept = found
        tiles, value = (first, second) if self.objective == "tiles" else (second, first)
        return Best(tiles, value, kept + self.kept_already)

    def search(
        self, counts: tuple[int, ...], used: tuple[frozenset[Tile], ...]
    ) -> tuple[int, ...] | None:
        """The best rank of what is still to lay: `counts` of each item left, and `used`,
        per tracked origin, the tiles its jokers laid so far (not freed) stand for."""
        key = (counts, used)
        if key not in self.memo:
            self.memo[key] = self._search(counts, used)
        return self.memo[key]

    def _search(
        self, counts: tuple[int, ...], used: tuple[frozenset[Tile], ...]
    ) -> tuple[int, ...] | None:
        at = next((n for n in range(self.table_size) if counts[n]), None)
        if at is None:
            return self.leaf(counts, used)
        best = None
        for items, roles, rack_tiles, rack_value, kept, new_used in self.steps(counts, at, used):
            left = list(counts)
            for item in items:
                left[self.items.index(item)] -= 1
            rest = self.search(tuple(left), new_used)
            if rest is None:
                continue
            here = self.rank(rack_tiles, rack_value, kept)
            total = tuple(a + b for a, b in zip(here, rest, strict=True))
            if best is None or total > best:
                best = total
        return best

    def laid(self, counts: tuple[int, ...], at: int) -> dict[Laid, int]:
        """The sets holding item `at`, from the items `counts` leaves."""
        if counts not in self.laid_memo:
            pool = Counter({item: n for item, n in zip(self.items, counts, strict=True) if n})
            pool[self.items[at]] -= 1
            found = sets_with(self.items[at], pool, self.wraparound, self.tracked)
            self.laid_memo[counts] = found
        return self.laid_memo[counts]

    def steps(
        self, counts: tuple[int, ...], at: int, used: tuple[frozenset[Tile], ...]
    ) -> Iterator[tuple[tuple[Item, ...], object, int, int, int, tuple[frozenset[Tile], ...]]]:
        """Each legal set holding item `at`: its items, its roles, the rack tiles and value
        it plays, whether it keeps a table set, and the roles used after it."""
        seen = set()
        for items, roles in self.laid(counts, at):
            content = Counter(items)
            if not self.locked_ok(content, counts):
                continue
            from_rack = [i for i in items if i.origin == RACK]
            rack_tiles = len(from_rack)
            rack_value = sum(tile_value(i.tile, self.penalty) for i in from_rack)
            origins = {i.origin for i in items}
            kept = int(
                len(origins) == 1 and RACK not in origins and content == self.sets[items[0].origin]
            )
            for new_used in self.joker_choices(items, roles, rack_tiles, used):
                step = (items, rack_tiles, rack_value, kept, new_used)
                if step not in seen:
                    seen.add(step)
                    yield items, roles, rack_tiles, rack_value, kept, new_used

    def locked_ok(self, content: Counter[Item], counts: tuple[int, ...]) -> bool:
        """locked-joker-sets: a set holding any bound item of a set holds all of them."""
        for bound in self.bound.values():
            if any(content[i] for i in bound) and any(
                content[i] != counts[self.items.index(i)] for i in bound
            ):
                return False
        return True

    def joker_choices(
        self,
        items: tuple[Item, ...],
        roles: tuple[tuple[Item, Tile], ...],
        rack_tiles: int,
        used: tuple[frozenset[Tile], ...],
    ) -> Iterator[tuple[frozenset[Tile], ...]]:
        """Each way the tracked table jokers of a set may lie in it: every one either not
        freed (standing for a tile of its set's reading, beside a real tile of its set) or
        freed (STRICT: the set holds two tiles from the rack). Yields the roles used after."""
        anchored = {i.origin for i in items if i.tile != JOKER and i.origin != RACK}
        options = []
        for item, role in roles:
            choice = []
            if item.origin in anchored:
                choice.append((item.origin, role))  # not freed, standing for `role`
            if not self.strict or rack_tiles >= 2:
                choice.append(None)  # freed
            options.append(choice)
        for picked in product(*options):
            new_used = list(used)
            ok = True
            for pick in picked:
                if pick is None:
                    continue
                origin, role = pick
                n = self.tracked_order.index(origin)
                if role in new_used[n]:
                    ok = False  # two jokers of one set cannot stand for the same tile
                    break
                new_used[n] = new_used[n] | {role}
                if not any(new_used[n] <= reading for reading in self.readings[origin]):
                    ok = False
                    break
            if ok:
                yield tuple(new_used)

    def leaf(
        self, counts: tuple[int, ...], used: tuple[frozenset[Tile], ...]
    ) -> tuple[int, ...] | None:
        """Every table tile lies in a set: the rack tiles left may form new sets, holding
        (with those played already) a copy for each joker freed, in some reading."""
        left = Counter()
        for item, n in zip(self.items[self.table_size :], counts[self.table_size :], strict=True):
            left[item.tile] += n
        played = self.rack - left
        best = None
        choices = [
            [r for r in self.readings[origin] if used[n] <= r]
            for n, origin in enumerate(self.tracked_order)
        ]
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


def best_move(board: Board, objective: str = "tiles") -> Best:
    """The best (tiles, value, sets kept) over every legal play of the rack."""
    rules = board.rules
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
