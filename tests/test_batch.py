"""`rummisolve batch` as a user runs it: order, formats, bad boards, expectations, jobs."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import NamedTuple

import pytest

from rummisolve.batch import (
    BatchError,
    BatchSettings,
    BoardResult,
    Outcome,
    Tally,
    Workers,
    board_paths,
    run_batch,
    solve_path,
)
from rummisolve.batch.pool import Task
from rummisolve.board import MAX_BOARD_BYTES, Board
from rummisolve.cli.tables import batch_summary
from rummisolve.engine.backends import DEFAULT_BACKEND, get_backend
from rummisolve.errors import SolverError
from rummisolve.move import Move, no_move

from .cli import Result, rows_without_times, time_masked
from .cli import run as rummisolve

BOARDS = {
    "a.txt": "# expect: tiles=3 value=12\ntable:\nR3 R4 R5\nrack: R2 B5 O5\n",
    "sub/b.txt": "# expect: tiles=0 value=0\nrack: K1 R5\n",
    "sub/c.txt": "table:\nK7 R7 B7\nrack: O7 K1\n",
    "sub/notes.md": "not a board: only *.txt files are read\n",
}
BROKEN = "table:\nR1 R2\nrack: X9\n"
TIMES = re.compile(r'"seconds": [0-9.e-]+')


def run(*args: str) -> Result:
    """`rummisolve batch ARGS...`."""
    return rummisolve("batch", *args)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The boards above in a temp folder, which is also the working directory:
    the paths in the output are then short and the same on every machine."""
    for name, text in BOARDS.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def summary(stderr: str) -> str:
    """The summary line with its time replaced, so that it compares exactly."""
    return time_masked(stderr.splitlines()[-1])


def test_folders_and_files_in_order(folder: Path) -> None:
    """Arguments in the order given; a folder's *.txt below it, sorted, other files left."""
    assert board_paths(["sub", "a.txt", "missing.txt"]) == [
        os.path.join("sub", "b.txt"),
        os.path.join("sub", "c.txt"),
        "a.txt",
        "missing.txt",
    ]


def test_jsonl_is_hint_json_plus_file(folder: Path) -> None:
    code, out, err = run(".", "--format", "jsonl", "--jobs", "1")
    hint = rummisolve("hint", "--json", "--backend", DEFAULT_BACKEND, "a.txt").out
    first = {"file": "a.txt", **json.loads(hint)}
    first.pop("seconds")
    rows = rows_without_times(out)
    assert code == 0
    assert rows[0] == first
    assert [(r["file"], r["status"], r["tiles_played"], r["played"]) for r in rows] == [
        ("a.txt", "optimal", 3, ["R2", "B5", "O5"]),
        ("sub/b.txt", "no-move", 0, []),
        ("sub/c.txt", "optimal", 1, ["O7"]),
    ]
    assert rows[2]["table"] == [["K7", "R7", "O7", "B7"]]
    assert summary(err) == "3 boards in T s (1 job): 2 solved, 1 no move, 0 failed"


def test_table_output(folder: Path) -> None:
    code, out, _err = run("a.txt", "sub", "--jobs", "1")
    assert code == 0
    assert re.sub(r" +[0-9]+\.[0-9]\b", "  T", out) == (
        "file       status     tiles  value       ms  played\n"
        "a.txt      optimal        3     12  T  R2 B5 O5\n"
        "sub/b.txt  no-move        0      0  T\n"
        "sub/c.txt  optimal        1      7  T  O7\n"
    )


def test_csv_output_reads_back_with_the_csv_module(folder: Path) -> None:
    code, out, _err = run(".", "--format", "csv", "--jobs", "1")
    rows = list(csv.reader(io.StringIO(out)))
    assert code == 0
    assert rows[0] == [
        "file",
        "status",
        "tiles_played",
        "value_played",
        "played",
        "table",
        "rack",
        "seconds",
        "backend",
        "error",
    ]
    for row in rows[1:]:
        assert float(row[7]) >= 0
        row[7] = "T"
    assert rows[1:] == [
        ["a.txt", "optimal", "3", "12", "R2 B5 O5", "R2 R3 R4 | R5 O5 B5", "", "T", "clp", ""],
        ["sub/b.txt", "no-move", "0", "0", "", "", "K1 R5", "T", "clp", ""],
        ["sub/c.txt", "optimal", "1", "7", "O7", "K7 R7 O7 B7", "K1", "T", "clp", ""],
    ]


