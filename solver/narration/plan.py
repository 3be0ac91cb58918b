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
from .actions import Do, Freeing, TableAction
from .built import Built, built_on, is_locked, its_own
from .order import STAR, Add, Table, Unit, in_followable_order


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
    # No order of the actions keeps copies alike that the rules tell apart from mixing
    # in the hand (`order.Ordered`): the player is told to keep each set's tiles apart.
    hold_apart: bool = False


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
    locked = tuple(k for k, i in enumerate(changed) if is_locked(board.table[i], rules))
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
    roles = _roles_kept(old_sets, freeing)
    freeing = freeing or Freeing()
    hosts = {n: host for n, host in enumerate(freeing.hosts) if host[0]}
    pins = [Counter(hosts[n][1]) if n in hosts else Counter() for n in range(len(new_sets))]
    built = built_on(old_sets, new_sets, rules, freeing, roles, pins)
    taken = _taken(old_sets, built, roles, freeing.rack_in, len(freeing.replaced))
    sources, left = _sources(new_sets, taken, hosts, built, pins)
    # What the table's jokers that stay in each new set stand for: kept there, or moved.
    staying = tuple(
        taken.live_roles.get(n, ()) + tuple(role for _, role, m in built.moving if m == n)
        for n in range(len(new_sets))
    )
    adds, racked_sets = _adds(old_sets, new_sets, freeing, built, taken, sources, staying)
    played: Counter[Tile] = Counter(t for row in new_sets for t in row)
    played.subtract(t for row in old_sets for t in row)
    played.subtract(taken.hand + taken.hand_racked)  # the freed jokers: not on the rack
    played.subtract(t for add in adds for t in add.action.from_rack)
    assert not +left and not +played, "the new sets are not the old ones and the rack's"
    anchors = {i for i, _, _ in built.moving} | set(built.bases.joined)
    table = _table_at_start(old_sets, freeing, left_alone, rules)
    ordered = in_followable_order(taken.units, adds, anchors, len(freeing.replaced), table)
    actions = (*freeing.replaced, *ordered.actions)
    moved = sum(len(a.tiles) for a in actions if a.do in (Do.ADD, Do.LAY, Do.REPLACE))
    return TablePlan(
        actions, moved, tuple(racked_sets), staying=staying, hold_apart=ordered.hold_apart
    )


def _roles_kept(
    old_sets: Sequence[TileRow], freeing: Freeing | None
) -> list[list[Tile | None]] | None:
    """What each old set's jokers stand for, place by place, where the rules as written
    keep a joker in place only where it stays (None: the jokers move freely)."""
    if freeing is None or not freeing.old_roles:
        return None
    return [_roles_at(old, said) for old, said in zip(old_sets, freeing.old_roles, strict=True)]


class Taken(NamedTuple):
    """Each old set's takes and splits (`units`); for each new set built on a piece of
    an old set: that old set (`base_of`), the piece's tiles (`live`), the rack's tiles
    played earlier in the turn among them, and what its jokers stand for; in the hand:
    the table's tiles and the freed jokers (`hand`), and apart from them the rack's
    played earlier in the turn (`hand_racked`)."""

    units: list[Unit]
    base_of: dict[int, int]
    live: dict[int, TileRow]
    live_racked: dict[int, Counter[Tile]]
    live_roles: dict[int, TileRow]
    hand: Counter[Tile]
    hand_racked: Counter[Tile]


