"""Puzzles: dealt positions whose best move is proved to be the only one, each with a
measured difficulty.

A candidate is dealt (`generate.generate_boards`) for its kind, solved, and kept only
where its best move is of that kind and `every_best_move` proves it unique. Its difficulty
is measured on the answer (docs/format.md, "Puzzles"): the sets the player must lay or
touch, the table tiles that change set, and the rival moves that play as many tiles.
The same seed gives the same puzzles.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import NamedTuple

from .board import Board, Expectation, format_board
from .engine.every import BestMoves, Criteria, every_best_move
from .engine.solve import find_move
from .errors import RummisolveError
from .generate import generate_boards
from .legality import check_move
from .move import Move, SetChange
from .render import render_move
from .rules import Rules
from .tiles import Tile


class Kind(enum.Enum):
    """What the answer does."""

    ALL_OUT = "all-out"  # the whole rack is laid (opened)
    MOST_TILES = "most-tiles"  # the most tiles, not all (opened)
    INITIAL_MELD = "initial-meld"  # the initial meld (not opened)


class Band(enum.Enum):
    """Difficulty bands, by score (`Difficulty.score`)."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"

    @classmethod
    def of(cls, score: int) -> Band:
        if score <= EASY_UP_TO:
            return cls.EASY
        return cls.MEDIUM if score <= MEDIUM_UP_TO else cls.HARD


# Score bounds of the bands (chosen so that each kind deals all three).
EASY_UP_TO, MEDIUM_UP_TO = 5, 10
# Rival moves are counted up to this many, in at most this many solves: past either, a
# puzzle has "many" (a bound on work, not on time: the same seed, the same puzzles).
RIVALS_COUNTED = 10
RIVAL_SOLVES = 200
# Candidates dealt per puzzle asked before giving up on a band that never comes.
ATTEMPTS_PER_PUZZLE = 400
# All out: tiles of the table tried before a candidate is given up, per rack tile.
TRIES_PER_TILE = 6


class Difficulty(NamedTuple):
    """What the answer asks of a player, and what proving it took."""

    sets_laid: int  # sets of the new table laid or changed (every step but "stays")
    tiles_moved: int  # table tiles that end in a set other than the one they lay in
    rivals: int  # other moves playing as many tiles (fewer points or more sets changed)
    proof_solves: int  # integer programs solved to prove the answer the only best one

    @property
    def score(self) -> int:
        return self.sets_laid + self.tiles_moved + min(self.rivals, RIVALS_COUNTED)

    @property
    def band(self) -> Band:
        return Band.of(self.score)

    def describe(self) -> str:
        rivals = f"{self.rivals}+" if self.rivals >= RIVALS_COUNTED else str(self.rivals)
        sets, tiles = _counted(self.sets_laid, "set"), _counted(self.tiles_moved, "table tile")
        moves = f"{rivals} rival move{'' if rivals == '1' else 's'}"
        return (
            f"{self.band.value} (score {self.score}: {sets} laid or changed, {tiles} moved, "
            f"{moves}; uniqueness proved in {_counted(self.proof_solves, 'solve')})"
        )


