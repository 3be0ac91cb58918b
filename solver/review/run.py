"""A review: the logs read into positions, each solved, the turns in the logs' order
with the problems where they were found."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..game import Turn
from ..rules import Rules
from .positions import LogProblem, Position, read_log
from .turns import BestOn, Solving, TurnReview, best_on, board_text, impossible, solve_boards


def read_logs(paths: Iterable[str]) -> list[Position | LogProblem]:
    """Every position of the logs (a log that cannot be read: its problem)."""
    found: list[Position | LogProblem] = []
    for path in paths:
        try:
            with Path(path).open(encoding="utf-8", errors="replace") as log:
                found.extend(read_log(log, path))
        except OSError as error:
            found.append(LogProblem(f"{path}: {error.strerror or error}"))
    return found


def review(
    found: list[Position | LogProblem], solving: Solving, jobs: int = 1, best: BestOn = best_on
) -> Iterator[TurnReview | LogProblem]:
    """Each position's review, in order, the problems in their places (a proved best
    below what a turn laid is one); `best` finds a board's best move."""
    positions = [f for f in found if isinstance(f, Position)]
    solved = solve_boards([board_text(p.board) for p in positions], solving, jobs, best)
    for item in found:
        if isinstance(item, LogProblem):
            yield item
            continue
        found_best = next(solved)
        if isinstance(found_best, str):
            yield LogProblem(f"{item.source}, line {item.line}: {found_best}")
            continue
        turn = TurnReview(item, found_best)
        wrong = impossible(turn)
        yield turn if wrong is None else LogProblem(wrong)


def review_game(
    turns: Iterable[Turn], rules: Rules, solving: Solving, source: str
) -> list[TurnReview | LogProblem]:
    """A game just played (`tournament --review`): its turns, as its log would hold them,
    each reviewed; a problem names `source` and the turn's line."""
    lines = [json.dumps(turn.as_json() | {"rules": rules.as_json()}) for turn in turns]
    return list(review(list(read_log(lines, source)), solving))
