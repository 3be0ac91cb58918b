"""Whole games between solver-driven players: deal, turns, the end of a game, matches.

Everything random comes from one `random.Random(seed)`, so the same seed plays the same
games. Every move a player makes is checked by `legality.check_move` before it is laid:
the engine trusts nobody, and a refused move is a bug, raised as `IllegalMoveError`.
"""

from __future__ import annotations

import dataclasses
import enum
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .board import Board
from .engine.solve import find_move
from .errors import RummisolveError
from .legality import check_move
from .move import Move, Objective, TileRow
from .rules import Rules
from .scoring import (
    FinishedGame,
    GameScore,
    Match,
    PlayerResult,
    Scoring,
    score_game,
)
from .tiles import JOKER, Tile, format_tile, sort_tiles, tile_value

MIN_PLAYERS, MAX_PLAYERS = 2, 6
RACK_SIZE = 14


class IllegalMoveError(RummisolveError):
    """A player proposed a move the rules refuse: a bug in the solver or a strategy."""


class SetupError(RummisolveError):
    """A game that cannot be set up: too few or too many players, an unknown strategy."""


def tile_set_for(players: int) -> int:
    """The box the rules give for this many players (5-6 use the 160-tile set, 004)."""
    return 160 if players > 4 else 106


# Strategies ----------------------------------------------------------------------------

Finder = Callable[[Board, Objective], Move]
"""Asks the solver for the best move on a board, under an objective."""


class Strategy(Protocol):
    """How a player picks a move; None means draw (or pass, when the pool is empty)."""

    @property
    def name(self) -> str: ...

    def choose(self, board: Board, pool: int, find: Finder) -> Move:
        """The move to make; one that plays nothing means: draw (or pass)."""
        ...


@dataclass(frozen=True)
class Greedy:
    """The best move every turn: most tiles off the rack (or most points, `objective`)."""

    name: str = "greedy"
    objective: Objective = Objective.TILES

    def choose(self, board: Board, pool: int, find: Finder) -> Move:
        return find(board, self.objective)


@dataclass(frozen=True)
class Cautious:
    """Holds back: keeps its jokers on the rack until they let it go out, or until the
    pool is empty and holding them would only cost points. Otherwise plays like greedy
    with the rest of the rack."""

    name: str = "cautious"

    def choose(self, board: Board, pool: int, find: Finder) -> Move:
        best = find(board, Objective.TILES)
        if not best.is_move or not best.rack or pool == 0 or JOKER not in best.played:
            return best
        without = Counter(board.rack)
        del without[JOKER]
        held = find(dataclasses.replace(board, rack=tuple(without.elements())), Objective.TILES)
        if not held.is_move:
            return held  # nothing without the jokers: keep them and draw
        left = Counter(board.rack) - Counter(held.played)
        return dataclasses.replace(held, rack=tuple(sort_tiles(left.elements())))


STRATEGIES: dict[str, Strategy] = {
    s.name: s for s in (Greedy(), Greedy("heavy", Objective.VALUE), Cautious())
}


def strategy_named(name: str) -> Strategy:
    try:
        return STRATEGIES[name.strip().lower()]
    except KeyError:
        known = ", ".join(STRATEGIES)
        raise SetupError(f"unknown strategy {name!r} (known: {known})") from None


# Games ---------------------------------------------------------------------------------


class Ending(enum.Enum):
    OUT = "out"
    """Someone emptied the rack."""
    BLOCKED = "blocked"
    """The pool ran out and a full round passed with nobody playing."""


class TurnAction(enum.Enum):
    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"
    """Nothing to play and the pool is empty."""


@dataclass(frozen=True)
class Seat:
    name: str
    strategy: Strategy


@dataclass(frozen=True)
class GameOptions:
    """The rules a table plays under (scoring included), and how the solver is asked.
    `rack_size`: the tiles each player is dealt; the rules say 14, and a smaller deal
    reaches an ending (out on the first turn) within a few turns."""

    rules: Rules = field(default_factory=Rules)
    backend: str | None = None  # None: the default backend
    time_limit: float | None = None
    rack_size: int = RACK_SIZE

    @property
    def scoring(self) -> Scoring:
        return Scoring.of(self.rules)


@dataclass(frozen=True)
class Turn:
    """The state after one turn, as `play --log` writes it."""

    game: int
    number: int
    player: str
    action: TurnAction
    played: TileRow
    table: tuple[TileRow, ...]
    racks: Mapping[str, TileRow]
    pool: int

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "turn": self.number,
            "player": self.player,
            "action": self.action.value,
            "played": _names(self.played),
            "table": [_names(s) for s in self.table],
            "racks": {name: _names(rack) for name, rack in self.racks.items()},
            "pool": self.pool,
        }


def _names(tiles: Sequence[Tile]) -> list[str]:
    return [format_tile(t) for t in tiles]


@dataclass(frozen=True)
class GameRecord:
    """A game played to its end, and its score."""

    number: int
    seed: int
    starter: str
    turns: int
    end: Ending
    result: FinishedGame
    score: GameScore
    solver_calls: int
    solver_seconds: float
    """Time inside `find_move` (model and solve), of `seconds` for the whole game."""
    seconds: float


class _Player:
    """One seat during a game: the rack, and what the player has laid so far."""

    def __init__(self, seat: Seat, rack: list[Tile]) -> None:
        self.seat = seat
        self.rack = tuple(sort_tiles(rack))
        self.opened = False
        self.laid = 0
        self.plays = 0


