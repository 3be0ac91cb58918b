"""`search`: a player that looks ahead under imperfect information.

At a decision that is not clear (it can lay tiles but not go out, and the pool is not
empty) it weighs its candidate moves: lay the most tiles, lay them keeping the jokers,
or hold everything and draw. For each of a number of samples of what it cannot see (the
opponents' racks and the pool, drawn from the tiles it has not seen, each rack of the
size it has) it plays the next round out with the exact solver: each opponent goes out
if it can, else lays as it has been seen to lay (a player who lays after opening lays
the most it can; one who has not, holds), then the player itself goes out if it can.
A candidate is worth, on average over the same samples, +1 if the player goes out in
that round and -1 if an opponent goes out first. Ties hold: laying feeds the opponents
(a hoarder beats greedy players three games in four), and a tile held can still be laid
later with the rest. For the same reason it opens with the fewest tiles that make the
initial meld (from the sets of the most-tiles and the most-points openings).

The budget is counted in samples, not read from a clock, so that the same seed plays
the same games at a budget: `think` seconds buy `think * SAMPLES_PER_SECOND` samples a
decision, and sampling stops early once one candidate leads by far. A decision never
runs past the rulebook's two minutes a turn.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .board import Board
from .move import Move, Objective, TileRow, no_move
from .sets import read_meld
from .strategies import without_jokers
from .tiles import JOKER, Tile, sort_tiles
from .view import Finder, PlayerView, TurnAction

DEFAULT_THINK = 0.1
MAX_THINK = 120.0
"""The rulebook's limit on a turn (two minutes)."""

SAMPLES_PER_SECOND = 40
"""Samples a second of `think` buys: a sample costs a solver call per player and
candidate (4 players, 2 candidates: 8 calls, about 15 ms on an idle machine)."""

MIN_SAMPLES = 3
"""Samples before sampling may stop early: below this, a lead says little."""


@dataclass(frozen=True)
class Candidate:
    """A move the search weighs: what it lays (nothing: hold and draw)."""

    label: str
    move: Move


@dataclass(frozen=True)
class Search:
    """Weighs laying against holding by sampling the hidden tiles (module docstring)."""

    think: float = DEFAULT_THINK
    name: str = "search"

    @property
    def samples(self) -> int:
        return max(MIN_SAMPLES, math.ceil(min(self.think, MAX_THINK) * SAMPLES_PER_SECOND))

    def choose(self, view: PlayerView, find: Finder) -> Move:
        board = view.board
        best = find(board, Objective.TILES)
        if not best.is_move or not best.rack or view.pool == 0:
            return best  # nothing to weigh: draw, go out, the last tiles
        if not board.opened:
            return smallest_opening(view, find, best)
        candidates = [Candidate("lay", best), Candidate("hold", no_move(board))]
        if JOKER in best.played:
            kept = without_jokers(view, find, best)
            candidates.append(
                Candidate("keep jokers", kept if kept.is_move else candidates[1].move)
            )
        return _weigh(view, find, candidates, self.samples)


def _weigh(view: PlayerView, find: Finder, candidates: list[Candidate], samples: int) -> Move:
    """The candidate with the best mean outcome over the same samples; holding on a tie.
    Stops early when the leader's margin exceeds three standard errors of the difference."""
    rng = random.Random(view.luck)
    unseen = view.unseen()
    layers = _layers(view)
    totals = [0.0] * len(candidates)
    squares = [0.0] * len(candidates)
    deadline = time.monotonic() + MAX_THINK
    taken = 0
    for taken in range(1, samples + 1):
        hidden = unseen[:]
        rng.shuffle(hidden)
        for i, candidate in enumerate(candidates):
            worth = _play_round(view, find, candidate.move, hidden, layers)
            totals[i] += worth
            squares[i] += worth * worth
        if taken >= MIN_SAMPLES and (_clear(totals, squares, taken) or time.monotonic() > deadline):
            break
    hold = next(i for i, c in enumerate(candidates) if c.label == "hold")
    chosen = max(range(len(candidates)), key=lambda i: (totals[i], i == hold))
    return candidates[chosen].move


