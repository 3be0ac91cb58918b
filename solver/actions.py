"""A move as a person carries it out at the table: which tiles to take from which set,
which run to split, what to add where and what to lay new, in that order, moving as few
tiles as the new table allows; and the board after the move, for the next turn.

The sets that change are read from the move's steps alone (which old set gave which
tiles), so that every JSON answer of a move can carry its actions. Where a tile stays:
each new set is built on at most one old set (or, a run, on one piece of an old run cut
where it lies), and keeps the tiles the two have in common; every other tile moves once. The
bases are chosen to keep the most tiles in place (a search, exact on any table a person
meets; a bound on its size keeps a pathological one fast).
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import permutations
from typing import NamedTuple

from .board import Board
from .move import Action, Move
from .rules import Rules
from .sets import HIGH_ONE, Kind, read_meld, readings_in_order, run_tile
from .tiles import JOKER, MAX_NUMBER, Tile

TileRow = tuple[Tile, ...]

# Partial assignments the search looks at before it settles for the best found so far.
_SEARCH_LIMIT = 5_000
# A run is cut only into pieces that each keep this many tiles in place: one tile left
# where it lay is as good as taken.
_LEAST_PIECE = 2
# New runs on one old run: up to this many, every order along it is tried.
_ORDERS_TRIED = 4


class Do(enum.Enum):
    """One physical action at the table."""

    # The rack's copy of the tile a joker stands for put in its place, the joker into the
    # hand: first, as the rules as written free a joker (the freeing tile takes its place).
    REPLACE = "replace"
    TAKE = "take"  # tiles out of a set, into the hand
    SPLIT = "split"  # a run cut where it lies into pieces, no tile moved
    ADD = "add"  # tiles from the hand or the rack added to a set
    LAY = "lay"  # a new set laid from the hand and the rack


class TableAction(NamedTuple):
    """`tiles`: those taken, added or laid (a split: the run split; a replace: the tile
    put in the joker's place). `before`: the set as it looks before the action (a lay:
    empty). `after`: what is left (a take: the rest of the set, empty if none is left; a
    split: the pieces; an add, a lay or a replace: the set made). `from_rack`: the tiles
    of an add, a lay or a replace that come from the rack."""

    do: Do
    tiles: TileRow
    before: TileRow
    after: tuple[TileRow, ...]
    from_rack: TileRow = ()


class TableReading:
    """What the jokers of each set stand for, as the table reads them: where the board
    said so (`J=R5`, `Board.declared`), that, for the set as it lies and as it is laid in
    order; where a move frees a joker in a reading the table left open, that reading
    (`read_as_moved`); else by its place in a run laid in order, or as `read_meld` reads
    the set (a group's joker cannot show its colour by its place)."""

    def __init__(self, board: Board) -> None:
        self.rules = board.rules
        self.board = board
        # Sets whose jokers' tiles are known, as they lie: those tiles, in the order the
        # jokers lie.
        self.known: dict[TileRow, TileRow] = {}
        for number, row in enumerate(board.table):
            said = board.declared_for(number)
            if not said or None in said:
                continue
            roles = tuple(t for t in said if t is not None)
            laid, laid_roles = _lay(row, roles, self.rules)
            self.known[row] = roles
            self.known[laid] = laid_roles

    def jokers(self, row: Sequence[Tile]) -> TileRow:
        """What each joker of the set stands for, in the order they lie."""
        return self.known.get(tuple(row)) or joker_stand_ins(row, self.rules)

    def stand_for(self, table: Sequence[TileRow]) -> tuple[TileRow, ...]:
        """For each set of a table, what its jokers stand for (none for a set without)."""
        return tuple(self.jokers(row) if JOKER in row else () for row in table)

    def as_it_lies(self, number: int, tiles: Sequence[Tile]) -> TileRow:
        """Table set `number` (these tiles, all of it) as it lies on the table."""
        row = self.board.table[number]
        return row if Counter(row) == Counter(tiles) else _laid(tiles, self.rules)

    def read_as_moved(
        self, old_sets: Sequence[TileRow], new_sets: Sequence[TileRow]
    ) -> list[TileRow]:
        """The old sets as the move reads them, where no board declared their jokers: in
        the reading in which the move frees most of them (a rack tile played for a tile no
        joker stands for after: `K8 K9 J` freed by the rack's K7 is the K7, not the K10
        its place shows), else in which most of them stand for what jokers stand for after
        (`B3 B4 B5 J` whose joker goes on beside the B3 as the B2), laid with each joker at
        its place (`J B3 B4 B5`): a joker that stays goes along with a piece of its set."""
        after = Counter(s for row in new_sets for s in self.jokers(row))
        played = Counter(t for row in new_sets for t in row)
        played.subtract(t for row in old_sets for t in row)
        free = +played - after
        read = []
        for row in old_sets:
            # Two sets alike are told apart by how they lie: their reading left as it shows.
            if JOKER in row and row not in self.known and old_sets.count(row) == 1:
                shown = self.jokers(row)
                readings = [shown, *readings_in_order(row, self.rules)]
                frees = [sum((Counter(r) & free).values()) for r in readings]
                stays = [sum((Counter(r) & after).values()) for r in readings]
                most = max(range(len(readings)), key=lambda k: (frees[k], stays[k], not k))
                if frees[most] > frees[0]:
                    self.known[row] = readings[most]
                    free -= Counter(readings[most])
                elif not frees[0] and stays[most] > stays[0]:
                    row, roles = _lay(row, readings[most], self.rules)
                    self.known[row] = roles
                    after -= Counter(roles)
            read.append(row)
        return read


class TablePlan(NamedTuple):
    """The actions in order, the tiles they move (each from the rack, or taken from a set
    and put elsewhere, counts once), for each new set the tiles it gets from the rack, and
    how the sets' jokers read."""

    actions: tuple[TableAction, ...]
    tiles_moved: int
    from_rack: tuple[TileRow, ...]
    reading: TableReading | None = None
    # The sets of the table the move changes, as read (each freed joker swapped already):
    # what the actions start from.
    old_sets: tuple[TileRow, ...] = ()


def plan_move(move: Move, board: Board) -> TablePlan:
    """The move's actions at the table, in an order a person can follow; each old set
    named as it lies."""
    rules = board.rules
    reading = TableReading(board)
    old: dict[int, list[Tile]] = {}
    for step in move.steps:
        for source in step.from_table:
            old.setdefault(source.set_index, []).extend(source.tiles)
    old_sets = [reading.as_it_lies(i, old[i]) for i in sorted(old)]
    new_sets = [step.tiles for step in move.steps if step.action is not Action.KEEP]
    if not rules.by_replacement:
        plan = plan_table(old_sets, new_sets, rules)
        return plan._replace(reading=reading, old_sets=tuple(old_sets))
    old_sets = reading.read_as_moved(old_sets, new_sets)
    replaced = _freed(old_sets, new_sets, reading)
    swapped = [r.after[0] if r else o for o, r in zip(old_sets, replaced, strict=True)]
    plan = plan_table(swapped, new_sets, rules, [r for r in replaced if r])
    return plan._replace(reading=reading, old_sets=tuple(swapped))


def _freed(
    old_sets: Sequence[TileRow], new_sets: Sequence[TileRow], reading: TableReading
) -> list[TableAction | None]:
    """For each old set, the joker that the move frees there, if any, as the action that
    puts the rack's copy of its tile in its place: where fewer jokers stand for a tile
    after the move than before, and the rack gives that tile. The rules as written free a
    joker so (and a player who shows it so is never challenged); the narration holds under
    any reading, but only there do the rules ask for it."""
    before = Counter(s for row in old_sets for s in reading.jokers(row))
    after = Counter(s for row in new_sets for s in reading.jokers(row))
    played = Counter(t for row in new_sets for t in row)
    played.subtract(t for row in old_sets for t in row)
    freeing = (before - after) & +played
    replaced: list[TableAction | None] = []
    for row in old_sets:
        found = None
        stands = iter(reading.jokers(row))
        for place, tile in enumerate(row):
            stood = next(stands) if tile.is_joker else None
            if stood is not None and freeing[stood] > 0:
                freeing[stood] -= 1
                made = _laid((*row[:place], stood, *row[place + 1 :]), reading.rules)
                found = TableAction(Do.REPLACE, (stood,), row, (made,), (stood,))
                break
        replaced.append(found)
    return replaced


def plan_table(
    old_sets: Sequence[TileRow],
    new_sets: Sequence[TileRow],
    rules: Rules,
    replaced: Sequence[TableAction] = (),
) -> TablePlan:
    """The actions that turn the old sets (with tiles from the rack) into the new ones:
    takes and splits set by set in the order of the old table, then adds and lays in the
    order of the new one. Each set is named as it looks at that moment. `replaced`: the
    jokers freed first (`Do.REPLACE`), the old sets as they made them: each joker in the
    hand, each tile put in its place from the rack."""
    bases = _Bases(old_sets, new_sets, rules)
    groups = bases.best()
    actions: list[TableAction] = list(replaced)
    hand: Counter[Tile] = Counter({JOKER: len(replaced)})  # each freed joker
    # The rack's tiles already in the old sets: shown as the rack's in the new table.
    swapped = Counter(t for r in replaced for t in r.tiles)
    live: dict[int, TileRow] = {}
    for i, old in enumerate(old_sets):
        pieces = bases.pieces(i, groups[i])
        kept = {j for piece in pieces.values() for j in piece}
        rest = tuple(t for j, t in enumerate(old) if j in kept)
        taken = tuple(t for j, t in enumerate(old) if j not in kept)
        if taken:
            actions.append(TableAction(Do.TAKE, taken, old, (rest,) if rest else ()))
            hand.update(taken)
        cut = [tuple(old[j] for j in pieces[n]) for n in sorted(pieces, key=lambda n: pieces[n])]
        if len(cut) > 1:
            actions.append(TableAction(Do.SPLIT, rest, rest, tuple(cut)))
        for n, piece in pieces.items():
            live[n] = tuple(old[j] for j in piece)
    played: Counter[Tile] = Counter(t for row in new_sets for t in row)
    played.subtract(t for row in old_sets for t in row)
    played.subtract(hand)  # the freed jokers: in the hand, not on the rack
    racked: list[TileRow] = []
    for n, new in enumerate(new_sets):
        missing = Counter(new) - Counter(live.get(n, ()))
        from_hand = missing & hand
        hand -= from_hand
        played.subtract(missing - from_hand)
        added = _in_order_of(new, missing)
        from_rack = _in_order_of(new, missing - from_hand)
        earlier = (Counter(new) - Counter(from_rack)) & swapped
        swapped -= earlier
        racked.append(_in_order_of(new, Counter(from_rack) + earlier))
        if not missing:
            continue
        if n in live:
            actions.append(TableAction(Do.ADD, added, live[n], (new,), from_rack))
        else:
            actions.append(TableAction(Do.LAY, added, (), (new,), from_rack))
    assert not +hand and not +played, "the new sets are not the old ones and the rack's"
    moved = sum(len(a.tiles) for a in actions if a.do in (Do.ADD, Do.LAY, Do.REPLACE))
    return TablePlan(tuple(actions), moved, tuple(racked))


def board_after(board: Board, move: Move) -> Board:
    """The board for the next turn: the new table, each joker declared to stand for the
    tile the answer shows it standing for (it keeps standing for it until freed), the
    rack left, opened once a move is made, the same rules."""
    declared = TableReading(board).stand_for(move.table)
    opened = board.opened or move.is_move
    return Board(
        move.table, move.rack, opened, board.rules, declared=declared if any(declared) else ()
    )


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
    laid = _in_place(tuple(row), rules) if meld.kind is Kind.RUN else None
    return meld.stand_ins if laid is None else laid


def _in_place(row: TileRow, rules: Rules) -> TileRow | None:
    """A run's tiles by the places they lie at, if its tiles lie in order."""
    first = next((k for k, t in enumerate(row) if not t.is_joker), None)
    if first is None:
        return None  # jokers alone: as the table reads them
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


def _lay(row: TileRow, roles: TileRow, rules: Rules) -> tuple[TileRow, TileRow]:
    """The set laid in order with its jokers standing for `roles`, and their tiles in the
    order the jokers then lie."""
    meld = read_meld(tuple(t for t in row if not t.is_joker) + roles, rules)
    assert meld is not None, "a set's jokers stand for tiles that make it"
    left = Counter(roles)
    laid, laid_roles = [], []
    for t in meld.ordered:
        if left[t] > 0:
            left[t] -= 1
            laid.append(JOKER)
            laid_roles.append(t)
        else:
            laid.append(t)
    return tuple(laid), tuple(laid_roles)


def _laid(tiles: Sequence[Tile], rules: Rules) -> TileRow:
    """A set as it lies on the table: a run ascending, a group by colour."""
    meld = read_meld(tiles, rules)
    return meld.ordered if meld is not None else tuple(tiles)


def _in_order_of(row: Iterable[Tile], wanted: Counter[Tile]) -> TileRow:
    left = Counter(wanted)
    chosen = []
    for t in row:
        if left[t] > 0:
            left[t] -= 1
            chosen.append(t)
    return tuple(chosen)


class _Bases:
    """Which old set (or piece of an old run) each new set is built on, to keep the most
    tiles in place."""

    def __init__(
        self, old_sets: Sequence[TileRow], new_sets: Sequence[TileRow], rules: Rules
    ) -> None:
        self.old, self.new, self.rules = old_sets, new_sets, rules
        self.overlap = [
            [sum((Counter(old) & Counter(new)).values()) for old in old_sets] for new in new_sets
        ]
        self.runs = [_is_run(old, rules) for old in old_sets]
        self.runs_new = [_is_run(new, rules) for new in new_sets]
        self.cache: dict[tuple[int, tuple[int, ...]], dict[int, tuple[int, ...]] | None] = {}

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
            return {n: _places(old, Counter(old) & Counter(self.new[n])) for n in group}
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
            wanted = [Counter(_keys(self.new[n], self.rules)) for n in runs]
            found = _cut_in_order(old_keys, wanted)
            if found is not None and (best is None or found[0] > best[0]):
                best = (found[0], found[1], runs)
        if best is None:
            return None
        _, ends, runs = best
        pieces: dict[int, tuple[int, ...]] = {}
        start = 0
        for n, end in zip(runs, ends, strict=True):
            left = Counter(_keys(self.new[n], self.rules))
            places = []
            for j in range(start, end):
                if left[old_keys[j]] > 0:
                    left[old_keys[j]] -= 1
                    places.append(j)
            pieces[n] = tuple(places)
            start = end
        return pieces

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
