"""The local runner: worker processes that turn items into results, handed back in the
order of the items, surviving a worker that dies. A batch's boards (`Workers`) and the
games of `play` and `tournament` run on it; `ray_pool` is its twin on a Ray cluster.

Each worker has a connection of its own and holds one chunk at a time, and at most
WINDOW_PER_JOB chunks a worker are out or waiting for an earlier one (`order.InOrder`):
a run of any length holds a bounded number of results. A worker that dies (killed, a
crash inside a solver library) is replaced, and what it held goes out again before
anything new; an item that kills a second worker alone gets `crashed`'s result.

Workers are forked from a fork server: a process of one thread, started for them with
the solver's modules loaded. Never from this process, whose solvers may run threads that
a fork would copy in the middle of their work; where there is no fork server, they are
spawned.

INT and TERM are this process's to take (it stops the workers). The fork server and each
worker start with both blocked, and a worker takes them only once its own handlers are
in place: a signal at any moment, even to the whole process group, prints no traceback.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from multiprocessing import resource_tracker
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, NoReturn, TypeVar

from ..engine.backends import BACKENDS, DEFAULT_BACKEND, get_backend
from ..engine.via_pulp import remove_leftovers
from ..errors import RummisolveError
from .order import Chunk, InOrder
from .rows import BatchSettings, BoardResult, failed, solve_path

Item = TypeVar("Item")
Result = TypeVar("Result")

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


# The signals this process takes, and its workers only once they can.
SIGNALS = {signal.SIGINT, signal.SIGTERM}


class BatchError(RummisolveError):
    """A run on workers cannot go on (a single board's failure is only that board's row)."""


# Boards handed to a worker together: where the first stands in the batch, their paths.
Task = Chunk[str]


# What a batch worker does: start the solver (by backend name), then turn each path into
# a row.
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


def one_at_a_time(items: Iterable[Item]) -> Iterator[Chunk[Item]]:
    """An item a chunk: each (a game) takes long enough to make the hand-over cheap."""
    return (Chunk(at, [item]) for at, item in enumerate(items))


def usable_cpus() -> int:
    """How many CPUs this process may run on (its affinity: `taskset`, a cpuset), not the
    machine's."""
    return len(_allowed_cpus()) or os.cpu_count() or 1


def _allowed_cpus() -> list[int]:
    """The CPUs this process may run on, where the system says (Linux); else none known."""
    return sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []


def backend_modules(backend: str | None) -> tuple[str, ...]:
    """The modules a backend loads (None: the default's), for the fork server."""
    name = backend or DEFAULT_BACKEND
    return BACKENDS[name].modules if name in BACKENDS else ()


def _start_method(preload: Sequence[str]) -> Any:
    """The fork server, loading first the module that keeps it to one thread, then this
    one and `preload`; spawning where there is none (Windows)."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    # Read when the server starts: the first pool of a process sets it.
    package = __name__.partition(".")[0]
    context.set_forkserver_preload([f"{package}.one_thread", __name__, *preload])
    return context


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """INT and TERM blocked while a child starts: it (and a fork server started for it)
    inherits the mask; one that comes meanwhile is taken here right after. The resource
    tracker that multiprocessing starts with the first child is started first: it
    unblocks both as it starts."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    resource_tracker.ensure_running()
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@dataclass(frozen=True)
class Raised:
    """What a worker's `work` raised (a plug-in strategy's bug), raised again here."""

    error: Exception


