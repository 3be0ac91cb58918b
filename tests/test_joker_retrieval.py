"""joker-retrieval=strict end to end: the checker refuses what only replace allows, and the
rule word goes through board files and the command line unchanged (rules.md, 000, 001)."""

from __future__ import annotations

from rummisolve.board import Board, format_board, parse_board
from rummisolve.engine.solve import find_move
from rummisolve.legality import check_move
from rummisolve.move import Action, Move, Source, Status, Step
from rummisolve.rules import JokerRetrieval, Overrides
from rummisolve.tiles import parse_tiles

from .cli import run

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
        Step(Action.KEEP, table[0], (), ()),
        Step(Action.REBUILD, table[1], (Source(1, parse_tiles("J O3")),), parse_tiles("B3")),
        Step(Action.REBUILD, table[2], (Source(1, parse_tiles("K3 R3")),), parse_tiles("B3")),
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
    steps = tuple(Step(Action.REBUILD, row, (), ()) for row in table)
    value = sum(t.number for t in tiles)
    return Move(Status.OPTIMAL, tiles, table, (), len(tiles), value, 0.0, steps, "hand")
