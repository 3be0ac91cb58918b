"""The model's answer made a move: its score, its steps with each joker where it stands,
and the `Move` itself. Shared by `find_move` (solve.py) and `every_best_move` (every.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from ..board import Board
from ..jokers import joker_places, lay_jokers
from ..move import Move, Objective, SetChange, Source, Status, Step, TileRow, kept_sets
from ..rules import Rules
from ..tiles import Tile, tile_value
from .lp import Solution
from .model import Arrangement, Layout, objective_value, read_solution
from .steps import in_order_of, move_steps

# Each set whose jokers must stand where the rules on jokers let them, as it then lies
# (by its tiles as the model lays them; alike sets in turn).
Laid = dict[TileRow, list[TileRow]]


class Score(NamedTuple):
    """What "best" compares (docs/format.md, "What best means")."""

    tiles: int  # tiles played
    value: int  # their points (a joker at its penalty)
    kept: int  # sets of the table kept as they lie

    @classmethod
    def of(cls, board: Board, arrangement: Arrangement) -> Score:
        played = arrangement.played
        penalty = board.rules.joker_penalty
        value = sum(tile_value(t, penalty) * n for t, n in played.items())
        return cls(sum(played.values()), value, len(arrangement.kept))

    def ranked(self, goal: Objective) -> tuple[int, int, int]:
        """The criteria in the goal's order: tiles first, or points first."""
        return self if goal is Objective.TILES else (self.value, self.tiles, self.kept)

    def objective(self, board: Board, goal: Objective) -> float:
        """The model's objective value for a move of this score."""
        return objective_value(board, goal, self.tiles, self.value, self.kept)


def arrangement_of(layout: Layout, solution: Solution) -> Arrangement | None:
    """What the solution lays, or None where it plays nothing (or found nothing in time)."""
    if solution.values is None:
        return None
    arrangement = read_solution(layout, solution.values)
    return arrangement if +arrangement.played else None


def laid_as(table: Sequence[TileRow], places: Mapping[int, TileRow], rules: Rules) -> Laid:
    """Each set of `table` whose jokers must stand where `places` says, as it then lies."""
    laid: Laid = {}
    for n, roles in places.items():
        laid.setdefault(table[n], []).append(lay_jokers(table[n], roles, rules))
    return laid


def relaid(step: Step, tiles: TileRow) -> Step:
    """The step with its set laid as `tiles` (the same tiles, jokers elsewhere)."""
    sources = tuple(
        Source(s.set_index, in_order_of(tiles, Counter(s.tiles))) for s in step.from_table
    )
    return Step(step.change, tiles, sources, in_order_of(tiles, Counter(step.from_rack)))


def laid_steps(board: Board, arrangement: Arrangement, laid: Laid | None) -> tuple[Step, ...]:
    """The arrangement's steps, each set holding a joker with its jokers where the rules on
    jokers let them stand (`laid`; found here when not given). A kept set stays as it lay."""
    steps = move_steps(board, arrangement)
    if laid is not None:  # a copy: each alike set takes its own in turn
        laid = {tiles: list(rows) for tiles, rows in laid.items()}
    else:
        table = [step.tiles for step in steps]
        places = joker_places(board, table, arrangement.played, kept_sets(board, steps))
        assert places is not None, "the model broke the rules on jokers"
        laid = laid_as(table, places, board.rules)
    return tuple(
        relaid(step, laid[step.tiles].pop(0))
        if step.change is not SetChange.KEEP and laid.get(step.tiles)
        else step
        for step in steps
    )


def assemble(
    board: Board,
    played: Counter[Tile],
    steps: tuple[Step, ...],
    status: Status,
    seconds: float,
    backend: str,
) -> Move:
    """The move that plays `played` from the rack and lays the table as `steps` say."""
    tiles = in_order_of(board.rack, played)
    rest = Counter(board.rack) - Counter(tiles)
    return Move(
        status=status,
        played=tiles,
        table=tuple(step.tiles for step in steps),
        rack=in_order_of(board.rack, rest),
        tiles_played=len(tiles),
        value_played=sum(tile_value(t, board.rules.joker_penalty) for t in tiles),
        seconds=seconds,
        steps=steps,
        backend=backend,
    )
