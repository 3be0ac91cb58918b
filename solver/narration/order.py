"""The order of the actions: set by set, unless the hand would then hold copies alike
that a player could not tell apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from ..tiles import JOKER, Tile
from .actions import TableAction

# Where a tile in the hand comes from, besides an old set (by its place): the rack's tiles
# played earlier in the turn, and the freed jokers.
STAR, FREED = -1, -2


class Unit(NamedTuple):
    """An old set's takes and splits (by its place among the old sets), and the tiles
    they put in the hand, each with where it comes from."""

    old: int
    actions: list[TableAction]
    gives: list[tuple[Tile, int]]


class Add(NamedTuple):
    """An add or a lay: the old set it builds on (None: laid new), and the tiles it takes
    from the hand, each with where it must come from (None: any set's copy)."""

    base: int | None
    action: TableAction
    needs: list[tuple[Tile, int | None]]


def in_followable_order(
    units: Sequence[Unit], adds: Sequence[Add], anchors: set[int], freed: int
) -> list[TableAction]:
    """The takes and splits set by set, then the adds and lays; but where the hand would
    then hold copies alike of one tile from two sets, one of them from a set whose joker
    leaves with its own tile (`anchors`), a player could not tell which copy to add: each
    add or lay is then done as soon as its tiles are at hand with no such choice, and a
    set's tiles are taken only when no add is ready, such a set's last. Where no order
    leaves no choice, the add names the copies it takes (`TableAction.copies`). `freed`:
    the jokers freed first, one action each before these."""
    plain = [a for unit in units for a in unit.actions] + [add.action for add in adds]
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

    def done_now(add: Add, done: set[int], naming: bool = False) -> TableAction | None:
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
        return add.action._replace(copies=copies) if copies else add.action

    hand[JOKER, FREED] = freed
    for unit in units:
        hand.update(unit.gives)
    everything = {unit.old for unit in units}
    if all(done_now(add, everything) is not None for add in adds):
        return plain
    hand.clear()
    hand[JOKER, FREED] = freed
    kept.clear()
    kept.update(reserved)
    done = {unit.old for unit in units if not unit.actions}
    waiting, left = list(adds), [unit for unit in units if unit.actions]
    ordered: list[TableAction] = []
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
            ordered.extend(unit.actions)
            continue
        # Every set's tiles taken and still a choice: the add names its copies.
        found = found or next(
            ((a, m) for a in waiting if (m := done_now(a, done, naming=True)) is not None), None
        )
        if found is None:
            return plain
        waiting.remove(found[0])
        ordered.append(found[1])
    return ordered + [a for unit in left for a in unit.actions]
