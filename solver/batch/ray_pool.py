"""Work beyond one machine: a batch's boards, or a tournament's games, as calls to Ray
actors, results back in input order.

Each actor starts the solver once and keeps it warm between chunks, as the local pool's
worker processes do. Boards travel as their bytes, read here, so that an actor on
another machine needs no copy of the files. An actor that dies (killed, a machine lost,
a crash inside a solver library) is replaced, and what it held is handed out again
before anything new, a board at a time: a board or game that kills an actor twice alone
gets an error row (batch) or stops the run naming it (tournament); nothing is lost or
done twice.

This module imports Ray: only `--ray` loads it.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Generic, TypeVar

import ray
import ray.exceptions

from ..board import read_bytes
from ..engine.backends import get_backend
from ..errors import BoardError
from ..inputs import folder_problem
from ..tournament import GameTask, Played, Work, play_task
from .order import Chunk, InOrder
from .pool import (
    START_ATTEMPTS,
    START_SECONDS,
    WINDOW_PER_JOB,
    BatchError,
    Chunking,
    SolveBoard,
    StartSolver,
    guided_chunks,
)
from .ray_cluster import cluster_cpus, connect
from .rows import BatchSettings, BoardResult, failed, solve_path

Item = TypeVar("Item")
Result = TypeVar("Result")

# Calls queued on an actor at once: the next chunk waits there while one is solved, so
# an actor never idles for a round trip to this process.
CALLS_PER_ACTOR = 2

# What a dead actor's calls fail with.
DEATHS = (
    ray.exceptions.RayActorError,
    ray.exceptions.WorkerCrashedError,
    ray.exceptions.ObjectLostError,
)


class _Actor:
    """A worker on the cluster: the solver started once, then each chunk's items in turn."""

    def __init__(self, start: Callable[[], object], work: Callable[[Any], Any]) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the driver's
        start()
        self.work = work

    def pid(self) -> int:
        return os.getpid()

    def run(self, items: Sequence[Any]) -> list[Any]:
        return [self.work(item) for item in items]


_RemoteActor: Any = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(_Actor)


class RayPool(Generic[Item, Result]):
    """Actors on a Ray cluster, `jobs` of them (default: one per CPU of the cluster, at
    most `most`).

    `start` runs once in each; `work` turns an item into its result there; `ship` turns
    an item into what travels (here, before it is sent); `crashed` is the result of an
    item that killed two actors, or raises to stop the run.
    """

    def __init__(
        self,
        address: str,
        jobs: int | None,
        start: Callable[[], object],
        work: Callable[[Any], Result],
        crashed: Callable[[Item], Result],
        ship: Callable[[Item], Any] = lambda item: item,
        most: int | None = None,
    ) -> None:
        self.connection = connect(address)
        self.start, self.work, self.crashed, self.ship = start, work, crashed, ship
        self.actors: list[Any] = []
        try:
            self.jobs = jobs or min(cluster_cpus(), most or cluster_cpus())
            self.actors = [self._new_actor() for _ in range(self.jobs)]
            self._wait_until_started(self.actors)
        except BaseException:
            self.close()
            raise

    def _new_actor(self) -> Any:
        return _RemoteActor.remote(self.start, self.work)

    def _wait_until_started(self, actors: list[Any]) -> None:
        try:
            ray.get([actor.pid.remote() for actor in actors], timeout=START_SECONDS)
        except ray.exceptions.GetTimeoutError:
            raise BatchError(
                f"the {len(actors)} Ray actors did not start in {START_SECONDS:.0f} s"
                " (too few CPUs free on the cluster?)"
            ) from None
        except ray.exceptions.RayActorError as error:
            cause = error.__cause__ or error
            raise BatchError(
                f"the Ray actors did not start: {str(cause).splitlines()[-1]}"
            ) from None

    @property
    def pids(self) -> list[int]:
        """Each actor's process id (on its machine)."""
        return list(ray.get([actor.pid.remote() for actor in self.actors]))

    def _replace(self, number: int) -> None:
        """Actor `number` died: another in its place (a few tries)."""
        ray.kill(self.actors[number], no_restart=True)
        for _ in range(START_ATTEMPTS):
            self.actors[number] = self._new_actor()
            try:
                self._wait_until_started([self.actors[number]])
                return
            except BatchError:
                pass
        raise BatchError("a Ray actor died and could not be started again")

    def map(
        self,
        items: Sequence[Item],
        chunks: Callable[[Sequence[Item], int], Iterable[Chunk[Item]]],
    ) -> Iterator[Result]:
        """Every item's result in the order of `items`, each as soon as it and all before
        it are done."""
        jobs = len(self.actors)
        order: InOrder[Item, Result] = InOrder(
            len(items),
            chunks(items, jobs),
            WINDOW_PER_JOB * jobs,
            self.crashed,
        )
        queued: list[list[tuple[Any, Chunk[Item]]]] = [[] for _ in range(jobs)]
        # Whether an actor runs a chunk handed out again: alone, with nothing queued behind
        # it. A process that dies may take the answer of the call it had just finished with
        # it, so only a chunk alone on its actor is blamed for the death.
        alone = [False] * jobs

        def hand_out(number: int) -> bool:
            again = bool(order.again)
            if alone[number] or len(queued[number]) >= CALLS_PER_ACTOR:
                return False
            if again and queued[number]:
                return False
            chunk = order.next_chunk(out=sum(map(len, queued)))
            if chunk is None:
                return False
            payload = [self.ship(item) for item in chunk.items]
            queued[number].append((self.actors[number].run.remote(payload), chunk))
            alone[number] = again
            return True

        def died(number: int) -> None:
            lost, queued[number], alone[number] = queued[number], [], False
            self._replace(number)
            order.lost([chunk for _, chunk in lost])

        while True:
            yield from order.next_results()
            if order.all_written:
                return
            for number in range(jobs):
                while hand_out(number):
                    pass
            # Each actor's first call only: an actor runs its calls in turn, so a death
            # seen there is the chunk it was on, and what is queued behind never ran. (A
            # later call's death, seen first, would count a first call that had finished
            # as lost, and as dying alone.)
            calls = {queue[0][0]: number for number, queue in enumerate(queued) if queue}
            ready, _ = ray.wait(list(calls), num_returns=1)
            number = calls[ready[0]]
            try:
                results = ray.get(ready[0])
            except DEATHS:
                died(number)
                continue
            except ray.exceptions.RayTaskError as error:
                raise BatchError(f"a Ray actor failed: {error.cause or error}") from None
            _, chunk = queued[number].pop(0)
            alone[number] = False
            order.finished(chunk, results)

    def close(self) -> None:
        """Stop the actors at once (what they hold is dropped: Ctrl-C), and leave the
        cluster if this pool joined it."""
        for actor in self.actors:
            ray.kill(actor, no_restart=True)
        self.actors = []
        self.connection.close()


