"""Where a tile stays: which old set (or piece of an old run cut where it lies) each new
set is built on, to keep the most tiles in place. A search, exact on any table a person
meets; a bound on its size keeps a pathological one fast.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import permutations

from ..jokers import stand_ins
from ..rules import Rules
from ..sets import Kind, read_meld
from ..tiles import JOKER, Tile, TileRow

# Partial assignments the search looks at before it settles for the best found so far.
_SEARCH_LIMIT = 5_000
# A run is cut only into pieces that each keep this many tiles in place: one tile left
# where it lay is as good as taken.
_LEAST_PIECE = 2
# New runs on one old run: up to this many, every order along it is tried.
_ORDERS_TRIED = 4


class Bases:
    """Which old set (or piece of an old run) each new set is built on, to keep the most
    tiles in place."""

    def __init__(
        self,
        old_sets: Sequence[TileRow],
        new_sets: Sequence[TileRow],
        rules: Rules,
        pins: Sequence[Counter[Tile]] = (),
        rack_in: Sequence[Counter[Tile]] = (),
        newcomers: Sequence[Counter[Tile]] = (),
    ) -> None:
        self.old, self.new, self.rules = old_sets, new_sets, rules
        # Tiles of each new set that must be the rack's: none of an old set's copies stays
        # there, unless the rack's copy lies in that old set already (`rack_in`); and no
        # other new set keeps the rack's copy that one needs, where the rack has no other.
        pins = list(pins) or [Counter() for _ in new_sets]
        rack_in = list(rack_in) or [Counter() for _ in old_sets]
        spare = Counter(t for row in new_sets for t in row)
        spare.subtract(t for row in old_sets for t in row)
        needed = sum(pins, Counter()) - spare
        self.pins = [[pin - put + (put & (needed - pin)) for put in rack_in] for pin in pins]
        # The places of jokers that are not the table's staying ones: kept for none.
        self.newcomers = list(newcomers) or [Counter() for _ in new_sets]
        for n, roles in enumerate(self.newcomers):
            for pin in self.pins[n]:
                pin[JOKER] += roles.total()
        self.runs = [_is_run(old, rules) for old in old_sets]
        self.runs_new = [_is_run(new, rules) for new in new_sets]
        self.cache: dict[tuple[int, tuple[int, ...]], dict[int, tuple[int, ...]] | None] = {}
        self.roles: Sequence[Sequence[Tile | None]] | None = None
        self.stays: Counter[tuple[int, Tile, int]] = Counter()
        # Locked old sets that go whole into a new set built on another: old set -> new.
        self.joined: dict[int, int] = {}
        self._measure()

    def keep_jokers_where_they_stay(
        self, roles: Sequence[Sequence[Tile | None]], stays: Sequence[tuple[int, Tile, int]]
    ) -> None:
        """An old set's joker is kept in place only for the new set it stays in, as the
        tile it stands for (`roles`: for each old set, what the joker at each place stands
        for; `stays`: each joker's old set, tile and new set)."""
        self.roles, self.stays = roles, Counter(stays)
        self._measure()

    def _measure(self) -> None:
        """How many tiles each new set could keep of each old set, the pins aside."""
        self.overlap = [
            [len(self._common(i, n)) for i in range(len(self.old))] for n in range(len(self.new))
        ]
        self.cache.clear()

    def _common(self, i: int, n: int) -> tuple[int, ...]:
        """The places of old set i's tiles that new set n could keep, the pins aside."""
        old = self.old[i]
        wanted = Counter(old) & (Counter(self.new[n]) - self.pins[n][i])
        if self.roles is None:
            return _places(old, wanted)
        jokers = wanted.pop(JOKER, 0)
        stay = Counter({role: k for (at, role, to), k in self.stays.items() if (at, to) == (i, n)})
        kept: list[int] = []
        for j, role in enumerate(self.roles[i]):
            if role is not None and stay[role] > 0 and len(kept) < jokers:
                stay[role] -= 1
                kept.append(j)
        return tuple(sorted((*_places(old, wanted), *kept)))

    def lock(self, i: int, n: int) -> None:
        """Old set i is locked: new set n is built on it alone, and no other new set keeps
        a tile of it (its own tiles stay where they lie)."""
        for j, pin in enumerate(self.pins[n]):
            if j != i:
                pin.update(self.new[n])
        for m, pins in enumerate(self.pins):
            if m != n:
                pins[i].update(self.old[i])
        self._measure()

    def join(self, i: int, n: int) -> None:
        """Old set i is locked and goes whole into new set n, built on another: no other
        new set keeps a tile of it (its own tiles go together)."""
        self.joined[i] = n
        for m, pins in enumerate(self.pins):
            if m != n:
                pins[i].update(self.old[i])
        self._measure()

    def exclude(self, n: int, i: int, tile: Tile, taken: bool = False) -> None:
        """New set n keeps `tile` from old set i only, and no other new set keeps old set
        i's; `taken`: nor n, in place (the one n gets is old set i's, from the hand). The
        bases are searched again."""
        for j, pin in enumerate(self.pins[n]):
            if j != i and self.old[j].count(tile):
                pin[tile] += 1
        for m, pins in enumerate(self.pins):
            if m != n or taken:
                pins[i][tile] += 1
        self._measure()

    def pieces(self, i: int, group: Sequence[int]) -> dict[int, tuple[int, ...]]:
        """For each new set built on old set i, the places of the old tiles it keeps."""
        found = self._pieces(i, tuple(sorted(group)))
        assert found is not None
        return found

    def kept(self, i: int, group: Sequence[int]) -> int | None:
        """Tiles old set i keeps in place for these new sets; None: they cannot share it."""
        found = self._pieces(i, tuple(sorted(group)))
        return None if found is None else sum(len(p) for p in found.values())

    def _pieces(self, i: int, group: tuple[int, ...]) -> dict[int, tuple[int, ...]] | None:
        key = (i, group)
        if key not in self.cache:
            self.cache[key] = self._cut(i, group)
        return self.cache[key]

    def _cut(self, i: int, group: tuple[int, ...]) -> dict[int, tuple[int, ...]] | None:
        old = self.old[i]
        if len(group) <= 1:
            # One new set on the whole old set: it keeps every tile they have in common.
            return {n: self._common(i, n) for n in group}
        if not self.runs[i] or not all(self.runs_new[n] for n in group):
            return None
        # A run cut into runs: the pieces follow one another along the run as the new
        # runs do; a tile stays if its piece's run holds it standing for the same tile.
        old_keys = _keys(old, self.rules)
        along = sorted(group, key=lambda n: _keys(self.new[n], self.rules)[0][1].number)
        # New runs that overlap may lie either way round along the old one: every order
        # is tried where there are few (there are never many: each piece keeps two).
        orders = permutations(along) if len(along) <= _ORDERS_TRIED else [tuple(along)]
        best: tuple[int, tuple[int, ...], tuple[int, ...]] | None = None
        for runs in orders:
            wanted = [self._wanted(n, i) for n in runs]
            found = _cut_in_order(old_keys, wanted)
            if found is not None and (best is None or found[0] > best[0]):
                best = (found[0], found[1], runs)
        if best is None:
            return None
        _, ends, runs = best
        pieces: dict[int, tuple[int, ...]] = {}
        start = 0
        for n, end in zip(runs, ends, strict=True):
            left = self._wanted(n, i)
            places = []
            for j in range(start, end):
                if left[old_keys[j]] > 0:
                    left[old_keys[j]] -= 1
                    places.append(j)
            pieces[n] = tuple(places)
            start = end
        return pieces

    def _wanted(self, n: int, i: int) -> Counter[tuple[Tile, Tile]]:
        """New set n's tiles with what each stands for, less those that must be the rack's
        (and not old set i's)."""
        pinned = {(t, t): count for t, count in self.pins[n][i].items() if not t.is_joker}
        pinned |= {(JOKER, role): count for role, count in self.newcomers[n].items()}
        return Counter(_keys(self.new[n], self.rules)) - Counter(pinned)

    def best(self) -> list[list[int]]:
        """For each old set, the new sets built on it: the most tiles kept in place. Sets
        that share no tile with one another are apart: each such part is searched alone."""
        groups: list[list[int]] = [[] for _ in self.old]
        for part in self._parts():
            for i, group in enumerate(self._best_in(part)):
                groups[i].extend(group)
        return groups

    def _parts(self) -> list[list[int]]:
        """The new sets, in parts that share no old set (new sets sharing no tile with the
        old table are left out: they are laid new)."""
        part_of_old: dict[int, int] = {}
        parts: list[set[int]] = []
        for n in range(len(self.new)):
            olds = [i for i, common in enumerate(self.overlap[n]) if common > 0]
            if not olds:
                continue
            joined = {part_of_old[i] for i in olds if i in part_of_old}
            merged = {n}.union(*(parts[p] for p in joined))
            parts.append(merged)
            for i in olds:
                part_of_old[i] = len(parts) - 1
            for p in joined:
                for i in [i for i, q in part_of_old.items() if q == p]:
                    part_of_old[i] = len(parts) - 1
                parts[p] = set()
        return [sorted(part) for part in parts if part]

    def _best_in(self, part: list[int]) -> list[list[int]]:
        """The best bases for these new sets: a depth-first search, the most promising
        first, cut off where even every set's best overlap could not beat the best found."""
        order = sorted(part, key=lambda n: -max(self.overlap[n]))
        touching = [
            [(i, common) for i, common in enumerate(self.overlap[n]) if common > 0] for n in order
        ]
        # Tiles of each old set not yet kept: what it can still give the sets to come.
        room = [len(old) for old in self.old]
        groups: list[list[int]] = [[] for _ in self.old]
        best: tuple[int, list[list[int]]] = (-1, [])
        nodes = 0

        def reach(k: int) -> int:
            """The most the sets from the k-th on could still keep."""
            most = sum(
                max(min(common, room[i]) for i, common in touching[j]) for j in range(k, len(order))
            )
            return min(most, sum(room[i] for i in {i for t in touching[k:] for i, _ in t}))

        def search(k: int, total: int) -> None:
            nonlocal best, nodes
            nodes += 1
            if k == len(order):
                if total > best[0]:
                    best = (total, [list(g) for g in groups])
                return
            if total + reach(k) <= best[0] or (nodes > _SEARCH_LIMIT and best[0] >= 0):
                return
            n = order[k]
            choices = [i for i, _ in sorted(touching[k], key=lambda pair: -pair[1])]
            # The first of equally good answers stays: a whole old set first, then no
            # base, and a piece of a cut run last (a cut only where it keeps more).
            whole = [i for i in choices if not groups[i]]
            for i in whole:
                groups[i].append(n)
                room[i] -= self.overlap[n][i]
                search(k + 1, total + self.overlap[n][i])
                room[i] += self.overlap[n][i]
                groups[i].pop()
            search(k + 1, total)
            for i in choices:
                if i in whole:
                    continue
                before = self.kept(i, groups[i])
                groups[i].append(n)
                now = self.kept(i, groups[i])
                if now is not None and before is not None:
                    room[i] -= now - before
                    search(k + 1, total + now - before)
                    room[i] += now - before
                groups[i].pop()

        search(0, 0)
        return best[1]


def _cut_in_order(
    old_keys: Sequence[tuple[Tile, Tile]], wanted: Sequence[Counter[tuple[Tile, Tile]]]
) -> tuple[int, tuple[int, ...]] | None:
    """The most tiles pieces of the old run keep, each piece (in this order along it)
    for one new run, and where each piece ends; None if some piece would keep too few.

    A run's tiles stand for different tiles, so a piece keeps those of its tiles that its
    new run holds: counted along the run once, for every piece at once."""
    length = len(old_keys)
    counted = [[0] for _ in wanted]
    for m, keys in enumerate(wanted):
        for key in old_keys:
            counted[m].append(counted[m][-1] + (keys[key] > 0))

    @cache
    def most(m: int, start: int) -> tuple[int, tuple[int, ...]] | None:
        if m == len(wanted):
            return 0, ()
        ends = range(start + 1, length + 1) if m < len(wanted) - 1 else [length]
        found: tuple[int, tuple[int, ...]] | None = None
        for end in ends:
            here = counted[m][end] - counted[m][start]
            rest = most(m + 1, end)
            if here < _LEAST_PIECE or rest is None:
                continue
            if found is None or here + rest[0] > found[0]:
                found = (here + rest[0], (end, *rest[1]))
        return found

    return most(0, 0)


def _is_run(row: TileRow, rules: Rules) -> bool:
    meld = read_meld(row, rules)
    return meld is not None and meld.kind is Kind.RUN


def _places(row: TileRow, wanted: Counter[Tile]) -> tuple[int, ...]:
    left = Counter(wanted)
    places = []
    for j, t in enumerate(row):
        if left[t] > 0:
            left[t] -= 1
            places.append(j)
    return tuple(places)


def _keys(row: TileRow, rules: Rules) -> list[tuple[Tile, Tile]]:
    """Each tile with what it stands for: a joker stays in a piece only as the same tile."""
    return list(zip(row, stand_ins(row, rules), strict=True))
