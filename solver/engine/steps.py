"""A solution laid out as a person sees it: the sets of the new table, in order, and
where each of their tiles comes from (the table as it lay, or the rack)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..board import Board
from ..move import SetChange, Source, Step
from ..rules import Rules
from ..sets import read_meld
from ..tiles import JOKER, MAX_NUMBER, Tile, TileRow, format_tiles, tally
from .model import Arrangement
from .tile_rows import TILE_INDEX


def move_steps(board: Board, arrangement: Arrangement) -> tuple[Step, ...]:
    """The new table in order, each set with where its tiles come from.

    A set of the table as it lay keeps its place; a new set follows the old set it took
    most tiles from; sets made from the rack alone come last.
    """
    # Before the initial meld the model never saw the table: all of it stays.
    kept = set(arrangement.kept if board.opened else range(len(board.table)))
    new_sets = laid_sets(arrangement, board.rules)
    leftover = {i: tally(s) for i, s in enumerate(board.table) if i not in kept}
    needs = [tally(s) for s in new_sets]
    holders: dict[Tile, list[int]] = {}
    for i, left in leftover.items():
        for t in left:
            holders.setdefault(t, []).append(i)
    # Greedy: the pairs (new set, old set) that share most tiles exchange them first;
    # sets holding a freed joker (laid last) come after all others, so that they are
    # left the rack's copies of tiles the table holds too (strict retrieval).
    first_host = len(new_sets) - len(arrangement.hosts)
    pairs: list[tuple[bool, int, int, int]] = []
    for n, need in enumerate(needs):
        shared: dict[int, int] = {}  # tiles in common with each old set that has any
        for t, k in need.items():
            for i in holders.get(t, ()):
                there = leftover[i][t]
                shared[i] = shared.get(i, 0) + (k if k < there else there)
        late = n >= first_host
        for i, common in shared.items():
            pairs.append((late, -common, n, i))
    pairs.sort()
    # A table set that a host holds (its jokers, or its tiles) gives it its tiles first.
    held = [(False, 0, first_host + h, i) for i, h in arrangement.holders]
    taken: list[dict[int, dict[Tile, int]]] = [{} for _ in new_sets]
    for _, _, n, i in held + pairs:
        need, left = needs[n], leftover[i]
        into: dict[Tile, int] | None = None
        for t, k in need.items():
            there = left.get(t, 0) if k else 0
            if there:
                moved = k if k < there else there
                need[t] = k - moved
                left[t] = there - moved
                if into is None:
                    into = taken[n].setdefault(i, {})
                into[t] = into.get(t, 0) + moved

    steps_at: dict[int, list[Step]] = {i: [] for i in range(len(board.table))}
    from_rack_only: list[Step] = []
    holding = {first_host + h for _, h in arrangement.holders}
    for n, tiles in enumerate(new_sets):
        got = taken[n]
        if not got:  # every tile from the rack, in the set's order
            from_rack_only.append(Step(SetChange.NEW, tiles, (), tiles))
            continue
        sources = tuple(Source(i, in_order_of(tiles, got[i])) for i in sorted(got))
        rack_part = in_order_of(tiles, needs[n])
        main = sources[0] if len(sources) == 1 else max(sources, key=lambda s: len(s.tiles))
        whole = len(sources) == 1 and len(main.tiles) == len(board.table[main.set_index])
        change = SetChange.EXTEND if whole else SetChange.REBUILD
        step = Step(change, tiles, sources, rack_part)
        # A set holding a table set's tiles (locked-joker-sets) comes first under that set.
        if n in holding:
            steps_at[main.set_index].insert(0, step)
        else:
            steps_at[main.set_index].append(step)
    ordered: list[Step] = []
    for i, old in enumerate(board.table):
        if i in kept:
            ordered.append(Step(SetChange.KEEP, old, (), ()))
        ordered.extend(steps_at[i])
    return tuple(ordered + from_rack_only)


def laid_sets(arrangement: Arrangement, rules: Rules) -> list[TileRow]:
    """The sets of the table after the move, as they are laid: pieces joined into runs,
    each joker where `read_meld` reads it (the steps then say where each tile comes from)."""
    return [as_read(row, rules) for row in _new_sets(arrangement)]


def _new_sets(arrangement: Arrangement) -> list[TileRow]:
    """The pieces as sets to lay: jokers put in, and runs that continue each other joined.

    Pieces come in canonical order (runs ascending, groups by colour), each joker at the
    place of the tile it stands for.
    """
    jokers = dict(arrangement.stand_ins)
    runs: list[tuple[TileRow, TileRow]] = []
    groups: list[TileRow] = []
    for piece in arrangement.pieces:
        laid = piece
        if jokers and not jokers.keys().isdisjoint(piece):
            row = []
            for t in piece:
                if jokers.get(t, 0) > 0:
                    jokers[t] -= 1
                    t = JOKER
                row.append(t)
            laid = tuple(row)
        if piece[0].number == piece[1].number:
            groups.append(laid)
        else:
            runs.append((piece, laid))
    return join_runs(runs) + groups + arrangement.hosts


def as_read(row: TileRow, rules: Rules) -> TileRow:
    """The row as `read_meld` reads it: each joker where the most it can stand for lies,
    so that the table printed means what the package itself reads back.

    A row without jokers already is in that order (pieces come in canonical order).
    """
    if JOKER not in row:
        return row
    meld = read_meld(row, rules)
    assert meld is not None, f"the model laid an invalid set: {format_tiles(row)}"
    return meld.ordered


def join_runs(runs: list[tuple[TileRow, TileRow]]) -> list[TileRow]:
    """Join runs of one colour where one starts right after the other ends.

    Each run is its joker-free shape and its tiles as laid; a wrapping run ends at
    position 14, where nothing can follow it, and no run is longer than 13.
    """
    joined: list[tuple[Tile, list[Tile]]] = []  # each run's first place, and its tiles
    # By each run's first tile (TILE_INDEX holds Tile.sort_key's order, at a look-up).
    for shape, laid in sorted(runs, key=lambda run: TILE_INDEX[run[0][0]]):
        if joined:
            first, tiles = joined[-1]
            if (
                first.colour == shape[0].colour
                and first.number + len(tiles) == shape[0].number
                # 1-13 followed by a wrapping ...13-1 would hold the 1 twice.
                and len(tiles) + len(laid) <= MAX_NUMBER
            ):
                tiles.extend(laid)
                continue
        joined.append((shape[0], list(laid)))
    return [tuple(tiles) for _, tiles in joined]


def in_order_of(row: Sequence[Tile], wanted: Mapping[Tile, int]) -> TileRow:
    """The wanted tiles (some of the row's), in the order the row holds them."""
    left = {t: k for t, k in wanted.items() if k > 0}
    total = sum(left.values())
    if total == len(row):  # all of it (most sets come whole from one place)
        return tuple(row)
    chosen: list[Tile] = []
    if not total:
        return ()
    for t in row:
        k = left.get(t)
        if k:
            left[t] = k - 1
            chosen.append(t)
            if len(chosen) == total:
                break
    return tuple(chosen)