def _taken(
    old_sets: Sequence[TileRow],
    built: Built,
    roles: Sequence[Sequence[Tile | None]] | None,
    rack_in: Sequence[Counter[Tile]],
    freed: int,
) -> Taken:
    """What each old set gives the hand and leaves in place: the tiles no new set keeps
    where they lie are taken, and a run kept in several new sets is split where it lies,
    so that every new set is then made by adding to one piece (or laid new). `freed`: the
    jokers freed first, in the hand already."""
    bases, groups = built.bases, built.groups
    taken = Taken([], {}, {}, {}, {}, Counter({JOKER: freed}), Counter())
    # The rack's tiles played earlier in the turn: in each old set.
    on_table = [Counter(put) for put in rack_in] or [Counter() for _ in old_sets]
    for i, old in enumerate(old_sets):
        unit = Unit(i, [], [], [])
        pieces = bases.pieces(i, groups[i])
        kept = sorted(j for piece in pieces.values() for j in piece)
        rest = tuple(old[j] for j in kept)
        out = tuple(t for j, t in enumerate(old) if j not in kept)
        racked = on_table[i]
        if out:
            marked = tuple((Counter(old) & racked).elements())
            after = (rest,) if rest else ()
            readings: tuple[TileRow, ...] = ()
            if roles:
                readings = (_roles_there(roles, i, range(len(old))), _roles_there(roles, i, kept))
            unit.actions.append(
                TableAction(Do.TAKE, out, old, after, (), marked, (), readings[: 1 + len(after)])
            )
            starred = Counter(out) & racked
            for t in out:
                unit.gives.append((t, STAR if starred[t] > 0 else i))
                starred[t] -= 1
            taken.hand.update(out)
            taken.hand_racked.update(Counter(out) & racked)
            racked = racked - Counter(out)
        order = sorted(pieces, key=lambda n: pieces[n])
        cut = [tuple(old[j] for j in pieces[n]) for n in order]
        if len(cut) > 1:
            marked = tuple((Counter(rest) & racked).elements())
            readings = ()
            if roles:
                readings = (
                    _roles_there(roles, i, kept),
                    *(_roles_there(roles, i, pieces[n]) for n in order),
                )
            unit.actions.append(
                TableAction(Do.SPLIT, rest, rest, tuple(cut), (), marked, (), readings)
            )
            unit.pieces.extend(order)
        taken.units.append(unit)
        for n, piece in pieces.items():
            taken.base_of[n] = i
            taken.live[n] = tuple(old[j] for j in piece)
            taken.live_racked[n] = Counter(taken.live[n]) & racked
            taken.live_roles[n] = _roles_there(roles, i, piece) if roles else ()
            racked = racked - taken.live_racked[n]
    # The table's tiles (and the freed jokers), apart from the rack's.
    return taken._replace(hand=taken.hand - taken.hand_racked)


def _roles_there(roles: Sequence[Sequence[Tile | None]], i: int, places: Iterable[int]) -> TileRow:
    """What the jokers at these places of old set i stand for."""
    return tuple(r for j in places if (r := roles[i][j]) is not None)


# For a new set: the tiles it lacks, those of them the hand's table copies (and freed
# jokers) give, and those the rack's played earlier in the turn give.
Sources = tuple[Counter[Tile], Counter[Tile], Counter[Tile]]


def _sources(
    new_sets: Sequence[TileRow],
    taken: Taken,
    hosts: dict[int, tuple[int, TileRow]],
    built: Built,
    pins: Sequence[Counter[Tile]],
) -> tuple[dict[int, Sources], Counter[Tile]]:
    """Where each new set's missing tiles come from, the sets that must have some first:
    those hosting freed jokers, each with its freed jokers (set aside for it) and the
    rack's copies counted there, and those a locked set joins whole (its copies from the
    hand before any other could take them; the others then take the rack's). With what
    the hand holds after (nothing, for a move the checker passes)."""
    hand, hand_racked = taken.hand.copy(), taken.hand_racked.copy()
    destined = Counter(n for _, _, n in built.moving)
    for n, (count, _) in hosts.items():
        destined[n] += count
    aside: dict[int, int] = {}
    for n in sorted(destined):
        aside[n] = min(destined[n], hand[JOKER])
        hand[JOKER] -= aside[n]
    sources: dict[int, Sources] = {}
    joined = built.bases.joined
    first = [*aside, *(n for n in dict.fromkeys(joined.values()) if n not in aside)]
    for n in [*first, *(n for n in range(len(new_sets)) if n not in first)]:
        missing = Counter(new_sets[n]) - Counter(taken.live.get(n, ()))
        freed = Counter({JOKER: min(aside.get(n, 0), missing[JOKER])})
        hand[JOKER] += aside.get(n, 0) - freed[JOKER]  # a host that kept a joker in place
        need = pins[n] - taken.live_racked.get(n, Counter())
        earlier = need & missing & hand_racked
        hand_racked -= earlier
        other = missing - freed - need
        from_table = other & hand
        hand -= from_table
        moved_on = (other - from_table) & hand_racked
        hand_racked -= moved_on
        earlier += moved_on
        sources[n] = (missing, from_table + freed, earlier)
    return sources, hand + hand_racked


