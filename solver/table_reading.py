"""How the table reads a move's jokers (as the board declared them, as the rules as
written tell them apart, else by their places), and the board after the move, which
declares them for the next turn. The narration (`narration`) tells the move with these
readings; the game needs only the next board.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .board import Board
from .jokers import (
    Telling,
    fits_declared,
    joker_stand_ins,
    lay_with_roles,
    set_readings,
    tell_jokers,
)
from .move import Move, kept_sets
from .rules import Rules
from .tiles import JOKER, Tile, TileRow


class TableReading:
    """What the jokers of each set stand for, as the table reads them: where the board
    said so (`J=R5`, `Board.declared`), that, for the set as it lies and as it is laid in
    order; for a move under the rules as written, the telling apart of its jokers that the
    rules allow (`read_move`); else by its place in a run laid in order, or as `read_meld`
    reads the set (a group's joker cannot show its colour by its place)."""

    def __init__(self, board: Board) -> None:
        self.rules = board.rules
        self.board = board
        # Sets whose jokers' tiles are known, as they lie: those tiles, in the order the
        # jokers lie.
        self.known: dict[TileRow, TileRow] = {}
        for number, row in enumerate(board.table):
            said = board.declared_for(number)
            if not said or None in said:
                continue
            roles = tuple(t for t in said if t is not None)
            laid, laid_roles = lay_with_roles(row, roles, self.rules)
            self.known[row] = roles
            self.known[laid] = laid_roles
        # The move's telling apart (`read_move`), and for each set of its new table what
        # its jokers stand for.
        self.telling: Telling | None = None
        self.after: tuple[TileRow, ...] = ()

    def jokers(self, row: Sequence[Tile]) -> TileRow:
        """What each joker of the set stands for, in the order they lie."""
        return self.known.get(tuple(row)) or joker_stand_ins(row, self.rules)

    def as_it_lies(self, number: int) -> TileRow:
        """What the jokers of table set `number` stand for, as it lies before the move:
        each declared joker as declared, at its place (`J J=K1 O1 B1` is not `J=K1 J=R1`);
        the others by their places, else (some declared otherwise) as the first reading
        that holds what was declared."""
        said = self.board.declared_for(number)
        row = self.board.table[number]
        by_place = joker_stand_ins(row, self.rules)
        if not any(said):
            return by_place
        readings = (by_place, *set_readings(row, self.rules))
        reading = next(r for r in readings if fits_declared(r, said))
        left = Counter(reading) - Counter(t for t in said if t is not None)
        return tuple(t if t is not None else _take_one(left) for t in said)


def read_move(board: Board, move: Move) -> TableReading:
    """The table's reading for the move: under the rules as written, its jokers told apart
    as the rules allow (each old set read as it lies where it may be, each new set as its
    place shows), so that a joker the move frees is one its tile frees and one it does not
    free stays the tile it stood for; the new table's jokers, set by set (a set kept as it
    lay, read as it lies: a twin of a set the move changes is not read as that one)."""
    reading = TableReading(board)
    rules = board.rules
    pairs = kept_sets(board, move.steps)
    kept = {n: i for i, n in pairs}
    if rules.by_replacement and board.opened and any(JOKER in row for row in board.table):
        reading.telling = tell_jokers(board, move.table, Counter(move.played), pairs)
    after = []
    for n, row in enumerate(move.table):
        if n in kept:
            roles = reading.as_it_lies(kept[n])
        elif reading.telling is not None and n in reading.telling.new:
            told = told_tiles(reading.telling.new[n])
            roles = roles_as_it_lies(row, told, rules) or lay_with_roles(row, told, rules)[1]
        else:
            roles = reading.jokers(row) if JOKER in row else ()
        after.append(roles if JOKER in row else ())
    reading.after = tuple(after)
    return reading


def board_after(board: Board, move: Move) -> Board:
    """The board for the next turn: the new table, each joker declared to stand for the
    tile the answer shows it standing for (it keeps standing for it until freed), the
    rack left, opened once a move is made, the same rules."""
    declared = read_move(board, move).after
    opened = board.opened or move.is_move
    return Board(
        move.table, move.rack, opened, board.rules, declared=declared if any(declared) else ()
    )


def _take_one(tiles: Counter[Tile]) -> Tile:
    """One of the tiles (the first), taken out of them."""
    tile = next(tiles.elements())
    tiles[tile] -= 1
    return tile


def told_tiles(roles: Sequence[Tile | None]) -> TileRow:
    """A telling's tiles, under the rules as written (where every joker stands for one)."""
    assert None not in roles, "under the rules as written, every joker stands for a tile"
    return tuple(r for r in roles if r is not None)


def roles_as_it_lies(row: TileRow, roles: TileRow, rules: Rules) -> TileRow | None:
    """A reading of the set (in any order) in the order its jokers lie, where the set lies
    as read: its places say so (`R11 R12 R13 J` with wraparound holds the R1), or it lies
    as the reading lays it; else None."""
    by_place = joker_stand_ins(row, rules)
    if Counter(by_place) == Counter(roles):
        return by_place
    laid, laid_roles = lay_with_roles(row, roles, rules)
    return laid_roles if laid == row else None
