"""Worker processes for a batch: chunks of paths out, finished rows back, in order.

Each worker reads, solves, checks and formats its boards itself and hands back finished
rows, so the parent only writes text: with two workers on two cores it stays out of
their way. Work goes out in chunks, with only a few chunks in flight at a time, so a
batch of any length holds a bounded number of rows in memory.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Iterator, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, NamedTuple

from ..engine.backends import get_backend, load_backend
from ..engine.highs import highs_started
from ..engine.via_pulp import remove_leftovers
from ..errors import RummisolveError
from .rows import BatchSettings, BoardResult, failed, solve_path

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


class BatchError(RummisolveError):
    """The batch itself cannot go on (a single board's failure is only that board's row)."""


def usable_cpus() -> int:
    """How many CPUs this process may run on (its affinity: `taskset`, a cpuset), not the
    machine's."""
    return len(_allowed_cpus()) or os.cpu_count() or 1


def _allowed_cpus() -> list[int]:
    """The CPUs this process may run on, where the system says (Linux); else none known."""
    return sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []


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
                    finished[crashed.first] = [failed(path, _crash(path), self.settings)]
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