def play_game(
    seats: Sequence[Seat],
    options: GameOptions,
    seed: int,
    number: int = 1,
    on_turn: Callable[[Turn], None] | None = None,
) -> GameRecord:
    """Play one game from a shuffle of `seed` to its end."""
    started = time.perf_counter()
    rules = options.rules
    rng = random.Random(seed)
    pool = rules.box.tiles()
    rng.shuffle(pool)
    first = draw_for_start(pool, len(seats), rng)
    rng.shuffle(pool)
    order = [*seats[first:], *seats[:first]]
    players = [_Player(seat, [pool.pop() for _ in range(options.rack_size)]) for seat in order]
    table: tuple[TileRow, ...] = ()
    calls, solving = 0, 0.0

    def find(board: Board, objective: Objective) -> Move:
        nonlocal calls, solving
        move = find_move(board, objective, options.backend, options.time_limit)
        calls, solving = calls + 1, solving + move.seconds
        return move

    idle, turns, out = 0, 0, None
    for player in _rounds(players):
        turns += 1
        board = Board(table, player.rack, player.opened, rules)
        move = player.seat.strategy.choose(board, len(pool), find)
        if move.is_move:
            _referee(board, move, player.seat, turns)
            table = move.table
            player.rack = tuple(sort_tiles(move.rack))
            player.opened = True
            player.laid += sum(tile_value(t, rules.joker_penalty) for t in move.played)
            player.plays += 1
            action, played, idle = TurnAction.PLAY, move.played, 0
        elif pool:
            player.rack = tuple(sort_tiles((*player.rack, pool.pop())))
            action, played = TurnAction.DRAW, ()
        else:
            action, played, idle = TurnAction.PASS, (), idle + 1
        if on_turn is not None:
            racks = {p.seat.name: p.rack for p in _in_seat_order(players, seats)}
            on_turn(Turn(number, turns, player.seat.name, action, played, table, racks, len(pool)))
        if not player.rack:
            out = player
            break
        if idle == len(players):
            break
    result = FinishedGame(
        tuple(PlayerResult(p.seat.name, p.rack, p.laid) for p in _in_seat_order(players, seats)),
        doubled=options.rules.double_out and out is not None and out.plays == 1,
    )
    return GameRecord(
        number=number,
        seed=seed,
        starter=order[0].name,
        turns=turns,
        end=Ending.OUT if out is not None else Ending.BLOCKED,
        result=result,
        score=score_game(result, options.scoring),
        solver_calls=calls,
        solver_seconds=solving,
        seconds=time.perf_counter() - started,
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


def _rounds(players: list[_Player]) -> Iterator[_Player]:
    while True:
        yield from players


def _in_seat_order(players: list[_Player], seats: Sequence[Seat]) -> list[_Player]:
    by_name = {p.seat.name: p for p in players}
    return [by_name[s.name] for s in seats]


def _referee(board: Board, move: Move, seat: Seat, turn: int) -> None:
    problems = check_move(board, move)
    if problems:
        raise IllegalMoveError(
            f"turn {turn}: {seat.name} ({seat.strategy.name}) proposed an illegal move: "
            + "; ".join(problems)
        )


# Matches -------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchRecord:
    """The games of a match in the order played, and their totals."""

    seats: tuple[Seat, ...]
    games: tuple[GameRecord, ...]

    @property
    def match(self) -> Match:
        return Match(tuple(g.score for g in self.games))


@dataclass(frozen=True)
class StrategyStats:
    """How one strategy fared over a match: games won, and its mean score per game."""

    name: str
    seats: int
    wins: int
    mean_score: float


def play_match(
    seats: Sequence[Seat],
    options: GameOptions,
    seed: int,
    games: int | None = None,
    target: int | None = None,
    on_turn: Callable[[Turn], None] | None = None,
) -> MatchRecord:
    """Play games until `games` are played (by default one per player, the official
    round) or, with `target`, until a total reaches it (`games` then caps the match)."""
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise SetupError(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if games is None and target is None:
        games = len(seats)
    rng = random.Random(seed)
    played: list[GameRecord] = []
    match = Match()
    while games is None or len(played) < games:
        # Each game's own seed, 32 bits so that JSON readers in any language keep it exact.
        record = play_game(seats, options, rng.getrandbits(32), len(played) + 1, on_turn)
        played.append(record)
        match = match.then(record.score)
        if target is not None and max(match.totals.values()) >= target:
            break
    return MatchRecord(tuple(seats), tuple(played))


def strategy_stats(record: MatchRecord) -> list[StrategyStats]:
    """Each strategy's wins and mean score per game, over every seat that used it."""
    stats = []
    for name in dict.fromkeys(s.strategy.name for s in record.seats):
        players = {s.name for s in record.seats if s.strategy.name == name}
        scores = [g.score.scores[p] for g in record.games for p in players]
        wins = sum(1 for g in record.games if g.score.winner in players)
        mean = sum(scores) / len(scores) if scores else 0.0
        stats.append(StrategyStats(name, len(players), wins, mean))
    return stats


def make_seats(strategies: Sequence[Strategy], players: int) -> tuple[Seat, ...]:
    """Seats P1..PN; the strategies are dealt out in turn, repeating if fewer are given."""
    return tuple(Seat(f"P{i + 1}", strategies[i % len(strategies)]) for i in range(players))
