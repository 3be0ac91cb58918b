"""The order of the actions: set by set, unless the hand would then hold copies alike
that a player could not tell apart, or a step would name a set that looks like another on
the table where the rules tell them apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from ..tiles import JOKER, Tile, TileRow
from .actions import Do, TableAction

# Where a tile in the hand comes from, besides an old set (by its place): the rack's tiles
# played earlier in the turn, the freed jokers, and (where no order is found) any set.
STAR, FREED, ANY = -1, -2, -3


class Unit(NamedTuple):
    """An old set's takes and splits (by its place among the old sets), the tiles they
    put in the hand, each with where it comes from, and the new sets built on the pieces
    its split leaves, in their order."""

    old: int
    actions: list[TableAction]
    gives: list[tuple[Tile, int]]
    pieces: list[int]


class Add(NamedTuple):
    """An add or a lay: the new set it makes (by its place), the old set it builds on
    (None: laid new), and the tiles it takes from the hand, each with where it must come
    from (None: any set's copy)."""

    new: int
    base: int | None
    action: TableAction
    needs: list[tuple[Tile, int | None]]


# A tile on the table or in the hand, with where it comes from (an old set, STAR, ...).
Piece = tuple[Tile, int]
# What the eye tells apart of a set's tiles (each with its star), and what the rules do
# too (each also with whether a locked set's own).
Look = Counter[tuple[Tile, bool]]
Told = Counter[tuple[Tile, bool, bool]]


class Effect(NamedTuple):
    """What an action does to the sets it names: takes `pieces` out of old set `old`,
    cuts it into pieces (`cut`: each new set built on one, and its tiles), or puts
    `pieces` in new set `new` (built on old set `old`, or laid new: None)."""

    old: int | None
    new: int | None
    pieces: Counter[Piece]
    cut: tuple[tuple[int, TileRow], ...] = ()


class Table:
    """The changed sets as the steps leave them, each tile with where it comes from, to
    find a step that names a set looking like another on the table while the rules tell
    them apart: `locked`, the old sets whose own tiles stay together; `left_alone`, what
    the rules tell of the sets the move leaves alone."""

    def __init__(
        self, old: Sequence[Counter[Piece]], locked: set[int], left_alone: Sequence[Told] = ()
    ) -> None:
        self.old, self.locked, self.left_alone = old, locked, left_alone

    def told(self, pieces: Counter[Piece]) -> Told:
        """What the rules tell of the tiles: each with its star, and whether a locked set's own."""
        told: Told = Counter()
        for (tile, home), count in pieces.items():
            told[tile, home == STAR, home in self.locked] += count
        return told

    def alike(self, steps: Sequence[tuple[TableAction, Effect]]) -> set[int]:
        """The steps (by place) that name a set looking like another at that moment,
        where the rules tell the two apart, and where it matters: a step taking tiles
        out of it, or adding to it where a later step names it or the other (a set left
        alone, never)."""
        # Each set by the old set it is, or the new set it is built as (a piece, a lay).
        sets: dict[tuple[str, int | None], Counter[Piece]] = {
            ("old", i): Counter(pieces) for i, pieces in enumerate(self.old)
        }
        named: list[tuple[int, set[tuple[str, int | None]]]] = []
        keys: list[tuple[str, int | None]] = []
        for at, (_, effect) in enumerate(steps):
            new = ("new", effect.new)
            key = new if new in sets or effect.old is None else ("old", effect.old)
            keys.append(key)
            if key in sets:
                told = self.told(sets[key])
                others = {k for k, s in sets.items() if k != key and _apart(self.told(s), told)}
                if others or any(_apart(o, told) for o in self.left_alone):
                    named.append((at, {key, *others} if effect.new is not None else set()))
            if effect.cut:
                rest = sets.pop(key)
                for n, tiles in effect.cut:
                    piece: Counter[Piece] = Counter()
                    for tile in tiles:
                        home = min(h for t, h in +rest if t == tile)  # the rack's first
                        rest[tile, home] -= 1
                        piece[tile, home] += 1
                    sets["new", n] = piece
            elif effect.new is None:
                sets[key] = sets[key] - effect.pieces
            else:
                sets[key] = sets.get(key, Counter()) + effect.pieces
        return {at for at, after in named if not after or after & set(keys[at + 1 :])}


def _apart(one: Told, other: Told) -> bool:
    """Whether two sets look alike while the rules tell them apart."""
    return one != other and _look(one) == _look(other)


def _look(told: Told) -> Look:
    look: Look = Counter()
    for (tile, star, _), count in told.items():
        look[tile, star] += count
    return look


class Ordered(NamedTuple):
    """The actions in order; `hold_apart`: no order lets each add take the copies the
    plan means (its copies do not add up: a move the checker refuses, or a fault of the
    plan), so the player must keep each set's tiles apart in the hand, each add naming
    the copies it means where the plan knows them."""

    actions: list[TableAction]
    hold_apart: bool = False


def in_followable_order(
    units: Sequence[Unit], adds: Sequence[Add], anchors: set[int], freed: int, table: Table
) -> Ordered:
    """The actions in an order a player can follow (`_ordered`). Where a step would name
    a set that looks like another on the table while the rules tell them apart (`table`),
    a set's takes are done first if that avoids it; else the step says which set it means
    (`TableAction.table_set`: the old set it lies where)."""
    first: tuple[list[tuple[TableAction, Effect]], set[int], bool] | None = None
    for k in [None, *(k for k, unit in enumerate(units) if unit.actions)]:
        tried = units if k is None else [units[k], *units[:k], *units[k + 1 :]]
        steps, followed = _ordered(tried, adds, anchors, freed)
        alike = table.alike(steps)
        if not alike and followed:
            return Ordered([action for action, _ in steps])
        first = first or (steps, alike, followed)
    assert first is not None
    steps, alike, followed = first
    actions = [
        action._replace(table_set=effect.old) if at in alike else action
        for at, (action, effect) in enumerate(steps)
    ]
    return Ordered(actions, hold_apart=not followed)


def _ordered(
    units: Sequence[Unit], adds: Sequence[Add], anchors: set[int], freed: int
) -> tuple[list[tuple[TableAction, Effect]], bool]:
    """The takes and splits set by set, then the adds and lays; but where the hand would
    then hold copies alike of one tile from two sets, one of them from a set whose joker
    leaves with its own tile (`anchors`), a player could not tell which copy to add: each
    add or lay is then done as soon as its tiles are at hand with no such choice, and a
    set's tiles are taken only when no add is ready, such a set's last. Where no order
    leaves no choice, the add names the copies it takes (`TableAction.copies`). `freed`:
    the jokers freed first, one action each before these. Each action with what it does
    to the sets it names; and whether the order can be followed so (else: the takes set
    by set, then each add naming the copies the plan meant for it, where it knows them)."""
    hand: Counter[tuple[Tile, int]] = Counter()
    # The copies kept for an add that names where they come from (for a joker that leaves
    # with them, or the rack's played earlier in the turn): no other add takes them.
    reserved = Counter((t, i) for add in adds for t, i in add.needs if i is not None)
    kept = reserved.copy()
    # Where each old set's take is among all the actions (the freed jokers' first).
    take_at: dict[int, int] = {}

    def homes(tile: Tile) -> list[int]:
        """Where the free copies of the tile in the hand come from: sets of no joker
        first."""
        found = {i for (t, i), k in hand.items() if t == tile and k > kept[t, i]}
        return sorted(found, key=lambda i: (i in anchors, i))

    def alike(add: Add) -> set[Tile]:
        """The add's tiles whose copies in the hand come from two sets, one of them a set
        whose joker leaves with its own tile: a choice that matters."""
        tables = {t for t, _ in add.needs if not t.is_joker}
        held = {t: {i for (u, i), k in hand.items() if u == t and k > 0 and i >= 0} for t in tables}
        return {t for t, h in held.items() if len(h) > 1 and h & anchors}

    def take(add: Add) -> list[tuple[Tile, int]] | None:
        """Take the add's tiles from the hand, if they are all there: each with its home."""
        before, kept_before = hand.copy(), kept.copy()
        used = []
        for t, home in add.needs:
            at = homes(t) if home is None else [home] * (hand[t, home] > 0)
            if not at:
                hand.clear()
                hand.update(before)
                kept.clear()
                kept.update(kept_before)
                return None
            hand[t, at[0]] -= 1
            used.append((t, at[0]))
            if home is not None:
                kept[t, home] -= 1
        return used

    def done_now(
        add: Add, done: set[int], naming: bool = False
    ) -> tuple[TableAction, Effect] | None:
        """The add's action, its tiles taken from the hand, if its set is there and its
        tiles are at hand with no choice among copies alike (`naming`: each copy named)."""
        if add.base is not None and add.base not in done:
            return None
        choices = alike(add)
        if choices and not naming:
            return None
        used = take(add)
        if used is None:
            return None
        copies = tuple((t, take_at[i]) for t, i in used if t in choices and i >= 0)
        put = Counter(used) + Counter((t, STAR) for t in add.action.from_rack)
        effect = Effect(add.base, add.new, put)
        return (add.action._replace(copies=copies) if copies else add.action), effect

    def as_planned(add: Add) -> tuple[TableAction, Effect]:
        """An add after the takes set by set, naming each copy the plan means from one set
        (`take_at`), what it does with its copies from where the plan says (else from any
        set)."""
        put = Counter((t, ANY if home is None else home) for t, home in add.needs)
        left = Counter(add.action.tiles) - Counter(add.action.from_rack)
        copies = []
        for t, home in add.needs:
            if home in take_at and not t.is_joker and left[t] > 0:
                left[t] -= 1
                copies.append((t, take_at[home]))
        action = add.action._replace(copies=tuple(copies)) if copies else add.action
        effect = Effect(add.base, add.new, put + Counter((t, STAR) for t in add.action.from_rack))
        return action, effect

    def unit_steps(unit: Unit) -> list[tuple[TableAction, Effect]]:
        return [
            (a, Effect(unit.old, None, Counter(), tuple(zip(unit.pieces, a.after, strict=True))))
            if a.do is Do.SPLIT
            else (a, Effect(unit.old, None, Counter(unit.gives)))
            for a in unit.actions
        ]

    hand[JOKER, FREED] = freed
    for unit in units:
        hand.update(unit.gives)
    everything = {unit.old for unit in units}
    plain = [step for unit in units for step in unit_steps(unit)]
    for add in adds:
        step = done_now(add, everything)
        if step is None:
            break
        plain.append(step)
    else:
        return plain, True
    hand.clear()
    hand[JOKER, FREED] = freed
    kept.clear()
    kept.update(reserved)
    take_at.clear()
    done = {unit.old for unit in units if not unit.actions}
    waiting, left = list(adds), [unit for unit in units if unit.actions]
    ordered: list[tuple[TableAction, Effect]] = []
    while waiting:
        found = next(((a, m) for a in waiting if (m := done_now(a, done)) is not None), None)
        if found is None and left:
            # A set whose joker leaves with its tile is taken last: its copies wait the
            # least in the hand.
            unit = min(left, key=lambda u: u.old in anchors)
            left.remove(unit)
            hand.update(unit.gives)
            done.add(unit.old)
            take_at[unit.old] = freed + len(ordered)
            ordered.extend(unit_steps(unit))
            continue
        # Every set's tiles taken and still a choice: the add names its copies.
        found = found or next(
            ((a, m) for a in waiting if (m := done_now(a, done, naming=True)) is not None), None
        )
        if found is None:
            take_at.clear()
            steps = [step for unit in units for step in unit_steps(unit)]
            for at, (action, effect) in enumerate(steps):
                if action.do is Do.TAKE and effect.old is not None:
                    take_at[effect.old] = freed + at
            return steps + [as_planned(add) for add in adds], False
        waiting.remove(found[0])
        ordered.append(found[1])
    return ordered + [step for unit in left for step in unit_steps(unit)], True
