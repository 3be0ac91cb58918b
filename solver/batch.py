"""Solving many boards: files and folders in, one formatted row per board out, in order.

Each worker process reads, solves, checks and formats its boards itself and hands back
finished rows, so the parent only writes text: with two workers on two cores it stays
out of their way. Work goes out in chunks, with only a few chunks in flight at a time,
so a batch of any length holds a bounded number of rows in memory.
"""

from __future__ import annotations

import csv
import enum
import io
import json
import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from .backends import DEFAULT_BACKEND, get_backend, highs_started, load_backend
from .board import Board, Expectation, read_board
from .errors import Problem, RummisolveError
from .legality import check_move
from .model import Objective
from .render import move_json
from .solve import Move, Status, find_move
from .tiles import format_tiles

# A chunk takes tens of milliseconds: long enough to make the hand-over cheap, short
# enough that the rows come out steadily; chunks shrink to one board near the end.
MAX_CHUNK = 16
CHUNKS_PER_JOB = 8
# How long workers may take to start their solvers (imports, HiGHS's threads).
START_SECONDS = 60.0
# Chunks a worker holds: the one it solves and the next, so it never waits for the parent.
IN_FLIGHT_PER_JOB = 2
# Chunks out or done, per worker, from the one to be written next on.
WINDOW_PER_JOB = 4
# The table format's columns after the file name (the file column fits the longest path).
TABLE_COLUMNS = ("status", "tiles", "value", "ms")
EXPECT_WIDTH = len("expected tiles=14 value=104")
CSV_COLUMNS = (
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
)
CSV_CHECK_COLUMNS = ("expected", "check")


class BatchError(RummisolveError):
    """The batch itself cannot go on (a single board's failure is only that board's row)."""


class Format(enum.Enum):
    TABLE = "table"
    JSONL = "jsonl"
    CSV = "csv"


class Outcome(enum.Enum):
    """How one board of a batch ended."""

    SOLVED = "solved"
    NO_MOVE = "no move"
    FAILED = "failed"


@dataclass(frozen=True)
class BatchSettings:
    """Everything a worker needs to turn a path into a row."""

    format: Format = Format.JSONL
    objective: Objective = Objective.TILES
    backend: str = DEFAULT_BACKEND
    time_limit: float | None = None
    rule_overrides: tuple[tuple[str, object], ...] = ()
    check_expected: bool = False
    file_width: int = 0


@dataclass(frozen=True)
class BoardResult:
    """One board's row as written, and what the closing summary needs to know of it."""

    file: str
    outcome: Outcome
    row: str
    error: str | None = None
    mismatch: str | None = None
    checked: bool = False
    proved: bool = True


@dataclass
class Tally:
    """What the closing summary says: counts, and a line for each board that needs a look."""

    solved: int = 0
    no_move: int = 0
    failed: int = 0
    unproved: int = 0
    checked: int = 0
    mismatched: int = 0
    problems: list[str] = field(default_factory=list)

    def add(self, result: BoardResult) -> None:
        self.solved += result.outcome is Outcome.SOLVED
        self.no_move += result.outcome is Outcome.NO_MOVE
        self.failed += result.outcome is Outcome.FAILED
        self.unproved += not result.proved
        self.checked += result.checked
        if result.error is not None:
            self.problems.extend(result.error.splitlines())
        if result.mismatch is not None:
            self.mismatched += 1
            self.problems.append(f"{result.file}: {result.mismatch}")

    @property
    def total(self) -> int:
        return self.solved + self.no_move + self.failed

    @property
    def passed(self) -> bool:
        """No board failed, and every answer matched its expectation."""
        return not self.failed and not self.mismatched


def board_paths(paths: Iterable[str | Path]) -> list[str]:
    """Each path as given, a folder replaced by every `*.txt` below it, sorted.

    A path that does not exist, or a folder with no boards, stays in the list: its row
    then says so, like any other bad board's.
    """
    found: list[str] = []
    for path in map(Path, paths):
        boards = sorted(p for p in path.rglob("*.txt") if p.is_file()) if path.is_dir() else []
        # A folder with no boards stays, to be reported rather than silently skipped.
        found.extend(str(p) for p in boards or [path])
    return found


