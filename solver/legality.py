"""Is a move legal? Checked from the rules alone, without the integer program.

Every answer the tests, batches and benchmarks see goes through `check_move`, so a
wrong model shows up as a named problem rather than as a plausible-looking move.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product

from .board import Board
from .rules import JokerRetrieval
from .sets import joker_roles, read_meld
from .solve import Action, Move, Status
from .tiles import JOKER, Tile, format_tiles, tile_value


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
    if Counter(move.rack) != rack - played:
        problems.append("the rack after the move is not the rack less the tiles played")
    before, after = Counter(board.table_tiles), Counter(t for row in move.table for t in row)
    if after != before + played:
        lost, extra = before + played - after, after - before - played
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
    # Where the tiles of each set holding a joker went: with the rule off, nowhere in particular.
    placements: list[Placement] = [{}]
    if rules.locked_joker_sets and board.opened:
        placements = _locked_placements(board, move)
        if not placements:
            problems.append(_locked_problem(board, move))
            placements = [{}]
    if rules.joker_retrieval.by_replacement and board.opened:
        problems.extend(_retrieval_problems(board, move, placements))
    return problems


# The tiles each new set (by its index in the move's steps) holds from table sets with a joker.
Placement = dict[int, frozenset[Tile]]


def _locked_placements(board: Board, move: Move) -> list[Placement]:
    """LOCKED-JOKER-SETS: every way to give each changed table set that holds a joker one new
    set holding all its real tiles, no two of them the same tile of one new set.

    Copies of a tile are alike, so it is enough that the new sets hold them; a tile held
    once can be the table's copy of one set only, hence a matching, found by backtracking.
    The sets are few (one joker each at least), the new sets that can take one few too.
    """
    changed = move.changed_sets
    # A set of jokers alone holds no tile that could leave it.
    locked = [frozenset(t for t in board.table[i] if not t.is_joker) for i in changed]
    locked = [
        real for i, real in zip(changed, locked, strict=True) if JOKER in board.table[i] and real
    ]
    new = [
        (n, frozenset(step.tiles))
        for n, step in enumerate(move.steps)
        if step.action is not Action.KEEP
    ]
    found: set[tuple[tuple[int, frozenset[Tile]], ...]] = set()

    def place(at: int, held: Placement) -> None:
        if at == len(locked):
            found.add(tuple(sorted((n, tiles) for n, tiles in held.items() if tiles)))
            return
        real = locked[at]
        for n, tiles in new:
            taken = held.get(n, frozenset())
            if real <= tiles and not real & taken:
                place(at + 1, held | {n: taken | real})

    place(0, {})
    return [dict(placement) for placement in found]


def _locked_problem(board: Board, move: Move) -> str:
    """What is wrong when no placement exists: a set whose tiles are in no one new set, or
    sets that would need the same tile of one new set."""
    changed = move.changed_sets
    new = [set(step.tiles) for step in move.steps if step.action is not Action.KEEP]
    for i in changed:
        old = board.table[i]
        if JOKER in old and not any({t for t in old if not t.is_joker} <= row for row in new):
            shown = format_tiles(old)
            return f"a tile was taken out of [{shown}], which holds a joker (locked-joker-sets)"
    return "sets holding a joker would need the same tile of one new set (locked-joker-sets)"


def _retrieval_problems(board: Board, move: Move, placements: list[Placement]) -> list[str]:
    """REPLACE: every joker of a changed table set must still stand for a tile it stood for
    (in some reading of its old set and of its new one), or that tile was played.
    STRICT: and each joker so freed is in a set with two tiles played from the rack; a tile
    that one of `placements` gives a table set with a joker is the table's, not the rack's."""
    owed = [joker_roles(board.table[i], board.rules) for i in move.changed_sets]
    owed = [roles for roles in owed if roles != {()}]
    if not owed:
        return []
    rows = [
        n
        for n, step in enumerate(move.steps)
        if step.action is not Action.KEEP and JOKER in step.tiles
    ]
    with_jokers = [move.steps[n].tiles for n in rows]
    held = [joker_roles(row, board.rules) for row in with_jokers]
    played = Counter(move.played)
    strict = board.rules.joker_retrieval is JokerRetrieval.STRICT
    replaced = False
    for old in product(*owed):
        need = Counter(t for roles in old for t in roles)
        for new in product(*held):
            have = played + Counter(t for roles in new for t in roles)
            if need - have:
                continue
            replaced = True
            if not strict or any(
                _freed_jokers_hosted(
                    need, with_jokers, new, played, [held.get(n, frozenset()) for n in rows]
                )
                for held in placements
            ):
                return []
    if replaced:
        return ["a freed joker is in no set with two tiles from the rack"]
    return ["a joker left its set without the tile it stands for taking its place"]


def _freed_jokers_hosted(
    need: Counter[Tile],
    rows: list[tuple[Tile, ...]],
    readings: tuple[tuple[Tile, ...], ...],
    played: Counter[Tile],
    locked: list[frozenset[Tile]],
) -> bool:
    """Can the jokers of the new sets (reading `readings[i]` in `rows[i]`) be told apart so
    that every freed one is in a set with two tiles from the rack (not of `locked[i]`)?

    Each joker place holds a joker keeping its role (one of `need`), one freed (its role
    then played from the rack), or one from the rack. Jokers are alike, and so are copies
    of a tile from the rack and from the table: any telling apart that fits the counts is
    one the player could have made.
    """
    places = [(i, t) for i, reading in enumerate(readings) for t in reading]
    for kinds in product("kfr", repeat=len(places)):
        if kinds.count("r") != played[JOKER]:
            continue
        keeping = Counter(t for (_, t), kind in zip(places, kinds, strict=True) if kind == "k")
        if keeping - need or (need - keeping) - played:
            continue
        hosts = {i for (i, _), kind in zip(places, kinds, strict=True) if kind == "f"}
        rack_jokers = Counter(i for (i, _), kind in zip(places, kinds, strict=True) if kind == "r")
        short = {i: 2 - rack_jokers[i] for i in hosts if rack_jokers[i] < 2}
        if _rack_tiles_suffice(rows, short, played, locked):
            return True
    return False


def _rack_tiles_suffice(
    rows: list[tuple[Tile, ...]],
    short: dict[int, int],
    played: Counter[Tile],
    locked: list[frozenset[Tile]],
) -> bool:
    """Can row i count `short[i]` of its tiles as played from the rack, for every i at once,
    without counting more copies of a tile than were played, nor a tile of `locked[i]`
    (the copy of a table set with a joker that stays with its set)?"""
    choices = [
        list(
            combinations(
                [t for t in rows[i] if played[t] and not t.is_joker and t not in locked[i]], n
            )
        )
        for i, n in short.items()
    ]
    return any(
        not Counter(t for pick in picks for t in pick) - played for picks in product(*choices)
    )


def _step_problems(board: Board, move: Move) -> list[str]:
    """The steps must say exactly where every tile of the new table comes from."""
    problems = []
    if tuple(step.tiles for step in move.steps) != move.table:
        problems.append("the steps do not lay out the table of the move")
    from_table: list[Counter[Tile]] = [Counter() for _ in board.table]
    for step in move.steps:
        if step.action is Action.KEEP:
            continue
        sources = Counter(step.from_rack)
        for source in step.from_table:
            sources.update(source.tiles)
            from_table[source.set_index].update(source.tiles)
        if sources != Counter(step.tiles):
            problems.append(f"the step for {format_tiles(step.tiles)} names other tiles")
    kept = Counter(step.tiles for step in move.steps if step.action is Action.KEEP)
    for i, old in enumerate(board.table):
        if from_table[i] and from_table[i] != Counter(old):
            problems.append(f"the steps take part of [{format_tiles(old)}] only")
        if not from_table[i]:
            kept[old] -= 1
    if any(n != 0 for n in kept.values()):
        problems.append("the sets kept are not the sets left untouched")
    return problems


def _initial_meld_problems(board: Board, move: Move) -> list[str]:
    """An initial meld: the table exactly as it lay, new sets from the rack worth enough."""
    new_sets = Counter(move.table)
    new_sets.subtract(Counter(board.table))
    if any(n < 0 for n in new_sets.values()):
        return ["an initial meld must leave the table exactly as it lay"]
    value = 0
    for row in new_sets.elements():
        meld = read_meld(row, board.rules)
        value += meld.face_value if meld is not None else 0
    if value < board.rules.initial_meld:
        return [f"initial meld worth {value}, less than {board.rules.initial_meld}"]
    return []
