"""Is a move legal? Checked from the rules alone, without the integer program.

Every answer the tests, batches and benchmarks see goes through `check_move`, so a
wrong model shows up as a named problem rather than as a plausible-looking move.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain

from .board import Board
from .jokers import joker_problems
from .move import Move, SetChange, Status, kept_sets
from .sets import meld_value, read_meld
from .tiles import Tile, format_tiles, tally, tile_value


def check_move(board: Board, move: Move) -> list[str]:
    """Every way the move breaks the rules; an empty list means it is legal."""
    problems = []
    rules = board.rules
    for row in move.table:
        if read_meld(row, rules) is None:
            problems.append(f"not a valid set: {format_tiles(row)}")
    played, rack = Counter(move.played), Counter(board.rack)
    if played - rack:
        problems.append(f"played tiles not on the rack: {format_tiles((played - rack).elements())}")
    if not _same(Counter(move.rack), rack - played):
        problems.append("the rack after the move is not the rack less the tiles played")
    # The table before with the tiles played: what the table after must hold.
    expected = Counter(board.table_tiles)
    expected.update(played)
    after = Counter(chain.from_iterable(move.table))
    if not _same(after, expected):
        lost, extra = expected - after, after - expected
        problems.append(
            f"table after != table before + played (missing: {format_tiles(lost.elements())};"
            f" extra: {format_tiles(extra.elements())})"
        )
    if move.tiles_played != len(move.played):
        problems.append(f"tiles_played is {move.tiles_played}, but {len(move.played)} were played")
    value = sum(tile_value(t, rules.joker_penalty) for t in move.played)
    if move.value_played != value:
        problems.append(f"value_played is {move.value_played}, but the tiles are worth {value}")
    if not board.opened and move.played:
        problems.extend(_initial_meld_problems(board, move))
    if not move.played and move.table != board.table:
        problems.append("no tile played, yet the table changed")
    # optimal: a proved move; no-move: proved that nothing can be played; feasible: either.
    if {Status.OPTIMAL: not move.played, Status.NO_MOVE: bool(move.played)}.get(move.status):
        problems.append(f"status {move.status.value} with {len(move.played)} tiles played")
    problems.extend(_step_problems(board, move))
    kept = kept_sets(board, move.steps)
    problems.extend(joker_problems(board, move.table, Counter(move.played), kept))
    return problems


def _step_problems(board: Board, move: Move) -> list[str]:
    """The steps must say exactly where every tile of the new table comes from."""
    problems = []
    if tuple(step.tiles for step in move.steps) != move.table:
        problems.append("the steps do not lay out the table of the move")
    from_table: list[dict[Tile, int]] = [{} for _ in board.table]
    for step in move.steps:
        if step.change is SetChange.KEEP:
            continue
        sources = tally(step.from_rack)
        for source in step.from_table:
            tally(source.tiles, sources)
            tally(source.tiles, from_table[source.set_index])
        if sources != tally(step.tiles):
            problems.append(f"the step for {format_tiles(step.tiles)} names other tiles")
    kept = Counter(step.tiles for step in move.steps if step.change is SetChange.KEEP)
    for i, old in enumerate(board.table):
        if from_table[i] and from_table[i] != tally(old):
            problems.append(f"the steps take part of [{format_tiles(old)}] only")
        if not from_table[i]:
            kept[old] -= 1
    if any(n != 0 for n in kept.values()):
        problems.append("the sets kept are not the sets left untouched")
    return problems


def _same(a: Counter[Tile], b: Counter[Tile]) -> bool:
    """Counter's ==, read as a dict's: no Counter here holds a zero or a negative count
    (each is built from tiles, or by + and -, which drop them), so the two agree."""
    return dict.__eq__(a, b)


def _initial_meld_problems(board: Board, move: Move) -> list[str]:
    """An initial meld: the table exactly as it lay, new sets from the rack worth enough."""
    new_sets = Counter(move.table)
    new_sets.subtract(Counter(board.table))
    if any(n < 0 for n in new_sets.values()):
        return ["an initial meld must leave the table exactly as it lay"]
    value = meld_value(new_sets.elements(), board.rules)
    if value < board.rules.initial_meld:
        return [f"initial meld worth {value}, less than {board.rules.initial_meld}"]
    return []
