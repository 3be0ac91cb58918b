"""The generator deals legal, realistic positions, the same ones for the same seed."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rummisolve.board import Board, format_board, parse_board, read_board
from rummisolve.generate import GenerateError, SizeError, Span, generate_boards
from rummisolve.rules import Rules
from rummisolve.sets import Kind, read_meld
from rummisolve.tiles import JOKER

from .cli import run

RULES = [
    Rules(),
    Rules(wraparound=True),
    Rules(tile_set=160),
    Rules(wraparound=True, tile_set=160, initial_meld=50, joker_penalty=20),
]


def assert_legal(board: Board) -> None:
    """The board as a file reads back the same (the parser refuses bad sets and copies)."""
    assert parse_board(format_board(board)) == board
    for row in board.table:
        assert read_meld(row, board.rules) is not None, row
        assert row.count(JOKER) <= 2, "at most two jokers a set"
    box = board.rules.box
    assert box.excess([*board.table_tiles, *board.rack]) == {}


def jokers_in(board: Board) -> int:
    return [*board.table_tiles, *board.rack].count(JOKER)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    rules=st.sampled_from(RULES),
    table=st.tuples(st.integers(0, 60), st.integers(0, 40)),
    rack=st.tuples(st.integers(0, 20), st.integers(0, 20)),
)
def test_every_board_is_legal_and_sized(
    seed: int, rules: Rules, table: tuple[int, int], rack: tuple[int, int]
) -> None:
    table_span = Span(table[0], table[0] + table[1])
    rack_span = Span(rack[0], rack[0] + rack[1])
    assume(table_span.high >= 3 or table_span.low == 0)
    boards = generate_boards(5, seed, table_tiles=table_span, rack_tiles=rack_span, rules=rules)
    for board in boards:
        assert_legal(board)
        assert table_span.low <= len(board.table_tiles) <= table_span.high
        assert len(board.table_tiles) not in (1, 2)
        assert rack_span.low <= len(board.rack) <= rack_span.high
        assert board.rules == rules
        assert parse_board(format_board(board)) == board


@pytest.mark.parametrize("rules", RULES, ids=lambda r: " ".join(r.differences()) or "default")
def test_crowded_tables_are_still_legal(rules: Rules) -> None:
    size = 100 if rules.tile_set == 106 else 150
    for board in generate_boards(20, 3, table_tiles=size, rack_tiles=5, rules=rules):
        assert_legal(board)
        assert len(board.table_tiles) == size


def test_table_range_shrinks_to_leave_room_for_the_rack() -> None:
    for board in generate_boards(40, 4, table_tiles=(0, 104), rack_tiles=20):
        assert len(board.rack) == 20
        assert len(board.table_tiles) <= 86


def test_a_full_box_deals_its_jokers_too() -> None:
    for board in generate_boards(5, 4, table_tiles=100, rack_tiles=6):
        assert_legal(board)
        assert len(board.table_tiles) + len(board.rack) == 106
        assert jokers_in(board) == 2


@pytest.mark.parametrize(
    ("table", "rack", "rules"),
    [
        (106, 0, Rules()),
        (105, 1, Rules()),
        (105, 0, Rules(wraparound=True)),
        (160, 0, Rules(tile_set=160)),
        (157, 3, Rules(tile_set=160, wraparound=True)),
    ],
    ids=["106+0", "105+1", "105+0 wraparound", "160-set 160+0", "160-set 157+3 wraparound"],
)
def test_the_whole_box_can_lie_on_the_table(table: int, rack: int, rules: Rules) -> None:
    """More tiles than the box has coloured ones: the jokers stand for third copies."""
    for board in generate_boards(10, 2, table_tiles=table, rack_tiles=rack, rules=rules):
        assert_legal(board)
        assert (len(board.table_tiles), len(board.rack)) == (table, rack)
        assert board.table_tiles.count(JOKER) >= table - 52 * rules.box.copies


# Sizes up to the whole box, and any joker count: every one that some position has is
# dealt exactly; the others are refused before the first board.
@settings(max_examples=80, deadline=None)
@given(data=st.data(), seed=st.integers(0, 10**6), rules=st.sampled_from(RULES))
def test_every_size_up_to_the_whole_box(data: st.DataObject, seed: int, rules: Rules) -> None:
    box = rules.box
    sizes = [0, *range(3, box.size + 1)]
    # Half the cases at the top: the last tiles of the box are where dealing gets hard.
    table = data.draw(st.sampled_from(sizes) | st.sampled_from(sizes[-8:]), label="table")
    room = box.size - table
    rack = data.draw(st.integers(0, room) | st.integers(max(0, room - 3), room), label="rack")
    jokers = data.draw(st.none() | st.integers(0, box.jokers), label="jokers")
    coloured = box.size - box.jokers
    # Too few coloured tiles for the rest, or more jokers than one a rack tile and two a set.
    possible = jokers is None or table + rack - coloured <= jokers <= rack + 2 * (table // 3)
    if not possible:
        with pytest.raises(SizeError):
            generate_boards(1, seed, table_tiles=table, rack_tiles=rack, jokers=jokers, rules=rules)
        return
    boards = generate_boards(
        3, seed, table_tiles=table, rack_tiles=rack, jokers=jokers, rules=rules
    )
    for board in boards:
        assert_legal(board)
        assert (len(board.table_tiles), len(board.rack)) == (table, rack)
        assert jokers is None or jokers_in(board) == jokers


def test_ranges_deal_only_the_sizes_that_hold_the_jokers_asked() -> None:
    """A table of 0 and a rack of 1 cannot hold 2 jokers: those boards have a table."""
    boards = list(generate_boards(100, 3, table_tiles=(0, 5), rack_tiles=(0, 1), jokers=2))
    for board in boards:
        assert_legal(board)
        assert jokers_in(board) == 2
        assert len(board.table_tiles) >= 3
    assert {len(b.table_tiles) for b in boards} == {3, 4, 5}
    assert {len(b.rack) for b in boards} == {0, 1}


def test_seeds_keep_their_boards() -> None:
    """Benchmarks and tests name boards by seed: the deal must never drift."""
    boards = list(generate_boards(2, 1, table_tiles=(3, 9), rack_tiles=4, jokers=1))
    assert [format_board(b) for b in boards] == [
        "opened: yes\ntable:\nB1 B2 B3 B4 B5\nK3 K4 K5\nrack: O6 O8 B11 J\n",
        "opened: yes\ntable:\nO4 O5 J O7\nR2 R3 R4 R5\nrack: K12 R11 R12 O8\n",
    ]

    def digest(**sizes: object) -> str:
        text = "".join(map(format_board, generate_boards(50, 1, **sizes)))  # type: ignore[arg-type]
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    assert digest() == "a747dc3c3b9812de"
    assert digest(table_tiles=(30, 100), rack_tiles=(0, 6), jokers=(0, 2)) == "d657aa560edbe9e5"
    big = Rules(tile_set=160, wraparound=True)
    assert digest(table_tiles=(100, 150), rack_tiles=(0, 10), rules=big) == "e0b141e13ae72ecb"


def test_same_seed_same_boards_and_board_i_independent_of_count() -> None:
    first = list(generate_boards(30, 42))
    assert first == list(generate_boards(30, 42))
    assert first[:5] == list(generate_boards(5, 42))
    assert first != list(generate_boards(30, 43))


def test_jokers_in_play_as_asked() -> None:
    boards = list(generate_boards(200, 5, table_tiles=(10, 40), rack_tiles=(5, 15), jokers=2))
    for board in boards:
        assert board.table_tiles.count(JOKER) + board.rack.count(JOKER) == 2
    assert any(JOKER in board.rack for board in boards)
    assert any(JOKER in row for board in boards for row in board.table)
    assert any(row.count(JOKER) == 2 for board in boards for row in board.table)


def test_no_jokers_when_asked_for_none() -> None:
    for board in generate_boards(50, 5, jokers=0):
        assert JOKER not in [*board.table_tiles, *board.rack]


def test_tables_mix_runs_groups_and_long_runs() -> None:
    kinds: Counter[Kind] = Counter()
    longest = 0
    for board in generate_boards(100, 9, table_tiles=(20, 60)):
        for row in board.table:
            meld = read_meld(row, board.rules)
            assert meld is not None
            kinds[meld.kind] += 1
            longest = max(longest, len(row))
    assert kinds[Kind.RUN] > kinds[Kind.GROUP] > 0
    assert longest >= 8


def test_wrapping_runs_only_with_wraparound() -> None:
    def wraps(board: Board) -> bool:
        return any(
            row[-2:] == (row[-2]._replace(number=13), row[-2]._replace(number=1))
            for row in board.table
        )

    with_wrap = list(generate_boards(200, 11, table_tiles=(30, 60), rules=Rules(wraparound=True)))
    without = list(generate_boards(200, 11, table_tiles=(30, 60)))
    assert any(wraps(b) for b in with_wrap)
    assert not any(wraps(b) for b in without)


def test_the_160_set_allows_three_copies() -> None:
    boards = generate_boards(50, 2, table_tiles=(60, 100), rules=Rules(tile_set=160))
    assert any(max(Counter([*b.table_tiles, *b.rack]).values()) == 3 for b in boards)


def test_opened_is_recorded() -> None:
    assert all(not b.opened for b in generate_boards(3, 1, opened=False))


@pytest.mark.parametrize(
    ("sizes", "message", "arguments"),
    [
        ({"table_tiles": (1, 2)}, "no table holds 1-2 tiles", ("table_tiles",)),
        (
            {"table_tiles": 100, "rack_tiles": 10},
            "do not fit in the 106-tile set",
            ("table_tiles", "rack_tiles"),
        ),
        ({"jokers": 3}, "has only 2 jokers", ("jokers",)),
        ({"jokers": (0, 5)}, "has only 2 jokers", ("jokers",)),
        (
            {"table_tiles": 0, "rack_tiles": 1, "jokers": 2},
            "a table of 0 tiles and a rack of 1 hold 0-1 jokers, not 2",
            ("jokers", "table_tiles", "rack_tiles"),
        ),
        (
            {"table_tiles": 0, "rack_tiles": 0, "jokers": (1, 2)},
            "a table of 0 tiles and a rack of 0 hold 0 jokers, not 1-2",
            ("jokers", "table_tiles", "rack_tiles"),
        ),
        (
            {"table_tiles": (105, 106), "rack_tiles": 0, "jokers": 0},
            "a table of 105-106 tiles and a rack of 0 hold 1-2 jokers, not 0",
            ("jokers", "table_tiles", "rack_tiles"),
        ),
    ],
    ids=[
        "table of 1-2",
        "more than the box",
        "too many jokers",
        "a range past the box's jokers",
        "jokers beyond a rack of 1",
        "jokers in an empty position",
        "a full table without jokers",
    ],
)
def test_impossible_sizes_are_refused(
    sizes: dict[str, object], message: str, arguments: tuple[str, ...]
) -> None:
    with pytest.raises(SizeError, match=message) as refused:
        generate_boards(1, 1, **sizes)  # type: ignore[arg-type]
    assert refused.value.arguments == arguments


def test_an_empty_range_is_refused() -> None:
    with pytest.raises(GenerateError, match="invalid size range 5-4"):
        generate_boards(1, 1, rack_tiles=(5, 4))


# The command line


def test_cli_writes_numbered_board_files(tmp_path: Path) -> None:
    out = tmp_path / "boards"
    result = run(
        "generate", "--count", "3", "--seed", "7", "--out", str(out), "--table-tiles", "12"
    )
    assert result.code == 0, result.err
    assert result.out == f"wrote 3 boards to {out}\n"
    files = sorted(out.iterdir())
    assert [f.name for f in files] == ["gen-00001.txt", "gen-00002.txt", "gen-00003.txt"]
    expected = list(generate_boards(3, 7, table_tiles=12))
    assert [read_board(f) for f in files] == expected


def test_cli_files_say_how_to_make_them_again(tmp_path: Path) -> None:
    run("generate", "--count", "1", "--seed", "7", "--out", str(tmp_path))
    first_line = (tmp_path / "gen-00001.txt").read_text().splitlines()[0]
    recipe = "rummisolve generate --seed 7 --table-tiles 0-60 --rack-tiles 5-20"
    assert first_line == f"# {recipe}: board 1"


def test_cli_stdout_splits_into_boards() -> None:
    args = ["generate", "--count", "2", "--seed", "1", "--table-tiles", "3-9", "--rack-tiles", "4"]
    result = run(*args, "--jokers", "1", "--not-opened", "--wraparound")
    assert result.code == 0, result.err
    chunks = result.out.split("\n\n")
    assert len(chunks) == 2
    recipe = (
        "rummisolve generate --seed 1 --table-tiles 3-9 --rack-tiles 4 --jokers 1"
        " --not-opened --wraparound"
    )
    full = (
        "rules: official wraparound initial-meld=30 tile-set=106 joker-penalty=30"
        " joker-retrieval=strict locked-joker-sets=no scoring=standard blocked=difference"
        " double-out=no"
    )
    assert chunks[0].startswith(f"# --- board 1: {recipe}\n{full}\nopened: no\n")
    assert chunks[1].startswith(f"# --- board 2: {recipe}\n")
    expected = list(
        generate_boards(
            2,
            1,
            table_tiles=(3, 9),
            rack_tiles=4,
            jokers=1,
            opened=False,
            rules=Rules(wraparound=True),
        )
    )
    assert [parse_board(chunk) for chunk in chunks] == expected


def test_cli_rule_options_reach_the_boards() -> None:
    args = ["generate", "--count", "1", "--seed", "1", "--tile-set", "160", "--initial-meld", "50"]
    result = run(*args)
    assert result.code == 0, result.err
    assert parse_board(result.out).rules == Rules(tile_set=160, initial_meld=50)
    assert " initial-meld=50 tile-set=160 " in result.out


USAGE = "Usage: rummisolve generate [OPTIONS]\nTry 'rummisolve generate --help' for help.\n\n"


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (
            ["--table-tiles", "2"],
            "Invalid value for '--table-tiles': no table holds 2 tiles: every set has at least 3",
        ),
        (
            ["--jokers", "5", "--tile-set", "160"],
            "Invalid value for '--jokers': the 160-tile set has only 4 jokers",
        ),
        (
            ["--jokers", "0-5"],
            "Invalid value for '--jokers': the 106-tile set has only 2 jokers",
        ),
        (
            ["--table-tiles", "100", "--rack-tiles", "7"],
            "Invalid value for '--table-tiles' / '--rack-tiles': a table of 100 tiles and a rack"
            " of 7 do not fit in the 106-tile set",
        ),
        (
            ["--jokers", "2", "--table-tiles", "0", "--rack-tiles", "1"],
            "Invalid value for '--jokers' / '--table-tiles' / '--rack-tiles': a table of 0 tiles"
            " and a rack of 1 hold 0-1 jokers, not 2",
        ),
        (
            ["--jokers", "1-2", "--table-tiles", "0", "--rack-tiles", "0"],
            "Invalid value for '--jokers' / '--table-tiles' / '--rack-tiles': a table of 0 tiles"
            " and a rack of 0 hold 0 jokers, not 1-2",
        ),
        (
            ["--jokers", "0", "--table-tiles", "106", "--rack-tiles", "0"],
            "Invalid value for '--jokers' / '--table-tiles' / '--rack-tiles': a table of 106"
            " tiles and a rack of 0 hold 2 jokers, not 0",
        ),
        (["--overwrite"], "--overwrite needs --out"),
    ],
    ids=[
        "table of 2",
        "too many jokers",
        "a range past the box's jokers",
        "more than the box",
        "2 jokers, 1 place",
        "jokers, no place",
        "a full box, no jokers",
        "overwrite without out",
    ],
)
def test_cli_impossible_requests_are_usage_errors(args: list[str], error: str) -> None:
    result = run("generate", "--count", "1", *args)
    assert result.code == 2
    assert result.out == ""
    assert result.err == f"{USAGE}Error: {error}\n"


@pytest.mark.parametrize("size", ["x", "5-", "9-3", "-1"], ids=repr)
def test_cli_bad_size_is_a_usage_error(size: str) -> None:
    result = run("generate", "--table-tiles", size)
    assert result.code == 2
    assert "Invalid value for '--table-tiles'" in result.err


@pytest.mark.parametrize(
    ("args", "table", "rack", "jokers"),
    [
        (["--table-tiles", "106", "--rack-tiles", "0"], (106, 106), (0, 0), (2, 2)),
        (["--table-tiles", "105", "--rack-tiles", "1"], (105, 105), (1, 1), (2, 2)),
        (
            ["--tile-set", "160", "--table-tiles", "160", "--rack-tiles", "0"],
            (160, 160),
            (0, 0),
            (4, 4),
        ),
        (
            ["--table-tiles", "0-106", "--rack-tiles", "0-106", "--jokers", "1-2"],
            (0, 106),
            (0, 106),
            (1, 2),
        ),
    ],
    ids=["106+0", "105+1", "160-set 160+0", "any sizes, 1-2 jokers"],
)
def test_cli_deals_up_to_the_whole_box(
    args: list[str],
    table: tuple[int, int],
    rack: tuple[int, int],
    jokers: tuple[int, int],
    tmp_path: Path,
) -> None:
    out = tmp_path / "boards"
    result = run("generate", "--count", "5", "--out", str(out), *args)
    assert (result.code, result.out) == (0, f"wrote 5 boards to {out}\n")
    for path in sorted(out.iterdir()):
        board = read_board(path)
        assert_legal(board)
        assert table[0] <= len(board.table_tiles) <= table[1]
        assert rack[0] <= len(board.rack) <= rack[1]
        assert jokers[0] <= jokers_in(board) <= jokers[1]


def test_cli_refused_sizes_leave_no_folder(tmp_path: Path) -> None:
    out = tmp_path / "big"
    result = run("generate", "--table-tiles", "80-100", "--rack-tiles", "30-40", "--out", str(out))
    assert result.code == 2
    assert not out.exists()


def test_cli_out_must_be_a_folder(tmp_path: Path) -> None:
    out = tmp_path / "a-file"
    out.write_text("kept\n")
    result = run("generate", "--out", str(out))
    assert result == (1, "", f"Error: {out}: File exists\n")
    assert [p.name for p in tmp_path.iterdir()] == ["a-file"]
    assert out.read_text() == "kept\n"


def test_cli_refuses_a_folder_with_earlier_boards(tmp_path: Path) -> None:
    generate = ["generate", "--seed", "3", "--out", str(tmp_path)]
    run(*generate, "--count", "3")
    before = {p.name: p.read_text() for p in tmp_path.iterdir()}
    result = run(*generate, "--count", "2", "--seed", "4")
    assert result.code == 1
    assert result.out == ""
    assert result.err == (
        f"Error: {tmp_path} already holds boards generate wrote (gen-NNNNN.txt): --overwrite"
        " removes them first\n"
    )
    assert {p.name: p.read_text() for p in tmp_path.iterdir()} == before


def test_cli_overwrite_removes_earlier_boards_only(tmp_path: Path) -> None:
    run("generate", "--count", "3", "--out", str(tmp_path))
    (tmp_path / "notes.txt").write_text("mine\n")
    args = ["generate", "--count", "2", "--seed", "4", "--out", str(tmp_path), "--overwrite"]
    result = run(*args)
    assert (result.code, result.out) == (0, f"wrote 2 boards to {tmp_path}\n")
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["gen-00001.txt", "gen-00002.txt", "notes.txt"]
    dealt = [read_board(tmp_path / name) for name in names[:2]]
    assert dealt == list(generate_boards(2, 4))
    assert (tmp_path / "notes.txt").read_text() == "mine\n"


def dealt_with_ctrl_c(after: int) -> Callable[..., Iterator[Board]]:
    """`generate_boards`, with Ctrl-C pressed while board `after` is dealt."""

    def deal(count: int, seed: int, **sizes: Any) -> Iterator[Board]:
        for number, board in enumerate(generate_boards(count, seed, **sizes), start=1):
            if number == after:
                os.kill(os.getpid(), signal.SIGINT)
            yield board

    return deal


def test_cli_ctrl_c_stops_after_a_whole_board(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while board 4 is dealt: it stops at once, the three before it whole."""
    monkeypatch.setattr("rummisolve.cli.generate.generate_boards", dealt_with_ctrl_c(after=4))
    args = ["generate", "--count", "100", "--seed", "5", "--out", str(tmp_path)]
    result = run(*args)
    assert result.code == 130
    assert result.out == ""
    assert result.err == f"interrupted: 3 boards written to {tmp_path}\n"
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["gen-00001.txt", "gen-00002.txt", "gen-00003.txt"]
    assert [read_board(f) for f in files] == list(generate_boards(3, 5))


