"""The move as actions at the table: in order, they turn the old table and the rack into
exactly the new table, and they move as few tiles as the new table allows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, permutations, product

import pytest
from hypothesis import given, settings

from rummisolve import render
from rummisolve.board import Board, format_board, parse_board, parse_position
from rummisolve.engine.solve import find_move
from rummisolve.jokers import stand_ins
from rummisolve.legality import check_move
from rummisolve.move import Move, SetChange
from rummisolve.narration import Do, Freeing, TableAction, plan_move, plan_table
from rummisolve.render import move_json, render_move
from rummisolve.rules import JokerRetrieval, Rules
from rummisolve.sets import Kind, read_meld
from rummisolve.table_reading import board_after
from rummisolve.tiles import JOKER, Tile, format_tiles, parse_tiles

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


@pytest.mark.parametrize("locked", [0, 1], ids=["first-locked", "second-locked"])
def test_a_step_says_which_of_sets_alike_it_means_where_no_order_avoids_it(locked: int) -> None:
    """Two `O3 O4 O5 O6 O7` alike from the start, one locked (as if its joker had been
    freed): no order keeps the split of the other from naming a set alike the locked
    one, so the split says which old set it is (`table_set`); the add to its piece, the
    only set left looking so, need not."""
    old, new = rows("O3 O4 O5 O6 O7 | O3 O4 O5 O6 O7"), rows("O3 O4 O5 O6 O7 | O2 O3 O4 | O5 O6 O7")
    plan = plan_table(old, new, Rules(locked_joker_sets=True), Freeing(locked=(locked,)))
    assert [(a.do, a.table_set) for a in plan.actions] == [(Do.SPLIT, 1 - locked), (Do.ADD, None)]


def test_steps_no_order_can_follow_are_given_with_the_copies_they_mean_and_say_so() -> None:
    """The order's last resort, where no order lets each add take the copies the plan
    means: here the jokers of `K7 K8 J` and `K7 R7 J` both go to `J K7 J` beside their
    own tile, which it holds once (a move the checker refuses). The plan says so
    (`hold_apart`) and the add names the copy it means, where before it said nothing."""
    old, new = rows("K7 K8 J | K7 R7 J"), rows("J K7 J | K7 K8 K9 | R7 O7 B7")
    k6, k8, k9, o7 = parse_tiles("K6 K8 K9 O7")
    freeing = Freeing(
        hosts=((0, ()), (0, ()), (0, ())),
        stays=((0, k9, 0), (1, o7, 0)),
        old_roles=((k9,), (o7,)),
        new_roles=((k6, k8), (), ()),
    )
    plan = plan_table(old, new, Rules(), freeing)
    assert plan.hold_apart
    (add,) = [a for a in plan.actions if a.do is Do.ADD and a.after == (new[0],)]
    assert [(format_tiles([t]), plan.actions[at].before) for t, at in add.copies] == [
        ("K7", old[0])
    ]


def test_the_text_and_the_json_say_when_the_tiles_must_be_kept_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Steps no order lets a player follow with copies alike mixed in the hand: `hint`
    says so below them, and `--json` carries `hold_apart` (only there)."""
    board = parse_board("table:\nR3 R4 R5\nrack: R2 O5 B5 J\n")
    move = find_move(board)
    assert "hold_apart" not in move_json(move, board)
    assert "Keep the tiles" not in render_move(board, move)
    planned = plan_move
    monkeypatch.setattr(
        render, "plan_move", lambda move, board: planned(move, board)._replace(hold_apart=True)
    )
    text = render_move(board, move)
    steps = text.index("At the table")
    assert text[text.index("\n\n", steps) :].startswith(
        "\n\nKeep the tiles you take from each set apart in your hand: no order of these steps"
        " avoids holding copies alike that the rules tell apart (use the copy a step names;"
        " a joker goes on beside a tile of its own set).\n\nTable after the move:\n"
    )
    assert move_json(move, board)["hold_apart"] is True


# --- Properties over solved positions -----------------------------------------------------


