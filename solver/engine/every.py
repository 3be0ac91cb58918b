"""Every best move of a position, and the proof that no other is as good.

The best move's score is fixed first (`find_move`, under the board's own rules). Then
the model with jokers free (every table the board's rules allow is a table of valid
sets, so its solutions hold every legal move) is asked for its solutions worth exactly
that score, one per outline (`Outline`: all but how the runs are cut, which no move's
key tells apart). Its space is cut into parts that do not overlap by bounds on the
outline's columns and a row or two: for a solution x found in a part, the rest of that
part is "some column that x leaves at 0 is used", or else "those stay 0 and x differs on
its own columns". Each solution is read back into tables (every way its loose jokers can
lie), and each table the board's rules allow (the checker's `joker_places`) is a best
move. Where the rules refuse one, the same outline is searched again, cut by the runs
its jokers may lie in. Two moves are the same when they leave the same groups and the
same tiles in sets of one colour (`move_key`): where a run is cut, and where a joker
stands, aside.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

import numpy as np

from ..board import Board
from ..jokers import joker_places, lay_jokers, table_readings
from ..move import Move, Objective, SetChange, Status, TileRow, kept_sets
from ..rules import JokerRetrieval
from ..tiles import JOKER, Tile, tile_value
from .assemble import Score, assemble, relaid
from .backends import Backend, get_backend
from .builder import Floats, Ints, Mip
from .lp import Deadline
from .model import Arrangement, build_model, read_solution
from .parts import Part, Row, alike, outline_of, rest_of, with_rows
from .solve import find_move
from .steps import join_runs, move_steps


class Criteria(enum.Enum):
    """Which criteria of "best" the moves listed must be equal on."""

    BEST = "best"  # all of them: tiles, points, sets kept (in the objective's order)
    TILES = "tiles"  # the most tiles, whatever their points and the sets changed
    VALUE = "value"  # the most points, whatever the tiles and the sets changed


@dataclasses.dataclass(frozen=True)
class BestMoves:
    """The best moves found: all of them when `complete`, else at least these.

    `solves` counts the integer programs solved after the first best move: the work that
    proved the list complete (or found it longer than the limit)."""

    moves: tuple[Move, ...]
    complete: bool
    solves: int
    seconds: float
    past_limit: bool = False  # a move past the limit was found: more moves than listed

    @property
    def count(self) -> int:
        return len(self.moves)

    @property
    def unique(self) -> bool:
        return self.complete and len(self.moves) == 1


class MoveKey(NamedTuple):
    """What makes two moves different: the groups laid, and per colour the tiles (and
    jokers) in sets of that colour alone, however the runs are cut."""

    groups: tuple[tuple[Tile, ...], ...]
    runs: tuple[tuple[str, tuple[Tile, ...]], ...]


def move_key(table: Sequence[TileRow]) -> MoveKey:
    """The move's table, up to the order of sets, where jokers stand and how runs of one
    colour are cut (R1-R8 and R1-R4 R5-R8 are one way to lay those tiles). A set whose real
    tiles are of one colour, a run or a set of one real tile and jokers, counts with that
    colour's tiles; the rest are groups."""
    groups: list[tuple[Tile, ...]] = []
    runs: dict[str, list[Tile]] = {}
    for row in table:
        colours = {t.colour for t in row if not t.is_joker}
        real = [t for t in row if not t.is_joker]
        if len(colours) <= 1 and len(set(real)) == len(real):
            colour = next((t.colour.letter for t in real if t.colour is not None), "J")
            runs.setdefault(colour, []).extend(row)
        else:
            groups.append(tuple(sorted(row, key=Tile.sort_key)))
    return MoveKey(
        tuple(sorted(groups, key=lambda g: [t.sort_key() for t in g])),
        tuple(sorted((c, tuple(sorted(ts, key=Tile.sort_key))) for c, ts in runs.items())),
    )