@pytest.mark.parametrize("output", ["jsonl", "csv", "table"])
def test_a_broken_board_is_reported_and_the_batch_goes_on(folder: Path, output: str) -> None:
    (folder / "sub" / "broken.txt").write_text(BROKEN)
    code, out, err = run(".", "--format", output, "--jobs", "1")
    problems = [
        "sub/broken.txt:2: a set needs at least 3 tiles: R1 R2",
        "sub/broken.txt:3: unknown tile 'X9': colour must be K, R, O (or Y) or B",
    ]
    assert code == 1
    assert err.splitlines()[:-1] == problems
    assert summary(err) == "4 boards in T s (1 job): 2 solved, 1 no move, 1 failed"
    broken_row = out.splitlines()[2 if output == "jsonl" else 3]
    if output == "jsonl":
        assert json.loads(broken_row) == {"file": "sub/broken.txt", "error": "\n".join(problems)}
    elif output == "csv":
        assert next(csv.reader([broken_row])) == ["sub/broken.txt", "error"] + [""] * 7 + [
            "; ".join(problems)
        ]
    else:
        assert broken_row == "sub/broken.txt  error      " + "; ".join(problems)


def test_a_missing_file_is_named_and_no_board(folder: Path) -> None:
    code, out, err = run("missing.txt", "a.txt", "--format", "jsonl", "--jobs", "1")
    rows = rows_without_times(out)
    assert code == 1
    assert [row["file"] for row in rows] == ["a.txt"] and rows[0]["status"] == "optimal"
    assert err.splitlines()[0] == "missing.txt: no such file or folder"
    assert err.splitlines()[-1] == "1 path not found: missing.txt"


def test_check_expected_all_match(folder: Path) -> None:
    code, out, err = run(".", "--check-expected", "--format", "jsonl", "--jobs", "1")
    rows = rows_without_times(out)
    assert code == 0
    assert [(r.get("expect"), r.get("check")) for r in rows] == [
        ({"tiles": 3, "value": 12}, "ok"),
        ({"tiles": 0, "value": 0}, "ok"),
        (None, None),
    ]
    assert summary(err) == (
        "3 boards in T s (1 job): 2 solved, 1 no move, 0 failed;"
        " expect: 2 checked, 0 mismatched, 1 unchecked"
    )


def test_check_expected_mismatch_fails_the_batch(folder: Path) -> None:
    (folder / "a.txt").write_text(BOARDS["a.txt"].replace("value=12", "value=11"))
    code, out, err = run(".", "--check-expected", "--jobs", "1")
    assert code == 1
    assert out.splitlines()[1].startswith("a.txt      optimal        3     12")
    assert out.splitlines()[1].endswith("  mismatch  R2 B5 O5")
    assert err.splitlines()[0] == "a.txt: expected tiles=3 value=11, got tiles=3 value=12"
    assert summary(err).endswith("; expect: 2 checked, 1 mismatched, 1 unchecked")


def nothing_found(board: Board, **how: object) -> Move:
    """A search the time limit cut short before it found any move."""
    return no_move(board, False)


def batch_of(
    paths: list[str], settings: BatchSettings, find: Callable[..., Move]
) -> tuple[Tally, str]:
    """The tally of a one-job batch that asks `find` for each move, and its summary."""
    tally = Tally()
    for path in paths:
        tally.add(solve_path(path, settings, find=find))
    jobs, seconds = 1, 0.0
    return tally, batch_summary(tally, seconds, jobs, settings.check_expected)


def test_an_answer_a_time_limit_cut_short_is_not_checked(folder: Path) -> None:
    """It may fall short of the expected answer without any bug: neither ok nor mismatch."""
    settings = BatchSettings(check_expected=True)
    result = solve_path("a.txt", settings, find=nothing_found)
    assert (json.loads(result.row)["check"], result.checked) == ("unproved", False)
    _, said = batch_of(["a.txt"], settings, nothing_found)
    assert said.endswith("; expect: 0 checked, 0 mismatched, 1 unchecked")


