"""joker-retrieval=strict end to end: the checker refuses what only replace allows, and the
rule word goes through board files and the command line unchanged (rules.md, 000, 001)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings

from rummisolve.board import Board, format_board, parse_board
from rummisolve.engine.solve import find_move
from rummisolve.errors import BoardError
from rummisolve.legality import check_move
from rummisolve.move import Move, SetChange, Source, Status, Step
from rummisolve.rules import JokerRetrieval, Overrides
from rummisolve.table_reading import board_after
from rummisolve.tiles import parse_tiles

from .cli import run
from .positions import positions

# B5 frees the joker of B3 B4 J (the B5, where it lies); under replace it then takes R11's
# place beside R12, a set with one tile from the rack. Under strict nothing can be played:
# the B5 only frees that joker, and the R12 only goes beside it.
FREED_BESIDE_ONE = "rules: joker-retrieval={}\ntable:\nB3 B4 J\nR8 R9 R10\nrack: B5 R12\n"


def test_checker_refuses_a_freed_joker_beside_one_rack_tile() -> None:
    replace = parse_board(FREED_BESIDE_ONE.format("replace"))
    strict = parse_board(FREED_BESIDE_ONE.format("strict"))
    move = find_move(replace)
    assert (move.tiles_played, check_move(replace, move)) == (2, [])
    assert check_move(strict, move) == ["a freed joker is in no set with two tiles from the rack"]
    assert find_move(strict).tiles_played == 0


def test_checker_still_refuses_a_joker_leaving_without_its_tile() -> None:
    casual = parse_board("rules: casual\ntable:\nB3 B4 B5 J\nrack: K9 K10\n")
    move = find_move(casual)
    assert move.tiles_played == 2
    official = parse_board(format_board(casual), overrides=Overrides("official"))
    assert check_move(official, move) == [
        "a joker left its set, or stands for another tile, and its tile was not played"
    ]
    assert find_move(official).tiles_played == 0


# Two groups of 3s, each with a joker: the second's is the B3, the first's the K3 or B3.
# B3 B3 from the rack both go in, but only with both groups taken apart: the second's
# joker cannot be freed (its B3 would leave it beside one rack tile), and with the first
# group kept, its J R3 O3 would have to be the second's tiles and joker.
TWO_JOKER_GROUPS = "table:\nJ R3 O3\nK3 J O3 R3\nrack: B3 B3\n"


def test_a_kept_set_keeps_its_own_jokers() -> None:
    """The table `J R3 O3` (kept), `J O3 B3`, `K3 R3 B3` is legal, but only as the second
    group's tiles and joker in the first's place: a move that says it keeps the first group
    is refused, and the best move changes both (the exhaustive reference agrees)."""
    board = parse_board(TWO_JOKER_GROUPS)
    table = tuple(parse_tiles(row) for row in ("J R3 O3", "J O3 B3", "K3 R3 B3"))
    steps = (
        Step(SetChange.KEEP, table[0], (), ()),
        Step(SetChange.REBUILD, table[1], (Source(1, parse_tiles("J O3")),), parse_tiles("B3")),
        Step(SetChange.REBUILD, table[2], (Source(1, parse_tiles("K3 R3")),), parse_tiles("B3")),
    )
    played = parse_tiles("B3 B3")
    claimed = Move(Status.OPTIMAL, played, table, (), 2, 6, 0.0, steps, "hand")
    # Its B3 could free the second group's joker only to lie beside one rack tile.
    assert check_move(board, claimed) == ["a freed joker is in no set with two tiles from the rack"]
    move = find_move(board)
    assert (move.tiles_played, move.sets_changed, check_move(board, move)) == (2, 2, [])


def test_a_joker_not_freed_stays_beside_a_tile_of_its_set() -> None:
    """R3 R4 J's joker may stay the R5 of a run holding its R4 (R3 gone to a group), but
    not of a run that holds no tile of its set (R3 and R4 both gone to groups)."""
    text = "table:\nR3 R4 J\nrack: R6 R7 K3 B3 K4 B4\n"
    board = parse_board(text)
    move = find_move(board)
    assert (move.tiles_played, check_move(board, move)) == (4, [])
    away = move_of(board, ["K3 R3 B3", "K4 R4 B4", "J R6 R7"], "K3 B3 K4 B4 R6 R7")
    assert check_move(board, away)[-1:] == [
        "a joker left its set, or stands for another tile, and its tile was not played"
    ]


def test_a_rack_joker_counts_as_a_tile_from_the_rack() -> None:
    board = parse_board("rules: joker-retrieval=strict\ntable:\nB3 B4 J\nrack: B5 R7 J\n")
    move = find_move(board)
    assert (move.tiles_played, check_move(board, move)) == (3, [])


def test_strict_is_the_default_and_replace_goes_through_a_board_file_unchanged() -> None:
    assert parse_board("rack: R5\n").rules.joker_retrieval is JokerRetrieval.STRICT
    board = parse_board(FREED_BESIDE_ONE.format("replace"))
    assert board.rules.joker_retrieval is JokerRetrieval.REPLACE
    assert "rules: joker-retrieval=replace" in format_board(board)
    assert parse_board(format_board(board)) == board


def test_the_command_line_wins_over_the_file() -> None:
    code, out, err = run(
        "check", "-", "--joker-retrieval", "replace", stdin=FREED_BESIDE_ONE.format("free")
    )
    assert (code, err) == (0, "")
    assert "rules: joker-retrieval=replace" in out


def move_of(board: Board, rows: list[str], played: str) -> Move:
    """A move laid out by hand: its new table and the tiles it plays (steps left aside)."""
    table = tuple(parse_tiles(row) for row in rows)
    tiles = parse_tiles(played)
    steps = tuple(Step(SetChange.REBUILD, row, (), ()) for row in table)
    value = sum(t.number for t in tiles)
    return Move(Status.OPTIMAL, tiles, table, (), len(tiles), value, 0.0, steps, "hand")


def hint_lines(*args: str) -> list[str]:
    """`hint`'s answer, its first line and its steps (it must succeed)."""
    code, out, err = run("hint", *args)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    return [lines[0], *(line for line in lines if line[:5] in ("  1. ", "  2. "))]