def header(settings: BatchSettings) -> str | None:
    """The line written before the rows, if the format has one."""
    if settings.format is Format.CSV:
        columns = CSV_COLUMNS + (CSV_CHECK_COLUMNS if settings.check_expected else ())
        return _csv_line(columns)
    if settings.format is Format.TABLE:
        cells = [f"{'file':<{settings.file_width}}", *_table_numbers(TABLE_COLUMNS)]
        if settings.check_expected:
            cells.append(f"{'expect':<{EXPECT_WIDTH}}")
        return "  ".join([*cells, "played"])
    return None


def prepare_batch(settings: BatchSettings, jobs: int) -> Workers | None:
    """Start the solver before a batch's clock starts: in this process (None), or in
    `jobs` worker processes, returned once every one of them is ready to solve."""
    if jobs <= 1:
        get_backend(settings.backend)
        return None
    return Workers(settings, jobs)


def run_batch(
    paths: Sequence[str],
    settings: BatchSettings,
    jobs: int,
    workers: Workers | None = None,
) -> Generator[BoardResult, None, None]:
    """Every board's result, in the order of `paths`, each as soon as it and all before it
    are done. With `jobs` > 1 the boards are solved by that many worker processes (those
    `prepare_batch` started, if given; they are stopped at the end)."""
    if jobs <= 1 or len(paths) <= 1:
        if workers is not None:
            workers.close()
        get_backend(settings.backend)
        for path in paths:
            yield solve_path(path, settings)
        return
    pool = workers or Workers(settings, jobs)
    try:
        yield from pool.solve(_chunks(paths, jobs))
    finally:
        pool.close()