def test_a_folder_and_a_link_to_it_beside_it_are_walked_once(folder: Path) -> None:
    (folder / "also-sub").symlink_to(folder / "sub")
    assert board_paths(["."]) == ["a.txt", str(Path("sub", "b.txt")), str(Path("sub", "c.txt"))]


def test_without_check_expected_a_wrong_expectation_is_not_checked(folder: Path) -> None:
    (folder / "a.txt").write_text(BOARDS["a.txt"].replace("value=12", "value=11"))
    assert run(".", "--jobs", "1")[0] == 0


def test_check_expected_needs_the_tiles_objective(folder: Path) -> None:
    code, _out, err = run(".", "--check-expected", "--objective", "value")
    assert code == 2
    assert "expect lines record answers under --objective tiles" in err


def test_an_illegal_answer_is_that_boards_error(folder: Path) -> None:
    """check_move sees every answer: a solver bug shows as a failed board, not a move."""
    result = solve_path("a.txt", BatchSettings(), check=lambda board, move: ["not a valid set: R1"])
    assert result.row == json.dumps(
        {
            "file": "a.txt",
            "error": "a.txt: the answer breaks the rules (a solver bug): not a valid set: R1",
        }
    )


def test_rule_options_reach_every_board(folder: Path) -> None:
    (folder / "wrap.txt").write_text("rack: R12 R13 R1\n")
    code, out, _err = run("wrap.txt", "--wraparound", "--format", "jsonl", "--jobs", "1")
    assert code == 0
    assert rows_without_times(out)[0]["played"] == ["R12", "R13", "R1"]


def test_jobs_1_and_2_give_the_same_rows(tmp_path: Path) -> None:
    boards = tmp_path / "boards"
    generate = ["generate", "--count", "40", "--seed", "11", "--out", str(boards)]
    rummisolve(*generate, "--table-tiles", "0-15", "--rack-tiles", "3-8")
    one = run(str(boards), "--format", "jsonl", "--jobs", "1")
    two = run(str(boards), "--format", "jsonl", "--jobs", "2")
    assert one[0] == two[0] == 0
    assert rows_without_times(one[1]) == rows_without_times(two[1])
    assert len(rows_without_times(two[1])) == 40


def test_200_generated_boards_with_3_broken(tmp_path: Path) -> None:
    """The issue's check: 197 answers and 3 errors, exit 1."""
    boards = tmp_path / "boards"
    generate = ["generate", "--count", "200", "--seed", "4", "--out", str(boards)]
    rummisolve(*generate, "--table-tiles", "0-12", "--rack-tiles", "3-8")
    for number in (1, 100, 200):
        (boards / f"gen-{number:05d}.txt").write_text(BROKEN)
    code, out, err = run(str(boards), "--format", "jsonl", "--jobs", "2")
    rows = [json.loads(line) for line in out.splitlines()]
    errors = [r["file"] for r in rows if "error" in r]
    assert code == 1
    assert len(rows) == 200
    assert [r["file"] for r in rows] == [str(boards / f"gen-{n:05d}.txt") for n in range(1, 201)]
    assert errors == [str(boards / f"gen-{n:05d}.txt") for n in (1, 100, 200)]
    assert sum("status" in r for r in rows) == 197
    assert re.fullmatch(
        r"200 boards in [0-9.]+ s \(2 jobs\): \d+ solved, \d+ no move, 3 failed",
        err.splitlines()[-1],
    )


