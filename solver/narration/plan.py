"""The plan: the actions that turn the old sets and the rack's tiles into the new sets,
each old set named as it lies, the table's jokers freed and kept as the rules ask.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ..board import Board
from ..jokers import lay_with_roles
from ..move import Move, SetChange
from ..rules import Rules
from ..sets import read_meld
from ..table_reading import TableReading, read_move, roles_as_it_lies, told_tiles
from ..tiles import JOKER, Tile, TileRow
from .actions import Do, TableAction
from .bases import Bases
from .order import STAR, Add, Table, Unit, in_followable_order


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
    new_at = [n for n, step in enumerate(move.steps) if step.change is not SetChange.KEEP]
    new_sets = [move.table[n] for n in new_at]
    telling = reading.telling
    locked = tuple(k for k, i in enumerate(changed) if _locked(board.table[i], rules))
    alone = [row for i, row in enumerate(board.table) if i not in changed]

    def planned(plan: TablePlan, old_sets: Sequence[TileRow]) -> TablePlan:
        """The plan, each set a step says it means by its place on the whole table."""
        actions = tuple(
            a if a.table_set is None else a._replace(table_set=changed[a.table_set])
            for a in plan.actions
        )
        return plan._replace(actions=actions, reading=reading, old_sets=tuple(old_sets))

    if telling is None:
        # Jokers that move freely (or none on the table): locked sets still stay whole.
        freeing = Freeing(locked=locked) if locked else None
        return planned(plan_table(old_sets, new_sets, rules, freeing, alone), old_sets)
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
    return planned(plan_table(swapped, new_sets, rules, freeing, alone), swapped)


def _bases(
    old_sets: Sequence[TileRow],
    new_sets: Sequence[TileRow],
    rules: Rules,
    freeing: Freeing,
    roles: Sequence[Sequence[Tile | None]] | None,
    pins: Sequence[Counter[Tile]],
) -> Bases:
    """Where each new set is built, as the rules on jokers ask: each old set's joker kept
    in place only where it stays, each locked set in one new set whole."""
    rack_in = freeing.rack_in
    bases = Bases(old_sets, new_sets, rules, pins, rack_in, freeing.newcomers)
    if roles is not None:
        bases.keep_jokers_where_they_stay(roles, freeing.stays)
    locked_in: set[int] = set()
    for i in freeing.locked:
        # The new set it lies in: where its joker stays, else the likest, one per set.
        own = Counter(t for t in old_sets[i] if not t.is_joker) - (
            rack_in[i] if rack_in else Counter()
        )
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
            continue
        # Every new set holding its tiles is built on another locked set: it joins one
        # whole (taken all, added at once), and no other new set keeps a tile of it.
        whole = _its_own(old_sets, rack_in, i)
        joining = [n for n, new in enumerate(new_sets) if not whole - Counter(new)]
        if joining:
            bases.join(i, min(joining, key=lambda n: n not in locked_in))
    return bases


def _locked(row: TileRow, rules: Rules) -> bool:
    """Whether no tile of the set's own may leave it (locked-joker-sets): it holds a
    joker and a tile."""
    return rules.locked_joker_sets and JOKER in row and not all(t.is_joker for t in row)


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
    left_alone: Sequence[TileRow] = (),
) -> TablePlan:
    """The actions that turn the old sets (with tiles from the rack) into the new ones:
    takes and splits set by set in the order of the old table, then adds and lays in the
    order of the new one. Each set is named as it looks at that moment. `freeing`: what
    the rules on jokers ask (the jokers freed first, the old sets as they made them, and
    how the jokers read); `left_alone`: the table's other sets, which a set named may
    look like."""
    # Under the rules as written, an old set's joker stays in place only where it stays.
    roles = None
    if freeing is not None and freeing.old_roles:
        roles = [
            _roles_at(old, said) for old, said in zip(old_sets, freeing.old_roles, strict=True)
        ]
    freeing = freeing or Freeing()
    replaced, rack_in = freeing.replaced, freeing.rack_in
    hosts = {n: host for n, host in enumerate(freeing.hosts) if host[0]}
    pins = [Counter(hosts[n][1]) if n in hosts else Counter() for n in range(len(new_sets))]
    bases = _bases(old_sets, new_sets, rules, freeing, roles, pins)
    groups = bases.best()
    moving = _moving(freeing.stays, bases, groups, roles, rack_in) if roles is not None else []
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
        fresh = [pair for pair in pairs if pair not in anchored]
        found = _anchors(fresh, anchored, old_sets, new_sets, rack_in, pins)
        if found is None:
            # The tiles that go along so far leave none for a joker: all chosen anew.
            bases = _bases(old_sets, new_sets, rules, freeing, roles, pins)
            fresh = [*anchored, *fresh]
            anchored = {}
            found = _anchors(fresh, anchored, old_sets, new_sets, rack_in, pins)
        if found is None:  # none (a move the checker refuses): each its first tile
            found = {pair: _own(pair, old_sets, new_sets, rack_in)[0] for pair in fresh}
        for (i, n), tile in found.items():
            anchored[i, n] = tile
            bases.exclude(n, i, tile)
            changed = True
        if not changed:
            break
        groups = bases.best()
        moving = _moving(freeing.stays, bases, groups, roles, rack_in)
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
    units: list[Unit] = []
    base_of: dict[int, int] = {}
    for i, old in enumerate(old_sets):
        unit = Unit(i, [], [], [])
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
                unit.gives.append((t, STAR if starred[t] > 0 else i))
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
            unit.pieces.extend(order)
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
    # A locked set joining another's new set whole: that new set takes its copies from
    # the hand before any other could (the others then take the rack's).
    joined = bases.joined
    first = [*aside, *(n for n in dict.fromkeys(joined.values()) if n not in aside)]
    for n in [*first, *(n for n in range(len(new_sets)) if n not in first)]:
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
    adds: list[Add] = []
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
        # The tiles of each locked set joining it whole: its own copies, named.
        whole = [
            (t, i)
            for i, m in joined.items()
            if m == n
            for t in _its_own(old_sets, rack_in, i).elements()
        ]
        own += Counter(t for t, _ in whole if not t.is_joker)
        needs: list[tuple[Tile, int | None]] = [(t, STAR) for t in earlier.elements()]
        needs += [(anchored[i, n], i) for i in set(with_joker)]
        needs += [(t, i) for t, i in whole if not t.is_joker]
        needs += [(t, None) for t in (from_hand - earlier - own).elements() if not t.is_joker]
        needs += [(JOKER, i) for i in with_joker]
        needs += [(JOKER, i) for t, i in whole if t.is_joker]
        unnamed = from_hand[JOKER] - len(with_joker) - sum(t.is_joker for t, _ in whole)
        needs += [(JOKER, None)] * unnamed
        adds.append(Add(n, base_of.get(n), action, needs))
    assert not +hand and not +hand_racked and not +played, (
        "the new sets are not the old ones and the rack's"
    )
    anchors = {i for i, _, _ in moving} | set(joined)
    # What a step may name: each old set as the freed jokers left it, the rack's tiles
    # there starred; each set left alone, all its tiles a locked set's or none.
    starting = []
    for i, old in enumerate(old_sets):
        lying = Counter((t, i) for t in old)
        for t, count in (rack_in[i] if rack_in else Counter()).items():
            lying[t, i] -= count
            lying[t, STAR] += count
        starting.append(+lying)
    told = [Counter((t, False, _locked(row, rules)) for t in row) for row in left_alone]
    table = Table(starting, set(freeing.locked), told)
    actions.extend(in_followable_order(units, adds, anchors, len(replaced), table))
    moved = sum(len(a.tiles) for a in actions if a.do in (Do.ADD, Do.LAY, Do.REPLACE))
    return TablePlan(tuple(actions), moved, tuple(racked_sets), staying=staying)


def _roles_at(row: TileRow, roles: TileRow) -> list[Tile | None]:
    """For each place of the set, what the joker there stands for (None: no joker)."""
    stands = iter(roles)
    return [next(stands, None) if t.is_joker else None for t in row]


def _piece(bases: Bases, groups: Sequence[Sequence[int]], i: int, n: int) -> tuple[int, ...]:
    """The places of old set i's tiles that new set n keeps."""
    return bases.pieces(i, groups[i]).get(n, ())


