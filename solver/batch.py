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
import threading
from collections import deque
from collections.abc import Generator, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
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
# Chunks handed out ahead of the one being written, per worker.
IN_FLIGHT_PER_JOB = 3
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


def prepare_batch(settings: BatchSettings, jobs: int) -> ProcessPoolExecutor | None:
    """Start the solver before a batch's clock starts: in this process (None), or in
    `jobs` worker processes, returned once every one of them is ready to solve."""
    if jobs <= 1:
        get_backend(settings.backend)
        return None
    load_backend(settings.backend)  # forked workers start with its libraries loaded
    # HiGHS's threads do not survive a fork: once they run here (a program that solved
    # before its batch), workers start afresh instead.
    context = multiprocessing.get_context("spawn" if highs_started() else None)
    ready = context.Barrier(jobs, timeout=START_SECONDS)
    workers = ProcessPoolExecutor(
        jobs, mp_context=context, initializer=_start_worker, initargs=(settings, ready)
    )
    try:
        # Each first task waits for all the others: `jobs` of them run in `jobs` workers.
        for started in [workers.submit(_wait_for_the_others) for _ in range(jobs)]:
            started.result()
    except (BrokenProcessPool, threading.BrokenBarrierError):
        workers.shutdown(cancel_futures=True)
        raise BatchError(f"the {jobs} worker processes did not start") from None
    return workers


def run_batch(
    paths: Sequence[str],
    settings: BatchSettings,
    jobs: int,
    workers: ProcessPoolExecutor | None = None,
) -> Generator[BoardResult, None, None]:
    """Every board's result, in the order of `paths`, each as soon as it and all before it
    are done. With `jobs` > 1 the boards are solved by that many worker processes (those
    `prepare_batch` started, if given; they are shut down at the end)."""
    if jobs <= 1 or len(paths) <= 1:
        if workers is not None:
            workers.shutdown()
        get_backend(settings.backend)
        for path in paths:
            yield solve_path(path, settings)
        return
    pool = workers or prepare_batch(settings, jobs)
    assert pool is not None
    try:
        pending: deque[Future[list[BoardResult]]] = deque()
        for chunk in _chunks(paths, jobs):
            pending.append(pool.submit(_solve_chunk, chunk))
            if len(pending) >= jobs * IN_FLIGHT_PER_JOB:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
    except BrokenProcessPool:
        raise BatchError(
            "a worker process died (killed, or crashed inside a solver library);"
            " the rows written so far stand"
        ) from None
    finally:
        # On Ctrl-C or an early stop, the chunks not yet started are dropped and the
        # workers finish the one in hand: killing them (Pool.terminate) can hang.
        pool.shutdown(cancel_futures=True)


def _chunks(paths: Sequence[str], jobs: int) -> Iterable[Sequence[str]]:
    """The paths in chunks that shrink as the batch nears its end (guided scheduling):
    large ones while there is much left, single boards last, so that no worker is left
    alone with a long chunk while the others wait."""
    at = 0
    while at < len(paths):
        size = max(1, min(MAX_CHUNK, (len(paths) - at) // (jobs * CHUNKS_PER_JOB)))
        yield paths[at : at + size]
        at += size


_worker_settings: BatchSettings | None = None
_all_started: Any = None


def _start_worker(settings: BatchSettings, all_started: Any) -> None:
    """Once per worker: the settings, and the solver prepared for every board it gets.

    Ctrl-C is the parent's to handle; a worker that took it too would print a traceback.
    """
    global _worker_settings, _all_started
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_settings, _all_started = settings, all_started
    get_backend(settings.backend)


def _wait_for_the_others() -> None:
    """Each worker's first task: wait until every worker has started, then keep to a CPU
    of its own."""
    _keep_to_one_cpu(_all_started.wait(), _all_started.parties)


def _keep_to_one_cpu(worker: int, workers: int) -> None:
    """Pin worker number `worker` to one of the CPUs this process may use, where there is
    one for each worker (Linux). A worker the scheduler moves (each time the parent wakes
    to write rows) loses its caches, and a solve from cold caches takes twice as long:
    500 boards with two workers on two CPUs, 0.52-0.535 s -> 0.48 s."""
    if not hasattr(os, "sched_setaffinity"):
        return
    cpus = sorted(os.sched_getaffinity(0))
    if workers <= len(cpus):
        os.sched_setaffinity(0, {cpus[worker]})


def _solve_chunk(paths: Sequence[str]) -> list[BoardResult]:
    assert _worker_settings is not None, "a worker starts with _start_worker"
    return [solve_path(path, _worker_settings) for path in paths]


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