def test_ctrl_c_keeps_what_was_written(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(
        paths: list[str], settings: BatchSettings, jobs: int, workers: object
    ) -> Iterator[BoardResult]:
        yield solve_path(paths[0], settings)
        raise KeyboardInterrupt

    monkeypatch.setattr("rummisolve.cli.batch.run_batch", interrupted)
    code, out, err = run(".", "--format", "jsonl")
    assert code == 130
    assert rows_without_times(out)[0]["file"] == "a.txt"
    assert len(out.splitlines()) == 1
    assert time_masked(err).splitlines() == [
        "1 board in T s (2 jobs): 1 solved, 0 no move, 0 failed",
        "interrupted: 1 of 3 boards written",
    ]


def children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:
        return []


@pytest.fixture(scope="module")
def dealt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """400 generated boards with large tables and racks, for batches that must still be
    running when the test acts; dealt once for the module, and only read."""
    folder = tmp_path_factory.mktemp("dealt")
    generate = ["generate", "--count", "400", "--seed", "9", "--out", str(folder)]
    rummisolve(*generate, "--table-tiles", "30-60", "--rack-tiles", "10-20")
    return folder


def first_boards(dealt: Path, count: int, tmp_path: Path) -> Path:
    """A folder of the first `count` dealt boards."""
    folder = tmp_path / "boards"
    folder.mkdir()
    for path in sorted(dealt.iterdir())[:count]:
        shutil.copy(path, folder)
    return folder


class RunningBatch(NamedTuple):
    """A batch of the boards in `folder` in a process (and session) of its own, and its
    first row."""

    process: subprocess.Popen[bytes]
    first: bytes

    @classmethod
    def start(cls, folder: Path, *options: str, env: dict[str, str] | None = None) -> RunningBatch:
        command = [sys.executable, "-m", "rummisolve", "batch", str(folder), "--jobs", "2"]
        # Unbuffered, so that reading the first row leaves the rest in the pipe for
        # communicate.
        process = subprocess.Popen(
            [*command, "--format", "jsonl", *options],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            start_new_session=True,
            env=env,
        )
        assert process.stdout is not None
        return cls(process, process.stdout.readline())

    def finish(self) -> tuple[list[dict[str, object]], str]:
        """Every row written, and stderr; the whole session killed if it hangs."""
        try:
            rest, err = self.process.communicate(timeout=60)
        finally:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGKILL)
        return [json.loads(line) for line in (self.first + rest).splitlines()], err.decode()


def test_ctrl_c_on_a_real_batch_stops_the_workers(dealt: Path) -> None:
    """SIGINT to the whole process group, as a terminal sends it: whole rows, one message."""
    batch = RunningBatch.start(dealt)
    time.sleep(0.2)
    os.killpg(batch.process.pid, signal.SIGINT)
    rows, err = batch.finish()
    assert batch.process.returncode == 130
    assert 1 <= len(rows) < 400
    assert re.fullmatch(
        r"(\d+) boards? in [0-9.]+ s \(2 jobs\): \d+ solved, \d+ no move, 0 failed\n"
        r"interrupted: \1 of 400 boards written\n",
        err,
    )


def crash_on_b(path: str, settings: BatchSettings) -> BoardResult:
    """A crash inside a solver library, as the batch sees it: the worker process gone."""
    return os._exit(1) if path.endswith("b.txt") else solve_path(path, settings)


def one_chunk(paths: Sequence[str], jobs: int) -> list[Task]:
    return [Task(0, paths)]


def test_a_board_that_kills_its_worker_is_its_own_error_row(folder: Path) -> None:
    """The worker is replaced, its chunk solved again a board at a time, and the board
    that kills a worker alone gets an error row. One chunk of all three: a.txt and c.txt
    are lost with b.txt's first worker."""
    settings = BatchSettings()
    paths = board_paths(["."])
    workers = Workers(settings, 2, solve=crash_on_b, chunks=one_chunk)
    results = list(run_batch(paths, settings, 2, workers))
    b = str(Path("sub", "b.txt"))
    crash = (
        f"{b}: the solver crashed on this board (its worker process died:"
        " killed, or a crash inside a solver library)"
    )
    assert [r.file for r in results] == ["a.txt", b, str(Path("sub", "c.txt"))]
    assert [r.outcome for r in results] == [Outcome.SOLVED, Outcome.FAILED, Outcome.SOLVED]
    assert json.loads(results[1].row) == {"file": b, "error": crash}
    assert [json.loads(results[i].row)["tiles_played"] for i in (0, 2)] == [3, 1]