def test_cli_ctrl_c_on_stdout_ends_with_whole_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("rummisolve.cli.generate.generate_boards", dealt_with_ctrl_c(after=3))
    result = run("generate", "--count", "100", "--seed", "5")
    assert result.code == 130
    assert result.err == "interrupted: 2 boards written\n"
    assert [parse_board(b) for b in result.out.split("\n\n")] == list(generate_boards(2, 5))


def test_cli_a_board_cut_short_leaves_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second Ctrl-C stops at once, even inside a write: the board is whole or absent."""
    replace = os.replace

    def interrupted_at_board_2(source: Path, target: Path) -> None:
        if Path(target).name == "gen-00002.txt":
            raise KeyboardInterrupt
        replace(source, target)

    monkeypatch.setattr(os, "replace", interrupted_at_board_2)
    result = run("generate", "--count", "5", "--out", str(tmp_path))
    assert result.code == 130
    assert result.err == f"interrupted: 1 board written to {tmp_path}\n"
    assert [p.name for p in tmp_path.iterdir()] == ["gen-00001.txt"]


def test_cli_ctrl_c_from_a_terminal(tmp_path: Path) -> None:
    """SIGINT to the process group, as a terminal sends it: every file a whole board."""
    out = tmp_path / "boards"
    command = [sys.executable, "-m", "rummisolve", "generate", "--count", "100000"]
    process = subprocess.Popen(
        [*command, "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while len(list(out.glob("gen-*.txt"))) < 20 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        stdout, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    files = sorted(out.iterdir())
    assert process.returncode == 130
    assert stdout == b""
    assert stderr.decode() == f"interrupted: {len(files)} boards written to {out}\n"
    assert [f.name for f in files] == [f"gen-{n:06d}.txt" for n in range(1, len(files) + 1)]
    assert 20 <= len(files) < 100000
    assert [read_board(f) for f in files] == list(generate_boards(len(files), 1))