def every_best_move(
    board: Board,
    objective: Objective | str = Objective.TILES,
    criteria: Criteria | str = Criteria.BEST,
    limit: int | None = None,
    backend: str | None = None,
    time_limit: float | None = None,
    max_solves: int | None = None,
    listed: Listed | None = None,
) -> BestMoves:
    """Every best move on the board (at most `limit`: then `complete` says whether more
    are left); the first is `find_move`'s. A time limit, or `max_solves` integer programs
    solved (a bound on the work that does not depend on the machine), leave the list
    incomplete. `listed` sees the list as it grows: what an interrupted search found."""
    started = time.perf_counter()
    goal, wanted = Objective(objective), Criteria(criteria)
    if wanted is not Criteria.BEST:
        goal = Objective.TILES if wanted is Criteria.TILES else Objective.VALUE
    solver = get_backend(backend)
    best = find_move(board, goal, solver.name, time_limit)
    if listed is not None:
        listed(BestMoves((best,) if best.is_move else (), False, 0, _since(started)))
    if not best.is_move or best.status is not Status.OPTIMAL:
        moves = (best,) if best.is_move else ()
        return BestMoves(moves, best.status is Status.NO_MOVE, 0, _since(started))
    search = _Search(board, goal, wanted, best, solver, limit, max_solves)
    if listed is not None:
        search.listed = lambda: listed(
            BestMoves(tuple(search.moves[:limit]), False, search.solves, _since(started))
        )
    complete = search.run(Deadline(started + time_limit) if time_limit is not None else None)
    found = tuple(search.moves)
    return BestMoves(found, complete, search.solves, _since(started), search.past_limit)


# What `every_best_move` has found so far, after each integer program it solves.
Listed = Callable[[BestMoves], None]


def _since(started: float) -> float:
    return time.perf_counter() - started


