"""Where each new set is built, as the rules on the table's jokers ask: each old set's
joker kept in place only where it stays, each locked set in one new set whole, and a
joker that leaves its set without being freed going along with a tile of its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from ..rules import Rules
from ..tiles import JOKER, Tile, TileRow
from .actions import Freeing
from .bases import Bases


class Built(NamedTuple):
    """Where each new set is built (`groups`: the new sets each old set's tiles stay in),
    the jokers that stay but move (each: its old set, the tile it stands for, its new
    set), and the tile of its own each such joker goes along with (by old and new set)."""

    bases: Bases
    groups: list[list[int]]
    moving: list[tuple[int, Tile, int]]
    anchored: dict[tuple[int, int], Tile]


def built_on(
    old_sets: Sequence[TileRow],
    new_sets: Sequence[TileRow],
    rules: Rules,
    freeing: Freeing,
    roles: Sequence[Sequence[Tile | None]] | None,
    pins: Sequence[Counter[Tile]],
) -> Built:
    """Where each new set is built, so that a joker that leaves its set without being
    freed goes along with a tile of its own (the rules keep a joker beside one): that
    tile goes where the joker goes, and where the joker would still leave alone (the
    tile kept in place there), the two are taken together."""
    bases = _bases(old_sets, new_sets, rules, freeing, roles, pins)
    groups = bases.best()
    rack_in = freeing.rack_in
    anchored: dict[tuple[int, int], Tile] = {}
    if roles is None:
        return Built(bases, groups, [], anchored)
    moving = _moving(freeing.stays, bases, groups, roles, rack_in)
    while True:
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
            return Built(bases, groups, moving, anchored)
        groups = bases.best()
        moving = _moving(freeing.stays, bases, groups, roles, rack_in)


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
        whole = its_own(old_sets, rack_in, i)
        joining = [n for n, new in enumerate(new_sets) if not whole - Counter(new)]
        if joining:
            bases.join(i, min(joining, key=lambda n: n not in locked_in))
    return bases


def is_locked(row: TileRow, rules: Rules) -> bool:
    """Whether no tile of the set's own may leave it (locked-joker-sets): it holds a
    joker and a tile."""
    return rules.locked_joker_sets and JOKER in row and not all(t.is_joker for t in row)


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
    return [t for t in its_own(old_sets, rack_in, i) if not t.is_joker and t in new_sets[n]]


def its_own(old_sets: Sequence[TileRow], rack_in: Sequence[Counter[Tile]], i: int) -> Counter[Tile]:
    """Old set i's own tiles: all it holds but the rack's put in it to free a joker."""
    return Counter(old_sets[i]) - (rack_in[i] if rack_in else Counter())
