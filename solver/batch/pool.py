"""Worker processes for a batch: chunks of boards out, finished rows back, in input order.

Each worker reads, solves, checks and formats its boards and sends back finished rows,
so the parent only writes text. Each has a connection of its own and holds one chunk at
a time, and at most WINDOW_PER_JOB chunks a worker are out or waiting for an earlier
one: a batch of any length holds a bounded number of rows.

Workers are forked from a fork server: a process of one thread, started for them with
the solver's modules loaded. Never from this process, whose solvers may run threads that
a fork would copy in the middle of their work; where there is no fork server, they are
spawned.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any, NoReturn

from ..engine.backends import BACKENDS, DEFAULT_BACKEND, get_backend
from ..engine.via_pulp import remove_leftovers
from ..errors import RummisolveError
from .order import Chunk, InOrder
from .rows import BatchSettings, BoardResult, failed, solve_path

# A chunk takes tens of milliseconds: long enough to make the hand-over cheap, short
# enough that the rows come out steadily; chunks shrink to one board near the end.
MAX_CHUNK = 16


CHUNKS_PER_JOB = 8


# Chunks out or done, per worker, from the one to be written next on.
WINDOW_PER_JOB = 4


# How long workers may take to start their solvers (imports, HiGHS's threads).
START_SECONDS = 60.0


# Tries to start a worker in the place of one that died.
START_ATTEMPTS = 3


# How long a worker stopped by TERM may take to stop the CBC run it waits for, if any.
STOP_SECONDS = 2.0


class BatchError(RummisolveError):
    """The batch itself cannot go on (a single board's failure is only that board's row)."""


# Boards handed to a worker together: where the first stands in the batch, their paths.
Task = Chunk[str]


# What a worker does: start the solver (by backend name), then turn each path into a row.
StartSolver = Callable[["str | None"], object]
SolveBoard = Callable[[str, BatchSettings], BoardResult]
Chunking = Callable[[Sequence[str], int], Iterable[Task]]


def guided_chunks(paths: Sequence[str], jobs: int) -> Iterator[Task]:
    """The paths in chunks that shrink as the batch nears its end (guided scheduling):
    large ones while there is much left, single boards last, so that no worker is left
    alone with a long chunk while the others wait."""
    at = 0
    while at < len(paths):
        size = max(1, min(MAX_CHUNK, (len(paths) - at) // (jobs * CHUNKS_PER_JOB)))
        yield Chunk(at, paths[at : at + size])
        at += size


def usable_cpus() -> int:
    """How many CPUs this process may run on (its affinity: `taskset`, a cpuset), not the
    machine's."""
    return len(_allowed_cpus()) or os.cpu_count() or 1


def _allowed_cpus() -> list[int]:
    """The CPUs this process may run on, where the system says (Linux); else none known."""
    return sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []


