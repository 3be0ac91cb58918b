"""One game between deal and end (`GameState`): what every driver of a game shares.

Shaped as OpenSpiel's `State` and the engines under PettingZoo's classic games: whose
turn (`player`), what that player sees (`view`, a `PlayerView`), apply a turn (`apply`),
finished (`finished`), the scores (`outcome`). A turn's action is a `Move`: one that lays
nothing draws a tile, or passes once the pool is empty. Every move is refereed by
`legality.check_move` (a refused move is a bug, `IllegalMoveError`), and the next board
comes from `board_after`, which reads what the table's jokers stand for.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..board import Board
from ..errors import RummisolveError
from ..legality import check_move
from ..move import Move, TileRow
from ..rules import Rules
from ..scoring import FinishedGame, GameScore, PlayerResult, Scoring, score_game
from ..table_reading import board_after
from ..tiles import Tile, sort_tiles, tile_value
from ..view import PlayerView, Seen, TurnKind

RACK_SIZE = 14

Declared = tuple[tuple[Tile | None, ...], ...]
"""What the table's jokers stand for, set by set (`Board.declared`)."""

NextBoard = Callable[[Board, Move], Board]
"""How a legal move turns the board of the player who made it into the next one."""


class IllegalMoveError(RummisolveError):
    """A player proposed a move the rules refuse: a bug in the solver or a strategy."""

    def __init__(self, turn: int, player: str, problems: Sequence[str]) -> None:
        super().__init__(f"turn {turn}: {player} proposed an illegal move: " + "; ".join(problems))
        self.turn, self.player, self.problems = turn, player, tuple(problems)


def refereed(board: Board, move: Move) -> Board:
    """The next board, once `check_move` finds the move legal (no problems are listed)."""
    problems = check_move(board, move)
    if problems:
        raise IllegalMoveError(0, "", problems)
    return board_after(board, move)


class Ending(enum.Enum):
    OUT = "out"
    """Someone emptied the rack."""
    BLOCKED = "blocked"
    """The pool ran out and a full round passed with nobody playing."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, what scoring reads of it, and its scores."""

    end: Ending
    result: FinishedGame
    score: GameScore


class SeatState:
    """One seat during a game: the rack, what the player has laid so far, and its lots."""

    def __init__(self, name: str, rack: Sequence[Tile], seed: int) -> None:
        self.name = name
        self.rack = tuple(sort_tiles(rack))
        self.opened = False
        self.laid = 0
        self.plays = 0
        # A stream of its own, from the seed and the seat: nothing of the deal can be read
        # from it.
        self.luck = random.Random(f"luck {seed} {name}")


def view_of(
    players: Sequence[SeatState],
    at: int,
    table: tuple[TileRow, ...],
    pool: int,
    history: tuple[Seen, ...],
    rules: Rules,
    declared: Declared = (),
) -> PlayerView:
    """What player `at` (in turn order) sees: its rack, and of the others only sizes;
    `declared`: what the table's jokers stand for (`Board.declared`)."""
    order = [*players[at:], *players[:at]]
    return PlayerView(
        player=order[0].name,
        rack=order[0].rack,
        table=table,
        rules=rules,
        order=tuple(p.name for p in order),
        racks={p.name: len(p.rack) for p in order},
        opened={p.name: p.opened for p in order},
        pool=pool,
        history=history,
        luck=order[0].luck.getrandbits(32),
        declared=declared,
    )


def draw_for_start(pool: Sequence[Tile], players: int, rng: random.Random) -> int:
    """Which seat starts: each draws a tile, the highest number starts, ties draw again.

    The tiles go back each time (`sample` leaves the pool as it is); a joker counts 0.
    """
    contenders = list(range(players))
    while len(contenders) > 1:
        drawn = dict(zip(contenders, rng.sample(list(pool), len(contenders)), strict=True))
        best = max(t.number for t in drawn.values())
        contenders = [seat for seat, t in drawn.items() if t.number == best]
    return contenders[0]