def test_ctrl_c_during_cbc_solves_leaves_no_files_behind(dealt: Path, tmp_path: Path) -> None:
    """CBC runs through files (PuLP writes the model, reads the answer): a worker stopped
    mid-solve left them in the temporary folder."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    batch = RunningBatch.start(
        first_boards(dealt, 100, tmp_path),
        "--backend",
        "cbc",
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    time.sleep(0.2)
    os.killpg(batch.process.pid, signal.SIGINT)
    _rows, err = batch.finish()
    assert batch.process.returncode == 130, err
    assert list(scratch.iterdir()) == []


def test_ctrl_c_in_a_pipeline_is_an_interrupt_not_a_broken_pipe(dealt: Path) -> None:
    """Ctrl-C stops a pipeline's reader too (`batch ... | tee log`): the rows then fail to
    write, and that is still the interrupt, with its summary and status."""
    batch = RunningBatch.start(dealt)
    assert batch.process.stdout is not None and batch.process.stderr is not None
    os.killpg(batch.process.pid, signal.SIGINT)
    batch.process.stdout.close()  # the reader, stopped by the same Ctrl-C
    try:
        err = batch.process.stderr.read().decode()
        code = batch.process.wait(timeout=60)
    finally:
        if batch.process.poll() is None:
            os.killpg(batch.process.pid, signal.SIGKILL)
    assert code == 130, err
    assert re.fullmatch(r"(.*\n)?interrupted: \d+ of 400 boards written\n", err, re.DOTALL)


def start_unless_gone(gone: Path, backend: str) -> object:
    if gone.exists():
        raise SolverError(f"backend {backend}: gone")
    return get_backend(backend)


def crash_on_b_for_good(gone: Path, path: str, settings: BatchSettings) -> BoardResult:
    if path.endswith("b.txt"):
        gone.touch()
        os._exit(1)
    return solve_path(path, settings)


def test_a_worker_that_cannot_be_started_again_ends_the_batch(folder: Path) -> None:
    """Once b.txt kills its worker, no new worker can start its solver: after a few tries
    the batch ends with one message."""
    gone = folder / "solver-gone"
    settings = BatchSettings()
    start, solve = partial(start_unless_gone, gone), partial(crash_on_b_for_good, gone)
    workers = Workers(settings, 2, start=start, solve=solve)
    with pytest.raises(BatchError, match=r"^a worker process died and could not be started again$"):
        list(run_batch(board_paths(["."]), settings, 2, workers))


def test_a_worker_killed_from_outside_is_replaced(dealt: Path, tmp_path: Path) -> None:
    """kill -9 on a worker in the middle of a batch: every board still gets its answer."""
    batch = RunningBatch.start(first_boards(dealt, 100, tmp_path))
    # The workers are the fork server's children: the batch's grandchildren. At the first
    # row each is still at its first chunk (5 or 6 of the 100 boards).
    workers = [w for child in children(batch.process.pid) for w in children(child)]
    os.kill(workers[0], signal.SIGKILL)
    rows, err = batch.finish()
    assert len(rows) == 100
    # The board being solved as the kill came is solved again, not blamed.
    assert (batch.process.returncode, [row for row in rows if "error" in row]) == (0, []), err


def no_solver(backend: str | None) -> object:
    raise SolverError(f"backend {backend or DEFAULT_BACKEND}: no solver library found")


def test_a_worker_whose_solver_cannot_start_says_why() -> None:
    message = rf"^backend {DEFAULT_BACKEND}: no solver library found$"
    with pytest.raises(BatchError, match=message):
        Workers(BatchSettings(), 2, start=no_solver)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_reader_that_stops_reading_ends_the_batch_quietly(dealt: Path, jobs: str) -> None:
    """`rummisolve batch ... | head -1`: no message, status 1 (the output is cut short)."""
    command = [sys.executable, "-m", "rummisolve", "batch", str(dealt), "--jobs", jobs]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read()
    assert (process.wait(timeout=60), err) == (1, b"")


def test_workers_stop_when_the_batch_is_killed(dealt: Path) -> None:
    """Killed outright (no chance to stop them), the batch leaves no worker behind: each
    sees its connection end and exits."""
    batch = RunningBatch.start(dealt)
    batch.process.kill()
    batch.process.wait()
    deadline = time.monotonic() + 20
    try:
        while time.monotonic() < deadline:
            os.killpg(batch.process.pid, 0)  # raises once no process of the group is left
            time.sleep(0.05)
        os.killpg(batch.process.pid, signal.SIGKILL)
        pytest.fail("the workers outlived their batch")
    except ProcessLookupError:
        pass


def test_a_folder_without_boards_is_reported_not_skipped(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, _err = run(str(empty), "--format", "jsonl")
    assert code == 1
    assert json.loads(out) == {
        "file": str(empty),
        "error": f"{empty}: no *.txt boards in this folder",
    }


def errors(jsonl: str) -> dict[str, object]:
    """Each failed row's error, by file."""
    return {
        row["file"]: row["error"] for row in map(json.loads, jsonl.splitlines()) if "error" in row
    }