def _start_method(backend: str | None) -> Any:
    """The fork server, loading first the module that keeps it to one thread, then this
    one and the backend's libraries; spawning where there is none (Windows)."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    name = backend or DEFAULT_BACKEND  # None: the default
    modules = BACKENDS[name].modules if name in BACKENDS else ()
    # Read when the server starts: the first batch of a process sets it.
    context.set_forkserver_preload([f"{__package__}.one_thread", __name__, *modules])
    return context


class Workers:
    """Worker processes, each on a CPU of its own when they are as many as the CPUs (with
    CPUs to spare the scheduler is left free: two batches at once on a large machine
    would otherwise both take the first CPUs). A worker on a CPU of its own keeps its
    caches: one the scheduler moved each time the parent woke solved twice as slowly.

    `start` and `solve` are what each worker does (they travel to it by name, so they are
    functions of a module); `chunks` cuts a batch's paths into tasks.
    """

    def __init__(
        self,
        settings: BatchSettings,
        jobs: int,
        *,
        start: StartSolver = get_backend,
        solve: SolveBoard = solve_path,
        chunks: Chunking = guided_chunks,
    ) -> None:
        self.settings = settings
        self.work = (settings, start, solve)
        self.chunks = chunks
        self.context = _start_method(settings.backend)
        cpus = _allowed_cpus()
        self.cpus = cpus if jobs == len(cpus) else [None] * jobs
        self.connections: list[Connection] = []
        self.processes: list[Any] = []
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
        process = self.context.Process(
            target=_work, args=(theirs, self.cpus[number], *self.work), daemon=True
        )
        process.start()
        theirs.close()
        if number == len(self.processes):
            self.connections.append(ours)
            self.processes.append(process)
        else:
            self.connections[number], self.processes[number] = ours, process

    def _wait_until_started(self, number: int) -> None:
        connection = self.connections[number]
        started = _receive(connection) if connection.poll(START_SECONDS) else None
        if started is not True:
            raise BatchError(started or f"the {len(self.processes)} worker processes did not start")

    def _replace(self, number: int) -> None:
        """A worker died: another in its place (a few tries: whatever killed it may kill
        the next one as it starts)."""
        for _ in range(START_ATTEMPTS):
            self._reap(number)
            self._start(number)
            try:
                self._wait_until_started(number)
                return
            except BatchError:
                pass
        raise BatchError("a worker process died and could not be started again")

    def solve(self, paths: Sequence[str]) -> Iterator[BoardResult]:
        """Every board's result in the order of `paths`.

        A worker that dies (killed, or a crash inside a solver library) is replaced, and
        what it held is handed out again before anything new (`InOrder`): a board that
        kills a worker twice alone gets an error row.
        """
        jobs = len(self.processes)
        order: InOrder[str, BoardResult] = InOrder(
            len(paths), self.chunks(paths, jobs), WINDOW_PER_JOB * jobs, self._crashed
        )
        held: list[Task | None] = [None] * jobs

        def hand_out(number: int) -> None:
            if held[number] is not None:
                return
            task = order.next_chunk(out=sum(task is not None for task in held))
            if task is not None:
                held[number] = task
                with contextlib.suppress(OSError):  # it died: `wait` sees it
                    self.connections[number].send(task.items)

        def died(number: int) -> None:
            lost, held[number] = held[number], None
            self._replace(number)
            order.lost([] if lost is None else [lost])

        while True:
            yield from order.next_results()
            if order.all_written:
                return
            for number in range(jobs):
                hand_out(number)
            ready = wait([*self.connections, *(p.sentinel for p in self.processes)])
            for number in range(jobs):
                connection, task = self.connections[number], held[number]
                if connection in ready and task and (results := _receive(connection)):
                    order.finished(task, results)
                    held[number] = None
                elif connection in ready or self.processes[number].sentinel in ready:
                    died(number)

    def _crashed(self, path: str) -> BoardResult:
        return failed(
            path,
            f"{path}: the solver crashed on this board (its worker process died:"
            " killed, or a crash inside a solver library)",
            self.settings,
        )

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
        process.join(STOP_SECONDS)
        if process.exitcode is None:  # inside a long call to a solver library
            process.kill()
            process.join()
        self.connections[number].close()
        if process.pid is not None:
            remove_leftovers(process.pid)
        process.close()


def _receive(connection: Connection) -> Any:
    """What a worker sent, or None when it is gone."""
    try:
        return connection.recv()
    except (EOFError, OSError):
        return None


def _work(
    connection: Connection,
    cpu: int | None,
    settings: BatchSettings,
    start: StartSolver,
    solve: SolveBoard,
) -> None:
    """A worker: start the solver, say so, then solve each chunk it gets until the parent
    stops it, or is gone. Ctrl-C is the parent's to handle; a worker that took it too would
    print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop)
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})
    try:
        start(settings.backend)
    except RummisolveError as error:
        connection.send(str(error))
        return
    connection.send(True)
    try:
        while True:
            connection.send([solve(path, settings) for path in connection.recv()])
    except (EOFError, BrokenPipeError):
        pass  # the parent is gone


def _stop(signum: int, frame: object) -> NoReturn:
    """TERM, from the parent stopping its workers: leave through the solver's clean-up
    (a CBC run under way is stopped with its worker, not left to run on its own)."""
    raise SystemExit(128 + signum)