def _moving(
    stays: Sequence[tuple[int, Tile, int]],
    bases: Bases,
    groups: Sequence[Sequence[int]],
    roles: Sequence[Sequence[Tile | None]],
    rack_in: Sequence[Counter[Tile]],
) -> list[tuple[int, Tile, int]]:
    """The jokers that stay (each: its old set, the tile it stands for, its new set) but
    are not kept in place there beside a tile of their set (a tile the rack put in it
    to free another joker is not one): they move."""
    moving = []
    for i, role, n in stays:
        piece = bases.pieces(i, groups[i]).get(n, ())
        own = [bases.old[i][j] for j in piece if not bases.old[i][j].is_joker]
        beside = bool(Counter(own) - (rack_in[i] if rack_in else Counter()))
        if not beside or not any(roles[i][j] == role for j in piece):
            moving.append((i, role, n))
    return moving


def _anchors(
    pairs: Sequence[tuple[int, int]],
    anchored: dict[tuple[int, int], Tile],
    old_sets: Sequence[TileRow],
    new_sets: Sequence[TileRow],
    rack_in: Sequence[Counter[Tile]],
    pins: Sequence[Counter[Tile]],
) -> dict[tuple[int, int], Tile] | None:
    """For each pair (an old set whose joker moves, the new set it goes to), a tile of
    the old set's own that goes along: each joker with its own copy (the jokers of `J O7
    O8 O9` and `J O6 O7` into `O1 .. J J O7 O8` go along with the O8 and the O7; those
    of `J B5 J B7` into two sets, with the B5 and the B7), beside those `anchored`
    already, and none of the new set's copies that must be the rack's (`pins`: beside a
    freed joker); sets with fewer tiles first. None if there is no such choice."""
    chosen = dict(anchored)

    def room(tile: Tile, i: int, n: int) -> bool:
        """Whether old set i has a copy of the tile left to give, and new set n one to
        take (not one the rack must give)."""
        given = sum(t == tile for (j, _), t in chosen.items() if j == i)
        taken = sum(t == tile for (_, m), t in chosen.items() if m == n)
        has = old_sets[i].count(tile) - (rack_in[i][tile] if rack_in else 0)
        return has > given and new_sets[n].count(tile) - pins[n][tile] > taken

    def give(left: list[tuple[int, int]]) -> bool:
        if not left:
            return True
        pair, *rest = left
        for tile in _own(pair, old_sets, new_sets, rack_in):
            if room(tile, *pair):
                chosen[pair] = tile
                if give(rest):
                    return True
                del chosen[pair]
        return False

    ordered = sorted(pairs, key=lambda pair: len(_own(pair, old_sets, new_sets, rack_in)))
    return {pair: chosen[pair] for pair in pairs} if give(ordered) else None


def _own(
    pair: tuple[int, int],
    old_sets: Sequence[TileRow],
    new_sets: Sequence[TileRow],
    rack_in: Sequence[Counter[Tile]],
) -> list[Tile]:
    """The tiles of old set i's own (not the rack's put in it) that new set n holds."""
    i, n = pair
    return [t for t in _its_own(old_sets, rack_in, i) if not t.is_joker and t in new_sets[n]]


def _its_own(
    old_sets: Sequence[TileRow], rack_in: Sequence[Counter[Tile]], i: int
) -> Counter[Tile]:
    """Old set i's own tiles: all it holds but the rack's put in it to free a joker."""
    return Counter(old_sets[i]) - (rack_in[i] if rack_in else Counter())


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
