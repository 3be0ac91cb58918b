"""What a hostile tester broke, held: files that would block, closed standard input, more
workers than CPUs. Each is refused with one line naming what it refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rummisolve.batch import usable_cpus
from rummisolve.cli import cli

PUZZLE = Path(__file__).resolve().parent.parent / "puzzles" / "rules" / "000-extend-and-split.txt"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "y.txt"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("command", ["check", "hint", "rules"])
def test_a_fifo_is_refused_not_waited_on(command: str, fifo: Path) -> None:
    assert run(command, str(fifo)) == (1, "", f"{fifo}: not a board file: a FIFO\n")


def test_a_folder_given_as_a_board_is_refused(tmp_path: Path) -> None:
    assert run("check", str(tmp_path)) == (1, "", f"{tmp_path}: not a board file: a folder\n")


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