class GameState:
    """A game at the start of a turn: the pool (drawn from its end), the seats in turn
    order (`seats[0]` starts), the table and what its jokers stand for, the turns so far,
    the passes in a row, the rules. `names`: the seats as the table lists them (scores and
    logs go in that order). `next_board`: how a move is refereed and laid.

    Three ways in: `deal` (a game from its seed), `sampled` (a player's guess at what it
    cannot see, for look-ahead), and `game.log.replay` (a game read back from its log).
    """

    def __init__(
        self,
        names: Sequence[str],
        seats: Sequence[SeatState],
        pool: Sequence[Tile],
        rules: Rules,
        table: tuple[TileRow, ...] = (),
        declared: Declared = (),
        next_board: NextBoard = refereed,
    ) -> None:
        self.names = tuple(names)
        self.seats = list(seats)
        self.pool = list(pool)
        self.rules = rules
        self.table = table
        self.declared = declared
        self.next_board = next_board
        self.history: list[Seen] = []
        self.turns = 0
        self.passes = 0
        self.out: SeatState | None = None
        self._view: PlayerView | None = None

    @classmethod
    def deal(
        cls, names: Sequence[str], rules: Rules, seed: int, rack_size: int = RACK_SIZE
    ) -> GameState:
        """A new game from a shuffle of `seed`: the deal, the first player and the pool
        depend on the seed and the number of seats alone."""
        rng = random.Random(seed)
        pool = rules.box.tiles()
        rng.shuffle(pool)
        first = draw_for_start(pool, len(names), rng)
        rng.shuffle(pool)
        order = [*names[first:], *names[:first]]
        seats = [SeatState(name, [pool.pop() for _ in range(rack_size)], seed) for name in order]
        return cls(names, seats, pool, rules)

    @classmethod
    def sampled(
        cls,
        view: PlayerView,
        racks: dict[str, list[Tile]],
        pool: Sequence[Tile],
        next_board: NextBoard,
    ) -> GameState:
        """The game as `view`'s player may guess it, its opponents' `racks` and the `pool`
        drawn from what it cannot see; the table's jokers read afresh (nothing declared)."""
        seats = []
        for name in view.order:
            seat = SeatState(name, view.rack if name == view.player else racks[name], view.luck)
            seat.opened = view.opened[name]
            seats.append(seat)
        return cls(view.order, seats, pool, view.rules, view.table, (), next_board)

    @property
    def player(self) -> SeatState:
        """The seat whose turn it is."""
        return self.seats[self.turns % len(self.seats)]

    @property
    def finished(self) -> bool:
        return self.out is not None or self.passes == len(self.seats)

    def view(self) -> PlayerView:
        """What the player to act sees, its lot drawn once a turn."""
        if self._view is None:
            at = self.turns % len(self.seats)
            history = tuple(self.history)
            pool = len(self.pool)
            self._view = view_of(
                self.seats, at, self.table, pool, history, self.rules, self.declared
            )
        return self._view

    def board(self) -> Board:
        """The position the player to act solves: the table and its own rack."""
        player = self.player
        return Board(self.table, player.rack, player.opened, self.rules, declared=self.declared)

    def apply(self, move: Move, drawn: Tile | None = None) -> Seen:
        """The player to act makes `move` (laying nothing: draws, or passes once the pool is
        empty; `drawn`: the tile drawn where it is known, as in a log). Returns the turn as
        everyone saw it."""
        assert not self.finished, "the game is over"
        player = self.player
        if move.is_move:
            try:
                after = self.next_board(self.board(), move)
            except IllegalMoveError as refused:
                raise IllegalMoveError(self.turns + 1, player.name, refused.problems) from None
            self.table, self.declared = after.table, after.declared
            player.rack = tuple(sort_tiles(move.rack))
            player.opened = True
            player.laid += sum(tile_value(t, self.rules.joker_penalty) for t in move.played)
            player.plays += 1
            seen, self.passes = Seen(player.name, TurnKind.PLAY, move.played), 0
        elif self.pool:
            tile = self.pool.pop() if drawn is None else _take(self.pool, drawn)
            player.rack = tuple(sort_tiles((*player.rack, tile)))
            seen = Seen(player.name, TurnKind.DRAW, ())
        else:
            seen, self.passes = Seen(player.name, TurnKind.PASS, ()), self.passes + 1
        self.history.append(seen)
        self.turns += 1
        self._view = None
        if not player.rack:
            self.out = player
        return seen

    def in_seat_order(self) -> list[SeatState]:
        by_name = {p.name: p for p in self.seats}
        return [by_name[name] for name in self.names]

    def outcome(self, scoring: Scoring) -> Outcome:
        """How the finished game ended and its scores (`double_out`: going out in one turn)."""
        assert self.finished, "the game is not over"
        result = FinishedGame(
            tuple(PlayerResult(p.name, p.rack, p.laid) for p in self.in_seat_order()),
            doubled=self.rules.double_out and self.out is not None and self.out.plays == 1,
        )
        end = Ending.OUT if self.out is not None else Ending.BLOCKED
        return Outcome(end, result, score_game(result, scoring))


def _take(pool: list[Tile], tile: Tile) -> Tile:
    pool.remove(tile)
    return tile
