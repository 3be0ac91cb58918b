"""What a hostile tester broke, held: files that would block, closed standard input, more
workers than CPUs. Each is refused with one line naming what it refused."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rummisolve.batch import usable_cpus

from .cli import run

PUZZLE = Path(__file__).resolve().parent.parent / "puzzles" / "rules" / "000-extend-and-split.txt"


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "y.txt"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("command", ["check", "hint", "rules"])
def test_a_fifo_is_refused_not_waited_on(command: str, fifo: Path) -> None:
    assert run(command, str(fifo)) == (1, "", f"{fifo}: not a board file: a FIFO\n")


def test_a_folder_given_as_a_board_is_refused(tmp_path: Path) -> None:
    assert run("hint", str(tmp_path)) == (1, "", f"{tmp_path}: not a board file: a folder\n")
    # check, like batch, reads the boards below a folder: here there are none.
    assert run("check", str(tmp_path)) == (1, "", f"{tmp_path}: no *.txt boards in this folder\n")


def test_in_a_folder_every_txt_name_is_a_row(tmp_path: Path, fifo: Path) -> None:
    """A FIFO, a link to a device and a folder named x.txt each get a row saying what they
    are; the board beside them is solved."""
    (tmp_path / "dev.txt").symlink_to("/dev/null")
    (tmp_path / "x.txt").mkdir()
    (tmp_path / "ok.txt").write_text(PUZZLE.read_text())
    code, out, err = run("batch", str(tmp_path), "--jobs", "1", "--format", "csv")
    assert code == 1
    rows = out.splitlines()[1:]
    assert [row.split(",")[0] for row in rows] == [
        str(tmp_path / name) for name in ("dev.txt", "ok.txt", "x.txt", "y.txt")
    ]
    assert f"{tmp_path / 'dev.txt'}: not a board file: a character device" in err
    assert f"{fifo}: not a board file: a FIFO" in err
    assert f"{tmp_path / 'x.txt'}: no *.txt boards in this folder" in err


@pytest.mark.parametrize("command", ["check", "hint", "batch"])
def test_closed_standard_input_is_one_line(command: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rummisolve", command, "-"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        preexec_fn=lambda: os.close(0),  # standard input closed, as `<&-` leaves it
        timeout=60,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "-: cannot read: standard input is closed" in done.stderr


def test_more_jobs_than_cpus_says_so_and_uses_the_cpus() -> None:
    cpus = usable_cpus()
    code, _, err = run("batch", str(PUZZLE), "--jobs", "10000")
    assert code == 0
    cpu_word = "CPU" if cpus == 1 else "CPUs"
    assert err.startswith(f"--jobs 10000: this process may use {cpus} {cpu_word}; using {cpus}\n")


def test_overwrite_removes_only_what_generate_wrote(tmp_path: Path) -> None:
    """A user's gen-my-notes.txt, a gen-00009.txt of their own and a folder named like a
    board stay; generate's earlier boards go."""
    run("generate", "--count", "3", "--out", str(tmp_path))
    (tmp_path / "gen-my-notes.txt").write_text("mine\n")
    (tmp_path / "gen-00009.txt").write_text("table:\nR1 R2 R3\nrack: R4\n")
    (tmp_path / "gen-dir.txt").mkdir()
    code, out, _ = run("generate", "--count", "1", "--out", str(tmp_path), "--overwrite")
    assert (code, out) == (0, f"wrote 1 board to {tmp_path}\n")
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["gen-00001.txt", "gen-00009.txt", "gen-dir.txt", "gen-my-notes.txt"]
    assert (tmp_path / "gen-my-notes.txt").read_text() == "mine\n"


def test_an_empty_out_is_refused_not_the_current_folder() -> None:
    code, _, err = run("generate", "--count", "1", "--out", "")
    assert code == 2
    assert "Invalid value for '--out': an empty path: name a folder" in err


def test_a_control_character_in_a_name_is_shown_escaped(tmp_path: Path) -> None:
    board = tmp_path / "a\x1b[31mred.txt"
    board.write_text(PUZZLE.read_text())
    code, out, _ = run("batch", str(tmp_path), "--jobs", "1")
    assert code == 0
    assert "\x1b" not in out
    assert f"{tmp_path}/a\\x1b[31mred.txt" in out
    code, out, _ = run("check", str(board))
    assert (code, "\x1b" in out) == (0, False)


def test_a_dumb_terminal_gets_no_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    from rummisolve.cli import options as commands

    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert commands.use_colour()
    monkeypatch.setenv("TERM", "dumb")
    assert not commands.use_colour()


def test_a_folder_nested_past_the_recursion_limit_is_walked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    depth = sys.getrecursionlimit() + 200
    deep = tmp_path
    for _ in range(depth):
        deep = deep / "d"
        deep.mkdir()
    (deep / "b.txt").write_text(PUZZLE.read_text())
    try:
        code, out, _ = run("batch", str(tmp_path), "--jobs", "1", "--format", "csv")
        assert code == 0
        assert out.splitlines()[1].startswith(f"{deep / 'b.txt'},optimal,3,12,")
    finally:
        # Removed from the bottom up, a step at a time: pytest's own clean-up recurses.
        monkeypatch.chdir(deep)
        os.unlink("b.txt")
        for _ in range(depth):
            os.chdir("..")
            os.rmdir("d")


# A row written while Ctrl-C comes: a pipe's write returns part of it when the signal
# handler runs, and Python's buffered output dropped the rest (1 row in 8 of an
# interrupted batch was cut at 4,096 bytes).
ROW_UNDER_A_SIGNAL = """
import os, signal, sys, threading, time
from rummisolve.cli.interrupts import INTERRUPT
from rummisolve.cli.output import write_row
INTERRUPT.install()
sys.stdout.write("x" * 60000 + "\\n")
sys.stdout.flush()
threading.Thread(target=lambda: (time.sleep(0.3), os.kill(os.getpid(), signal.SIGINT))).start()
try:
    with INTERRUPT.held():
        write_row("y" * 6283)  # the pipe is full: this write waits for the reader
except KeyboardInterrupt:
    sys.stderr.write("interrupted\\n")
"""


def test_a_row_cut_short_by_a_signal_is_written_whole() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", ROW_UNDER_A_SIGNAL],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    time.sleep(2)  # the signal comes while the row waits on the full pipe
    out, err = child.communicate(timeout=60)
    assert err == b"interrupted\n"
    assert [len(line) for line in out.splitlines()] == [60000, 6283]


def test_pulp_highs_is_given_the_time_left_as_highs_starts() -> None:
    """PuLP's HiGHS took its time limit as it was made, before PuLP handed the model over
    row by row (and the second solve of a doubted "infeasible" took the whole limit
    again): `--backend pulp-highs --time-limit 2` ran 3 s."""
    pulp = pytest.importorskip("pulp")
    pytest.importorskip("highspy")
    from rummisolve.engine.lp import Deadline
    from rummisolve.engine.via_pulp import highs_until

    now = [0.0]
    solver = highs_until(Deadline(10.0, lambda: now[0]), msg=False)
    problem = pulp.LpProblem("p", pulp.LpMaximize)
    x = problem.add_variable("x", lowBound=0, upBound=3, cat=pulp.LpInteger)
    problem += x
    now[0] = 7.5  # made, then the model built: time passes before HiGHS starts
    problem.solve(solver)
    assert (problem.solverModel.getOptions().time_limit, x.value()) == (2.5, 3)
