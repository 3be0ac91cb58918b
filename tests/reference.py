"""An exhaustive reference solver for small positions, sharing no code with the model.

It knows sets only as "shapes" (every run window and every group of colours), tries
every sub-multiset of the rack, and partitions the tiles by brute force. Slow, simple,
and independent: the property tests hold the MIP to its answers. Where the rules ask what
became of each set of the table (joker retrieval, locked-joker-sets), it also tries every
choice of the sets kept, and follows tiles and jokers one by one.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations, permutations, product
from typing import NamedTuple

from rummisolve.board import Board
from rummisolve.rules import JokerRetrieval
from rummisolve.tiles import COLOURS, JOKER, Tile, tile_value

Bag = tuple[Tile, ...]


class Best(NamedTuple):
    tiles: int
    value: int
    kept: int


@cache
def _shapes(size: int, wraparound: bool) -> tuple[frozenset[Tile], ...]:
    """Every joker-free set of this many tiles, with its face value as the tiles' numbers."""
    shapes = []
    last = 14 if wraparound else 13
    for colour in COLOURS:
        for start in range(1, last - size + 2):
            shapes.append(
                frozenset(Tile(colour, 1 if n == 14 else n) for n in range(start, start + size))
            )
    if size in (3, 4):
        for number in range(1, 14):
            for colours in combinations(COLOURS, size):
                shapes.append(frozenset(Tile(c, number) for c in colours))
    return tuple(shapes)


def set_value(tiles: Bag, wraparound: bool) -> int | None:
    """The highest face value these tiles can have as one set, or None if they make none."""
    real = [t for t in tiles if t != JOKER]
    if len(set(real)) != len(real):
        return None
    best = None
    for shape in _shapes(len(tiles), wraparound):
        if set(real) <= shape:
            value = sum(t.number for t in shape)
            best = value if best is None else max(best, value)
    return best


def _key(tiles: Bag) -> Bag:
    return tuple(sorted(tiles, key=Tile.sort_key))


def _order(parts: list[Bag]) -> tuple[Bag, ...]:
    return tuple(sorted(parts, key=lambda p: [t.sort_key() for t in p]))


@cache
def _partitions(tiles: Bag, wraparound: bool) -> dict[tuple[Bag, ...], int]:
    """Every way to cut the (sorted) bag into sets, each with its best total face value."""
    if not tiles:
        return {(): 0}
    first, rest = tiles[0], tiles[1:]
    # Only tiles that can share a set with the first one: same colour, same number, jokers.
    mates = [
        t
        for t in rest
        if first == JOKER or t == JOKER or t.colour == first.colour or t.number == first.number
    ]
    results: dict[tuple[Bag, ...], int] = {}
    for size in range(2, min(12, len(mates)) + 1):
        for others in set(combinations(mates, size)):
            part = (first, *others)
            value = set_value(part, wraparound)
            if value is None:
                continue
            remaining = list(rest)
            for t in others:
                remaining.remove(t)
            for parts, rest_value in _partitions(tuple(remaining), wraparound).items():
                key = _order([part, *parts])
                results[key] = max(results.get(key, 0), value + rest_value)
    return results


def best_move(board: Board, objective: str = "tiles") -> Best:
    """The best (tiles, value, sets kept) over every sub-multiset of the rack."""
    rules = board.rules
    table = list(board.table_tiles)
    originals = Counter(_key(s) for s in board.table)
    rack = list(board.rack)
    best: Best | None = None
    subsets: set[Bag] = set()
    for size in range(len(rack) + 1):
        subsets.update(_key(c) for c in combinations(rack, size))
    for played in subsets:
        value = sum(tile_value(t, rules.joker_penalty) for t in played)
        if board.opened and (
            rules.joker_retrieval is not JokerRetrieval.FREE or rules.locked_joker_sets
        ):
            kept = _best_kept_following(_key(tuple(table) + played), board, played)
        elif board.opened:
            kept = _best_kept(_key(tuple(table) + played), originals, rules.wraparound)
        else:
            kept = _meld_ok(played, rules.wraparound, rules.initial_meld)
            kept = len(board.table) if kept else None
        if kept is None:
            continue
        candidate = Best(len(played), value, kept)
        if best is None or _rank(candidate, objective) > _rank(best, objective):
            best = candidate
    assert best is not None  # playing nothing is always possible
    return best


def _rank(best: Best, objective: str) -> tuple[int, int, int]:
    if objective == "tiles":
        return (best.tiles, best.value, best.kept)
    return (best.value, best.tiles, best.kept)


def _best_kept(tiles: Bag, originals: Counter[Bag], wraparound: bool) -> int | None:
    """Most sets of the table kept intact over every partition, or None if none exists."""
    best = None
    for parts in _partitions(tiles, wraparound):
        kept = sum((Counter(_key(p) for p in parts) & originals).values())
        best = kept if best is None else max(best, kept)
    return best


def _roles(tiles: Bag, wraparound: bool) -> set[Bag]:
    """Each reading of a set: the tiles its jokers stand for (sorted)."""
    real = [t for t in tiles if t != JOKER]
    return {
        _key(tuple(shape - set(real)))
        for shape in _shapes(len(tiles), wraparound)
        if set(real) <= shape and len(set(real)) == len(real)
    }


