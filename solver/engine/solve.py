"""Finding the best move: the stages the board's rules call for (stages.py), run in
order until one ends the search, and its answer laid out as a move."""

from __future__ import annotations

import time

from ..board import Board
from ..move import Move, Objective, Status, no_move
from .assemble import assemble, laid_steps
from .backends import get_backend
from .joker_model import OutOfTime
from .lp import Clock, Deadline
from .stages import STAGES, Answer, Search, Watch


def find_move(
    board: Board,
    objective: Objective | str = Objective.TILES,
    backend: str | None = None,
    time_limit: float | None = None,
    clock: Clock = time.perf_counter,
    watch: Watch | None = None,
) -> Move:
    """The best move on the board, proved best unless the time limit cut the search short.
    With a limit the search goes on until it is proved or the limit reached (`clock`, a
    caller's own, says when: seconds from some start); then the best legal move at hand.
    `watch` is told each stage's answer and seconds as it ends (a benchmark's timer)."""
    solver = get_backend(backend)
    timed = time_limit is not None
    stages = [stage for stage in STAGES if stage.applies(board, timed)]
    if timed:
        for stage in stages:
            stage.prepare(board)  # one-off, before the clock: the limit is the search's
    started = time.perf_counter()
    search = Search(board, Objective(objective), solver, Deadline.after(time_limit, clock))
    answer = Answer()
    try:
        for stage in stages:
            if stage.wanted(search):
                began = time.perf_counter()
                answer = search.answers[stage.name] = stage.solve(search)
                if watch is not None:
                    watch(stage.name, answer, time.perf_counter() - began)
                if answer.ends:
                    break
    except OutOfTime:
        answer = Answer(ends=True)
    if answer.found is None and not answer.proved:  # out of time: the best at hand
        answer = Answer(search.best(fallback=True))
    seconds = time.perf_counter() - started
    if answer.found is None:
        return no_move(board, answer.proved, seconds, solver.name)
    found = answer.found
    steps = laid_steps(board, found.arrangement, found.laid)
    status = Status.OPTIMAL if answer.proved else Status.FEASIBLE
    return assemble(board, found.arrangement.played, steps, status, seconds, solver.name)