# A batch --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shipped:
    """A board as it travels: its name, and its bytes (None: read where it is solved,
    which says why it cannot be read)."""

    path: str
    data: bytes | None


def ship_board(path: str, standard_input: dict[str, bytes] | Any) -> Shipped:
    """The board's bytes, read here; a folder or a file that cannot be read goes by name
    alone, its row made by the same reading on the worker's side."""
    if (data := standard_input.get(path)) is not None:
        return Shipped(path, data)
    if folder_problem(path) is not None:
        return Shipped(path, None)
    try:
        return Shipped(path, read_bytes(path))
    except BoardError:
        return Shipped(path, None)


def solve_shipped(solve: SolveBoard, settings: BatchSettings, board: Shipped) -> BoardResult:
    if board.data is None:
        return solve(board.path, settings)
    return solve(board.path, replace(settings, standard_input={board.path: board.data}))


def crashed_board(settings: BatchSettings, path: str) -> BoardResult:
    return failed(
        path,
        f"{path}: the solver crashed on this board (its Ray actor died twice:"
        " killed, or a crash inside a solver library)",
        settings,
    )


class RayBatch:
    """A batch's boards solved on a Ray cluster: the same rows, in the same order, as the
    local pool's. `start`, `solve` and `chunks` are the local pool's (`Workers`)."""

    def __init__(
        self,
        address: str,
        settings: BatchSettings,
        jobs: int | None,
        most: int | None = None,
        *,
        start: StartSolver = get_backend,
        solve: SolveBoard = solve_path,
        chunks: Chunking = guided_chunks,
    ) -> None:
        self.settings = settings
        self.chunks = chunks
        travelling = replace(settings, standard_input={})  # each board carries its own
        self.pool: RayPool[str, BoardResult] = RayPool(
            address,
            jobs,
            start=partial(start, settings.backend),
            work=partial(solve_shipped, solve, travelling),
            crashed=partial(crashed_board, settings),
            ship=partial(ship_board, standard_input=settings.standard_input),
            most=most,
        )
        self.jobs = self.pool.jobs

    def run(self, paths: Sequence[str]) -> Generator[BoardResult, None, None]:
        """Every board's row in the order of `paths`; the actors stopped at the end, or
        when this iterator is closed (Ctrl-C)."""
        try:
            yield from self.pool.map(paths, self.chunks)
        finally:
            self.close()

    def close(self) -> None:
        self.pool.close()


# A tournament ---------------------------------------------------------------------------


def one_at_a_time(items: Sequence[Item], jobs: int) -> Iterator[Chunk[Item]]:
    """A game a call: each takes long enough to make the hand-over cheap."""
    return (Chunk(at, [item]) for at, item in enumerate(items))


def play_on_actor(work: Work, task: GameTask) -> Played:
    return play_task(task, work)


def crashed_game(task: GameTask) -> Played:
    raise BatchError(
        f"game {task.number} killed its Ray actor twice (killed, or a crash inside a solver"
        " library): the tournament stops there"
    )


class RayGames:
    """A tournament's games played on a Ray cluster: the same games, in the same order, as
    worker processes play them."""

    def __init__(self, address: str, work: Work, jobs: int | None, most: int | None = None):
        self.pool: RayPool[GameTask, Played] = RayPool(
            address,
            jobs,
            start=partial(get_backend, work.options.backend),
            work=partial(play_on_actor, work),
            crashed=crashed_game,
            most=most,
        )
        self.jobs = self.pool.jobs

    def run(self, tasks: Iterable[GameTask]) -> Generator[Played, None, None]:
        """Every task's game in order; the actors stopped at the end, or when this
        iterator is closed (Ctrl-C)."""
        try:
            yield from self.pool.map(list(tasks), one_at_a_time)
        finally:
            self.pool.close()
