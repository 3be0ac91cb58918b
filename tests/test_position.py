"""The position on the command line (`--table`, `--rack`, `--not-opened`), sets separated
by `|` in a board file, runs written short (`R3-6`), `hint --next`, and `hint -` on a
terminal."""

from __future__ import annotations

import dataclasses
import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummisolve.board import (
    Board,
    format_board,
    format_sets,
    parse_board,
    parse_position,
    read_word,
)
from rummisolve.errors import BoardError, TileError
from rummisolve.rules import OPTION_BY_FIELD, Overrides, Rules
from rummisolve.tiles import COLOURS, Colour, Tile, format_tiles

from .cli import run
from .test_board import boards

TABLE = "R3 R4 R5 | K7 R7 B7 J"
RACK = "R2 B5 O5 J"


def refusal(table: str | None, rack: str | None, rules: Overrides | None = None) -> str:
    with pytest.raises(BoardError) as caught:
        parse_position(table, rack, overrides=rules or Overrides())
    return str(caught.value)


# --- Runs written short ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "tiles"),
    [
        ("R3-6", "R3 R4 R5 R6"),
        ("k10-13", "K10 K11 K12 K13"),
        ("R3-R5", "R3 R4 R5"),
        ("y1-3", "O1 O2 O3"),
        ("B12-1", "B12 B13 B1"),
        ("B11-1", "B11 B12 B13 B1"),
        ("R5", "R5"),
        ("*", "J"),
    ],
    ids=["red", "lower-case", "both-ends", "yellow", "past-13", "past-13-long", "one", "star"],
)
def test_a_word_reads_as_the_tiles_players_mean(word: str, tiles: str) -> None:
    assert format_tiles(read_word(word)) == tiles


@pytest.mark.parametrize(
    ("word", "message"),
    [
        ("R6-3", "a run written short goes up"),
        ("R13-2", "a run written short goes up"),
        ("R5-5", "a run written short goes up"),
        ("R3-B6", "a run written short is one colour: 'R3-B6'"),
        ("R3-14", "unknown tile 'R14': number must be 1 to 13"),
        ("X3-6", "unknown tile 'X3': colour must be K, R, O (or Y) or B"),
    ],
    ids=["down", "past-13-too-far", "one-number", "two-colours", "past-13", "no-colour"],
)
def test_a_bad_short_run_says_why(word: str, message: str) -> None:
    with pytest.raises(TileError) as caught:
        read_word(word)
    assert str(caught.value).startswith(message)


def test_past_the_13_is_a_run_only_with_wraparound() -> None:
    assert refusal("R12-1", "") == "--table: set 1: not a valid run or group: R12 R13 R1"
    wraparound = Overrides(None, (("wraparound", True),))
    assert parse_position("R12-1", "", overrides=wraparound).table == (read_word("R12-1"),)


@given(
    st.sampled_from(COLOURS),
    st.integers(1, 13),
    st.integers(1, 13),
)
def test_a_run_written_short_is_the_run_written_out(colour: Colour, low: int, high: int) -> None:
    first, last = Tile(colour, low), Tile(colour, high)
    word = f"{first}-{high}"
    if low < high:
        assert read_word(word) == tuple(Tile(colour, n) for n in range(low, high + 1))
        assert read_word(f"{first}-{last}") == read_word(word)
    elif high == 1 and low > 1:
        assert read_word(word) == (*(Tile(colour, n) for n in range(low, 14)), last)
    else:
        with pytest.raises(TileError):
            read_word(word)


# --- Sets separated by | -----------------------------------------------------------------


def test_a_board_file_may_hold_several_sets_on_a_line() -> None:
    board = parse_board(f"table:\n{TABLE}\nR6-9\nrack: {RACK}\n")
    assert format_sets(board.table) == "R3 R4 R5 | K7 R7 B7 J | R6 R7 R8 R9"


def test_a_bad_set_on_a_shared_line_is_named_by_its_place() -> None:
    with pytest.raises(BoardError) as caught:
        parse_board("table:\nR3 R4 R5 | K7 X7 | |\nR1 R2\nrack: K1\n", "b.txt")
    assert str(caught.value) == (
        "b.txt:2: set 2: unknown tile 'X7': colour must be K, R, O (or Y) or B\n"
        "b.txt:2: set 3: holds no tiles (a '|' with no set before or after it)\n"
        "b.txt:2: set 4: holds no tiles (a '|' with no set before or after it)\n"
        "b.txt:3: a set needs at least 3 tiles: R1 R2"
    )


