"""What the local pool and the Ray pool share: chunks out, results back in input order,
and what a dead worker held handed out again before anything new.

A worker that dies (killed, a crash inside a solver library) loses what it held: the
chunk it was on goes out again a board (or game) at a time, and the chunks queued behind
it too; one that was alone when its worker died, and kills a second, gets its crash
result (once may be a kill from outside). Nothing is lost or done twice.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


@dataclass(frozen=True, order=True)
class Chunk(Generic[Item]):
    """Items handed to a worker together: where the first stands in the run, and them.
    (Not a NamedTuple: a generic one needs Python 3.11.) Ordered by `first`, for the heap."""

    first: int
    items: Sequence[Item]


class InOrder(Generic[Item, Result]):
    """The chunks of a run of `total` items (None: as many as `chunks` holds, a match to
    a target perhaps no end), and their results until they are written.

    At most `window` chunks are out or done and waiting for an earlier one, so a run of any
    length holds a bounded number of results; a chunk handed out again goes whatever the
    window (the next result to write may be in it). `crashed` is the result of an item
    that killed two workers alone, or raises to stop the run.
    """

    def __init__(
        self,
        total: int | None,
        chunks: Iterable[Chunk[Item]],
        window: int,
        crashed: Callable[[Item], Result],
    ) -> None:
        self.total, self.window, self.crashed = total, window, crashed
        self.fresh = iter(chunks)
        self.again: list[Chunk[Item]] = []  # a heap: the earliest first
        self.done: dict[int, list[Result]] = {}
        self.died_alone: set[int] = set()
        self.written = 0
        self.handed = 0  # items of the fresh chunks handed out
        self.ended = False  # no fresh chunk left

    @property
    def all_written(self) -> bool:
        if self.total is not None:
            return self.written == self.total
        return self.ended and self.written == self.handed

    def next_results(self) -> Iterator[Result]:
        """The results done from the next one to write on, in order."""
        while self.written in self.done:
            results = self.done.pop(self.written)
            yield from results
            self.written += len(results)

    def next_chunk(self, out: int) -> Chunk[Item] | None:
        """What an idle worker gets, while `out` chunks are with the workers: one handed
        out again first, else a fresh one if the window allows; None: nothing now."""
        if self.again:
            return heapq.heappop(self.again)
        if len(self.done) + out >= self.window:
            return None
        chunk = next(self.fresh, None)
        if chunk is None:
            self.ended = True
        else:
            self.handed += len(chunk.items)
        return chunk

    def finished(self, chunk: Chunk[Item], results: list[Result]) -> None:
        self.done[chunk.first] = results

    def lost(self, chunks: Sequence[Chunk[Item]]) -> None:
        """What a dead worker held: the chunk it was on first, then those queued behind."""
        for position, chunk in enumerate(chunks):
            if len(chunk.items) > 1 or position > 0:
                for at, item in enumerate(chunk.items, start=chunk.first):
                    heapq.heappush(self.again, Chunk(at, [item]))
            elif chunk.first in self.died_alone:
                self.done[chunk.first] = [self.crashed(chunk.items[0])]
            else:
                self.died_alone.add(chunk.first)
                heapq.heappush(self.again, chunk)
