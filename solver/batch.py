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
from collections.abc import Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, NamedTuple

from .backends import (
    DEFAULT_BACKEND,
    get_backend,
    highs_started,
    load_backend,
    remove_leftovers,
)
from .board import (
    Board,
    Expectation,
    decode_board,
    parse_board,
    read_board,
    read_bytes,
    split_stream,
)
from .errors import BoardError, Problem, RummisolveError, printable, unexpected
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
# Tries to start a worker in the place of one that died.
START_ATTEMPTS = 3
# Chunks a worker holds: the one it solves and the next, so it never waits for the parent.
IN_FLIGHT_PER_JOB = 2
# Chunks out or done, per worker, from the one to be written next on.
WINDOW_PER_JOB = 4
# The table format's columns after the file name (the file column fits the longest path).
TABLE_COLUMNS = ("status", "tiles", "value", "ms")
# The expect column says ok or mismatch; what differs goes to stderr with the summary.
EXPECT_WIDTH = len("mismatch")
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


# Standard input may hold a stream of boards (`generate | batch -`), each at most a board's
# size; past this, it is refused rather than read for ever (`batch - < /dev/zero`).
MAX_STREAM_BYTES = 256 << 20


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
    # A time limit cut the search short: a move not proved best, or none found yet.
    UNPROVED = "not proved best"
    NOTHING_FOUND = "nothing found"


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
    # Standard input's boards by name, read once at the start when `-` is among the paths.
    standard_input: Mapping[str, bytes] = field(default_factory=dict)


@dataclass(frozen=True)
class BoardResult:
    """One board's row as written, and what the closing summary needs to know of it."""

    file: str
    outcome: Outcome
    row: str
    error: str | None = None
    mismatch: str | None = None
    checked: bool = False


@dataclass
class Tally:
    """What the closing summary says: counts, and a line for each board that needs a look."""

    solved: int = 0
    no_move: int = 0
    failed: int = 0
    unproved: int = 0
    nothing_found: int = 0
    checked: int = 0
    mismatched: int = 0
    problems: list[str] = field(default_factory=list)

    def add(self, result: BoardResult) -> None:
        self.solved += result.outcome in (Outcome.SOLVED, Outcome.UNPROVED)
        self.no_move += result.outcome is Outcome.NO_MOVE
        self.failed += result.outcome is Outcome.FAILED
        self.unproved += result.outcome is Outcome.UNPROVED
        self.nothing_found += result.outcome is Outcome.NOTHING_FOUND
        self.checked += result.checked
        if result.error is not None:
            self.problems.extend(result.error.splitlines())
        if result.mismatch is not None:
            self.mismatched += 1
            self.problems.append(f"{result.file}: {result.mismatch}")

    @property
    def total(self) -> int:
        return self.solved + self.no_move + self.failed + self.nothing_found

    @property
    def passed(self) -> bool:
        """No board failed, and every answer matched its expectation."""
        return not self.failed and not self.mismatched


def board_paths(paths: Iterable[str | Path]) -> list[str]:
    """Each path as given, a folder replaced by every `*.txt` below it, sorted.

    A path that does not exist or cannot be looked at, a folder with no boards and a
    folder below that cannot be read stay in the list: each one's row then says so,
    like any other bad board's. Links to folders are followed, each folder once. Every
    name ending in .txt below a folder is a row: one that is not a regular file (a FIFO,
    a device, a folder) says so in its row, and is never opened for reading.
    """
    found: list[str] = []
    for path in map(str, paths):
        boards = _boards_below(path) if os.path.isdir(path) else []
        found.extend(boards or [path])
    return found


def _boards_below(folder: str) -> list[str]:
    """Every .txt name below the folder, folders walked with a list of their own rather
    than by recursion (a folder nested a thousand deep is a RecursionError for os.walk
    before Python 3.12), in os.walk's top-down order."""
    boards: list[Path] = []
    seen = {os.path.realpath(folder)}
    waiting = [folder]
    while waiting:
        root = waiting.pop()
        try:
            with os.scandir(root) as entries:
                listed = [(e.name, e.is_dir(), e.is_symlink()) for e in entries]
        except OSError:
            boards.append(Path(root))  # a folder that cannot be read gets its row
            continue
        # Each folder once, under its own name before any link's: a link back to one
        # would loop for ever, and a link beside it would give its boards twice.
        kept = []
        for name, _, _ in sorted((e for e in listed if e[1]), key=lambda e: (e[2], e[0])):
            real = os.path.realpath(os.path.join(root, name))
            if real not in seen:
                seen.add(real)
                kept.append(name)
        files = [name for name, is_dir, _ in listed if not is_dir]
        boards.extend(Path(root, name) for name in files + kept if name.endswith(".txt"))
        waiting.extend(os.path.join(root, name) for name in reversed(kept))
    return [str(board) for board in sorted(boards)]


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


