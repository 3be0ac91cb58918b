"""`rummisolve check` as a user runs it: exit status, stdout, stderr (interface.md "Commands")."""

from __future__ import annotations

from pathlib import Path

import pytest

from rummisolve.board import read_board

from .boards import INTERFACE_EXAMPLE
from .cli import run

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "rules"


def write(tmp_path: Path, text: str, name: str = "board.txt") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_valid_board(tmp_path: Path) -> None:
    path = write(tmp_path, INTERFACE_EXAMPLE)
    assert run("check", path) == (
        0,
        f"{path}: valid: 2 sets (7 tiles) on the table, 4 tiles on the rack, not opened, "
        "rules: wraparound initial-meld=50 tile-set=160 joker-penalty=20\n",
        "",
    )


def test_valid_board_with_default_rules(tmp_path: Path) -> None:
    path = write(tmp_path, "rack: R1\n")
    assert run("check", path) == (
        0,
        f"{path}: valid: 0 sets (0 tiles) on the table, 1 tile on the rack, opened\n",
        "",
    )


def test_standard_input() -> None:
    assert run("check", "-", stdin="table:\nK1 K2 K3\nrack: b1 B2\n") == (
        0,
        "-: valid: 1 set (3 tiles) on the table, 2 tiles on the rack, opened\n",
        "",
    )


def test_standard_input_invalid() -> None:
    assert run("check", "-", stdin="rack: R1\nR0\n") == (
        1,
        "",
        "-:2: unknown tile 'R0': number must be 1 to 13\n",
    )


def test_invalid_board_lists_every_problem_without_a_traceback(tmp_path: Path) -> None:
    path = write(tmp_path, "rules: tile-set=107\ntable:\nR1 R2 R4\nK7 R7\nrack: X1\n")
    code, out, err = run("check", path)
    assert (code, out) == (1, "")
    assert err == (
        f"{path}:1: rule tile-set must be 106 or 160, not 107\n"
        f"{path}:3: not a valid run or group: R1 R2 R4\n"
        f"{path}:4: a set needs at least 3 tiles: K7 R7\n"
        f"{path}:5: unknown tile 'X1': colour must be K, R, O (or Y) or B\n"
    )
    assert "Traceback" not in err


def test_too_many_copies(tmp_path: Path) -> None:
    path = write(tmp_path, "table:\nR5 R6 R7\nR5 B5 K5\nrack: R5\n")
    assert run("check", path) == (
        1,
        "",
        f"{path}:4: too many copies of R5: the 106-tile set has 2\n",
    )


def test_not_text(tmp_path: Path) -> None:
    path = tmp_path / "board.txt"
    path.write_bytes(b"rack: R1\n\x00")
    assert run("check", str(path)) == (1, "", f"{path}:2: not a text file (NUL byte)\n")


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        pytest.param("missing.txt", "cannot read: No such file or directory", id="missing"),
        pytest.param("", "no *.txt boards in this folder", id="empty-folder"),
    ],
)
def test_unreadable_path(tmp_path: Path, name: str, reason: str) -> None:
    path = str(tmp_path / name) if name else str(tmp_path)
    assert run("check", path) == (1, "", f"{path}: {reason}\n")


def test_no_board_is_a_usage_error() -> None:
    code, out, err = run("check")
    assert (code, out) == (2, "")
    assert "Missing argument 'BOARD': a board file (- for standard input), or the position" in err


# --- Rule options on the command line win over the file's rules: ------------------------------

WRAPPED = "rules: wraparound\ntable:\nR12 R13 R1\nrack: R5 R5\n"


@pytest.mark.parametrize(
    ("options", "code", "out", "err"),
    [
        pytest.param(
            [],
            0,
            "{path}: valid: 1 set (3 tiles) on the table, 2 tiles on the rack, opened, "
            "rules: wraparound\n",
            "",
            id="file-rules",
        ),
        pytest.param(
            ["--no-wraparound"],
            1,
            "",
            "{path}:3: not a valid run or group: R12 R13 R1\n",
            id="no-wraparound-wins",
        ),
        pytest.param(
            ["--tile-set", "160", "--initial-meld", "50", "--joker-penalty", "20"],
            0,
            "{path}: valid: 1 set (3 tiles) on the table, 2 tiles on the rack, opened, "
            "rules: wraparound initial-meld=50 tile-set=160 joker-penalty=20\n",
            "",
            id="every-option",
        ),
    ],
)
def test_rule_options(tmp_path: Path, options: list[str], code: int, out: str, err: str) -> None:
    path = write(tmp_path, WRAPPED)
    assert run("check", path, *options) == (code, out.format(path=path), err.format(path=path))


def test_wraparound_on_the_command_line(tmp_path: Path) -> None:
    path = write(tmp_path, "table:\nR12 R13 R1\nrack:\n")
    assert run("check", path)[0] == 1
    assert run("check", path, "--wraparound") == (
        0,
        f"{path}: valid: 1 set (3 tiles) on the table, 0 tiles on the rack, opened, "
        "rules: wraparound\n",
        "",
    )


def test_tile_set_on_the_command_line_allows_a_third_copy(tmp_path: Path) -> None:
    path = write(tmp_path, "table:\nR5 R6 R7\nR5 B5 K5\nrack: R5\n")
    assert run("check", path, "--tile-set", "160")[0] == 0
    assert run("check", path, "--tile-set", "107")[0] == 2


@pytest.mark.parametrize(
    "option", [["--initial-meld", "-1"], ["--joker-penalty", "x"]], ids=["negative", "not-a-number"]
)
def test_bad_rule_option_is_a_usage_error(tmp_path: Path, option: list[str]) -> None:
    code, out, _ = run("check", write(tmp_path, "rack:\n"), *option)
    assert (code, out) == (2, "")


@pytest.mark.parametrize("path", sorted(PUZZLES.glob("*.txt")), ids=lambda p: p.name)
def test_every_rules_puzzle_is_a_valid_board(path: Path) -> None:
    code, out, err = run("check", str(path))
    assert (code, err) == (0, "")
    assert out.startswith(f"{path}: valid: ")


def test_the_rules_puzzles_are_there_and_each_records_its_answer() -> None:
    paths = sorted(PUZZLES.glob("*.txt"))
    assert len(paths) >= 20
    assert all(read_board(p).expect is not None for p in paths)
