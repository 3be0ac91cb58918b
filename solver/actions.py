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
from itertools import pairwise
from typing import NamedTuple

from .board import Board
from .move import Action, Move
from .rules import Rules
from .sets import Kind, read_meld
from .tiles import Tile

TileRow = tuple[Tile, ...]

# Partial assignments the search looks at before it settles for the best found so far.
_SEARCH_LIMIT = 20_000


class Do(enum.Enum):
    """One physical action at the table."""

    TAKE = "take"  # tiles out of a set, into the hand
    SPLIT = "split"  # a run cut where it lies into pieces, no tile moved
    ADD = "add"  # tiles from the hand or the rack added to a set
    LAY = "lay"  # a new set laid from the hand and the rack


class TableAction(NamedTuple):
    """`tiles`: those taken, added or laid (a split: the run split). `before`: the set as
    it looks before the action (a lay: empty). `after`: what is left (a take: the rest of
    the set, empty if none is left; a split: the pieces; an add or a lay: the set made).
    `from_rack`: the tiles of an add or a lay that come from the rack."""

    do: Do
    tiles: TileRow
    before: TileRow
    after: tuple[TileRow, ...]
    from_rack: TileRow = ()


class TablePlan(NamedTuple):
    """The actions in order, and the tiles they move (each from the rack, or taken from a
    set and put elsewhere, counts once)."""

    actions: tuple[TableAction, ...]
    tiles_moved: int


def plan_move(move: Move, rules: Rules) -> TablePlan:
    """The move's actions at the table, in an order a person can follow."""
    old: dict[int, list[Tile]] = {}
    for step in move.steps:
        for source in step.from_table:
            old.setdefault(source.set_index, []).extend(source.tiles)
    old_sets = [_laid(old[i], rules) for i in sorted(old)]
    new_sets = [step.tiles for step in move.steps if step.action is not Action.KEEP]
    return plan_table(old_sets, new_sets, rules)


def plan_table(
    old_sets: Sequence[TileRow], new_sets: Sequence[TileRow], rules: Rules
) -> TablePlan:
    """The actions that turn the old sets (with tiles from the rack) into the new ones:
    takes and splits set by set in the order of the old table, then adds and lays in the
    order of the new one. Each set is named as it looks at that moment."""
    bases = _Bases(old_sets, new_sets, rules)
    groups = bases.best()
    actions: list[TableAction] = []
    hand: Counter[Tile] = Counter()
    live: dict[int, TileRow] = {}
    for i, old in enumerate(old_sets):
        pieces = bases.pieces(i, groups[i])
        kept = sorted(j for piece in pieces.values() for j in piece)
        rest = tuple(old[j] for j in kept)
        taken = tuple(t for j, t in enumerate(old) if j not in set(kept))
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
    for n, new in enumerate(new_sets):
        missing = Counter(new) - Counter(live.get(n, ()))
        if not missing:
            continue
        from_hand = missing & hand
        hand -= from_hand
        played.subtract(missing - from_hand)
        added = _in_order_of(new, missing)
        from_rack = _in_order_of(new, missing - from_hand)
        if n in live:
            actions.append(TableAction(Do.ADD, added, live[n], (new,), from_rack))
        else:
            actions.append(TableAction(Do.LAY, added, (), (new,), from_rack))
    assert not +hand and not +played, "the new sets are not the old ones and the rack's"
    moved = sum(len(a.tiles) for a in actions if a.do in (Do.ADD, Do.LAY))
    return TablePlan(tuple(actions), moved)


def board_after(board: Board, move: Move) -> Board:
    """The board for the next turn: the new table, the rack left, opened once a move is
    made, the same rules."""
    return Board(move.table, move.rack, board.opened or move.is_move, board.rules)


def joker_stand_ins(row: Sequence[Tile], rules: Rules) -> tuple[Tile, ...]:
    """What each joker of a set stands for, in the order they lie (as the table reads it)."""
    meld = read_meld(row, rules)
    if meld is None:
        return ()
    return tuple(s for t, s in zip(meld.tiles, meld.stand_ins, strict=True) if t.is_joker)


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
        # A run cut into runs: a tile stays if it keeps what it stands for, and the
        # pieces follow one another along the run.
        old_keys = _keys(old, self.rules)
        taken: set[int] = set()
        pieces: dict[int, tuple[int, ...]] = {}
        for n in group:
            wanted = Counter(_keys(self.new[n], self.rules))
            places = []
            for j, key in enumerate(old_keys):
                if j not in taken and wanted[key] > 0:
                    wanted[key] -= 1
                    places.append(j)
            if not places:
                return None
            taken.update(places)
            pieces[n] = tuple(places)
        spans = sorted((p[0], p[-1]) for p in pieces.values())
        if any(end >= start for (_, end), (start, _) in pairwise(spans)):
            return None
        return pieces

    def best(self) -> list[list[int]]:
        """For each old set, the new sets built on it: the most tiles kept in place."""
        count = len(self.new)
        order = sorted(range(count), key=lambda n: -max(self.overlap[n], default=0))
        reach = [max(self.overlap[n], default=0) for n in order]
        after = [sum(reach[k:]) for k in range(count + 1)]
        groups: list[list[int]] = [[] for _ in self.old]
        best: tuple[int, list[list[int]]] = (-1, [])
        nodes = 0

        def search(k: int, total: int) -> None:
            nonlocal best, nodes
            nodes += 1
            if total + after[k] <= best[0] or (nodes > _SEARCH_LIMIT and best[0] >= 0):
                return
            if k == count:
                best = (total, [list(g) for g in groups])
                return
            n = order[k]
            choices = sorted(
                (i for i in range(len(self.old)) if self.overlap[n][i] > 0),
                key=lambda i: -self.overlap[n][i],
            )
            for i in choices:
                before = self.kept(i, groups[i])
                groups[i].append(n)
                now = self.kept(i, groups[i])
                if now is not None and before is not None:
                    search(k + 1, total + now - before)
                groups[i].pop()
            search(k + 1, total)

        search(0, 0)
        return best[1]


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
    meld = read_meld(row, rules)
    assert meld is not None
    return list(zip(meld.tiles, meld.stand_ins, strict=True))
