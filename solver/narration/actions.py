"""The narration's vocabulary: one physical action at the table, as a person does it."""

from __future__ import annotations

import enum
from collections import Counter
from typing import NamedTuple

from ..tiles import Tile, TileRow


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
    for, in the order they lie, where the plan knows (sets alike may read otherwise).
    `copies`: of an add or a lay, the tiles a copy alike in the hand could be mistaken
    for (one of them a joker's own), each with the take that put it in the hand (by its
    place among the plan's actions): the copy to use. `table_set`: of a step whose set
    looks like another on the table while the rules tell them apart (a locked set's own
    tiles and others), the set of the table before the move (by its place) it is, or was
    cut from, or grew on: the set meant."""

    do: Do
    tiles: TileRow
    before: TileRow
    after: tuple[TileRow, ...]
    from_rack: TileRow = ()
    marked: TileRow = ()
    table_jokers: TileRow = ()
    readings: tuple[TileRow, ...] = ()
    copies: tuple[tuple[Tile, int], ...] = ()
    table_set: int | None = None


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