def _chunks(paths: Sequence[str], jobs: int) -> Iterator[Sequence[str]]:
    """The paths in chunks that shrink as the batch nears its end (guided scheduling):
    large ones while there is much left, single boards last, so that no worker is left
    alone with a long chunk while the others wait."""
    at = 0
    while at < len(paths):
        size = max(1, min(MAX_CHUNK, (len(paths) - at) // (jobs * CHUNKS_PER_JOB)))
        yield paths[at : at + size]
        at += size


class Workers:
    """Worker processes that turn chunks of paths into lists of results, each over a
    connection of its own and, where there are enough CPUs, on a CPU of its own.

    A shared task queue and a pool's helper threads cost a batch of quick boards about
    a tenth of its speed with two workers on two cores; here the parent only wakes when
    a chunk comes back, and hands the next one straight to the worker that sent it.
    """

    def __init__(self, settings: BatchSettings, jobs: int) -> None:
        load_backend(settings.backend)
        # Forked workers start at once, the backend's libraries loaded. But HiGHS's
        # threads do not survive a fork: once they run here (a program that solved before
        # its batch), workers start afresh instead, as they always do where forking is
        # unsafe (macOS).
        forking = sys.platform == "linux" and not highs_started()
        context = (
            multiprocessing.get_context("fork") if forking else multiprocessing.get_context("spawn")
        )
        cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
        self.connections: list[Connection] = []
        self.processes: list[BaseProcess] = []
        for number in range(jobs):
            ours, theirs = context.Pipe()
            # A forked worker also gets our ends of its connection and of the earlier
            # workers', and closes them so that each sees its input end with this process.
            inherited = [*self.connections, ours] if forking else []
            cpu = cpus[number] if jobs <= len(cpus) else None
            process = context.Process(
                target=_work, args=(settings, theirs, inherited, cpu), daemon=True
            )
            process.start()
            theirs.close()
            self.connections.append(ours)
            self.processes.append(process)
        self._wait_until_started(jobs)

    @property
    def pids(self) -> list[int | None]:
        return [process.pid for process in self.processes]

    def _wait_until_started(self, jobs: int) -> None:
        for connection in self.connections:
            started = self._receive(connection) if connection.poll(START_SECONDS) else None
            if started is not True:
                self.close()
                raise BatchError(started or f"the {jobs} worker processes did not start")

    @staticmethod
    def _receive(connection: Connection) -> Any:
        try:
            return connection.recv()
        except (EOFError, OSError):
            return None

    def solve(self, chunks: Iterable[Sequence[str]]) -> Iterator[BoardResult]:
        """Each chunk's results in the order of `chunks`. A worker holds at most
        IN_FLIGHT_PER_JOB chunks, and at most WINDOW_PER_JOB chunks per worker are out
        or waiting for an earlier one, so a batch of any length holds a bounded number
        of results."""
        numbered = enumerate(chunks)
        in_flight: dict[Connection, deque[int]] = {c: deque() for c in self.connections}
        finished: dict[int, list[BoardResult]] = {}
        window = WINDOW_PER_JOB * len(self.connections)
        handed_out = written = 0

        def hand_out(connection: Connection) -> None:
            nonlocal handed_out
            held = in_flight[connection]
            while len(held) < IN_FLIGHT_PER_JOB and handed_out - written < window:
                if (chunk := next(numbered, None)) is None:
                    return
                try:
                    connection.send(chunk[1])
                except OSError:
                    raise _died() from None
                held.append(chunk[0])
                handed_out += 1

        for connection in self.connections:
            hand_out(connection)
        sentinels = {process.sentinel for process in self.processes}
        while written < handed_out:
            if written in finished:
                yield from finished.pop(written)
                written += 1
                for connection in self.connections:
                    hand_out(connection)
                continue
            ready = wait([*self.connections, *sentinels])
            for connection in self.connections:
                if connection in ready:
                    if (results := self._receive(connection)) is None:
                        raise _died()
                    finished[in_flight[connection].popleft()] = results
                    hand_out(connection)
            if sentinels.intersection(ready):
                raise _died()

    def close(self) -> None:
        """Stop the workers at once: at the end they only wait for more, and when a batch
        ends early (Ctrl-C) what they hold is dropped. Each has a connection of its own,
        so no lock or queue is left half used."""
        for process in self.processes:
            process.terminate()
        for connection, process in zip(self.connections, self.processes, strict=True):
            process.join()
            connection.close()
        self.connections, self.processes = [], []


def _died() -> BatchError:
    return BatchError(
        "a worker process died (killed, or crashed inside a solver library);"
        " the rows written so far stand"
    )


def _work(
    settings: BatchSettings, connection: Connection, inherited: list[Connection], cpu: int | None
) -> None:
    """A worker: start the solver, say so, then solve each chunk it gets until the parent
    stops it, or is gone. Ctrl-C is the parent's to handle; a worker that took it too would print a
    traceback. On a CPU of its own, a worker keeps its caches: one the scheduler moved
    (each time the parent wakes to write rows) solved from cold caches, twice as slowly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for other in inherited:
        other.close()
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})
    try:
        get_backend(settings.backend)
    except RummisolveError as error:
        connection.send(str(error))
        return
    connection.send(True)
    try:
        while True:
            connection.send([solve_path(path, settings) for path in connection.recv()])
    except (EOFError, BrokenPipeError):
        pass  # the parent is gone


def solve_path(path: str, settings: BatchSettings) -> BoardResult:
    """Read, solve and check one board; any failure becomes that board's error row.

    A batch must go on past one board whatever goes wrong with it, so even an error
    that is not ours (a crash inside a solver library) is caught and reported here.
    """
    if Path(path).is_dir():
        return _failed(path, f"{path}: no *.txt boards in this folder", settings)
    try:
        board = read_board(path, **dict(settings.rule_overrides))
        move = find_move(board, settings.objective, settings.backend, settings.time_limit)
    except RummisolveError as error:
        return _failed(path, str(error), settings)
    except Exception as error:
        return _failed(path, f"{path}: solver crashed: {type(error).__name__}: {error}", settings)
    if problems := check_move(board, move):
        message = "the answer breaks the rules (a solver bug): " + "; ".join(problems)
        return _failed(path, str(Problem(path, 0, message)), settings)
    mismatch = _mismatch(board, move) if settings.check_expected else None
    return BoardResult(
        file=path,
        outcome=Outcome.SOLVED if move.is_move else Outcome.NO_MOVE,
        row=_row(path, board, move, mismatch, settings),
        mismatch=mismatch,
        checked=settings.check_expected and board.expect is not None,
        proved=move.status is not Status.FEASIBLE,
    )


def _mismatch(board: Board, move: Move) -> str | None:
    """What differs from the board's `# expect:` line, or None (also when it has none)."""
    if board.expect is None:
        return None
    got = Expectation(move.tiles_played, move.value_played)
    return None if got == board.expect else f"expected {board.expect}, got {got}"


def _check_cell(board: Board, mismatch: str | None) -> str:
    if board.expect is None:
        return ""
    return "mismatch" if mismatch else "ok"


def _row(path: str, board: Board, move: Move, mismatch: str | None, s: BatchSettings) -> str:
    if s.format is Format.JSONL:
        return _jsonl_row(path, board, move, mismatch, s)
    if s.format is Format.CSV:
        return _csv_row(path, board, move, mismatch, s)
    return _table_row(path, board, move, mismatch, s)


def _jsonl_row(path: str, board: Board, move: Move, mismatch: str | None, s: BatchSettings) -> str:
    """`hint --json`'s object with the file first; with --check-expected, the expectation."""
    obj = {"file": path, **move_json(move)}
    if s.check_expected and board.expect is not None:
        obj["expect"] = board.expect._asdict()
        obj["check"] = _check_cell(board, mismatch)
    return json.dumps(obj)


def _csv_row(path: str, board: Board, move: Move, mismatch: str | None, s: BatchSettings) -> str:
    cells: list[object] = [
        path,
        move.status.value,
        move.tiles_played,
        move.value_played,
        format_tiles(move.played),
        " | ".join(format_tiles(row) for row in move.table),
        format_tiles(move.rack),
        f"{move.seconds:.6f}",
        move.backend,
        "",
    ]
    if s.check_expected:
        cells += [str(board.expect or ""), _check_cell(board, mismatch)]
    return _csv_line(cells)


def _table_row(path: str, board: Board, move: Move, mismatch: str | None, s: BatchSettings) -> str:
    numbers = (move.status.value, move.tiles_played, move.value_played, f"{move.seconds * 1e3:.1f}")
    cells = [f"{path:<{s.file_width}}", *_table_numbers(numbers)]
    if s.check_expected:
        expect = "-" if board.expect is None else mismatch or "ok"
        cells.append(f"{expect:<{EXPECT_WIDTH}}")
    return "  ".join([*cells, format_tiles(move.played)]).rstrip()


def _failed(path: str, error: str, s: BatchSettings) -> BoardResult:
    if s.format is Format.JSONL:
        row = json.dumps({"file": path, "error": error})
    elif s.format is Format.CSV:
        columns = len(CSV_COLUMNS) + (len(CSV_CHECK_COLUMNS) if s.check_expected else 0)
        cells = [path, "error", *[""] * (columns - 2)]
        cells[CSV_COLUMNS.index("error")] = "; ".join(error.splitlines())
        row = _csv_line(cells)
    else:
        row = f"{path:<{s.file_width}}  {'error':<9}  " + "; ".join(error.splitlines())
    return BoardResult(file=path, outcome=Outcome.FAILED, row=row, error=error)


def _table_numbers(cells: Sequence[object]) -> list[str]:
    """The status column left-aligned, the numbers right-aligned under their headings."""
    status, *numbers = cells
    return [f"{status!s:<9}", *(f"{n!s:>5}" for n in numbers[:2]), f"{numbers[2]!s:>7}"]


def _csv_line(cells: Iterable[object]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow(cells)
    return out.getvalue()
