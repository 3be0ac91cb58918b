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
from .joker_rules import lay_with_roles
from .move import Action, Move
from .rules import Rules
from .sets import Kind, read_meld, stand_ins
from .table_reading import TableReading, read_move, roles_as_it_lies, told_tiles
from .tiles import JOKER, Tile
from .tiles import TileRow as TileRow  # (re-exported: render imports it from here)

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
    of an add, a lay or a replace that come from the rack. `marked`: the rack's tiles
    played earlier in the turn that the action shows, in `before` or added from the hand:
    a player stars them wherever they lie. `table_jokers`: of an add or a lay, what the
    table's jokers that stay in the set made stand for (its other jokers are the rack's,
    or freed). `readings`: what the jokers of `before` and of each set of `after` stand
    for, in the order they lie, where the plan knows (sets alike may read otherwise)."""

    do: Do
    tiles: TileRow
    before: TileRow
    after: tuple[TileRow, ...]
    from_rack: TileRow = ()
    marked: TileRow = ()
    table_jokers: TileRow = ()
    readings: tuple[TileRow, ...] = ()


class Freeing(NamedTuple):
    """What the rules on the table's jokers ask of the plan. `replaced`: the jokers freed
    first (`Do.REPLACE`), each joker into the hand; `rack_in`: the rack's tiles each old
    set then holds. For each new set (by its place among them): `hosts`, the freed jokers
    it holds and its tiles that must be the rack's copies (the rules ask two beside a
    freed joker); `newcomers`, what its jokers that are not the table's staying ones
    stand for (none of an old set's jokers is kept in place for them). `stays`: where
    each joker that is not freed goes on, beside a tile of its set."""

    replaced: tuple[TableAction, ...] = ()
    rack_in: tuple[Counter[Tile], ...] = ()
    hosts: tuple[tuple[int, TileRow], ...] = ()
    newcomers: tuple[Counter[Tile], ...] = ()
    # Each joker that stays: its old set, the tile it stands for, its new set (by place).
    stays: tuple[tuple[int, Tile, int], ...] = ()
    # What the jokers of each old set (as swapped) and of each new set stand for, in the
    # order they lie.
    old_roles: tuple[TileRow, ...] = ()
    new_roles: tuple[TileRow, ...] = ()
    # The old sets (by place) no tile of their own may leave (locked-joker-sets).
    locked: tuple[int, ...] = ()


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
    # For each new set, what the table's jokers kept in place there stand for: beside
    # them a joker from the rack is the one starred.
    staying: tuple[TileRow, ...] = ()


def plan_move(move: Move, board: Board) -> TablePlan:
    """The move's actions at the table, in an order a person can follow; each old set
    named as it lies."""
    rules = board.rules
    reading = read_move(board, move)
    changed = move.changed_sets
    old_sets = [board.table[i] for i in changed]
    new_at = [n for n, step in enumerate(move.steps) if step.action is not Action.KEEP]
    new_sets = [move.table[n] for n in new_at]
    telling = reading.telling
    if telling is None:
        plan = plan_table(old_sets, new_sets, rules)
        return plan._replace(reading=reading, old_sets=tuple(old_sets))
    replaced: list[TableAction] = []
    swapped, rack_in, old_roles = [], [], []
    for i, row in zip(changed, old_sets, strict=True):
        roles = told_tiles(telling.old.get(i, ()))
        freed = told_tiles(telling.freed.get(i, ()))
        lying = roles_as_it_lies(row, roles, rules) if roles else ()
        if lying is None and not freed:
            # A joker that stays goes along with a piece of its set: the set laid as read.
            row, roles = lay_with_roles(row, roles, rules)
        elif lying is not None:
            roles = lying
        put: Counter[Tile] = Counter()
        for tile in freed:
            action = _swap(row, roles, tile, put, rules)
            replaced.append(action)
            row, roles = action.after[0], action.readings[1]
            put[tile] += 1
        swapped.append(row)
        old_roles.append(roles)
        rack_in.append(put)
    hosts = tuple(telling.hosts.get(n, (0, ())) for n in new_at)
    staying = Counter((n, role) for _, role, n in telling.stays)
    newcomers: list[Counter[Tile]] = []
    for n in new_at:
        places = Counter(told_tiles(telling.new.get(n, ())))
        places.subtract({role: staying[n, role] for role in places})
        newcomers.append(+places)
    stays = tuple(
        (changed.index(i), role, new_at.index(n))
        for i, role, n in telling.stays
        if i in changed and role is not None
    )
    new_roles = tuple(reading.after[n] for n in new_at)
    locked = tuple(
        k
        for k, i in enumerate(changed)
        if rules.locked_joker_sets and JOKER in board.table[i] and not _jokers_only(board.table[i])
    )
    freeing = Freeing(
        tuple(replaced),
        tuple(rack_in),
        hosts,
        tuple(newcomers),
        stays,
        tuple(old_roles),
        new_roles,
        locked,
    )
    plan = plan_table(swapped, new_sets, rules, freeing)
    return plan._replace(reading=reading, old_sets=tuple(swapped))


def _jokers_only(row: TileRow) -> bool:
    return all(t.is_joker for t in row)


def _swap(
    row: TileRow, roles: TileRow, tile: Tile, put: Counter[Tile], rules: Rules
) -> TableAction:
    """The rack's `tile` put in the place of the joker of `row` (its jokers standing for
    `roles`) that stands for it (`put`: the rack's tiles swapped into it before), the
    joker into the hand."""
    left = list(roles)
    place = [k for k, t in enumerate(row) if t.is_joker][left.index(tile)]
    del left[left.index(tile)]
    made = (*row[:place], tile, *row[place + 1 :])
    laid, laid_roles = (
        lay_with_roles(made, tuple(left), rules) if left else (_laid(made, rules), ())
    )
    readings = (roles, laid_roles)
    return TableAction(
        Do.REPLACE, (tile,), row, (laid,), (tile,), tuple(put.elements()), (), readings
    )


def plan_table(
    old_sets: Sequence[TileRow],
    new_sets: Sequence[TileRow],
    rules: Rules,
    freeing: Freeing | None = None,
) -> TablePlan:
    """The actions that turn the old sets (with tiles from the rack) into the new ones:
    takes and splits set by set in the order of the old table, then adds and lays in the
    order of the new one. Each set is named as it looks at that moment. `freeing`: what
    the rules on jokers ask (the jokers freed first, the old sets as they made them, and
    how the jokers read)."""
    # Under the rules as written, an old set's joker stays in place only where it stays.
    roles = None
    if freeing is not None:
        roles = [
            _roles_at(old, said) for old, said in zip(old_sets, freeing.old_roles, strict=True)
        ]
    freeing = freeing or Freeing()
    replaced, rack_in = freeing.replaced, freeing.rack_in
    hosts = {n: host for n, host in enumerate(freeing.hosts) if host[0]}
    pins = [Counter(hosts[n][1]) if n in hosts else Counter() for n in range(len(new_sets))]
    bases = _Bases(old_sets, new_sets, rules, pins, rack_in, freeing.newcomers)
    if roles is not None:
        bases.keep_jokers_where_they_stay(roles, freeing.stays)
    locked_in: set[int] = set()
    for i in freeing.locked:
        # The new set it lies in: where its joker stays, else the likest, one per set.
        own = Counter(t for t in old_sets[i] if not t.is_joker) - rack_in[i]
        stays_in = {n for k, _, n in freeing.stays if k == i}
        holding = [
            n for n, new in enumerate(new_sets) if not own - Counter(new) and n not in locked_in
        ]
        if holding:
            common = Counter(old_sets[i])
            n = min(
                holding, key=lambda n: (n not in stays_in, -(common & Counter(new_sets[n])).total())
            )
            locked_in.add(n)
            bases.lock(i, n)
    groups = bases.best()
    moving = _moving(freeing.stays, bases, groups, roles) if roles is not None else []
    anchored: dict[tuple[int, int], Tile] = {}
    while roles is not None:
        # A joker that leaves its set without being freed goes along with a tile of it:
        # that tile goes where the joker goes; and where the joker would still leave
        # alone (the tile kept in place there), the two are taken together.
        pairs = list(dict.fromkeys((i, n) for i, _, n in moving))
        alone = [
            (i, n)
            for i, n in pairs
            if (i, n) in anchored
            and any(bases.old[i][j] == anchored[i, n] for j in _piece(bases, groups, i, n))
        ]
        changed = bool(alone)
        for i, n in alone:
            bases.exclude(n, i, anchored[i, n], taken=True)
        for i, n in pairs:
            if (i, n) not in anchored:
                own = Counter(old_sets[i]) - (rack_in[i] if rack_in else Counter())
                tile = next(t for t in own if not t.is_joker and t in new_sets[n])
                anchored[i, n] = tile
                bases.exclude(n, i, tile)
                changed = True
        if not changed:
            break
        groups = bases.best()
        moving = _moving(freeing.stays, bases, groups, roles)
    actions: list[TableAction] = list(replaced)
    hand: Counter[Tile] = Counter({JOKER: len(replaced)})  # each freed joker
    # The rack's tiles played earlier in the turn: in each old set, and in the hand.
    on_table = [Counter(put) for put in rack_in] or [Counter() for _ in old_sets]
    hand_racked: Counter[Tile] = Counter()
    live: dict[int, TileRow] = {}
    live_racked: dict[int, Counter[Tile]] = {}
    live_roles: dict[int, TileRow] = {}
    # For the order of the steps: each old set's takes and splits, and what each puts in
    # the hand of the table's own copies; the old set each new set is built on.
    units: list[_Unit] = []
    base_of: dict[int, int] = {}
    for i, old in enumerate(old_sets):
        unit = _Unit(i, [], [])
        pieces = bases.pieces(i, groups[i])
        kept = sorted(j for piece in pieces.values() for j in piece)
        rest = tuple(old[j] for j in kept)
        taken = tuple(t for j, t in enumerate(old) if j not in kept)
        racked = on_table[i]

        def part(places: Iterable[int], i: int = i) -> TileRow:
            """What the jokers at these places of old set i stand for."""
            return tuple(r for j in places if roles and (r := roles[i][j]) is not None)

        if taken:
            marked = tuple((Counter(old) & racked).elements())
            after = (rest,) if rest else ()
            readings: tuple[TileRow, ...] = (part(range(len(old))), part(kept)) if roles else ()
            unit.actions.append(
                TableAction(Do.TAKE, taken, old, after, (), marked, (), readings[: 1 + len(after)])
            )
            starred = Counter(taken) & racked
            for t in taken:
                unit.gives.append((t, _STAR if starred[t] > 0 else i))
                starred[t] -= 1
            hand.update(taken)
            hand_racked += Counter(taken) & racked
            racked = racked - Counter(taken)
        order = sorted(pieces, key=lambda n: pieces[n])
        cut = [tuple(old[j] for j in pieces[n]) for n in order]
        if len(cut) > 1:
            marked = tuple((Counter(rest) & racked).elements())
            readings = (part(kept), *(part(pieces[n]) for n in order)) if roles else ()
            unit.actions.append(
                TableAction(Do.SPLIT, rest, rest, tuple(cut), (), marked, (), readings)
            )
        units.append(unit)
        for n, piece in pieces.items():
            base_of[n] = i
            live[n] = tuple(old[j] for j in piece)
            live_racked[n] = Counter(live[n]) & racked
            live_roles[n] = part(piece)
            racked = racked - live_racked[n]
    played: Counter[Tile] = Counter(t for row in new_sets for t in row)
    played.subtract(t for row in old_sets for t in row)
    played.subtract(hand)  # the freed jokers: in the hand, not on the rack
    hand -= hand_racked  # the table's tiles (and the freed jokers), apart from the rack's
    # Where each new set's missing tiles come from: the sets hosting freed jokers first,
    # each with its freed jokers (set aside for it) and the rack's copies counted there.
    destined = Counter(n for _, _, n in moving)
    for n, (count, _) in hosts.items():
        destined[n] += count
    aside: dict[int, int] = {}
    for n in sorted(destined):
        aside[n] = min(destined[n], hand[JOKER])
        hand[JOKER] -= aside[n]
    sources: dict[int, tuple[Counter[Tile], Counter[Tile], Counter[Tile]]] = {}
    for n in [*aside, *(n for n in range(len(new_sets)) if n not in aside)]:
        missing = Counter(new_sets[n]) - Counter(live.get(n, ()))
        freed = Counter({JOKER: min(aside.get(n, 0), missing[JOKER])})
        hand[JOKER] += aside.get(n, 0) - freed[JOKER]  # a host that kept a joker in place
        need = pins[n] - live_racked.get(n, Counter())
        earlier = need & missing & hand_racked
        hand_racked -= earlier
        other = missing - freed - need
        from_table = other & hand
        hand -= from_table
        moved_on = (other - from_table) & hand_racked
        hand_racked -= moved_on
        earlier += moved_on
        sources[n] = (missing, from_table + freed, earlier)
    # What the table's jokers that stay in each new set stand for: kept there, or moved.
    staying = tuple(
        live_roles.get(n, ()) + tuple(role for _, role, m in moving if m == n)
        for n in range(len(new_sets))
    )
    racked_sets: list[TileRow] = []
    adds: list[_Add] = []
    for n, new in enumerate(new_sets):
        missing, from_table, earlier = sources[n]
        from_rack = _in_order_of(new, missing - from_table - earlier)
        played.subtract(from_rack)
        before_racked = live_racked.get(n, Counter())
        marked = tuple((before_racked + earlier).elements())
        racked_sets.append(_in_order_of(new, Counter(from_rack) + before_racked + earlier))
        if not missing:
            continue
        added = _in_order_of(new, missing)
        readings = (live_roles.get(n, ()), freeing.new_roles[n]) if freeing.new_roles else ()
        do, before = (Do.ADD, live[n]) if n in live else (Do.LAY, ())
        action = TableAction(do, added, before, (new,), from_rack, marked, staying[n], readings)
        from_hand = missing - Counter(from_rack)
        with_joker = [i for i, _, m in moving if m == n]
        own = Counter({anchored[i, n]: 1 for i in set(with_joker)})
        needs: list[tuple[Tile, int | None]] = [(t, _STAR) for t in earlier.elements()]
        needs += [(anchored[i, n], i) for i in set(with_joker)]
        needs += [(t, None) for t in (from_hand - earlier - own).elements() if not t.is_joker]
        needs += [(JOKER, i) for i in with_joker]
        needs += [(JOKER, None)] * (from_hand[JOKER] - len(with_joker))
        adds.append(_Add(base_of.get(n), action, needs))
    assert not +hand and not +hand_racked and not +played, (
        "the new sets are not the old ones and the rack's"
    )
    anchors = {i for i, _, _ in moving}
    actions.extend(_in_followable_order(units, adds, anchors, len(replaced)))
    moved = sum(len(a.tiles) for a in actions if a.do in (Do.ADD, Do.LAY, Do.REPLACE))
    return TablePlan(tuple(actions), moved, tuple(racked_sets), staying=staying)


# Where a tile in the hand comes from, besides an old set (by its place): the rack's tiles
# played earlier in the turn, and the freed jokers.
_STAR, _FREED = -1, -2


class _Unit(NamedTuple):
    """An old set's takes and splits (by its place among the old sets), and the tiles
    they put in the hand, each with where it comes from."""

    old: int
    actions: list[TableAction]
    gives: list[tuple[Tile, int]]


class _Add(NamedTuple):
    """An add or a lay: the old set it builds on (None: laid new), and the tiles it takes
    from the hand, each with where it must come from (None: any set's copy)."""

    base: int | None
    action: TableAction
    needs: list[tuple[Tile, int | None]]


def _in_followable_order(
    units: Sequence[_Unit], adds: Sequence[_Add], anchors: set[int], freed: int
) -> list[TableAction]:
    """The takes and splits set by set, then the adds and lays; but where the hand would
    then hold copies alike of one tile from two sets, one of them from a set whose joker
    leaves with its own tile (`anchors`), a player could not tell which copy to add: each
    add or lay is then done as soon as its tiles are at hand with no such choice, and a
    set's tiles are taken only when no add is ready, such a set's last."""
    plain = [a for unit in units for a in unit.actions] + [add.action for add in adds]
    hand: Counter[tuple[Tile, int]] = Counter()
    # The copies kept for a joker that leaves with them: no other add takes them.
    kept = Counter((t, i) for add in adds for t, i in add.needs if i is not None and i >= 0)

    def homes(tile: Tile) -> list[int]:
        """Where the free copies of the tile in the hand come from: sets of no joker
        first."""
        found = {i for (t, i), k in hand.items() if t == tile and k > kept[t, i]}
        return sorted(found, key=lambda i: (i in anchors, i))

    def choice(add: _Add) -> bool:
        """Would the add leave a choice that matters among copies alike?"""
        tables = {t for t, home in add.needs if not t.is_joker}
        held = [{i for (u, i), k in hand.items() if u == t and k > 0 and i >= 0} for t in tables]
        return any(len(h) > 1 and h & anchors for h in held)

    def take(add: _Add) -> bool:
        """Take the add's tiles from the hand, if they are all there."""
        for t, home in add.needs:
            at = homes(t) if home is None else [home] * (hand[t, home] > 0)
            if not at:
                return False
            hand[t, at[0]] -= 1
            if home is not None:
                kept[t, home] -= 1
        return True

    def ready(add: _Add, done: set[int]) -> bool:
        if (add.base is not None and add.base not in done) or choice(add):
            return False
        before, kept_before = hand.copy(), kept.copy()
        if take(add):
            return True
        hand.clear()
        hand.update(before)
        kept.clear()
        kept.update(kept_before)
        return False

    hand[JOKER, _FREED] = freed
    for unit in units:
        hand.update(unit.gives)
    everything = {unit.old for unit in units}
    if all(ready(add, everything) for add in adds):
        return plain
    hand.clear()
    hand[JOKER, _FREED] = freed
    kept.clear()
    kept.update((t, i) for add in adds for t, i in add.needs if i is not None and i >= 0)
    done = {unit.old for unit in units if not unit.actions}
    waiting, left = list(adds), [unit for unit in units if unit.actions]
    ordered: list[TableAction] = []
    while waiting:
        add = next((a for a in waiting if ready(a, done)), None)
        if add is not None:
            waiting.remove(add)
            ordered.append(add.action)
        elif left:
            # A set whose joker leaves with its tile is taken last: its copies wait the
            # least in the hand.
            unit = min(left, key=lambda u: u.old in anchors)
            left.remove(unit)
            hand.update(unit.gives)
            done.add(unit.old)
            ordered.extend(unit.actions)
        else:
            return plain
    return ordered + [a for unit in left for a in unit.actions]


def _roles_at(row: TileRow, roles: TileRow) -> list[Tile | None]:
    """For each place of the set, what the joker there stands for (None: no joker)."""
    stands = iter(roles)
    return [next(stands, None) if t.is_joker else None for t in row]


def _piece(bases: _Bases, groups: Sequence[Sequence[int]], i: int, n: int) -> tuple[int, ...]:
    """The places of old set i's tiles that new set n keeps."""
    return bases.pieces(i, groups[i]).get(n, ())


def _moving(
    stays: Sequence[tuple[int, Tile, int]],
    bases: _Bases,
    groups: Sequence[Sequence[int]],
    roles: Sequence[Sequence[Tile | None]],
) -> list[tuple[int, Tile, int]]:
    """The jokers that stay (each: its old set, the tile it stands for, its new set) but
    are not kept in place there beside a tile of their set: they move."""
    moving = []
    for i, role, n in stays:
        piece = bases.pieces(i, groups[i]).get(n, ())
        beside = any(not bases.old[i][j].is_joker for j in piece)
        if not beside or not any(roles[i][j] == role for j in piece):
            moving.append((i, role, n))
    return moving


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