def _adds(
    old_sets: Sequence[TileRow],
    new_sets: Sequence[TileRow],
    freeing: Freeing,
    built: Built,
    taken: Taken,
    sources: dict[int, Sources],
    staying: Sequence[TileRow],
) -> tuple[list[Add], list[TileRow]]:
    """Each new set's add or lay, with where each tile it takes from the hand must come
    from (a joker that goes along with a tile of its own, a locked set joining whole,
    the rack's played earlier: each from its set), so that the order can keep copies
    alike apart; and for each new set the rack's tiles it holds (to star them)."""
    rack_in, moving, anchored = freeing.rack_in, built.moving, built.anchored
    racked_sets: list[TileRow] = []
    adds: list[Add] = []
    for n, new in enumerate(new_sets):
        missing, from_table, earlier = sources[n]
        from_rack = _in_order_of(new, missing - from_table - earlier)
        before_racked = taken.live_racked.get(n, Counter())
        marked = tuple((before_racked + earlier).elements())
        racked_sets.append(_in_order_of(new, Counter(from_rack) + before_racked + earlier))
        if not missing:
            continue
        added = _in_order_of(new, missing)
        readings = (taken.live_roles.get(n, ()), freeing.new_roles[n]) if freeing.new_roles else ()
        do, before = (Do.ADD, taken.live[n]) if n in taken.live else (Do.LAY, ())
        action = TableAction(do, added, before, (new,), from_rack, marked, staying[n], readings)
        from_hand = missing - Counter(from_rack)
        joining = [i for i, m in built.bases.joined.items() if m == n]
        # The jokers that go along with a tile of their set (one joining whole: below).
        with_joker = [i for i, _, m in moving if m == n and i not in joining]
        own = Counter({anchored[i, n]: 1 for i in set(with_joker)})
        # The tiles of each locked set joining it whole: its own copies, named.
        whole = [(t, i) for i in joining for t in its_own(old_sets, rack_in, i).elements()]
        own += Counter(t for t, _ in whole if not t.is_joker)
        needs: list[tuple[Tile, int | None]] = [(t, STAR) for t in earlier.elements()]
        needs += [(anchored[i, n], i) for i in set(with_joker)]
        needs += [(t, i) for t, i in whole if not t.is_joker]
        needs += [(t, None) for t in (from_hand - earlier - own).elements() if not t.is_joker]
        needs += [(JOKER, i) for i in with_joker]
        needs += [(JOKER, i) for t, i in whole if t.is_joker]
        unnamed = from_hand[JOKER] - len(with_joker) - sum(t.is_joker for t, _ in whole)
        needs += [(JOKER, None)] * unnamed
        adds.append(Add(n, taken.base_of.get(n), action, needs))
    return adds, racked_sets


def _table_at_start(
    old_sets: Sequence[TileRow], freeing: Freeing, left_alone: Sequence[TileRow], rules: Rules
) -> Table:
    """What a step may name, to tell sets alike apart: each old set as the freed jokers
    left it, the rack's tiles there starred; each set left alone, all its tiles a locked
    set's or none."""
    starting = []
    for i, old in enumerate(old_sets):
        lying = Counter((t, i) for t in old)
        for t, count in (freeing.rack_in[i] if freeing.rack_in else Counter()).items():
            lying[t, i] -= count
            lying[t, STAR] += count
        starting.append(+lying)
    told = [Counter((t, False, is_locked(row, rules)) for t in row) for row in left_alone]
    return Table(starting, set(freeing.locked), told)


def _roles_at(row: TileRow, roles: TileRow) -> list[Tile | None]:
    """For each place of the set, what the joker there stands for (None: no joker)."""
    stands = iter(roles)
    return [next(stands, None) if t.is_joker else None for t in row]


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