def _counted(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


@dataclasses.dataclass(frozen=True)
class Puzzle:
    """A position with one best move, its answer and its difficulty."""

    board: Board  # with its `# expect:` line
    answer: Move
    difficulty: Difficulty
    kind: Kind
    seed: int
    number: int  # the candidate's number for this seed: the same number, the same puzzle

    def text(self) -> str:
        """The puzzle as a board file: what it is, its answer as comments, the board."""
        shown = render_move(self.board, self.answer).splitlines()[:-1]
        lines = [
            f"# rummisolve puzzle: {self.kind.value}, seed {self.seed}, candidate {self.number}",
            f"# difficulty: {self.difficulty.describe()}",
            "# the only best move (rummisolve hint shows it):",
            *(f"#   {line}".rstrip() for line in shown if line),
        ]
        return "\n".join(lines) + "\n" + format_board(self.board, full_rules=True)


def make_puzzles(
    count: int,
    seed: int,
    kind: Kind | str = Kind.ALL_OUT,
    band: Band | str | None = None,
    rules: Rules | None = None,
    backend: str | None = None,
) -> Iterator[Puzzle]:
    """`count` puzzles of this kind (and band), in the order of their candidates; the same
    arguments give the same puzzles. A band that does not come in ATTEMPTS_PER_PUZZLE
    candidates per puzzle raises a RummisolveError after the puzzles found."""
    kind, rules = Kind(kind), rules or Rules()
    wanted = None if band is None else Band(band)
    found = 0
    for number in range(count * ATTEMPTS_PER_PUZZLE):
        if found == count:
            return
        rng = random.Random(f"rummisolve-puzzle/{kind.value}/{seed}/{number}")
        aim = wanted or rng.choice(list(Band))
        board = _deal(rng, kind, aim, rules, backend)
        if board is None:
            continue
        puzzle = _puzzle(board, kind, seed, number, backend)
        if puzzle is not None and (wanted is None or puzzle.difficulty.band is wanted):
            found += 1
            yield puzzle
    if found < count:
        aimed = f" {wanted.value}" if wanted else ""
        raise RummisolveError(
            f"only {found} of {count}{aimed} {kind.value} puzzles in "
            f"{count * ATTEMPTS_PER_PUZZLE} candidates (seed {seed})"
        )


# Per band: table tiles and rack tiles of the candidates dealt (bigger, harder mostly).
_SIZES = {
    Band.EASY: ((6, 12), (2, 4)),
    Band.MEDIUM: ((10, 20), (3, 5)),
    Band.HARD: ((15, 30), (4, 7)),
}


def _deal(
    rng: random.Random, kind: Kind, aim: Band, rules: Rules, backend: str | None
) -> Board | None:
    """A candidate position of this kind, sized for the band aimed at (None: a deal that
    does not fit, e.g. tiles left that make no sets)."""
    table, rack = _SIZES[aim]
    jokers = 1 if rng.random() < 0.25 else 0
    deal_seed = rng.randrange(1 << 32)
    if kind is Kind.INITIAL_MELD:
        size = (3 * rack[0] + 2, 3 * rack[1] - 1)  # a meld of several sets needs a full rack
        return next(
            generate_boards(
                1,
                deal_seed,
                table_tiles=table,
                rack_tiles=size,
                jokers=jokers,
                rules=rules,
                opened=False,
            )
        )
    if kind is Kind.MOST_TILES:
        size = (rack[0] + 2, rack[1] + 4)
        return next(
            generate_boards(
                1, deal_seed, table_tiles=table, rack_tiles=size, jokers=jokers, rules=rules
            )
        )
    # All out: a table of sets, tiles taken from it into the rack one by one, each one
    # whose taking leaves tiles that can still be laid as sets (as the solver lays them).
    final = next(
        generate_boards(
            1,
            deal_seed,
            table_tiles=(table[0] + rack[0], table[1] + rack[1]),
            rack_tiles=0,
            jokers=jokers,
            rules=rules,
        )
    )
    rest = Counter(t for s in final.table for t in s)
    hand: list[Tile] = []
    laid: tuple[tuple[Tile, ...], ...] = final.table
    for _ in range(rng.randint(*rack)):
        for tile in rng.sample(sorted(rest, key=Tile.sort_key), min(len(rest), TRIES_PER_TILE)):
            left = rest - Counter([tile])
            tiles = tuple(sorted(left.elements(), key=Tile.sort_key))
            move = find_move(Board((), tiles, True, rules), backend=backend)
            if move.tiles_played == len(tiles):
                rest, laid = left, move.table
                hand.append(tile)
                break
        else:
            return None
    return Board(laid, tuple(sorted(hand, key=Tile.sort_key)), True, rules)


def _puzzle(board: Board, kind: Kind, seed: int, number: int, backend: str | None) -> Puzzle | None:
    """The puzzle this candidate makes: its best move of the kind, proved the only one."""
    found = only_best(board, backend, lambda answer: _of_kind(board, answer, kind))
    if not isinstance(found, tuple):
        return None
    answer, difficulty = found
    expect = Expectation(answer.tiles_played, answer.value_played)
    return Puzzle(dataclasses.replace(board, expect=expect), answer, difficulty, kind, seed, number)


@dataclasses.dataclass(frozen=True)
class ProofCut:
    """A uniqueness proof stopped at its bound of solves: the best move may be the only
    one or not, nobody knows."""

    solves: int


def only_best(
    board: Board,
    backend: str | None = None,
    wanted: Callable[[Move], bool] = lambda _: True,
    max_solves: int | None = None,
) -> tuple[Move, Difficulty] | ProofCut | None:
    """The board's best move, proved the only one, and its difficulty; None where it is
    not the only one (or not `wanted`); ProofCut where the proof needed more than
    `max_solves` integer programs (a bound on work: the same board, the same answer)."""
    best = every_best_move(board, limit=1, backend=backend, max_solves=max_solves)
    if not best.complete and not best.past_limit and best.moves:
        return ProofCut(best.solves)
    if not best.unique:
        return None
    answer = best.moves[0]
    if not wanted(answer):
        return None
    assert not check_move(board, answer), "the answer breaks the rules"
    rivals = every_best_move(
        board,
        criteria=Criteria.TILES,
        limit=RIVALS_COUNTED + 1,
        backend=backend,
        max_solves=RIVAL_SOLVES,
    )
    return answer, measure(board, answer, best, rivals)


def _of_kind(board: Board, answer: Move, kind: Kind) -> bool:
    if kind is Kind.ALL_OUT:
        return not answer.rack
    if kind is Kind.MOST_TILES:
        return answer.tiles_played >= 2 and bool(answer.rack)
    return answer.tiles_played >= 3


def measure(board: Board, answer: Move, proof: BestMoves, rivals: BestMoves) -> Difficulty:
    """The answer's difficulty: sets laid or changed, table tiles that change set, the
    rival moves (as many tiles, any points), and the solves of the proof."""
    laid = sum(step.change is not SetChange.KEEP for step in answer.steps)
    # A changed set's tiles: the largest part stays together, the others are moved.
    parts: dict[int, list[int]] = {}
    for step in answer.steps:
        for source in step.from_table:
            parts.setdefault(source.set_index, []).append(len(source.tiles))
    moved = sum(sum(sizes) - max(sizes) for sizes in parts.values())
    extra = max(rivals.count - 1, 0) + (0 if rivals.complete else 1)
    return Difficulty(laid, moved, extra, proof.solves)