def play_out(board: Board, move: Move) -> None:
    """Carry out the move's actions on the board as a person would, and check each one:
    a set is found on the table as the action names it; tiles come from the set, the hand
    or the rack as it says. At the end: exactly the move's table, an empty hand, the rack
    left."""
    table = [Counter(row) for row in board.table]
    hand: Counter[Tile] = Counter()
    rack = Counter(board.rack)
    plan = plan_move(move, board)

    def find(row: TileRow) -> int:
        matches = [i for i, held in enumerate(table) if held == Counter(row)]
        assert matches, f"no set [{format_tiles(row)}] on the table"
        return matches[0]

    for action in plan.actions:
        before, tiles = Counter(action.before), Counter(action.tiles)
        if action.do is Do.REPLACE:
            # The rack's tile in the place of a joker that can stand for it, which it frees
            # (in the reading the move frees it in: `K8 K9 J` by a K7), the set laid in order.
            (tile,) = action.tiles
            place = next(
                k
                for k, t in enumerate(action.before)
                if t.is_joker
                and read_meld((*action.before[:k], tile, *action.before[k + 1 :]), board.rules)
            )
            made = (*action.before[:place], tile, *action.before[place + 1 :])
            assert len(action.after) == 1 and Counter(action.after[0]) == Counter(made)
            assert read_meld(action.after[0], board.rules) is not None
            assert action.from_rack == action.tiles and tiles <= rack
            table.pop(find(action.before))
            table.append(Counter(action.after[0]))
            rack -= tiles
            hand[action.before[place]] += 1
            continue
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
    taken = sum(len(a.tiles) for a in plan.actions if a.do in (Do.TAKE, Do.REPLACE))
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
        new = [s.tiles for s in move.steps if s.change is not SetChange.KEEP]
        plan = plan_move(move, board)
        # From the sets as the plan reads them (its jokers' readings, each freed joker
        # swapped for its tile; example tests below say how it reads them).
        old = list(plan.old_sets)
        assert Counter(t for row in old for t in row) == Counter(
            t for row in changed_old_sets(move, board) for t in row
        ) + Counter(a.tiles[0] for a in plan.actions if a.do is Do.REPLACE) - Counter(
            JOKER for a in plan.actions if a.do is Do.REPLACE
        )
        freed = sum(a.do is Do.REPLACE for a in plan.actions)
        kept = most_kept(old, new, board.rules)
        least = sum(map(len, old)) - kept + move.tiles_played + freed
        binds = board.rules.joker_retrieval is not JokerRetrieval.FREE
        if binds and (freed or any(JOKER in row for row in old)):
            # A joker not freed goes along with a tile of its set, and a freed one lies
            # beside the rack's copies of two tiles: tiles alike may have to move for
            # them (test_cli_hint's examples), beyond what the counts ask.
            assert plan.tiles_moved >= least
        else:
            assert plan.tiles_moved == least

    check()


def test_a_freed_joker_is_shown_swapped_for_the_rack_tile_that_frees_it() -> None:
    """The rules as written free a joker by the tile it stands for, which takes its place:
    the actions show that first (the Hebrew document's example, and a group's joker)."""
    for table, rack, first in (
        ("B3 B4 J", "B5 R7 O7", "swap B5* for the joker in [B3 B4 J=B5]: B3 B4 B5*"),
        ("K5 O5 B5 J", "R5 K6 K7", "swap R5* for the joker in [K5 O5 B5 J=R5]: K5 R5* O5 B5"),
    ):
        board = parse_position(table, rack)
        move = find_move(board)
        assert check_move(board, move) == []
        plan = plan_move(move, board)
        assert plan.actions[0].do is Do.REPLACE
        assert render_move(board, move).splitlines()[3] == f"  1. {first}, the joker in hand"
        play_out(board, move)
    board = parse_position("B3 B4 J", "B5 R7 O7")
    casual = Board(board.table, board.rack, True, Rules(joker_retrieval=JokerRetrieval.FREE))
    move = find_move(casual)
    assert Do.REPLACE not in [a.do for a in plan_move(move, casual).actions]


def changed_old_sets(move: Move, board: Board) -> list[TileRow]:
    """The sets of the table the move takes tiles from, as they lie."""
    changed = {source.set_index for step in move.steps for source in step.from_table}
    return [board.table[i] for i in sorted(changed)]


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


def test_the_next_turns_board_declares_each_joker_as_the_answer_shows_it() -> None:
    """A joker keeps standing for its tile until freed: the next board says which, as
    hint shows it, and a joker the table declared keeps its tile through a kept set and
    the actions (its group shown B7, the reading the table gave, not the O7 it might be)."""
    board = parse_board("table:\nR3 R4 J=R5\nK7 R7 J=B7\nB9 B10 B11\nrack: R2 O7 B7\n")
    move = find_move(board)
    assert not check_move(board, move)
    assert render_move(board, move).splitlines()[2:5] == [
        "At the table (* = from your rack):",
        "  1. add R2* to [R3 R4 J=R5]: R2* R3 R4 J=R5",
        "  2. add O7* to [K7 R7 J=B7]: K7 R7 O7* J=B7",
    ]
    after = format_board(board_after(board, move))
    assert after.splitlines()[2:5] == ["R2 R3 R4 J=R5", "K7 R7 O7 J=B7", "B9 B10 B11"]
    assert parse_board(after) == board_after(board, move)
    first = find_move(parse_board("table:\nR3 R4 R5\nK7 R7 B7 J\nrack: R2 B5 O5 J\n"))
    plain = board_after(parse_board("table:\nR3 R4 R5\nK7 R7 B7 J\nrack: R2 B5 O5 J\n"), first)
    assert [[str(t) for t in d] for d in plain.declared if d] == [["O7"], ["K5"]]