def usable_cpus() -> int:
    """How many CPUs this process may run on (its affinity: `taskset`, a cpuset), not the
    machine's."""
    return len(_allowed_cpus()) or os.cpu_count() or 1


def _allowed_cpus() -> list[int]:
    """The CPUs this process may run on, where the system says (Linux); else none known."""
    return sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []


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
        yield from pool.solve(paths)
    finally:
        pool.close()


class _Task(NamedTuple):
    """Boards handed to a worker together: their paths, and where the first stands."""

    first: int
    paths: Sequence[str]


def _chunks(paths: Sequence[str], jobs: int) -> Iterator[_Task]:
    """The paths in chunks that shrink as the batch nears its end (guided scheduling):
    large ones while there is much left, single boards last, so that no worker is left
    alone with a long chunk while the others wait."""
    at = 0
    while at < len(paths):
        size = max(1, min(MAX_CHUNK, (len(paths) - at) // (jobs * CHUNKS_PER_JOB)))
        yield _Task(at, paths[at : at + size])
        at += size


class Workers:
    """Worker processes that turn chunks of paths into lists of results, each over a
    connection of its own and, when they are as many as the CPUs, each on a CPU of its own
    (with CPUs to spare the scheduler is left free: two batches at once on a large machine
    would otherwise both take the first CPUs).

    A shared task queue and a pool's helper threads cost a batch of quick boards about
    a tenth of its speed with two workers on two cores; here the parent only wakes when
    a chunk comes back, and hands the next one straight to the worker that sent it.
    """

    def __init__(self, settings: BatchSettings, jobs: int) -> None:
        self.settings = settings
        load_backend(settings.backend)
        # Forked workers start at once, the backend's libraries loaded. But HiGHS's
        # threads do not survive a fork: once they run here (a program that solved before
        # its batch), workers start afresh instead, as they always do where forking is
        # unsafe (macOS).
        self.forking = sys.platform == "linux" and not highs_started()
        self.context: Any = multiprocessing.get_context("fork" if self.forking else "spawn")
        cpus = _allowed_cpus()
        self.cpus = cpus if jobs == len(cpus) else [None] * jobs
        self.connections: list[Connection] = []
        self.processes: list[BaseProcess] = []
        try:
            for number in range(jobs):
                self._start(number)
            for number in range(jobs):
                self._wait_until_started(number)
        except BaseException:  # Ctrl-C while they start, too
            self.close()
            raise

    @property
    def pids(self) -> list[int | None]:
        return [process.pid for process in self.processes]

    def _start(self, number: int) -> None:
        """Start worker `number`, or a new one in its place (on its CPU, if pinned)."""
        ours, theirs = self.context.Pipe()
        # A forked worker also gets our ends of its connection and of the other workers',
        # and closes them so that each sees its input end with this process.
        others = [c for n, c in enumerate(self.connections) if n != number]
        inherited = [*others, ours] if self.forking else []
        process = self.context.Process(
            target=_work, args=(self.settings, theirs, inherited, self.cpus[number]), daemon=True
        )
        process.start()
        theirs.close()
        if number < len(self.connections):
            self.connections[number], self.processes[number] = ours, process
        else:
            self.connections.append(ours)
            self.processes.append(process)

    def _wait_until_started(self, number: int) -> None:
        connection = self.connections[number]
        started = _receive(connection) if connection.poll(START_SECONDS) else None
        if started is not True:
            raise BatchError(started or f"the {len(self.processes)} worker processes did not start")

    def _replace(self, number: int) -> None:
        """A worker died: reap it and start another in its place (a few tries: whatever
        killed it may kill the next one as it starts)."""
        for attempt in range(START_ATTEMPTS):
            self._reap(number)
            self._start(number)
            try:
                self._wait_until_started(number)
                return
            except BatchError:
                if attempt == START_ATTEMPTS - 1:
                    raise BatchError(
                        "a worker process died and could not be started again"
                    ) from None

    def solve(self, paths: Sequence[str]) -> Iterator[BoardResult]:
        """Every board's result in the order of `paths`.

        A worker holds at most IN_FLIGHT_PER_JOB chunks, and at most WINDOW_PER_JOB chunks
        per worker are out or waiting for an earlier one, so a batch of any length holds
        a bounded number of results. A worker that dies (killed, or a crash inside a
        solver library) is replaced: the chunk it was solving is solved again a board at
        a time, and a board that kills a worker twice alone gets an error row (once may
        be a kill from outside).
        """
        jobs = len(self.processes)
        fresh = iter(_chunks(paths, jobs))
        retry: deque[_Task] = deque()
        in_flight: list[deque[_Task]] = [deque() for _ in range(jobs)]
        finished: dict[int, list[BoardResult]] = {}
        suspects: set[int] = set()  # boards a worker died on alone, once
        window = WINDOW_PER_JOB * jobs
        written = 0

        def hand_out(number: int) -> None:
            held = in_flight[number]
            while len(held) < IN_FLIGHT_PER_JOB:
                if len(finished) + sum(map(len, in_flight)) >= window and not retry:
                    return
                task = retry.popleft() if retry else next(fresh, None)
                if task is None:
                    return
                held.append(task)
                try:
                    self.connections[number].send(task.paths)
                except OSError:
                    return  # it died: seen by `wait` below

        def died(number: int) -> None:
            lost = list(in_flight[number])
            in_flight[number].clear()
            self._replace(number)
            if lost:
                crashed, *rest = lost
                if len(crashed.paths) > 1:
                    rest[:0] = [_Task(crashed.first + i, [p]) for i, p in enumerate(crashed.paths)]
                elif crashed.first in suspects:
                    path = crashed.paths[0]
                    finished[crashed.first] = [_failed(path, _crash(path), self.settings)]
                else:
                    suspects.add(crashed.first)
                    rest.insert(0, crashed)
                retry.extendleft(reversed(rest))
            hand_out(number)

        for number in range(jobs):
            hand_out(number)
        while written < len(paths):
            if written in finished:
                results = finished.pop(written)
                yield from results
                written += len(results)
                for number in range(jobs):
                    hand_out(number)
                continue
            ready = wait([*self.connections, *(p.sentinel for p in self.processes)])
            for number in range(jobs):
                if self.connections[number] in ready:
                    if (results := _receive(self.connections[number])) is None:
                        died(number)
                        continue
                    finished[in_flight[number].popleft().first] = results
                    hand_out(number)
                elif self.processes[number].sentinel in ready:
                    died(number)

    def close(self) -> None:
        """Stop the workers at once: at the end they only wait for more, and when a batch
        ends early (Ctrl-C) what they hold is dropped. Each has a connection of its own,
        so no lock or queue is left half used."""
        for process in self.processes:
            process.terminate()
        for number in range(len(self.processes)):
            self._reap(number)
        self.connections, self.processes = [], []

    def _reap(self, number: int) -> None:
        """Worker `number`, stopped or dead: waited for, its connection closed, and what a
        solve it was in the middle of left behind removed."""
        process = self.processes[number]
        process.join()
        self.connections[number].close()
        if process.pid is not None:
            remove_leftovers(process.pid)


def _receive(connection: Connection) -> Any:
    """What a worker sent, or None when it is gone."""
    try:
        return connection.recv()
    except (EOFError, OSError):
        return None


def _crash(path: str) -> str:
    return (
        f"{path}: the solver crashed on this board (its worker process died:"
        " killed, or a crash inside a solver library)"
    )


def _work(
    settings: BatchSettings, connection: Connection, inherited: list[Connection], cpu: int | None
) -> None:
    """A worker: start the solver, say so, then solve each chunk it gets until the parent
    stops it, or is gone. Ctrl-C is the parent's to handle; a worker that took it too would
    print a traceback. On a CPU of its own, a worker keeps its caches: one the scheduler
    moved (each time the parent wakes to write rows) solved from cold caches, twice as
    slowly."""
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
    if (not_a_board := folder_problem(path)) is not None:
        return _failed(path, not_a_board, settings)
    try:
        board = _read(path, settings)
        move = find_move(board, settings.objective, settings.backend, settings.time_limit)
    except BoardError as error:
        return _failed(path, str(error), settings)
    except RummisolveError as error:
        return _failed(path, f"{path}: {error}", settings)
    except Exception as error:
        return _failed(path, f"{path}: {unexpected(error)}", settings)
    if problems := check_move(board, move):
        message = "the answer breaks the rules (a solver bug): " + "; ".join(problems)
        return _failed(path, str(Problem(path, 0, message)), settings)
    mismatch = _mismatch(board, move) if settings.check_expected else None
    proved = move.status is not Status.FEASIBLE
    return BoardResult(
        file=path,
        outcome=_outcome(move),
        row=_row(path, board, move, mismatch, settings),
        mismatch=mismatch,
        checked=settings.check_expected and board.expect is not None and proved,
    )


def _read(path: str, settings: BatchSettings) -> Board:
    return read_path(path, settings.standard_input, dict(settings.rule_overrides))


def read_path(
    path: str, standard_input: Mapping[str, bytes], overrides: dict[str, object]
) -> Board:
    """The board at `path`, or one of standard input's as `read_standard_input` read them
    at the start (a worker process has no standard input of its own)."""
    if (data := standard_input.get(path)) is not None:
        return parse_board(decode_board(data, path), path, **overrides)
    return read_board(path, **overrides)


def read_standard_input(paths: Sequence[str]) -> tuple[list[str], dict[str, bytes]]:
    """The paths with `-` standing for standard input's boards, and those boards by name:
    `-` for one board, `-#1`, `-#2`... for each of a stream `generate` wrote."""
    if "-" not in paths:
        return list(paths), {}
    data = read_bytes("-", limit=MAX_STREAM_BYTES)
    if len(data) > MAX_STREAM_BYTES:
        raise BoardError([Problem("-", 0, "too large for standard input (over 256 MiB)")])
    boards = split_stream(data)
    names = ["-"] if len(boards) == 1 else [f"-#{n}" for n in range(1, len(boards) + 1)]
    expanded = [name for path in paths for name in (names if path == "-" else [path])]
    return expanded, dict(zip(names, boards, strict=True))


def folder_problem(path: str) -> str | None:
    """Why a folder `board_paths` kept holds no board to solve; None for any other path."""
    if not os.path.isdir(path):
        return None
    try:
        os.listdir(path)
    except OSError as error:
        return f"{path}: cannot read this folder: {error.strerror or error}"
    return f"{path}: no *.txt boards in this folder"


def _outcome(move: Move) -> Outcome:
    if move.status is Status.FEASIBLE:
        return Outcome.UNPROVED if move.is_move else Outcome.NOTHING_FOUND
    return Outcome.SOLVED if move.is_move else Outcome.NO_MOVE


def _mismatch(board: Board, move: Move) -> str | None:
    """What differs from the board's `# expect:` line, or None (also when it has none, and
    when a time limit cut the search short: such an answer may fall short, no bug)."""
    if board.expect is None or move.status is Status.FEASIBLE:
        return None
    got = Expectation(move.tiles_played, move.value_played)
    return None if got == board.expect else f"expected {board.expect}, got {got}"


def _check_cell(board: Board, move: Move, mismatch: str | None) -> str:
    """ok or mismatch; unproved for an answer a time limit cut short (not checked)."""
    if board.expect is None:
        return ""
    if move.status is Status.FEASIBLE:
        return "unproved"
    return "mismatch" if mismatch else "ok"


def _row(path: str, board: Board, move: Move, mismatch: str | None, s: BatchSettings) -> str:
    if s.format is Format.JSONL:
        return _jsonl_row(path, board, move, mismatch, s)
    if s.format is Format.CSV:
        return _csv_row(path, board, move, mismatch, s)
    return _table_row(path, board, move, mismatch, s)


def _jsonl_row(path: str, board: Board, move: Move, mismatch: str | None, s: BatchSettings) -> str:
    """`hint --json`'s object with the file first; with --check-expected, the expectation."""
    obj = {"file": path, **move_json(move, board.rules)}
    if s.check_expected and board.expect is not None:
        obj["expect"] = board.expect._asdict()
        obj["check"] = _check_cell(board, move, mismatch)
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
        cells += [str(board.expect or ""), _check_cell(board, move, mismatch)]
    return _csv_line(cells)


def _table_row(path: str, board: Board, move: Move, mismatch: str | None, s: BatchSettings) -> str:
    numbers = (move.status.value, move.tiles_played, move.value_played, f"{move.seconds * 1e3:.1f}")
    cells = [f"{printable(path):<{s.file_width}}", *_table_numbers(numbers)]
    if s.check_expected:
        expect = "-" if board.expect is None else _check_cell(board, move, mismatch)
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
        row = f"{printable(path):<{s.file_width}}  {'error':<9}  " + "; ".join(error.splitlines())
    return BoardResult(file=path, outcome=Outcome.FAILED, row=row, error=error)


def _table_numbers(cells: Sequence[object]) -> list[str]:
    """The status column left-aligned, the numbers right-aligned under their headings."""
    status, *numbers = cells
    return [f"{status!s:<9}", *(f"{n!s:>5}" for n in numbers[:2]), f"{numbers[2]!s:>7}"]


def _csv_line(cells: Iterable[object]) -> str:
    """One CSV record without its line end. A cell holding a line break (a file name may)
    is quoted: the writer quotes what its line terminator holds, so that is not empty."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow(cells)
    return out.getvalue().removesuffix("\r\n")
