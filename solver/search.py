"""`search`: a player that looks ahead under imperfect information.

At a decision that is not clear (it can lay tiles but not go out) it weighs its
candidate moves: lay the most tiles, lay them keeping the jokers, or hold everything
and draw. For each of a number of samples of what it cannot see (the
opponents' racks and the pool, drawn from the tiles it has not seen, each rack of the
size it has) it plays the next round out with the exact solver: each opponent goes out
if it can, else lays as it has been seen to lay (a player who lays after opening lays
the most it can; one who has not, holds), then the player itself goes out if it can.
A candidate is worth, on average over the same samples, +1 if the player goes out in
that round and -1 if an opponent goes out first. Ties hold: laying feeds the opponents
(a hoarder beats greedy players three games in four), and a tile held can still be laid
later with the rest. For the same reason it opens with the fewest tiles that make the
initial meld (from the sets of the most-tiles and the most-points openings).

A sample agrees with what each opponent's last turn showed: a player that lays what it
can and drew (or laid and kept the rest) held tiles that, jokers aside, laid nothing on
the table then, so a rack that plainly lays (a set of its own, or a tile that adds to a
set of that table) is drawn again. Samples drawn from every unseen tile make opponents
go out far more often than they do, and every rule weighing points then laid too much.

Once the pool is empty every player lays what it can (in the rollout too, whatever it
was seen to do); the player weighs laying the most tiles, the most points, and passing
(only while no opponent holds DANGER_TILES or fewer: passing keeps every point held),
and a tie lays the most tiles. Games between holders are decided there: against three
hoarders a game lasts about as long as the pool, and waiting for them to lay wins.

Points: when the chosen move is caught in three samples of four and an opponent holds
two tiles or fewer, it lays the most points instead: the game is likely lost, and
the points held are what it costs.

A decision asks the solver once a position (`remembering`), and asks whether a rack goes
out only where the tiles it would leave on the table can be cut into sets (`goes_out`):
answers the solver would give, fewer solves.

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
from .game.state import GameState
from .holding import without_jokers
from .move import Move, Objective, TileRow, no_move
from .partition import cannot_go_out
from .sets import meld_value, read_meld
from .tiles import JOKER, Tile, sort_tiles
from .view import Finder, PlayerView, TurnKind

DEFAULT_THINK = 0.1
MAX_THINK = 120.0
"""The rulebook's limit on a turn (two minutes)."""

SAMPLES_PER_SECOND = 80
"""Samples a second of `think` buys: set where the go-out proof (`cannot_go_out`) leaves
a sample cheap enough that more samples win more games (benchmarks/README.md, section
11)."""

MIN_SAMPLES = 3
"""Samples before sampling may stop early: below this, a lead says little."""

DANGER_SHARE = 0.75
"""The share of samples in which an opponent goes out first that makes the player lay
the most points instead..."""
DANGER_TILES = 2
"""...when an opponent holds this many tiles or fewer (measured, benchmarks/README.md
section 11: half the samples, or any rack size, lays too often and wins too little)."""


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
        find = remembering(find)
        board = view.board
        best = find(board, Objective.TILES)
        if not best.is_move or not best.rack:
            return best  # nothing to weigh: draw or go out
        if not board.opened:
            return smallest_opening(view, find, best)
        if view.pool:
            candidates = [Candidate("lay", best), Candidate("hold", no_move(board))]
        else:
            candidates = _without_a_pool(view, find, best)
            if len(candidates) == 1:
                return best
        if JOKER in best.played:
            kept = without_jokers(view, find, best)
            candidates.append(
                Candidate("keep jokers", kept if kept.is_move else candidates[1].move)
            )
        return _weigh(view, find, candidates, self.samples)


def remembering(find: Finder) -> Finder:
    """`find`, asked once a position: a decision's samples meet the same board and rack
    again (a round where no opponent lays ends on the table the player left). The key is
    all the answer depends on, the board as it lies and the objective, so the answer is
    the one a fresh solve gives, and seeded games stay as they were."""
    answers: dict[tuple[Board, Objective], Move] = {}

    def remembered(board: Board, objective: Objective) -> Move:
        key = (board, objective)
        if key not in answers:
            answers[key] = find(board, objective)
        return answers[key]

    return remembered


def _without_a_pool(view: PlayerView, find: Finder, best: Move) -> list[Candidate]:
    """The candidates once the pool is empty: the most tiles, the most points, and passing
    while no opponent is near going out (DANGER_TILES): against holders, who now lay,
    waiting pays; near the end, passing keeps every point held."""
    candidates = [Candidate("lay", best)]
    if min(view.racks[name] for name in view.opponents) > DANGER_TILES:
        candidates.append(Candidate("hold", no_move(view.board)))
    heavy = find(view.board, Objective.VALUE)
    if heavy.played != best.played:
        candidates.append(Candidate("lay points", heavy))
    return candidates


