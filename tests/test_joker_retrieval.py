"""joker-retrieval=strict end to end: the checker refuses what only replace allows, and the
rule word goes through board files and the command line unchanged (rules.md, 000, 001)."""

from __future__ import annotations

from click.testing import CliRunner

from rummisolve.board import format_board, parse_board
from rummisolve.cli import cli
from rummisolve.legality import check_move
from rummisolve.rules import JokerRetrieval
from rummisolve.solve import find_move

# B5 frees the joker of B3 B4 J; under replace it then takes R11's place beside R12, a set
# with one tile from the rack. Under strict it may only stay as B2: B5 alone is played.
FREED_BESIDE_ONE = "rules: joker-retrieval={}\ntable:\nB3 B4 J\nR8 R9 R10\nrack: B5 R12\n"


def test_checker_refuses_a_freed_joker_beside_one_rack_tile() -> None:
    replace = parse_board(FREED_BESIDE_ONE.format("replace"))
    strict = parse_board(FREED_BESIDE_ONE.format("strict"))
    move = find_move(replace)
    assert (move.tiles_played, check_move(replace, move)) == (2, [])
    assert check_move(strict, move) == ["a freed joker is in no set with two tiles from the rack"]
    assert find_move(strict).tiles_played == 1


def test_checker_still_refuses_a_joker_leaving_without_its_tile() -> None:
    free = parse_board("table:\nB3 B4 B5 J\nrack: K9 K10\n")
    move = find_move(free)
    assert move.tiles_played == 2
    strict = parse_board("rules: joker-retrieval=strict\n" + format_board(free))
    assert check_move(strict, move) == [
        "a joker left its set without the tile it stands for taking its place"
    ]


def test_a_rack_joker_counts_as_a_tile_from_the_rack() -> None:
    board = parse_board("rules: joker-retrieval=strict\ntable:\nB3 B4 J\nrack: B5 R7 J\n")
    move = find_move(board)
    assert (move.tiles_played, check_move(board, move)) == (3, [])


def test_strict_goes_through_a_board_file_unchanged() -> None:
    board = parse_board(FREED_BESIDE_ONE.format("strict"))
    assert board.rules.joker_retrieval is JokerRetrieval.STRICT
    assert "rules: joker-retrieval=strict" in format_board(board)
    assert parse_board(format_board(board)) == board


def test_strict_on_the_command_line_wins_over_the_file() -> None:
    result = CliRunner().invoke(
        cli, ["check", "-", "--joker-retrieval", "strict"], input=FREED_BESIDE_ONE.format("free")
    )
    assert result.exit_code == 0, result.stderr
    assert "rules: joker-retrieval=strict" in result.stdout
