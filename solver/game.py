"""Whole games between solver-driven players: deal, turns, the end of a game, matches.

Everything random comes from one `random.Random(seed)`, so the same seed plays the same
games. Every move a player makes is checked by `legality.check_move` before it is laid:
the engine trusts nobody, and a refused move is a bug, raised as `IllegalMoveError`.
"""

from __future__ import annotations

import enum
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import board_after
from .board import Board
from .engine.solve import find_move
from .errors import RummisolveError
from .legality import check_move
from .move import Move, Objective, TileRow
from .rules import Rules
from .scoring import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    FinishedGame,
    GameScore,
    Match,
    PlayerResult,
    Scoring,
    score_game,
)
from .strategies import BUILT_IN, SetupError, strategy_named
from .tiles import JOKER, Tile, format_tile, sort_tiles, tile_value
from .view import Finder, PlayerView, Seen, Strategy, TurnAction

__all__ = [  # the view's and the strategies' names, for those who import games from here
    "Finder",
    "PlayerView",
    "SetupError",
    "Strategy",
    "TurnAction",
    "strategy_named",
]

RACK_SIZE = 14


class IllegalMoveError(RummisolveError):
    """A player proposed a move the rules refuse: a bug in the solver or a strategy."""


def tile_set_for(players: int) -> int:
    """The box the rules give for this many players (5-6 use the 160-tile set, 004)."""
    return 160 if players > 4 else 106


# Strategies: the names a game knows (strategies.py), kept here for the commands.

STRATEGIES = BUILT_IN


# Games ---------------------------------------------------------------------------------


class Ending(enum.Enum):
    OUT = "out"
    """Someone emptied the rack."""
    BLOCKED = "blocked"
    """The pool ran out and a full round passed with nobody playing."""


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
    # What the table's jokers stand for (`Board.declared`): the next player's reading.
    declared: tuple[tuple[Tile | None, ...], ...] = ()

    def as_json(self) -> dict[str, Any]:
        said = self.declared or tuple((None,) * row.count(JOKER) for row in self.table)
        return {
            "game": self.game,
            "turn": self.number,
            "player": self.player,
            "action": self.action.value,
            "played": _names(self.played),
            "table": [_names(s) for s in self.table],
            "stand_for": [[format_tile(t) for t in roles if t is not None] for roles in said],
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
    strategies: Mapping[str, str] = field(default_factory=dict)
    """Each seat's strategy, by seat name."""
    calls: Mapping[str, int] = field(default_factory=dict)
    """Solver calls by seat, and decisions (turns) by seat: a strategy's calls per decision."""
    decisions: Mapping[str, int] = field(default_factory=dict)


class SeatState:
    """One seat during a game: the rack, what the player has laid so far, and its lots."""

    def __init__(self, seat: Seat, rack: list[Tile], seed: int) -> None:
        self.seat = seat
        self.rack = tuple(sort_tiles(rack))
        self.opened = False
        self.laid = 0
        self.plays = 0
        self.calls = 0
        self.decisions = 0
        # A stream of its own, from the seed and the seat: nothing of the deal can be read
        # from it.
        self.luck = random.Random(f"luck {seed} {seat.name}")


def view_of(
    players: Sequence[SeatState],
    at: int,
    table: tuple[TileRow, ...],
    pool: int,
    history: tuple[Seen, ...],
    rules: Rules,
    declared: tuple[tuple[Tile | None, ...], ...] = (),
) -> PlayerView:
    """What player `at` (in turn order) sees: its rack, and of the others only sizes;
    `declared`: what the table's jokers stand for (`Board.declared`)."""
    order = [*players[at:], *players[:at]]
    return PlayerView(
        player=order[0].seat.name,
        rack=order[0].rack,
        table=table,
        rules=rules,
        order=tuple(p.seat.name for p in order),
        racks={p.seat.name: len(p.rack) for p in order},
        opened={p.seat.name: p.opened for p in order},
        pool=pool,
        history=history,
        luck=order[0].luck.getrandbits(32),
        declared=declared,
    )


def play_game(
    seats: Sequence[Seat],
    options: GameOptions,
    seed: int,
    number: int = 1,
    on_turn: Callable[[Turn], None] | None = None,
) -> GameRecord:
    """Play one game from a shuffle of `seed` to its end. The deal, the first player and
    the pool depend on the seed alone: the same seed with the strategies in other seats
    is the same deal (tournaments play each deal once per rotation of the seats)."""
    started = time.perf_counter()
    rules = options.rules
    rng = random.Random(seed)
    pool = rules.box.tiles()
    rng.shuffle(pool)
    first = draw_for_start(pool, len(seats), rng)
    rng.shuffle(pool)
    order = [*seats[first:], *seats[:first]]
    players = [SeatState(s, [pool.pop() for _ in range(options.rack_size)], seed) for s in order]
    table: tuple[TileRow, ...] = ()
    # Each joker of the table stands for the tile the move that laid it showed, until freed.
    declared: tuple[tuple[Tile | None, ...], ...] = ()
    history: list[Seen] = []
    solving = 0.0
    player = players[0]

    def find(board: Board, objective: Objective) -> Move:
        nonlocal solving
        move = find_move(board, objective, options.backend, options.time_limit)
        player.calls += 1
        solving += move.seconds
        return move

    idle, turns, out = 0, 0, None
    while True:
        at = turns % len(players)
        player = players[at]
        turns += 1
        view = view_of(players, at, table, len(pool), tuple(history), rules, declared)
        board = view.board
        move = player.seat.strategy.choose(view, find)
        player.decisions += 1
        if move.is_move:
            _referee(board, move, player.seat, turns)
            after = board_after(board, move)
            table, declared = after.table, after.declared
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
        history.append(Seen(player.seat.name, action, played))
        if on_turn is not None:
            racks = {p.seat.name: p.rack for p in _in_seat_order(players, seats)}
            name, left = player.seat.name, len(pool)
            on_turn(Turn(number, turns, name, action, played, table, racks, left, declared))
        if not player.rack:
            out = player
            break
        if idle == len(players):
            break
    in_seats = _in_seat_order(players, seats)
    result = FinishedGame(
        tuple(PlayerResult(p.seat.name, p.rack, p.laid) for p in in_seats),
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
        solver_calls=sum(p.calls for p in players),
        solver_seconds=solving,
        seconds=time.perf_counter() - started,
        strategies={s.name: s.strategy.name for s in seats},
        calls={p.seat.name: p.calls for p in in_seats},
        decisions={p.seat.name: p.decisions for p in in_seats},
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


def _in_seat_order(players: Sequence[SeatState], seats: Sequence[Seat]) -> list[SeatState]:
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