class Pool(Generic[Item, Result]):
    """`jobs` worker processes, each on a CPU of its own when they are as many as the CPUs
    (with CPUs to spare the scheduler is left free: two runs at once on a large machine
    would otherwise both take the first CPUs). A worker on a CPU of its own keeps its
    caches: one the scheduler moved each time the parent woke solved twice as slowly.

    `start` runs once in each worker, `work` turns an item into its result there (both
    travel to it by name: functions of a module, or partials of them); `crashed` is the
    result of an item that killed two workers alone, or raises to stop the run; `preload`
    names modules for the fork server to load once for all workers.
    """

    def __init__(
        self,
        jobs: int,
        start: Callable[[], object],
        work: Callable[[Item], Result],
        crashed: Callable[[Item], Result],
        preload: Sequence[str] = (),
    ) -> None:
        self.work: tuple[Callable[[], object], Callable[[Item], Result]] = (start, work)
        self.crashed = crashed
        self.context = _start_method(preload)
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
        if number == len(self.processes):
            self.connections.append(ours)
            self.processes.append(process)
        else:
            self.connections[number], self.processes[number] = ours, process
        try:
            with _signals_held():
                process.start()
        finally:
            theirs.close()

    def _wait_until_started(self, number: int) -> None:
        connection = self.connections[number]
        started = _receive(connection) if connection.poll(START_SECONDS) else None
        if started is not True:
            raise BatchError(started or f"the {len(self.processes)} worker processes did not start")

    def _replace(self, number: int) -> None:
        """A worker died: another in its place (a few tries: whatever killed it may kill
        the next one as it starts, or the fork server with it)."""
        for _ in range(START_ATTEMPTS):
            self._reap(number)
            try:
                self._start(number)
                self._wait_until_started(number)
                return
            except (BatchError, OSError, EOFError):
                pass
        raise BatchError("a worker process died and could not be started again")

    def map(self, chunks: Iterable[Chunk[Item]], total: int | None = None) -> Iterator[Result]:
        """Every item's result, in the order of the chunks' items (`total` of them, or as
        many as there are), each as soon as it and all before it are done."""
        jobs = len(self.processes)
        order: InOrder[Item, Result] = InOrder(total, chunks, WINDOW_PER_JOB * jobs, self.crashed)
        held: list[Chunk[Item] | None] = [None] * jobs

        def hand_out(number: int) -> None:
            if held[number] is not None:
                return
            chunk = order.next_chunk(out=sum(chunk is not None for chunk in held))
            if chunk is not None:
                held[number] = chunk
                with contextlib.suppress(OSError):  # it died: `wait` sees it
                    self.connections[number].send(chunk.items)

        def died(number: int) -> None:
            lost, held[number] = held[number], None
            self._replace(number)
            order.lost([] if lost is None else [lost])

        while True:
            yield from order.next_results()
            for number in range(jobs):
                hand_out(number)
            if order.all_written:
                return
            ready = wait([*self.connections, *(p.sentinel for p in self.processes)])
            for number in range(jobs):
                connection, chunk = self.connections[number], held[number]
                if connection in ready and chunk and (results := _receive(connection)):
                    if isinstance(results, Raised):
                        raise results.error
                    order.finished(chunk, results)
                    held[number] = None
                elif connection in ready or self.processes[number].sentinel in ready:
                    died(number)

    def close(self) -> None:
        """Stop the workers at once: at the end they only wait for more, and when a run
        ends early (Ctrl-C) what they hold is dropped. Each has a connection of its own,
        so no lock or queue is left half used."""
        for process in self.processes:
            if process.pid is not None:
                process.terminate()
        for number in range(len(self.processes)):
            self._reap(number)
        self.connections, self.processes = [], []

    def _reap(self, number: int) -> None:
        """Worker `number`, stopped or dead: waited for, its connection closed, and what a
        solve it was in the middle of left behind removed."""
        process = self.processes[number]
        if (pid := process.pid) is not None:  # None: it never started
            process.join(STOP_SECONDS)
            if process.exitcode is None:  # inside a long call to a solver library
                process.kill()
                process.join()
            remove_leftovers(pid)
        self.connections[number].close()
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
    start: Callable[[], object],
    work: Callable[[Any], Any],
) -> None:
    """A worker: start the solver, say so, then do each chunk it gets until the parent
    stops it, or is gone. Ctrl-C is the parent's to handle; TERM, from the parent, ends
    the worker through the solver's clean-up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})
    try:
        try:
            start()
        except RummisolveError as error:
            connection.send(str(error))
            return
        connection.send(True)
        while True:
            items = connection.recv()
            try:
                results: Any = [work(item) for item in items]
            except Exception as error:  # a plug-in's bug: the parent's to report
                results = Raised(error)
            connection.send(results)
    except (EOFError, OSError):
        pass  # the parent is gone


def _stop(signum: int, frame: object) -> NoReturn:
    """TERM, from the parent stopping its workers: leave through the solver's clean-up
    (a CBC run under way is stopped with its worker, not left to run on its own)."""
    raise SystemExit(128 + signum)


# A batch's boards ------------------------------------------------------------------------


def _solve_board(solve: SolveBoard, settings: BatchSettings, path: str) -> BoardResult:
    return solve(path, settings)


class Workers(Pool[str, BoardResult]):
    """The pool of a batch: each worker starts the solver, then turns each path into its
    row. `start` and `solve` are what each worker does; `chunks` cuts a batch's paths into
    tasks."""

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
        self.chunks = chunks
        super().__init__(
            jobs,
            start=partial(start, settings.backend),
            work=partial(_solve_board, solve, settings),
            crashed=self._crashed,
            preload=backend_modules(settings.backend),
        )

    def solve(self, paths: Sequence[str]) -> Iterator[BoardResult]:
        """Every board's result in the order of `paths`: a board that kills a worker twice
        alone gets an error row."""
        return self.map(self.chunks(paths, len(self.processes)), len(paths))

    def _crashed(self, path: str) -> BoardResult:
        return failed(
            path,
            f"{path}: the solver crashed on this board (its worker process died:"
            " killed, or a crash inside a solver library)",
            self.settings,
        )