class _Search:
    """The solutions of the jokers-free model worth the best move's score, part by part."""

    def __init__(
        self,
        board: Board,
        goal: Objective,
        wanted: Criteria,
        best: Move,
        solver: Backend,
        limit: int | None,
        max_solves: int | None,
    ) -> None:
        self.board, self.solver, self.limit = board, solver, limit
        self.max_solves = max_solves
        self.past_limit = False
        self.wanted = wanted
        free = board.rules.replace(joker_retrieval=JokerRetrieval.FREE, locked_joker_sets=False)
        mip, self.layout = build_model(dataclasses.replace(board, rules=free), goal)
        self.score = _score(board, best, wanted)
        if wanted is Criteria.BEST:
            cost = mip.cost
            target = _kept_score(board, best).objective(board, goal)
        else:
            cost = self._criterion_cost(mip, wanted)
            target = float(best.tiles_played if wanted is Criteria.TILES else best.value_played)
        used = np.flatnonzero(cost)
        score_row = Row(used.tolist(), cost[used].tolist(), target, target)
        self.mip = dataclasses.replace(mip, cost=cost, cutoff=target - 1)
        self.target = target
        self.outline = outline_of(self.mip, self.layout, _in_play(board))
        self.mip = self.outline.mip
        self.everything = np.arange(self.mip.columns)
        rows = (score_row, *self._alike_kept(board), *self._bound_jokers(board))
        rows = (*rows, *self.outline.rows)
        self.first = Part(self.mip.lower, self.mip.upper, rows)
        self.moves: list[Move] = [best]
        self.keys = {move_key(best.table)}
        # Per outline searched: the keys its readings could lay that none has yet, and the
        # columns of the runs where its jokers may lie.
        self.owed: dict[bytes, tuple[set[MoveKey], Ints]] = {}
        self.solves = 0
        self.listed: Callable[[], None] = lambda: None

    def _alike_kept(self, board: Board) -> Iterator[Row]:
        """Of two sets of the table alike, the first is kept if the second is: keeping
        either lays the same table, and the search need not find it twice."""
        kept = self.layout.columns.kept
        if not board.opened or not len(kept):
            return
        first: dict[TileRow, int] = {}
        for n, tiles in enumerate(board.table):
            key = tuple(sorted(tiles, key=Tile.sort_key))
            if key in first:
                yield Row([kept[first[key]], kept[n]], [1.0, -1.0], 0.0, np.inf)
            first[key] = n

    def _bound_jokers(self, board: Board) -> Iterator[Row]:
        """Where a table joker is retrieved only by replacement, it stays standing for its
        tile, or a copy of that tile is played, or its set is kept: a tile's table jokers
        (of sets read one way only) are at most the jokers standing for it, its copies
        played and the jokers of its sets kept. The jokers-free model's other solutions
        lay tables the rules refuse."""
        if not board.opened or not board.rules.by_replacement:
            return
        columns = self.layout.columns
        stand_in = dict(zip(self.layout.stand_ins, columns.stand_ins, strict=True))
        played = dict(zip(self.layout.played, columns.played, strict=True))
        holders: dict[Tile, Counter[int]] = {}
        for n, tiles in enumerate(board.table):
            if JOKER not in tiles or all(t.is_joker for t in tiles):
                continue
            readings = table_readings(tiles, board.declared_for(n), board.rules)
            if len(readings) == 1:
                for tile in readings[0]:
                    holders.setdefault(tile, Counter())[columns.kept[n]] += 1
        for tile, kept in holders.items():
            if tile not in stand_in:
                continue  # no column counts the jokers standing for it
            row = Counter({stand_in[tile]: 1, **kept})
            if tile in played:
                row[played[tile]] += 1
            yield Row(list(row), [float(k) for k in row.values()], kept.total(), np.inf)

    def _criterion_cost(self, mip: Mip, wanted: Criteria) -> Floats:
        """Tiles played, or points played, per column: one criterion alone."""
        cost = np.zeros(mip.columns)
        columns, penalty = self.layout.columns, self.board.rules.joker_penalty
        for n, tile in zip(columns.played, self.layout.played, strict=True):
            cost[n] = 1.0 if wanted is Criteria.TILES else tile_value(tile, penalty)
        for n in columns.rack_jokers:
            cost[n] = 1.0 if wanted is Criteria.TILES else penalty
        return cost

    def run(self, deadline: Deadline | None) -> bool:
        """Search every part; False where the limit or the time stopped it first.

        Parts are cut by the outline's columns (`Outline`), so that each outline is
        solved once; within an outline whose readings lay a table the rules refuse, by
        the cuts of the runs its jokers may lie in, until some solution lays each of its
        keys or none is left."""
        shown = self.outline.shown
        # Each part with the outline it lies within (None: it is cut by outlines).
        parts: list[tuple[Part, bytes | None]] = [(self.first, None)]
        while parts:
            if self._past_limit():
                return False
            if deadline is not None and deadline.passed():
                return False
            if self.max_solves is not None and self.solves >= self.max_solves:
                return False
            part, within = parts.pop()
            if within is not None and not self.owed[within][0]:
                continue  # every key of its outline is laid: the rest lays nothing new
            values, proved = self._solve(part, deadline)
            if not proved:
                return False
            if values is not None:
                refused = self._read(values)
                if within is not None:
                    owed, cuts = self.owed[within]
                    owed -= self.keys
                    parts.extend((p, within) for p in rest_of(part, values, cuts))
                else:
                    parts.extend((p, None) for p in rest_of(part, values, shown))
                    outline, cuts = values[shown].tobytes(), self.outline.cuts(values)
                    self.owed[outline] = (refused - self.keys, cuts)
                    if self.owed[outline][0]:
                        same = alike(part, values, np.setdiff1d(self.everything, cuts))
                        parts.extend((p, outline) for p in rest_of(same, values, cuts))
            self.listed()
        return not self._past_limit()

    def _past_limit(self) -> bool:
        """More moves found than the limit: the list is cut to it."""
        if self.limit is None or len(self.moves) <= self.limit:
            return False
        del self.moves[self.limit :]
        self.past_limit = True
        return True

    def _solve(self, part: Part, deadline: Deadline | None) -> tuple[Floats | None, bool]:
        """A solution of the part worth the score (None: there is none), and whether the
        search was finished (not cut short by the time limit)."""
        self.solves += 1
        mip = dataclasses.replace(self.mip, lower=part.lower, upper=part.upper)
        solution = self.solver.solve(with_rows(self.outline.program, mip, part.rows), deadline)
        if not solution.proved:
            return None, False
        if solution.values is None:
            return None, True
        values = np.rint(solution.values)
        # HiGHS's own MIP (the last resort) knows no cutoff: its optimum may fall short.
        if float(self.mip.cost @ values) < self.target - 0.5:
            return None, True
        return values, True

    def _read(self, values: Floats) -> set[MoveKey]:
        """Every best move this solution lays, new ones kept; the keys of the tables it
        lays that the rules refuse (or that keep fewer sets than the model counted)."""
        arrangement = read_solution(self.layout, values)
        refused: set[MoveKey] = set()
        for key, move in _moves(self.board, arrangement, self.solver.name):
            if key in self.keys:
                continue
            if move is None or _score(self.board, move, self.wanted) != self.score:
                refused.add(key)
                continue
            self.keys.add(key)
            self.moves.append(move)
        return refused


