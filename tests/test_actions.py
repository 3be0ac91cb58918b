"""The move as actions at the table: in order, they turn the old table and the rack into
exactly the new table, and they move as few tiles as the new table allows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, permutations, product

import pytest
from hypothesis import given, settings

from rummisolve.actions import Do, TableAction, board_after, plan_move, plan_table, stand_ins
from rummisolve.board import Board, parse_board, parse_position
from rummisolve.engine.solve import find_move
from rummisolve.legality import check_move
from rummisolve.move import Action, Move
from rummisolve.render import move_json, render_move
from rummisolve.rules import Rules
from rummisolve.sets import Kind, read_meld
from rummisolve.tiles import Tile, format_tiles, parse_tiles

from .positions import positions

TileRow = tuple[Tile, ...]
SCALE = max(1, settings().max_examples // 100)


def rows(text: str) -> list[TileRow]:
    return [parse_tiles(chunk) for chunk in text.split("|") if chunk.strip()]


def said(actions: Sequence[TableAction]) -> list[str]:
    """Each action in a line, sets in brackets: what the tests compare."""

    def sets(group: Sequence[TileRow]) -> str:
        return " ".join(f"[{format_tiles(row)}]" for row in group)

    return [
        f"{a.do.value} {format_tiles(a.tiles)} from [{format_tiles(a.before)}] -> {sets(a.after)}"
        + (f" (rack: {format_tiles(a.from_rack)})" if a.from_rack else "")
        for a in actions
    ]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "R3 R4 R5",
            "R2 R3 R4 | R5 O5 B5",
            [
                "take R5 from [R3 R4 R5] -> [R3 R4]",
                "add R2 from [R3 R4] -> [R2 R3 R4] (rack: R2)",
                "lay R5 O5 B5 from [] -> [R5 O5 B5] (rack: O5 B5)",
            ],
        ),
        (
            "R1 R2 R3 R4 R5 R6 R7",
            "R1 R2 R3 | R5 R6 R7 | R4 O4 B4",
            [
                "take R4 from [R1 R2 R3 R4 R5 R6 R7] -> [R1 R2 R3 R5 R6 R7]",
                "split R1 R2 R3 R5 R6 R7 from [R1 R2 R3 R5 R6 R7] -> [R1 R2 R3] [R5 R6 R7]",
                "lay R4 O4 B4 from [] -> [R4 O4 B4] (rack: O4 B4)",
            ],
        ),
        (
            "K7 R7 J B7",
            "K7 R7 O7 B7 | K5 J O5 B5",
            [
                "take J from [K7 R7 J B7] -> [K7 R7 B7]",
                "add O7 from [K7 R7 B7] -> [K7 R7 O7 B7] (rack: O7)",
                "lay K5 J O5 B5 from [] -> [K5 J O5 B5] (rack: K5 O5 B5)",
            ],
        ),
        (
            "R3 R4 R5 | B3 B4 B5",
            "R3 R4 R5 B5 | B3 B4 J",
            [
                "take B5 from [B3 B4 B5] -> [B3 B4]",
                "add B5 from [R3 R4 R5] -> [R3 R4 R5 B5]",
                "add J from [B3 B4] -> [B3 B4 J] (rack: J)",
            ],
        ),
    ],
    ids=["extend-and-take", "split-and-take", "free-a-joker", "move-between-sets"],
)
def test_actions_in_order(old: str, new: str, expected: list[str]) -> None:
    rules = Rules(joker_retrieval=Rules().joker_retrieval)
    assert said(plan_table(rows(old), rows(new), rules).actions) == expected


def test_a_table_that_does_not_change_takes_no_action() -> None:
    assert plan_table([], [], Rules()).actions == ()


# --- Properties over solved positions -----------------------------------------------------


def play_out(board: Board, move: Move) -> None:
    """Carry out the move's actions on the board as a person would, and check each one:
    a set is found on the table as the action names it; tiles come from the set, the hand
    or the rack as it says. At the end: exactly the move's table, an empty hand, the rack
    left."""
    table = [Counter(row) for row in board.table]
    hand: Counter[Tile] = Counter()
    rack = Counter(board.rack)
    plan = plan_move(move, board.rules)

    def find(row: TileRow) -> int:
        matches = [i for i, held in enumerate(table) if held == Counter(row)]
        assert matches, f"no set [{format_tiles(row)}] on the table"
        return matches[0]

    for action in plan.actions:
        before, tiles = Counter(action.before), Counter(action.tiles)
        if action.do is Do.TAKE:
            held = table.pop(find(action.before))
            assert tiles <= held and held - tiles == Counter(t for r in action.after for t in r)
            table.extend(Counter(r) for r in action.after)
            hand += tiles
        elif action.do is Do.SPLIT:
            table.pop(find(action.before))
            assert action.before == tuple(t for piece in action.after for t in piece)
            table.extend(Counter(piece) for piece in action.after)
        else:
            from_rack = Counter(action.from_rack)
            assert from_rack <= tiles and from_rack <= rack
            assert tiles - from_rack <= hand
            rack -= from_rack
            hand -= tiles - from_rack
            if action.do is Do.ADD:
                table.pop(find(action.before))
            else:
                assert not before
            assert before + tiles == Counter(action.after[0])
            table.append(Counter(action.after[0]))
    assert sorted(map(sorted_row, table)) == sorted(map(sorted_row, map(Counter, move.table)))
    assert not +hand
    assert rack == Counter(move.rack)
    taken = sum(len(a.tiles) for a in plan.actions if a.do is Do.TAKE)
    assert plan.tiles_moved == taken + move.tiles_played
    assert Counter(t for row in plan.from_rack for t in row) == Counter(move.played)


def sorted_row(held: Counter[Tile]) -> str:
    return format_tiles(sorted(held.elements(), key=Tile.sort_key))


def _is_run(row: TileRow, rules: Rules) -> bool:
    meld = read_meld(row, rules)
    return meld is not None and meld.kind is Kind.RUN


def test_actions_give_exactly_the_new_table() -> None:
    @settings(max_examples=100 * SCALE)
    @given(board=positions(max_sets=4, max_rack=6))
    def check(board: Board) -> None:
        move = find_move(board)
        assert check_move(board, move) == []
        play_out(board, move)
        assert move_json(move, board)["tiles_moved"] >= move.tiles_played
        assert render_move(board, move).endswith(")\n")

    check()


def test_actions_move_as_few_tiles_as_the_new_table_allows() -> None:
    @settings(max_examples=100 * SCALE)
    @given(board=positions(max_sets=3, max_rack=5, freeing=True))
    def check(board: Board) -> None:
        move = find_move(board)
        old = changed_old_sets(move, board.rules)
        new = [s.tiles for s in move.steps if s.action is not Action.KEEP]
        fewest = sum(map(len, old)) - most_kept(old, new, board.rules) + move.tiles_played
        assert plan_move(move, board.rules).tiles_moved == fewest

    check()


def changed_old_sets(move: Move, rules: Rules) -> list[TileRow]:
    old: dict[int, list[Tile]] = {}
    for step in move.steps:
        for source in step.from_table:
            old.setdefault(source.set_index, []).extend(source.tiles)
    return [laid(old[i], rules) for i in sorted(old)]


def laid(tiles: Sequence[Tile], rules: Rules) -> TileRow:
    meld = read_meld(tiles, rules)
    assert meld is not None
    return meld.ordered


def most_kept(old: Sequence[TileRow], new: Sequence[TileRow], rules: Rules) -> int:
    """Brute force: every way to build each new set on an old set or on nothing (several
    runs on one old run, each on a piece of it cut where it lies); the most tiles kept."""
    best = 0
    for bases in product([None, *range(len(old))], repeat=len(new)):
        total = 0
        for i, row in enumerate(old):
            group = [new[n] for n, base in enumerate(bases) if base == i]
            kept = kept_in_place(row, group, rules)
            if kept is None:
                break
            total += kept
        else:
            best = max(best, total)
    return best


def kept_in_place(old: TileRow, group: Sequence[TileRow], rules: Rules) -> int | None:
    if not group:
        return 0
    if len(group) == 1:
        return sum((Counter(old) & Counter(group[0])).values())
    if not _is_run(old, rules) or not all(_is_run(row, rules) for row in group):
        return None
    old_keys = keys(old, rules)
    best: int | None = None
    # The pieces in every order along the run, cut at every place: a tile is kept if its
    # piece's set holds it standing for the same tile. Each piece keeps two at least.
    for order in permutations(group):
        for cuts in combinations(range(1, len(old)), len(group) - 1):
            bounds = [0, *cuts, len(old)]
            kept = [
                sum((Counter(old_keys[start:end]) & Counter(keys(row, rules))).values())
                for row, start, end in zip(order, bounds, bounds[1:], strict=False)
            ]
            if min(kept) >= 2:
                best = max(best or 0, sum(kept))
    return best


def keys(row: TileRow, rules: Rules) -> list[tuple[Tile, Tile]]:
    return list(zip(row, stand_ins(row, rules), strict=True))


def test_board_after_is_the_next_turns_board() -> None:
    board = parse_position("R3 R4 R5", "R2 K1", opened=False)
    move = find_move(parse_board("opened: yes\ntable:\nR3 R4 R5\nrack: R2 K1\n"))
    after = board_after(board, move)
    assert (after.table, format_tiles(after.rack), after.opened) == (
        move.table,
        "K1",
        True,
    )
