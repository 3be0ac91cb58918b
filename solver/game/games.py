"""Whole games between strategies (`play_game`), and matches of them.

A game is a `GameState` (state.py) driven to its end: each turn the strategy in the seat
to act chooses a move from its view, and the state referees and lays it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ..board import Board
from ..engine.solve import find_move
from ..move import Move, Objective
from ..rules import Rules
from ..scoring import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    FinishedGame,
    GameScore,
    Match,
    Scoring,
)
from ..strategies import BUILT_IN, SetupError
from ..view import Strategy
from .log import Turn
from .state import RACK_SIZE, Ending, GameState, IllegalMoveError


def tile_set_for(players: int) -> int:
    """The box the rules give for this many players (5-6 use the 160-tile set, 004)."""
    return 160 if players > 4 else 106


# Strategies: the names a game knows (strategies.py), kept here for the commands.

STRATEGIES = BUILT_IN


# Games ---------------------------------------------------------------------------------


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
    strategies = {s.name: s.strategy for s in seats}
    state = GameState.deal(list(strategies), options.rules, seed, options.rack_size)
    calls = dict.fromkeys(strategies, 0)
    decisions = dict.fromkeys(strategies, 0)
    solving = 0.0

    def find(board: Board, objective: Objective) -> Move:
        nonlocal solving
        move = find_move(board, objective, options.backend, options.time_limit)
        calls[state.player.name] += 1
        solving += move.seconds
        return move

    while not state.finished:
        name = state.player.name
        move = strategies[name].choose(state.view(), find)
        decisions[name] += 1
        try:
            state.apply(move)
        except IllegalMoveError as refused:
            who = f"{name} ({strategies[name].name})"
            raise IllegalMoveError(refused.turn, who, refused.problems) from None
        if on_turn is not None:
            on_turn(Turn.after(state, number))
    outcome = state.outcome(options.scoring)
    return GameRecord(
        number=number,
        seed=seed,
        starter=state.seats[0].name,
        turns=state.turns,
        end=outcome.end,
        result=outcome.result,
        score=outcome.score,
        solver_calls=sum(calls.values()),
        solver_seconds=solving,
        seconds=time.perf_counter() - started,
        strategies={name: s.name for name, s in strategies.items()},
        calls=calls,
        decisions=decisions,
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
