"""What a careless or hostile user feeds the commands that read boards, as hypothesis
draws it: random bytes, and board texts one or a few edits away from valid ones. Never a
traceback: a board, or one line per problem naming the file and its line (exit 1).
This is how the #13 defects were found, kept as a property."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummisolve.board import Board, decode_board, parse_board
from rummisolve.errors import BoardError

from .cli import run

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
SEEDS = [
    (PUZZLES / "rules" / "000-extend-and-split.txt").read_text(),
    (PUZZLES / "jokers" / "001-free-joker-from-run-start.txt").read_text(),
    "rules: casual wraparound=yes\nopened: no\n# expect: tiles=2 value=3\n"
    "table:\nR12 R13 R1\nrack: R2 J O9\n",
]

# Lines a user may well write, or mistype: headings, rules, tiles and near-tiles.
LINES = [
    "table:",
    "rack:",
    "rack: R1 R2 R3",
    "opened: yes",
    "opened: maybe",
    "rules: casual",
    "rules: nonsense",
    "rules: wraparound=perhaps initial-meld=-3",
    "rules: tile-set=160 initial-meld=999999999999999999999",
    "# expect: tiles=3 value=x",
    "# expect: tiles=-1",
    "J J J",
    "R1 R2 R3",
    "R1 R1 R1 R1 R1 R1 R1 R1 R1",
    "K13 K1 K2",
    "X9",
    "R0 R14 R-1 R1.5",
    "j r1 B 5",
    "",
    "   \t  ",
    "\ufeffR1 R2 R3",
]

# Characters that have broken parsers: line breaks of every kind, NUL, escapes, marks.
ODD = st.sampled_from(["\r", "\n", "\r\n", "\x00", "\x1b[31m", "\u2028", "\x85", "\x0c", ":", "#"])


@st.composite
def near_valid(draw: st.DrawFn) -> str:
    """A board that parses, with a few lines removed, added, swapped or typed into."""
    lines = draw(st.sampled_from(SEEDS)).splitlines()
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(lines)))
        edit = draw(st.sampled_from(["add", "drop", "swap", "type", "odd"]))
        if edit == "add":
            lines.insert(at, draw(st.sampled_from(LINES) | st.text(max_size=20)))
        elif lines and edit == "drop":
            del lines[min(at, len(lines) - 1)]
        elif lines and edit == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            at = min(at, len(lines) - 1)
            lines[at], lines[other] = lines[other], lines[at]
        elif lines:
            at = min(at, len(lines) - 1)
            line = lines[at]
            cut = draw(st.integers(0, len(line)))
            typed = draw(ODD if edit == "odd" else st.text(min_size=1, max_size=3))
            lines[at] = line[:cut] + typed + line[cut:]
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n", "\r\n"]))


def assert_one_line_each(error: BoardError, source: str, text: str) -> None:
    lines = len(text.splitlines()) + 1
    assert error.problems
    for problem in error.problems:
        assert problem.source == source
        assert 0 <= problem.line <= lines
        assert problem.message and "\n" not in problem.message


@given(near_valid() | st.text(max_size=200))
def test_the_parser_reads_a_board_or_names_each_problem(text: str) -> None:
    try:
        board = parse_board(text, "fuzz.txt")
    except BoardError as error:
        assert_one_line_each(error, "fuzz.txt", text)
    else:
        assert isinstance(board, Board)


@given(st.binary(max_size=300) | near_valid().map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_bytes_decode_to_text_or_name_their_line(data: bytes) -> None:
    try:
        text = decode_board(data, "fuzz.txt")
    except BoardError as error:
        assert len(error.problems) == 1
        assert_one_line_each(error, "fuzz.txt", data.decode("latin-1"))
    else:
        assert isinstance(text, str)


@pytest.fixture(scope="module")
def board_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz") / "board.txt"


def problem_lines(stderr: str, path: Path) -> bool:
    """Every line of stderr a problem of this file: `FILE:LINE: message` (or `FILE:`
    for the whole file)."""
    line = re.compile(rf"{re.escape(str(path))}(:\d+)?: \S.*")
    return bool(stderr) and all(line.fullmatch(x) for x in stderr.splitlines())


@settings(max_examples=60)
@given(data=st.binary(max_size=200) | near_valid().map(str.encode))
@pytest.mark.parametrize("command", ["check", "hint"])
def test_commands_that_read_a_board_answer_or_name_each_problem(
    board_file: Path, command: str, data: bytes
) -> None:
    board_file.write_bytes(data)
    args = [command, str(board_file)] + (["--time-limit", "2"] if command == "hint" else [])
    result = run(*args)  # a traceback is raised, not an exit status
    assert result.code in (0, 1), result
    if result.code == 1:
        assert result.out == ""
        assert problem_lines(result.err, board_file), result.err
    else:
        assert result.err == ""
