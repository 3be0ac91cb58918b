"""What commands write: a write that fails is one line naming the file (or standard
output), nothing is left half written, `-` is standard output wherever a file is named;
and the options `play` and `tournament` share, by one name."""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rummisolve.cli.output import CannotWrite, write_rows, write_whole

from .cli import run

ROOT = Path(__file__).resolve().parent.parent
BOARD = ROOT / "puzzles" / "rules" / "000-extend-and-split.txt"
FULL = "Error: cannot write {}: No space left on device\n"


def full_after(count: int):  # type: ignore[no-untyped-def]
    """An `os.write` that writes `count` bytes, then finds the disk full."""
    left = [count]

    def write(descriptor: int, data: bytes | memoryview) -> int:
        if not left[0]:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        done = os.write(descriptor, bytes(data[: left[0]]))
        left[0] -= done
        return done

    return write


# --- item 8: a full disk -------------------------------------------------------------


def test_a_row_cut_short_by_a_full_disk_is_taken_back(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    with path.open("wb", buffering=0) as file:
        write_rows(file.fileno(), b'{"row": 1}\n', "rows.jsonl")
        with pytest.raises(CannotWrite) as raised:
            write_rows(file.fileno(), b'{"row": 2}\n', "rows.jsonl", write=full_after(5))
    assert raised.value.message == "cannot write rows.jsonl: No space left on device"
    assert path.read_bytes() == b'{"row": 1}\n'


def test_a_board_file_cut_short_leaves_the_old_one_and_no_scratch_file(tmp_path: Path) -> None:
    path = tmp_path / "turn2.txt"
    path.write_text("old board\n")
    with pytest.raises(CannotWrite):
        write_whole(path, "table:\nR1 R2 R3\n", write=full_after(4))
    with pytest.raises(CannotWrite):
        write_whole(tmp_path / "new.txt", "table:\nR1 R2 R3\n", write=full_after(4))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["turn2.txt"]
    assert path.read_text() == "old board\n"


def test_a_board_file_replaced_keeps_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "turn2.txt"
    path.write_text("old board\n")
    path.chmod(0o640)
    write_whole(path, "new board\n")
    assert (path.read_text(), path.stat().st_mode & 0o777) == ("new board\n", 0o640)


def test_hint_next_to_a_full_disk_names_the_file_and_still_shows_the_move() -> None:
    code, out, err = run("hint", str(BOARD), "--next", "/dev/full")
    shown = run("hint", str(BOARD))[1]
    assert (code, err) == (1, FULL.format("/dev/full"))
    assert out.splitlines()[:-1] == shown.splitlines()[:-1]  # all but the time it took


@pytest.mark.parametrize("command", ["play", "tournament"])
def test_a_log_on_a_full_disk_names_it_and_keeps_the_report(command: str) -> None:
    args = [command, "--players", "2", "--games", "1", "--strategies", "greedy", "--json"]
    code, out, err = run(*args, "--log", "/dev/full")
    assert (code, err) == (1, FULL.format("/dev/full"))
    assert json.loads(out)["games"] == 0


@pytest.mark.parametrize(
    "args",
    [
        ["batch", "--format", "jsonl", "--jobs", "1", str(BOARD)],
        ["hint", str(BOARD)],
        ["play", "--players", "2", "--games", "1", "--json"],
        ["--help"],
        ["--version"],
        ["hint", "--help"],
    ],
    ids=["batch-jsonl", "hint", "play-json", "help", "version", "hint-help"],
)
def test_standard_output_on_a_full_disk_is_named(args: list[str]) -> None:
    """The whole of stderr is one line naming standard output, never a traceback."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "rummisolve", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert (done.returncode, done.stderr) == (1, FULL.format("standard output"))


# --- item 9: option values ------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["play", "--strategy", "search", "--think", "nan"],
            "Invalid value for '--think': nan is not a number of seconds",
        ),
        (
            ["play", "--strategy", ":"],
            "Invalid value for '--strategies' / '--strategy': strategy ':': name a module"
            " (or file.py) and a class, module:Class",
        ),
        (
            ["tournament", "--strategies", "greedy,:"],
            "Invalid value for '--strategies' / '--strategy': strategy ':': name a module"
            " (or file.py) and a class, module:Class",
        ),
        (
            ["tournament", "--strategies", "greedy,.x:Y"],
            "Invalid value for '--strategies' / '--strategy': strategy '.x:Y': name a module"
            " (or file.py) and a class, module:Class",
        ),
        (
            ["tournament", "--time-limit", "nan"],
            "Invalid value for '--time-limit': nan is not a number of seconds",
        ),
    ],
    ids=["think-nan", "play-colon", "tournament-colon", "relative-module", "time-limit-nan"],
)
def test_bad_option_values_are_usage_errors(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert (code, out, err.splitlines()[-1]) == (2, "", f"Error: {message}")


def test_a_huge_puzzle_count_builds_no_names_first(tmp_path: Path) -> None:
    """The names are made as puzzles are written: a count of any size is checked
    against the folder's files, not against a list of every name."""
    taken = tmp_path / "all-out-1-000000000001.txt"
    taken.write_text("mine\n")
    code, out, err = run("puzzle", "--count", "999999999999", "--out", str(tmp_path))
    assert (code, out, err) == (1, "", f"Error: {taken} exists: --overwrite replaces it\n")


# --- item 10: --write-expected keeps a file's form ------------------------------------

BODY = ["table:", "R3 R4 R5", "rack: R2 B5 O5"]


@pytest.mark.parametrize(
    ("bom", "end", "before"),
    [
        ("\ufeff", "\n", []),
        ("\ufeff", "\n", ["# expect: tiles=1 value=1"]),
        ("", "\r\n", []),
        ("", "\r\n", ["# a comment", "# expect: tiles=1 value=1"]),
        ("\ufeff", "\r\n", ["# expect: tiles=1 value=1"]),
    ],
    ids=["bom", "bom-replaced", "crlf", "crlf-replaced", "bom-crlf-replaced"],
)
def test_write_expected_keeps_the_bom_first_and_the_line_ends(
    tmp_path: Path, bom: str, end: str, before: list[str]
) -> None:
    path = tmp_path / "board.txt"
    path.write_bytes((bom + end.join([*before, *BODY]) + end).encode())
    code, _, err = run("batch", str(path), "--write-expected", "--force", "--jobs", "1")
    assert code == 0, err
    kept = [line for line in before if "expect" not in line]
    lines = [*kept, "# expect: tiles=3 value=12", *BODY]
    if before and "expect" in before[0]:
        lines = ["# expect: tiles=3 value=12", *BODY]
    expected = bom + end.join(lines) + end
    assert path.read_bytes().decode() == expected
    assert run("batch", str(path), "--check-expected", "--jobs", "1").code == 0


# --- issue 28 re-test: a link is followed, what is no regular file written in place ---


def linked(tmp_path: Path, text: str = "old board\n") -> tuple[Path, Path]:
    """boards/link.txt -> ../shared/real.txt, as a user's shared boards are linked."""
    (tmp_path / "shared").mkdir()
    (tmp_path / "boards").mkdir()
    real = tmp_path / "shared" / "real.txt"
    real.write_text(text)
    link = tmp_path / "boards" / "link.txt"
    link.symlink_to("../shared/real.txt")
    return link, real


def test_a_file_written_through_a_link_replaces_its_target_and_keeps_the_link(
    tmp_path: Path,
) -> None:
    link, real = linked(tmp_path)
    real.chmod(0o640)
    write_whole(link, "new board\n")
    assert (link.is_symlink(), os.readlink(link)) == (True, "../shared/real.txt")
    assert (real.read_text(), real.stat().st_mode & 0o777) == ("new board\n", 0o640)
    assert sorted(p.name for p in (tmp_path / "shared").iterdir()) == ["real.txt"]


def test_write_expected_through_a_link_writes_its_target(tmp_path: Path) -> None:
    link, real = linked(tmp_path, "\n".join(BODY) + "\n")
    code, _, err = run("batch", str(tmp_path / "boards"), "--write-expected", "--jobs", "1")
    assert (code, link.is_symlink()) == (0, True), err
    assert real.read_text() == "\n".join(["# expect: tiles=3 value=12", *BODY]) + "\n"


def test_hint_next_through_a_link_writes_its_target(tmp_path: Path) -> None:
    link, real = linked(tmp_path)
    assert run("hint", str(BOARD), "--next", str(link)).code == 0
    assert link.is_symlink()
    assert real.read_text().startswith("rules: ")


def test_a_pipe_behind_a_link_is_written_in_place(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "link").symlink_to(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_whole(tmp_path / "link", "next board\n")
        assert os.read(reader, 100) == b"next board\n"
    finally:
        os.close(reader)
    assert (tmp_path / "link").is_symlink() and fifo.is_fifo()


def test_a_descriptor_of_this_process_is_written_through_not_replaced(tmp_path: Path) -> None:
    """/dev/stdout leads to /proc/self/fd/1: the file open there is written after what
    the process wrote to it already, never renamed over (a link in tmp_path stands in
    for /dev/stdout)."""
    out = tmp_path / "out.txt"
    with out.open("wb", buffering=0) as file:
        file.write(b"move\n")
        (tmp_path / "stdout").symlink_to(f"/proc/self/fd/{file.fileno()}")
        before = out.stat().st_ino
        write_whole(tmp_path / "stdout", "next board\n")
        file.write(b"more\n")
    assert (out.stat().st_ino, out.read_text()) == (before, "move\nnext board\nmore\n")


@pytest.mark.parametrize(
    ("path", "named"), [("-", "standard input"), ("device", "device")], ids=["dash", "device"]
)
def test_write_expected_refuses_what_it_cannot_write_back(
    tmp_path: Path, path: str, named: str
) -> None:
    """`batch /dev/stdin --write-expected` replaced the system's /dev/stdin with a file;
    a link in tmp_path to /dev/null stands in for it (read, never written)."""
    if path == "device":
        path = named = str(tmp_path / "device")
        Path(path).symlink_to(os.devnull)
    code, out, err = run("batch", path, "--write-expected", stdin="\n".join(BODY))
    assert (code, out, err.splitlines()[-1]) == (
        2,
        "",
        f"Error: Invalid value for '--write-expected': {named}: no file to write the expect"
        " line back to",
    )


# --- issue 31: `-` is standard output -------------------------------------------------


def test_hint_next_dash_writes_the_board_to_stdout_and_the_move_to_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    def untimed(result: tuple[int, str, str]) -> tuple[str, ...]:
        return tuple(re.sub(r"\d+ ms", "T ms", str(part)) for part in result)

    _, move, _ = run("hint", str(BOARD))
    assert untimed(run("hint", str(BOARD), "--next", "turn2.txt")) == untimed((0, move, ""))
    board = (tmp_path / "turn2.txt").read_text()
    assert untimed(run("hint", str(BOARD), "--next", "-")) == untimed((0, board, move))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["turn2.txt"]


@pytest.mark.parametrize("command", ["play", "tournament"])
def test_log_dash_writes_the_turns_to_stdout(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = [command, "--players", "2", "--games", "1", "--strategies", "greedy", "--json"]
    code, out, err = run(*args, "--log", "-")
    assert (code, err) == (0, "")
    *turns, report = out.splitlines()
    run(*args, "--log", "turns.jsonl")
    assert turns == (tmp_path / "turns.jsonl").read_text().splitlines()
    assert len(turns) == json.loads(report)["rows"][0]["turns"]
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize(
    "args",
    [["puzzle", "--count", "1"], ["generate", "--count", "2"]],
    ids=["puzzle", "generate"],
)
def test_out_dash_is_the_stream_on_stdout(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    streamed = run(*args)
    assert streamed.code == 0 and streamed.out.startswith("# --- board 1: ")
    assert run(*args, "--out", "-") == streamed
    assert list(tmp_path.iterdir()) == []


# --- issue 31: one name for one thing -------------------------------------------------


@pytest.mark.parametrize("command", ["play", "tournament"])
def test_strategy_and_strategies_are_one_option(command: str) -> None:
    args = [command, "--players", "2", "--games", "2", "--json"]
    one = run(*args, "--strategy", "greedy,hoarder")
    other = run(*args, "--strategies", "greedy,hoarder")
    assert one.code == 0 and one.err == ""
    shown, again = json.loads(one.out), json.loads(other.out)
    shown.pop("seconds", None), again.pop("seconds", None)
    assert shown == again


def test_play_and_tournament_json_share_games_and_rows() -> None:
    shape = ["--players", "2", "--games", "2", "--strategies", "greedy,hoarder", "--json"]
    played = json.loads(run("play", *shape).out)
    held = json.loads(run("tournament", *shape).out)
    for report in (played, held):
        assert report["games"] == len(report["rows"]) == 2
    keys = {"winner", "scores", "turns", "end", "starter", "seed", "doubled", "solver_calls"}
    assert {frozenset(row) for row in played["rows"] + held["rows"]} == {
        frozenset(keys | {"seats"})
    }
    assert played["rows"][0]["seats"] == {"P1": "greedy", "P2": "hoarder"}


def test_tournament_takes_a_time_limit_as_play_does() -> None:
    args = ["--players", "2", "--games", "1", "--strategies", "greedy", "--json"]
    for command in ("play", "tournament"):
        limited, free = run(command, *args, "--time-limit", "60"), run(command, *args)
        assert limited.code == 0, limited.err
        assert json.loads(limited.out)["rows"] == json.loads(free.out)["rows"]


@pytest.mark.parametrize("command", ["hint", "serve"])
def test_help_of_a_move_lists_no_option_that_only_scores(command: str) -> None:
    code, out, _ = run(command, "--help")
    assert code == 0 and "--joker-penalty" in out and "--wraparound" in out
    assert [o for o in ("--scoring", "--blocked", "--double-out") if o in out] == []


def test_hint_still_takes_the_options_that_only_score() -> None:
    plain = json.loads(run("hint", str(BOARD), "--json").out)
    code, out, _ = run("hint", str(BOARD), "--json", "--scoring", "laid", "--double-out")
    assert (code, json.loads(out)["played"]) == (0, plain["played"])