def smallest_opening(view: PlayerView, find: Finder, best: Move) -> Move:
    """The initial meld of the fewest tiles (of the most points among those) that the
    sets of the most-tiles or the most-points opening make: the rest stays hidden, and
    feeds nobody."""
    board = view.board
    heavy = find(board, Objective.VALUE)
    needed = view.rules.initial_meld
    choice: tuple[int, int, tuple[TileRow, ...]] | None = None
    for move in (best, heavy):
        new = Counter(move.table)
        new.subtract(Counter(board.table))
        sets = [row for row in new.elements()]
        for size in range(1, len(sets) + 1):
            for chosen in itertools.combinations(sets, size):
                worth = sum(_meld_value(row, view) for row in chosen)
                tiles = sum(len(row) for row in chosen)
                if worth >= needed and (choice is None or (tiles, -worth) < choice[:2]):
                    choice = (tiles, -worth, chosen)
    if choice is None or choice[0] >= len(best.played):
        return best
    laid = [t for row in choice[2] for t in row]
    smaller = find(dataclasses.replace(board, rack=_sorted(laid)), Objective.TILES)
    if not smaller.is_move:
        return best
    left = Counter(board.rack) - Counter(smaller.played)
    return dataclasses.replace(smaller, rack=_sorted(list(left.elements())))


def _meld_value(row: TileRow, view: PlayerView) -> int:
    meld = read_meld(row, view.rules)
    return meld.face_value if meld is not None else 0


def _clear(totals: Sequence[float], squares: Sequence[float], n: int) -> bool:
    """Whether the leader's lead over every other is past three standard errors (or no
    sample has told the candidates apart at all)."""
    means = [t / n for t in totals]
    if max(means) == min(means) and all(s == 0 for s in squares):
        return n >= 2 * MIN_SAMPLES
    lead = max(range(len(means)), key=means.__getitem__)
    for i, mean in enumerate(means):
        if i == lead:
            continue
        spread = sum((squares[j] / n - means[j] ** 2) for j in (i, lead))
        if means[lead] - mean <= 3 * math.sqrt(max(spread, 0.0) / n):
            return False
    return True


def _layers(view: PlayerView) -> frozenset[str]:
    """The opponents seen laying after their opening: they lay what they can."""
    plays: dict[str, int] = {}
    for seen in view.history:
        if seen.action is TurnAction.PLAY:
            plays[seen.player] = plays.get(seen.player, 0) + 1
    return frozenset(name for name, count in plays.items() if count >= 2)


def _play_round(
    view: PlayerView, find: Finder, move: Move, hidden: Sequence[Tile], layers: frozenset[str]
) -> float:
    """One round from `move` on a sample of the hidden tiles: +1 if the player goes out
    on its next turn, -1 if an opponent goes out before, else 0."""
    rules = view.rules
    pool = list(hidden)
    racks: dict[str, list[Tile]] = {}
    for name in view.opponents:
        racks[name] = [pool.pop() for _ in range(view.racks[name])]
    table = move.table
    rack: list[Tile] = list(move.rack)
    if not move.is_move and pool:
        rack.append(pool.pop())

    for name in view.opponents:
        answer = find(Board(table, _sorted(racks[name]), view.opened[name], rules), Objective.TILES)
        if answer.is_move and not answer.rack:
            return -1.0
        if answer.is_move and name in layers:
            table, racks[name] = answer.table, list(answer.rack)
        elif pool:
            racks[name].append(pool.pop())
    opened = move.is_move or view.opened[view.player]
    mine = find(Board(table, _sorted(rack), opened, rules), Objective.TILES)
    if mine.is_move and not mine.rack:
        return 1.0
    return 0.0


def _sorted(tiles: Sequence[Tile]) -> TileRow:
    return tuple(sort_tiles(tiles))