def test_a_bar_on_the_rack_only_groups_tiles() -> None:
    assert parse_board("rack: R2 B5 | O5 J\n").rack == parse_board(f"rack: {RACK}\n").rack


def overrides_for(rules: Rules) -> Overrides:
    """Every rule option given, so that the position reads under exactly these rules."""
    return Overrides(None, tuple((name, getattr(rules, name)) for name in OPTION_BY_FIELD))


@given(boards())
def test_a_board_with_its_sets_on_one_line_reads_back_the_same(board: Board) -> None:
    lines = format_board(board).splitlines()
    start, end = lines.index("table:") + 1, len(lines) - 1
    one_line = [format_sets(board.table, board.declared)] if board.table else []
    text = "\n".join(lines[:start] + one_line + lines[end:])
    assert parse_board(text) == board


@given(boards())
def test_a_position_given_as_options_reads_back_the_same(board: Board) -> None:
    read = parse_position(
        format_sets(board.table, board.declared),
        format_tiles(board.rack),
        board.opened,
        overrides_for(board.rules),
    )
    assert read == dataclasses.replace(board, expect=None)


# --- Problems name their place in the option ------------------------------------------------


@pytest.mark.parametrize(
    ("table", "rack", "message"),
    [
        (
            "R3 R4 R5 | K7 R7 X9 J",
            RACK,
            "--table: set 2, tile 3: unknown tile 'X9': colour must be K, R, O (or Y) or B",
        ),
        (TABLE, "R2 B5 O15", "--rack: tile 3: unknown tile 'O15': number must be 1 to 13"),
        ("R3 R4 R6", "", "--table: set 1: not a valid run or group: R3 R4 R6"),
        ("R3 R4 R5 |", "", "--table: set 2: holds no tiles (a '|' with no set before or after it)"),
        (TABLE, "J J", "--rack: tile 2: too many jokers: the 106-tile set has 2"),
        ("R3-5 | R3-5", "R4", "--rack: tile 1: too many copies of R4: the 106-tile set has 2"),
    ],
    ids=["table-tile", "rack-tile", "not-a-set", "empty-set", "jokers", "copies"],
)
def test_a_problem_names_the_option_and_the_place(table: str, rack: str, message: str) -> None:
    assert refusal(table, rack) == message


# --- The commands -------------------------------------------------------------------------


def test_hint_on_the_command_line_plays_four_tiles() -> None:
    code, out, err = run("hint", "--table", TABLE, "--rack", RACK, "--json")
    assert (code, err) == (0, "")
    answer = json.loads(out)
    assert answer["tiles_played"] == 4 and answer["rack"] == []


def test_hint_on_the_command_line_is_hint_on_the_board_file() -> None:
    file = run("hint", "puzzles/rules/012-interface-hint-example.txt", "--json")
    options = run("hint", "--table", TABLE, "--rack", RACK, "--json")
    mask = {"seconds": 0}
    assert json.loads(file.out) | mask == json.loads(options.out) | mask


def test_check_on_the_command_line() -> None:
    assert run("check", "--table", TABLE, "--rack", RACK, "--not-opened", "--rules", "casual") == (
        0,
        "--table/--rack: valid: 2 sets (7 tiles) on the table, 4 tiles on the rack,"
        " not opened, rules: casual\n",
        "",
    )


def test_a_rack_alone_is_an_empty_table() -> None:
    assert run("check", "--rack", "R1-3") == (
        0,
        "--table/--rack: valid: 0 sets (0 tiles) on the table, 3 tiles on the rack, opened\n",
        "",
    )


def test_a_bad_tile_on_the_command_line_is_one_line_and_exit_1() -> None:
    assert run("hint", "--table", "R3 R4 R5 | K7 R7 X9 J", "--rack", RACK) == (
        1,
        "",
        "--table: set 2, tile 3: unknown tile 'X9': colour must be K, R, O (or Y) or B\n",
    )


def test_a_board_and_options_at_once_is_a_usage_error(tmp_path: Path) -> None:
    code, out, err = run("hint", "board.txt", "--rack", RACK)
    assert (code, out) == (2, "")
    assert err.endswith("Error: Give either BOARD or --table/--rack, not both.\n")


@pytest.mark.parametrize("command", ["hint", "check"])
@pytest.mark.parametrize(
    ("twice", "option"),
    [
        (["--table", "R3 R4 R5", "--table", "K7 R7 B7", "--rack", RACK], "--table"),
        (["--table", TABLE, "--rack", "R2", "--rack", "B5 O5"], "--rack"),
    ],
    ids=["table-twice", "rack-twice"],
)
def test_an_option_given_twice_is_a_usage_error_not_the_last_kept(
    command: str, twice: list[str], option: str
) -> None:
    """click kept the last --table silently: the sets of the first were dropped."""
    code, out, err = run(command, *twice)
    assert (code, out) == (2, "")
    assert err.splitlines()[-1] == (
        f"Error: Invalid value for '{option}': given twice: give it once"
        + (", the sets separated by |" if option == "--table" else ", with all your tiles")
    )