def _kept_score(board: Board, move: Move) -> Score:
    """The move's score; sets kept count only once opened (before, the model never saw
    the table)."""
    kept = sum(s.change is SetChange.KEEP for s in move.steps) if board.opened else 0
    return Score(move.tiles_played, move.value_played, kept)


def _score(board: Board, move: Move, wanted: Criteria) -> tuple[int, ...]:
    """The criteria the moves listed must be equal on."""
    score = _kept_score(board, move)
    if wanted is Criteria.TILES:
        return (score.tiles,)
    if wanted is Criteria.VALUE:
        return (score.value,)
    return score


def _in_play(board: Board) -> Counter[Tile]:
    """Copies of each tile in play (jokers too): the table's once opened, and the rack's."""
    return Counter([*board.table_tiles, *board.rack] if board.opened else board.rack)


def _moves(
    board: Board, arrangement: Arrangement, backend: str
) -> Iterator[tuple[MoveKey, Move | None]]:
    """Each table the arrangement lays, one per way its loose jokers can lie among the
    sets holding the tiles they stand for: its key, and its move where the board's rules
    allow it (else None)."""
    seen: set[tuple[TileRow, ...]] = set()
    for new_sets in _joker_layings(arrangement):
        laid = Arrangement([], arrangement.played, Counter(), arrangement.kept, hosts=new_sets)
        steps = move_steps(board, laid)
        table = tuple(step.tiles for step in steps)
        if table in seen:
            continue
        seen.add(table)
        places = joker_places(board, table, arrangement.played, kept_sets(board, steps))
        if places is None:
            yield move_key(table), None
            continue
        steps = tuple(
            relaid(step, lay_jokers(step.tiles, places[n], board.rules)) if n in places else step
            for n, step in enumerate(steps)
        )
        move = assemble(board, arrangement.played, steps, Status.OPTIMAL, 0.0, backend)
        yield move_key(move.table), move


def _joker_layings(arrangement: Arrangement) -> Iterator[list[TileRow]]:
    """The new sets (runs that continue each other joined), for each choice of the pieces
    that hold the loose jokers: k jokers standing for a tile, in k of the pieces holding it."""
    pieces = arrangement.pieces
    choices = []
    for tile, k in sorted(arrangement.stand_ins.items(), key=lambda item: item[0].sort_key()):
        if k:
            holders = [n for n, p in enumerate(pieces) if tile in p]
            choices.append([(tile, chosen) for chosen in itertools.combinations(holders, k)])
    for choice in itertools.product(*choices):
        jokers: dict[int, set[Tile]] = {}
        for tile, chosen in choice:
            for n in chosen:
                jokers.setdefault(n, set()).add(tile)
        runs, groups = [], []
        for n, piece in enumerate(pieces):
            laid = tuple(JOKER if t in jokers.get(n, ()) else t for t in piece)
            if piece[0].number == piece[1].number:
                groups.append(laid)
            else:
                runs.append((piece, laid))
        yield join_runs(runs) + groups