def _best_kept_following(tiles: Bag, board: Board, played: Bag) -> int | None:
    """As _best_kept, where a joker of a table set that is not kept must go on standing for
    a tile it stood for, unless that tile was played (JokerRetrieval.REPLACE); under STRICT
    the joker so freed must then be in a set with two played tiles. With locked-joker-sets,
    the real tiles of a table set with a joker that is not kept all end in one set."""
    wraparound = board.rules.wraparound
    best = None
    for parts in _partitions(tiles, wraparound):
        available = Counter(_key(p) for p in parts)
        for size in range(len(board.table), -1, -1):
            if best is not None and size <= best:
                break
            if any(
                _sets_ok(board, kept, available, parts, played, wraparound)
                for kept in combinations(range(len(board.table)), size)
            ):
                best = size
                break
    return best


def _sets_ok(
    board: Board,
    kept: tuple[int, ...],
    available: Counter[Bag],
    parts: tuple[Bag, ...],
    played: Bag,
    wraparound: bool,
) -> bool:
    wanted = Counter(_key(board.table[i]) for i in kept)
    if wanted - available:
        return False
    left = list(parts)
    for part in wanted.elements():
        left.remove(part)
    homes: list[list[frozenset[Tile]]] = [[frozenset()] * len(left)]
    if board.rules.locked_joker_sets:
        homes = _locked_homes([s for i, s in enumerate(board.table) if i not in kept], left)
        if not homes:
            return False
    if board.rules.joker_retrieval is JokerRetrieval.FREE:
        return True
    owed = [_roles(_key(s), wraparound) for i, s in enumerate(board.table) if i not in kept]
    with_jokers = [n for n, p in enumerate(left) if JOKER in p]
    jokered = [left[n] for n in with_jokers]
    held = [_roles(p, wraparound) for p in jokered]
    strict = board.rules.joker_retrieval is JokerRetrieval.STRICT
    for old in product(*[o for o in owed if o != {()}]):
        need = Counter(t for roles in old for t in roles)
        for new in product(*held):
            if need - (Counter(played) + Counter(t for roles in new for t in roles)):
                continue
            if not strict or any(
                _all_freed_hosted(old, jokered, new, played, [home[n] for n in with_jokers])
                for home in homes
            ):
                return True
    return False


def _locked_homes(moved: list[Bag], parts: list[Bag]) -> list[list[frozenset[Tile]]]:
    """locked-joker-sets: every way to put the real tiles of each moved table set that holds
    a joker, all of them, into one part; a part holds a tile once, so no two sets give it the
    same tile. Each way is, per part, the tiles it holds from those sets."""
    ways: list[list[frozenset[Tile]]] = [[frozenset()] * len(parts)]
    for tiles in moved:
        real = frozenset(t for t in tiles if t != JOKER)
        if JOKER not in tiles or not real:
            continue
        ways = [
            [*way[:n], way[n] | real, *way[n + 1 :]]
            for way in ways
            for n, part in enumerate(parts)
            if real <= set(part) and not real & way[n]
        ]
    return ways


def _all_freed_hosted(
    old: tuple[Bag, ...],
    parts: list[Bag],
    new: tuple[Bag, ...],
    played: Bag,
    locked: list[frozenset[Tile]],
) -> bool:
    """STRICT, by following each joker: the table jokers (each with its old role) and the
    rack's go to the joker places of the new parts in every way; a table joker not standing
    for its role is freed, and may be freed anyway if its role was played. Every part with
    a freed joker needs two tiles played from the rack: its rack jokers, and rack copies
    of its tiles, each played copy landing in one part, never on a tile of `locked[n]`
    (the table's copy, kept with its set under locked-joker-sets)."""
    places = [(n, t) for n, roles in enumerate(new) for t in roles]
    table_roles = [t for roles in old for t in roles]
    rack_jokers = played.count(JOKER)
    coloured = [t for t in played if t != JOKER]
    for rack_places in combinations(range(len(places)), rack_jokers):
        others = [p for i, p in enumerate(places) if i not in rack_places]
        from_rack = Counter(places[i][0] for i in rack_places)
        for roles in set(permutations(table_roles)):
            for freeing in product((False, True), repeat=len(roles)):
                if any(
                    not freed and role != stand_in
                    for freed, role, (_, stand_in) in zip(freeing, roles, others, strict=True)
                ):
                    continue
                freed_roles = Counter(r for r, freed in zip(roles, freeing, strict=True) if freed)
                if freed_roles - Counter(coloured):
                    continue
                hosts = {n for (n, _), freed in zip(others, freeing, strict=True) if freed}
                if _rack_copies_reach(hosts, parts, from_rack, coloured, locked):
                    return True
    return False


def _rack_copies_reach(
    hosts: set[int],
    parts: list[Bag],
    from_rack: Counter[int],
    coloured: list[Tile],
    locked: list[frozenset[Tile]],
) -> bool:
    """Each played copy lands in a host holding that tile (or elsewhere), a host holding
    each tile once, and not as a tile locked there: can every host then count two tiles
    from the rack?"""
    homes = [
        [n for n in hosts if tile in parts[n] and tile not in locked[n]] + [None]
        for tile in coloured
    ]
    for landing in product(*homes):
        landed = [(n, tile) for n, tile in zip(landing, coloured, strict=True) if n is not None]
        if len(set(landed)) < len(landed):
            continue
        count = from_rack + Counter(n for n, _ in landed)
        if all(count[n] >= 2 for n in hosts):
            return True
    return False


def _meld_ok(played: Bag, wraparound: bool, threshold: int) -> bool:
    if not played:
        return True
    return any(value >= threshold for value in _partitions(_key(played), wraparound).values())