def test_paths_that_cannot_be_looked_at_are_rows_too(folder: Path) -> None:
    """An empty path is no path (it is not "."), and a name too long to look up is only
    that board's error: the batch goes on."""
    too_long = "x" * 300 + ".txt"
    code, out, _err = run("a.txt", too_long, "", "--format", "jsonl")
    assert code == 1
    assert [row["file"] for row in rows_without_times(out)] == ["a.txt", too_long, ""]
    assert errors(out) == {
        too_long: f"{too_long}: cannot read: File name too long",
        "": ": cannot read: No such file or directory",
    }


def test_links_to_folders_are_followed_once_and_broken_links_reported(folder: Path) -> None:
    (folder / "more").mkdir()
    (folder / "more" / "link").symlink_to(folder / "sub")
    (folder / "more" / "loop").symlink_to(folder / "more")
    (folder / "more" / "gone.txt").symlink_to(folder / "nowhere.txt")
    assert board_paths(["more"]) == [
        str(Path("more", "gone.txt")),
        str(Path("more", "link", "b.txt")),
        str(Path("more", "link", "c.txt")),
    ]
    code, out, _err = run("more", "--format", "jsonl")
    gone = str(Path("more", "gone.txt"))
    assert (code, errors(out)) == (1, {gone: f"{gone}: cannot read: No such file or directory"})


def test_standard_input_is_a_board_with_workers_too(folder: Path) -> None:
    """Worker processes have no standard input: the batch reads it for them."""
    code, out, err = rummisolve(
        "batch", "-", "a.txt", "-", "--jobs", "2", "--format", "jsonl", stdin=BOARDS["a.txt"]
    )
    rows = rows_without_times(out)
    assert code == 0, err
    assert [(row["file"], row["tiles_played"]) for row in rows] == [
        ("-", 3),
        ("a.txt", 3),
        ("-", 3),
    ]


def test_a_stream_generate_wrote_is_a_board_each(folder: Path) -> None:
    """`rummisolve generate --count 3 | rummisolve batch -`: each board its own row, a
    broken one named by its place in the stream and its own line."""
    stream = rummisolve("generate", "--count", "3", "--seed", "4").out
    first, second, third = stream.split("# --- board")[1:]
    broken = f"# --- board{first}# --- board{second.replace('rack:', 'rack: X9')}# --- board{third}"
    code, out, _err = rummisolve(
        "batch", "-", "a.txt", "--jobs", "2", "--format", "jsonl", stdin=broken
    )
    rows = rows_without_times(out)
    assert code == 1
    assert [row["file"] for row in rows] == ["-#1", "-#2", "-#3", "a.txt"]
    line = 1 + second.splitlines().index(next(x for x in second.splitlines() if "rack:" in x))
    message = f"-#2:{line}: unknown tile 'X9': colour must be K, R, O (or Y) or B"
    assert errors(out) == {"-#2": message}


def test_a_board_too_large_to_be_one_is_refused_unread(folder: Path) -> None:
    (folder / "huge.txt").write_bytes(b"#" * (MAX_BOARD_BYTES + 1))
    code, out, _err = run("huge.txt", "a.txt", "--format", "jsonl")
    assert (code, errors(out)) == (1, {"huge.txt": "huge.txt: too large for a board (over 1 MiB)"})


def test_csv_quotes_line_breaks_in_file_names(folder: Path) -> None:
    name = "two\nlines.txt"
    (folder / name).write_text(BOARDS["a.txt"])
    code, out, _err = run(name, "a.txt", "--format", "csv")
    records = list(csv.reader(io.StringIO(out)))
    assert code == 0
    assert [len(r) for r in records] == [len(records[0])] * 3
    assert [r[0] for r in records[1:]] == [name, "a.txt"]


def test_a_solver_error_names_the_board(folder: Path) -> None:
    def failing(*args: object, **options: object) -> Move:
        raise SolverError("the solver failed: cbc: cannot execute /nowhere/cbc")

    result = solve_path("a.txt", BatchSettings(), find=failing)
    message = "a.txt: the solver failed: cbc: cannot execute /nowhere/cbc"
    assert (errors(result.row), result.error) == ({"a.txt": message}, message)