@pytest.mark.parametrize(
    ("table", "rack", "option", "expected"),
    [
        pytest.param(
            "J B10 B11",
            "B12 R7 O7",
            "--rules=official",
            ["Play 1 tile (12 points): B12", "  1. add B12* to [J=B9 B10 B11]: J=B9 B10 B11 B12*"],
            id="low-joker-is-not-freed-by-the-high-tile",
        ),
        pytest.param(
            "J B10 B11",
            "B12 R7 O7",
            "--joker-retrieval=replace",
            ["Play 1 tile (12 points): B12", "  1. add B12* to [J=B9 B10 B11]: J=B9 B10 B11 B12*"],
            id="low-joker-is-not-freed-under-replace",
        ),
        pytest.param(
            "J B10 B11",
            "B12 R7 O7",
            "--rules=norwegian",
            ["Play 1 tile (12 points): B12", "  1. add B12* to [J=B9 B10 B11]: J=B9 B10 B11 B12*"],
            id="low-joker-is-not-freed-with-locked-sets",
        ),
        pytest.param(
            "J R3 R4",
            "R5 K2 O2",
            "--rules=official",
            ["Play 1 tile (5 points): R5", "  1. add R5* to [J=R2 R3 R4]: J=R2 R3 R4 R5*"],
            id="the-r2-is-not-freed-by-the-r5",
        ),
        pytest.param(
            "B3 B4 J",
            "B5 R7 O7",
            "--rules=official",
            [
                "Play 3 tiles (19 points): B5 R7 O7",
                "  1. swap B5* for the joker in [B3 B4 J=B5]: B3 B4 B5*, the joker in hand",
                "  2. lay J=K7 R7* O7* new",
            ],
            id="the-seeds-example-freed-by-the-b5",
        ),
        pytest.param(
            "R11 R12 R13 J",
            "R10 K3 O3",
            "--rules=official",
            [
                "Play 3 tiles (16 points): R10 K3 O3",
                "  1. swap R10* for the joker in [R11 R12 R13 J=R10]: R10* R11 R12 R13, the joker"
                " in hand",
                "  2. lay K3* J=R3 O3* new",
            ],
            id="a-place-past-the-13-reads-the-other-end",
        ),
        pytest.param(
            "J R1 R2",
            "R3 K5 O5",
            "--rules=official",
            [
                "Play 3 tiles (13 points): R3 K5 O5",
                "  1. swap R3* for the joker in [J=R3 R1 R2]: R1 R2 R3*, the joker in hand",
                "  2. lay K5* J=R5 O5* new",
            ],
            id="a-place-below-the-1-reads-the-other-end",
        ),
        pytest.param(
            "B4 B3 J",
            "B2 K7 O7",
            "--rules=official",
            [
                "Play 3 tiles (16 points): B2 K7 O7",
                "  1. swap B2* for the joker in [B4 B3 J=B2]: B2* B3 B4, the joker in hand",
                "  2. lay K7* J=R7 O7* new",
            ],
            id="a-run-out-of-order-keeps-any-reading",
        ),
        pytest.param(
            "J B10 B11",
            "B12 R7 O7",
            "--rules=casual",
            [
                "Play 3 tiles (26 points): B12 R7 O7",
                "  1. take J=B9 from [J=B9 B10 B11]",
                "  2. add B12* to [B10 B11]: B10 B11 B12*",
            ],
            id="casual-jokers-move-freely",
        ),
    ],
)
def test_a_run_joker_stands_for_the_tile_of_its_place(
    table: str, rack: str, option: str, expected: list[str]
) -> None:
    """A run's joker is the tile of the place it lies at, freed only by that tile (rules.md,
    'The precise reading': `B3 B4 J` is the B5); where the place cannot say, any reading
    stands and the answer names it (`J=R10`). The B12 freed `J B10 B11`'s joker, read as
    the B12, though it lies in the B9's place."""
    assert hint_lines("--table", table, "--rack", rack, option) == expected


def test_the_answer_and_the_next_board_give_the_joker_its_place(tmp_path: Path) -> None:
    """--json's stand_for and --next's board read `J B10 B11`'s joker as the B9."""
    position = ["--table", "J B10 B11", "--rack", "B12 R7 O7"]
    code, out, _ = run("hint", *position, "--json")
    assert (code, json.loads(out)["stand_for"]) == (0, [["B9"]])
    code, _, _ = run("hint", *position, "--next", str(tmp_path / "next.txt"))
    assert code == 0
    assert "J=B9 B10 B11 B12" in (tmp_path / "next.txt").read_text().splitlines()


@settings(max_examples=60)
@given(board=positions(max_rack=5, freeing=True, declaring=True))
def test_the_next_board_reads_back_with_each_joker_where_it_lies(board: Board) -> None:
    """`hint --next` writes each joker's tile (`J=R5`); the reader refuses one its place
    contradicts, so the next board must lay every run's joker at its tile's place."""
    if board.declared:
        # A declaration only a program can make (its place says otherwise) is left aside.
        try:
            parse_board(format_board(board))
        except BoardError:
            return
    after = board_after(board, find_move(board))
    assert parse_board(format_board(after)) == after
