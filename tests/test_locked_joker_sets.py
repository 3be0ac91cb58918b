"""locked-joker-sets (001) end to end: the checker refuses a tile taken out of a set with a
joker, the model adds nothing where the rule cannot bite, the steps show a set that grew,
and the rule goes through board files and the command line."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np

from rummisolve.board import Board, format_board, parse_board
from rummisolve.engine.model import build_model
from rummisolve.engine.solve import find_move
from rummisolve.legality import check_move
from rummisolve.move import Move, Objective, SetChange, Source, Status, Step
from rummisolve.rules import Overrides, Rules
from rummisolve.tiles import Tile, parse_tile

from .cli import run

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "locked-joker-sets"
# R5 leaves for R5 O5 B5 (and, where jokers move freely, the joker for K1 K2): only
# without the rule.
TAKES_R5 = "table:\nR5 R6 R7 R8 J\nrack: B5 O5 K1 K2\n"


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tile(word) for word in text.split())


LOCKED = Overrides(options=(("locked_joker_sets", True),))


def locked(text: str) -> Board:
    if text.startswith("rules:"):
        return parse_board(text, overrides=LOCKED)
    return parse_board("rules: locked-joker-sets\n" + text)


def move_of(board: Board, steps: list[Step]) -> Move:
    """A move laid out by hand: the steps as given, every rack tile (no joker) played."""
    played = board.rack
    value = sum(t.number for t in played)
    table = tuple(step.tiles for step in steps)
    return Move(Status.OPTIMAL, played, table, (), len(played), value, 0.0, tuple(steps), "hand")


def test_checker_refuses_a_tile_taken_out_of_a_set_with_a_joker() -> None:
    official = parse_board(TAKES_R5)
    move = find_move(official)
    assert (move.tiles_played, check_move(official, move)) == (2, [])
    assert check_move(locked(TAKES_R5), move) == [
        "a tile was taken out of [R5 R6 R7 R8 J], which holds a joker (locked-joker-sets)"
    ]
    assert find_move(locked(TAKES_R5)).tiles_played == 0
    # Where jokers move freely, the set's joker is still held by it.
    casual = parse_board("rules: casual\n" + TAKES_R5)
    assert find_move(casual).tiles_played == 4
    assert find_move(parse_board("rules: casual locked-joker-sets\n" + TAKES_R5)).tiles_played == 0


def test_checker_matches_sets_to_new_sets_one_tile_each() -> None:
    """Both sets R5 R6 J fit in R4 R5 R6 J J, but it holds R5 and R6 once: one of them must
    have given its R5 and R6 to the groups."""
    text = "rules: casual\ntable:\nR5 R6 J\nR5 R6 J\nrack: R4 B5 K5 B6 K6\n"
    steps = [
        Step(
            SetChange.REBUILD,
            tiles("R4 R5 R6 J J"),
            (Source(0, tiles("R5 R6 J")), Source(1, tiles("J"))),
            tiles("R4"),
        ),
        Step(SetChange.REBUILD, tiles("R5 K5 B5"), (Source(1, tiles("R5")),), tiles("K5 B5")),
        Step(SetChange.REBUILD, tiles("R6 K6 B6"), (Source(1, tiles("R6")),), tiles("K6 B6")),
    ]
    assert check_move(parse_board(text), move_of(parse_board(text), steps)) == []
    assert check_move(locked(text), move_of(locked(text), steps)) == [
        "sets holding a joker would need the same tile of one new set (locked-joker-sets)"
    ]


def test_strict_counts_a_locked_tile_as_the_tables() -> None:
    """B5 frees the joker of B3 B4 J into R4 R5 R6 R7 J J, which needs two tiles from the
    rack. Under strict alone its R5 may be the rack's copy (the rack's R5 is alike); with
    locked-joker-sets it is the one of R5 R6 R7 J, and R4 is the only rack tile there."""
    text = "table:\nB3 B4 J\nR5 R6 R7 J\nrack: B5 R4 R5 K5 O5\n"
    steps = [
        Step(SetChange.REBUILD, tiles("B3 B4 B5"), (Source(0, tiles("B3 B4")),), tiles("B5")),
        Step(
            SetChange.REBUILD,
            tiles("R4 R5 R6 R7 J J"),
            (Source(0, tiles("J")), Source(1, tiles("R5 R6 R7 J"))),
            tiles("R4"),
        ),
        Step(SetChange.NEW, tiles("R5 K5 O5"), (), tiles("R5 K5 O5")),
    ]
    strict = parse_board(text)
    both = parse_board(text, overrides=LOCKED)
    assert check_move(strict, move_of(strict, steps)) == []
    assert check_move(both, move_of(both, steps)) == [
        "a freed joker is in no set with two tiles from the rack"
    ]
    # The solver lays the freed joker beside R5 K5 O5 instead: all five tiles, legally.
    move = find_move(both)
    assert (move.tiles_played, check_move(both, move)) == (5, [])


def test_the_model_adds_nothing_where_the_rule_cannot_bite() -> None:
    """No set with a joker on the table, or not opened: the very same integer program."""
    for text in ("table:\nR5 R6 R7 R8\nrack: B5 O5 J\n", "opened: no\n" + TAKES_R5):
        off = parse_board(text)
        on = parse_board(text, overrides=LOCKED)
        (mip_off, layout_off), (mip_on, layout_on) = (
            build_model(b, Objective.TILES) for b in (off, on)
        )
        assert layout_on == layout_off
        assert layout_on.program.describe() == layout_off.program.describe()
        for name in mip_off.__dataclass_fields__:
            assert np.array_equal(getattr(mip_on, name), getattr(mip_off, name)), name


def test_a_set_that_grew_is_shown_extended() -> None:
    board = locked("table:\nR5 R6 J\nK1 K2 K3\nrack: R8 R9 K4\n")
    move = find_move(board)
    assert move.steps[0] == Step(
        SetChange.EXTEND, tiles("R5 R6 J R8 R9"), (Source(0, tiles("R5 R6 J")),), tiles("R8 R9")
    )


def test_a_freed_joker_leaves_a_locked_set_whose_tiles_stay_together() -> None:
    """R7 frees the joker of R5 R6 J (or of R8 R9 J) and takes its place; the freed joker
    joins two tiles from the rack (K2 O2, worth more than K1 K2). The other pair would need
    the other joker, which nothing frees."""
    board = locked("table:\nR5 R6 J\nR8 R9 J\nrack: R7 K1 K2 O1 O2\n")
    move = find_move(board)
    assert (move.tiles_played, check_move(board, move)) == (3, [])
    assert Counter(tiles("K2 O2 J")) in [Counter(row) for row in move.table]


def test_the_rule_goes_through_a_board_file_unchanged() -> None:
    board = locked(TAKES_R5)
    assert board.rules == Rules(locked_joker_sets=True)
    assert "rules: locked-joker-sets\n" in format_board(board)
    assert parse_board(format_board(board)) == board


def test_hint_with_the_rule_word_and_without_it_on_the_command_line() -> None:
    path = str(PUZZLES / "001-long-run-keeps-its-end-tile.txt")
    code, out, err = run("hint", path, "--json")
    assert (code, err) == (0, "")
    assert (json.loads(out)["tiles_played"], json.loads(out)["value_played"]) == (0, 0)
    code, out, _ = run("hint", path, "--json", "--no-locked-joker-sets")
    assert (code, json.loads(out)["tiles_played"]) == (0, 2)


def test_hint_with_the_option() -> None:
    code, out, err = run("hint", "-", "--locked-joker-sets", stdin=TAKES_R5)
    assert (code, err) == (0, "")
    assert out.startswith("No move: draw a tile.\n")
    code, out, err = run("hint", "-", "--no-locked-joker-sets", stdin=TAKES_R5)
    assert (code, err) == (0, "")
    assert out.startswith("Play 2 tiles (10 points): B5 O5\n")
    assert "  1. take R5 from [R5 R6 R7 R8 J=R9]\n" in out


def test_check_names_the_rule() -> None:
    code, out, _ = run("check", "-", "--locked-joker-sets", stdin=TAKES_R5)
    assert code == 0
    assert out.endswith(", rules: locked-joker-sets\n")


def test_a_bad_value_is_one_line_naming_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "b.txt"
    path.write_text("# a comment\nrules: locked-joker-sets=maybe\n" + TAKES_R5)
    for command in ("check", "hint"):
        code, out, err = run(command, str(path))
        assert (code, out) == (1, "")
        assert err == f"{path}:2: rule locked-joker-sets takes no value or yes/no, not 'maybe'\n"


def test_generate_writes_the_rule_and_its_option() -> None:
    code, out, _ = run("generate", "--count", "1", "--locked-joker-sets")
    assert code == 0
    assert " --locked-joker-sets\n" in out
    assert " locked-joker-sets " in out