def test_boards_the_time_limit_left_unsolved_are_not_no_move(folder: Path) -> None:
    """A search cut short with nothing found has not shown that nothing can be played."""
    tally, said = batch_of(board_paths(["."]), BatchSettings(), nothing_found)
    assert (tally.passed, said) == (
        True,
        "3 boards in 0.000 s (1 job): 0 solved, 0 no move, 0 failed,"
        " 3 with nothing found in the time limit",
    )


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_on_one_terminal_the_progress_bar_leaves_the_rows_whole(folder: Path) -> None:
    """Rows on stdout and the bar on stderr, both a terminal: each row starts its line."""
    leader, follower = os.openpty()
    command = [sys.executable, "-m", "rummisolve", "batch", ".", "--jobs", "1"]
    process = subprocess.Popen(command, stdout=follower, stderr=follower, cwd=folder)
    os.close(follower)
    screen = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        screen += chunk
    os.close(leader)
    assert process.wait(timeout=60) == 0
    # What each line shows once carriage returns and line clears have done their work.
    shown = [
        re.sub(r"\x1b\[(\?25[lh]|K)", "", line).split("\r")[-1]
        for line in screen.decode().split("\r\n")
    ]
    rows = [line for line in shown if ".txt" in line]
    assert [line.split()[0] for line in rows] == ["a.txt", "sub/b.txt", "sub/c.txt"]


SOLVE_THEN_BATCH = """\
import sys

from rummisolve.engine import backends, branch
from rummisolve.batch import BatchSettings, prepare_batch, run_batch

if __name__ == "__main__":
    backends.get_backend("clp")  # HiGHS's threads start in this process
    branch.NODE_LIMIT["clp"] = 0  # a forked worker would go straight to HiGHS's MIP
    settings = BatchSettings()
    rows = run_batch(sys.argv[1:], settings, 2, prepare_batch(settings, 2))
    print(sum(row.outcome.value == "solved" for row in rows))
"""


def test_a_batch_after_solving_in_the_same_process_does_not_hang(tmp_path: Path) -> None:
    """HiGHS's threads do not survive a fork: a forked worker's first HiGHS MIP waited for
    ever. A program that solved before its batch now gets workers started afresh."""
    script = tmp_path / "solve_then_batch.py"
    script.write_text(SOLVE_THEN_BATCH)
    puzzles = Path(__file__).resolve().parents[1] / "puzzles" / "manipulation"
    boards = [str(p) for p in sorted(puzzles.glob("*.txt"))[:4]]
    # A session of its own, so that a hang's workers can be killed with it.
    process = subprocess.Popen(
        [sys.executable, str(script), *boards],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 0, err
    assert out.strip() == "4"


@pytest.mark.skipif(
    not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
    reason="pinning needs Linux and two CPUs",
)
def test_as_many_workers_as_cpus_each_keep_to_one() -> None:
    """Two workers for the two CPUs this process may use; with CPUs to spare, none is
    pinned (two batches at once would otherwise share the first CPUs)."""
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, sorted(allowed)[:2])
    try:
        pinned, free = Workers(BatchSettings(), 2), Workers(BatchSettings(), 1)
    finally:
        os.sched_setaffinity(0, allowed)
    try:
        cpus = [os.sched_getaffinity(pid) for pid in pinned.pids if pid is not None]
        spare = [os.sched_getaffinity(pid) for pid in free.pids if pid is not None]
    finally:
        pinned.close()
        free.close()
    assert sorted(len(c) for c in cpus) == [1, 1]
    assert cpus[0] != cpus[1]
    assert spare == [set(sorted(allowed)[:2])]


def test_an_expect_line_cut_short_leaves_no_scratch_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C (or SIGTERM, which a batch turns into an exit) between writing the new
    file and putting it in place left a `tmpXXXX` file beside the boards."""
    from rummisolve.batch import rows
    from rummisolve.board import read_board
    from rummisolve.engine.solve import find_move

    path = tmp_path / "board.txt"
    path.write_text("table:\nR1 R2 R3\nrack:\nR4\n", encoding="utf-8")
    board = read_board(path)

    def interrupted(source: str, target: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        rows.stamp_expected(str(path), board, find_move(board), force=False)
    assert [p.name for p in tmp_path.iterdir()] == ["board.txt"]
    assert "expect" not in path.read_text(encoding="utf-8")