def _weigh(view: PlayerView, find: Finder, candidates: list[Candidate], samples: int) -> Move:
    """The candidate with the best mean outcome over the same samples, holding on a tie,
    or the most points when that one is likely caught (DANGER_SHARE). Stops early when
    the leader's margin exceeds three standard errors of the difference."""
    rng = random.Random(view.luck)
    unseen = view.unseen()
    layers = layers_of(view)
    totals = [0.0] * len(candidates)
    squares = [0.0] * len(candidates)
    caught = [0] * len(candidates)
    deadline = time.monotonic() + MAX_THINK
    dead = dead_racks(view, layers)
    taken = 0
    for taken in range(1, samples + 1):
        racks, pool = sample(view, unseen, dead, rng)
        for i, candidate in enumerate(candidates):
            worth = _play_round(view, find, candidate.move, racks, pool, layers)
            totals[i] += worth
            caught[i] += worth < 0
            squares[i] += worth * worth
        if taken >= MIN_SAMPLES and (_clear(totals, squares, taken) or time.monotonic() > deadline):
            break
    # On a tie: hold while the pool lasts (a tile held can still be laid), else the most tiles.
    hold = next((i for i, c in enumerate(candidates) if c.label == "hold"), 0)
    tied = hold if view.pool else 0
    chosen = max(range(len(candidates)), key=lambda i: (totals[i], i == tied))
    near_out = min(view.racks[name] for name in view.opponents) <= DANGER_TILES
    if near_out and caught[chosen] >= DANGER_SHARE * taken:
        heavy = find(view.board, Objective.VALUE)
        if heavy.is_move:
            return heavy
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
                worth = meld_value(chosen, view.rules)
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


def layers_of(view: PlayerView) -> frozenset[str]:
    """The opponents seen laying after their opening: they lay what they can."""
    plays: dict[str, int] = {}
    for seen in view.history:
        if seen.kind is TurnKind.PLAY:
            plays[seen.player] = plays.get(seen.player, 0) + 1
    return frozenset(name for name, count in plays.items() if count >= 2)


@dataclass(frozen=True)
class Dead:
    """What an opponent's last turn says of its rack: a player that lays what it can
    drew (`drew`: its rack less the tile drawn) or laid and kept the rest, so those
    tiles, jokers aside, laid nothing on the table of that turn. `since`: the tiles laid
    after that turn, whose sets were not on that table."""

    drew: bool
    since: Counter[Tile]


def dead_racks(view: PlayerView, layers: frozenset[str]) -> dict[str, Dead]:
    """The opponents whose rack their last turn tells something of (`Dead`)."""
    dead: dict[str, Dead] = {}
    since: Counter[Tile] = Counter()
    for seen in reversed(view.history):
        name = seen.player
        if name in layers and name not in dead and seen.kind is not TurnKind.PASS:
            dead[name] = Dead(seen.kind is TurnKind.DRAW, since.copy())
        since.update(seen.played)
    return dead


TRIES = 12
"""Racks drawn for an opponent before one that contradicts its last turn is kept anyway
(the table of that turn is only approximated)."""


def sample(
    view: PlayerView, unseen: Sequence[Tile], dead: dict[str, Dead], rng: random.Random
) -> tuple[dict[str, list[Tile]], list[Tile]]:
    """The opponents' racks and the pool, drawn from the unseen tiles; a rack that
    contradicts its owner's last turn (`Dead`) is drawn again, up to TRIES times."""
    left = list(unseen)
    rng.shuffle(left)
    racks: dict[str, list[Tile]] = {}
    for name in view.opponents:
        size = view.racks[name]
        known = dead.get(name)
        if known is None:
            racks[name] = [left.pop() for _ in range(size)]
            continue
        kept = size - 1 if known.drew else size
        for _ in range(TRIES):
            rack = left[len(left) - kept :]
            if not lays_plainly(rack, view, known.since):
                break
            rng.shuffle(left)
        racks[name] = [left.pop() for _ in range(kept)]
        if known.drew and left:
            racks[name].append(left.pop(rng.randrange(len(left))))
    return racks, left


def lays_plainly(rack: Sequence[Tile], view: PlayerView, since: Counter[Tile]) -> bool:
    """Whether the rack's tiles other than jokers make a set of their own, or one of them
    adds to a set of the table that holds none of the tiles laid `since`: the moves a
    player that lays what it can would not have missed (no solver call)."""
    tiles = sort_tiles({t for t in rack if not t.is_joker})
    rules = view.rules
    for three in itertools.combinations(tiles, 3):
        if read_meld(three, rules) is not None:
            return True
    for row in view.table:
        if any(t in since for t in row):
            continue
        if any(read_meld((*row, t), rules) is not None for t in tiles):
            return True
    return False


def _play_round(
    view: PlayerView,
    find: Finder,
    move: Move,
    sampled: dict[str, list[Tile]],
    hidden: Sequence[Tile],
    layers: frozenset[str],
) -> float:
    """One round from `move` on a sample of the hidden tiles: +1 if the player goes out
    on its next turn, -1 if an opponent goes out before, else 0."""
    game = GameState.sampled(view, sampled, hidden, _laid)
    game.apply(move)
    for name in view.opponents:
        board = game.board()
        if name not in layers and game.pool:  # holds unless it goes out
            if goes_out(board, find):
                return -1.0
            game.apply(no_move(board))
            continue
        answer = find(board, Objective.TILES)
        if answer.is_move and not answer.rack:
            return -1.0
        game.apply(answer if answer.is_move else no_move(board))
    return 1.0 if goes_out(game.board(), find) else 0.0


def goes_out(board: Board, find: Finder) -> bool:
    """Whether the player lays its whole rack: asked of the solver only where the tiles
    that would then lie on the table may be cut into sets (`cannot_go_out`), the answer
    it would give."""
    if cannot_go_out(board):
        return False
    answer = find(board, Objective.TILES)
    return answer.is_move and not answer.rack


def _laid(board: Board, move: Move) -> Board:
    """A sample's next board: the solver's moves need no referee, and the jokers are read
    afresh each turn (what they stand for is not kept: a cheaper approximation)."""
    return Board(move.table, move.rack, True, board.rules)


def _sorted(tiles: Sequence[Tile]) -> TileRow:
    return tuple(sort_tiles(tiles))