def test_not_opened_overrides_the_board_file() -> None:
    code, out, _ = run("hint", "puzzles/rules/012-interface-hint-example.txt", "--not-opened")
    assert code == 0
    assert out.startswith("No move: no initial meld worth 30 points; draw a tile.\n")


def test_an_initial_meld_counts_a_joker_as_the_tile_it_stands_for() -> None:
    code, out, err = run("hint", "--rack", "R10 R11 J K7 O7 B7", "--not-opened")
    assert (code, err) == (0, "")
    body = out.rsplit("\n(", 1)[0]
    assert body == (
        "Play 6 tiles, an initial meld worth 54 points (30 needed): R10 R11 J K7 O7 B7\n"
        "\n"
        "At the table (* = from your rack):\n"
        "  1. lay R10* R11* J*=R12 new\n"
        "  2. lay K7* O7* B7* new\n"
        "\n"
        "Table after the move:\n"
        "  R10* R11* J*=R12\n"
        "  K7* O7* B7*\n"
        "\n"
        "Rack after: (empty: Rummikub!)"
    )
    answer = json.loads(run("hint", "--rack", "R10 R11 J K7 O7 B7", "--not-opened", "--json").out)
    assert (answer["meld_value"], answer["value_played"]) == (54, 72)


def test_next_writes_the_board_for_the_next_turn(tmp_path: Path) -> None:
    path = tmp_path / "turn2.txt"
    code, _, _ = run("hint", "--rack", "R10 R11 J K7 O7 B7 K1", "--not-opened", "--next", str(path))
    assert code == 0
    assert path.read_text() == (
        "rules: official wraparound=no initial-meld=30 tile-set=106 joker-penalty=30"
        " joker-retrieval=strict locked-joker-sets=no scoring=standard blocked=difference"
        " double-out=no\n"
        "opened: yes\n"
        "table:\n"
        "R10 R11 J=R12\n"
        "K7 O7 B7\n"
        "rack: K1\n"
    )
    assert run("check", str(path)).code == 0
    code, out, _ = run("hint", str(path), "--json")
    assert (code, json.loads(out)["status"]) == (0, "no-move")


def test_next_keeps_the_rules_and_says_opened_only_after_a_move(tmp_path: Path) -> None:
    path = tmp_path / "next.txt"
    run("hint", "--rack", "K1 K2", "--not-opened", "--rules", "hebrew", "--next", str(path))
    board = parse_board(path.read_text())
    assert (board.opened, board.rules.profile, format_tiles(board.rack)) == (
        False,
        "hebrew",
        "K1 K2",
    )


def test_next_into_a_folder_that_does_not_exist_is_one_line(tmp_path: Path) -> None:
    code, out, err = run("hint", "--rack", RACK, "--next", str(tmp_path / "no" / "next.txt"))
    assert (code, out.splitlines()[0]) == (1, "Play 3 tiles (40 points): B5 O5 J=K5")
    assert err.count("\n") == 1 and "No such file or directory" in err


def test_hint_dash_on_a_terminal_says_what_it_waits_for(tmp_path: Path) -> None:
    """A real terminal: standard input a pty, the board typed, then Ctrl-D."""
    leader, follower = pty.openpty()
    env = {**os.environ, "NO_COLOR": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "rummisolve", "hint", "-", "--json"],
        stdin=follower,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    os.close(follower)
    try:
        assert process.stderr is not None
        ready, _, _ = select.select([process.stderr], [], [], 60)
        assert ready, "nothing said on standard error"
        said = process.stderr.readline().decode()
        assert said.startswith("Reading a board from standard input: type it")
        os.write(leader, b"table:\nR3 R4 R5\nrack: R2\n\x04")
        out, _ = process.communicate(timeout=60)
    finally:
        os.close(leader)
        process.kill()
    assert process.returncode == 0
    assert json.loads(out)["played"] == ["R2"]


def test_hint_dash_from_a_pipe_says_nothing_on_standard_error() -> None:
    assert run("check", "-", stdin="rack: R2\n") == (
        0,
        "-: valid: 0 sets (0 tiles) on the table, 1 tile on the rack, opened\n",
        "",
    )
