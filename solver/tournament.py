"""Tournaments: strategies against each other over many games, and how sure we are.

Each deal (a game's seed: the shuffle, the first player, the pool) is played once per
rotation of the seats, so that every strategy meets the same tiles from every seat and
the luck of the deal cancels. Games run in this process or on the local runner's worker
processes (`jobs`, `batch.pool`), come back in order as they finish, and each passed the
referee (the legality checker, in `play_game`). Everything a report says comes from the
finished games alone: a tournament cut short reports the games it finished.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from .batch.pool import BatchError, Pool, backend_modules, one_at_a_time
from .engine.backends import get_backend
from .game import GameOptions, GameRecord, Seat, Turn, play_game, tile_set_for
from .rules import Rules
from .stats import clustered_mean, clustered_wilson, wilson
from .strategies import SetupError, strategy_named


def check_names(specs: Sequence[str], think: float | None = None) -> None:
    """Every strategy made once, so that an unknown spec fails before any game; and no two
    specs of one name, since reports count by strategy name."""
    spec_of: dict[str, str] = {}
    for spec in dict.fromkeys(specs):
        name = strategy_named(spec, think).name
        if spec_of.setdefault(name, spec) != spec:
            raise SetupError(
                f"{spec_of[name]} and {spec} are both named {name!r}: a report could not"
                " tell them apart; give each its own name"
            )


@dataclass(frozen=True)
class Lineup:
    """The strategies of a table, one per seat (by name or `module:Class`), and the
    budget `search` thinks with."""

    strategies: tuple[str, ...]
    think: float | None = None

    @classmethod
    def filled(cls, names: Sequence[str], players: int, think: float | None = None) -> Lineup:
        """One per seat; when fewer are named, the last fills the seats left."""
        names = [n.strip() for n in names]
        if len(names) > players:
            raise SetupError(f"{len(names)} strategies for {players} players")
        check_names(names, think)
        return cls(tuple([*names, *[names[-1]] * (players - len(names))]), think)

    @property
    def rotations(self) -> int:
        """The distinct rotations of the seats (`greedy` alone at four seats has one)."""
        n = len(self.strategies)
        return next(
            r for r in range(1, n + 1) if n % r == 0 and self._rotated(r) == self.strategies
        )

    def _rotated(self, by: int) -> tuple[str, ...]:
        return self.strategies[-by:] + self.strategies[:-by]

    def seats(self, rotation: int = 0) -> tuple[Seat, ...]:
        """Seats P1..PN, the lineup moved `rotation` seats on."""
        names = self._rotated(rotation) if rotation else self.strategies
        made = {n: strategy_named(n, self.think) for n in dict.fromkeys(names)}
        return tuple(Seat(f"P{i + 1}", made[n]) for i, n in enumerate(names))


@dataclass(frozen=True)
class GameTask:
    """One game of a tournament or match: its number, its deal's seed, the rotation."""

    number: int
    seed: int
    rotation: int = 0
    deal: int = 0


@dataclass(frozen=True)
class Work:
    """What every game of a run shares: the lineup, the options, whether turns are kept,
    whether each game is reviewed (in the process that played it)."""

    lineup: Lineup
    options: GameOptions
    keep_turns: bool = False
    review: bool = False


@dataclass(frozen=True)
class GameReview:
    """A game's turns against their best moves (`rummisolve review`): per seat the tiles
    missed each turn, and the turns the review could not take (their problems)."""

    missed: Mapping[str, tuple[int, ...]]
    problems: tuple[str, ...] = ()


@dataclass(frozen=True)
class Played:
    """A finished game, its turns when a log wants them, its review when one is asked."""

    task: GameTask
    record: GameRecord
    turns: tuple[Turn, ...]
    review: GameReview | None = None


def tournament_tasks(lineup: Lineup, games: int, seed: int) -> Iterator[GameTask]:
    """`games` games: deal after deal from `seed`, each played once per rotation."""
    rng = random.Random(seed)
    rotations = lineup.rotations
    deal_seed = 0
    for number in range(1, games + 1):
        deal, rotation = divmod(number - 1, rotations)
        if rotation == 0:
            deal_seed = rng.getrandbits(32)  # 32 bits: JSON readers in any language keep it
        yield GameTask(number, deal_seed, rotation, deal + 1)


def match_tasks(seed: int, games: int | None) -> Iterator[GameTask]:
    """A match's games, each its own deal, seeded as `play_match` seeds them (no end
    without `games`: a match to a target stops when it is reached)."""
    rng = random.Random(seed)
    for number in itertools.count(1) if games is None else range(1, games + 1):
        yield GameTask(number, rng.getrandbits(32), 0, number)


def play_task(task: GameTask, work: Work) -> Played:
    """One game, in whichever process runs it."""
    turns: list[Turn] = []
    record = play_game(
        work.lineup.seats(task.rotation),
        work.options,
        task.seed,
        task.number,
        turns.append if work.keep_turns or work.review else None,
    )
    reviewed = _reviewed(task, turns, work.options) if work.review else None
    return Played(task, record, tuple(turns) if work.keep_turns else (), reviewed)


def _reviewed(task: GameTask, turns: Sequence[Turn], options: GameOptions) -> GameReview:
    """Each turn of a game against the best move of its position, under the game's rules."""
    from .review import LogProblem, Solving, review_game

    missed: dict[str, list[int]] = {}
    problems: list[str] = []
    solving = Solving(options.backend, options.time_limit)
    for item in review_game(turns, options.rules, solving, f"game {task.number}"):
        if isinstance(item, LogProblem):
            problems.append(item.message)
        else:
            missed.setdefault(item.position.player, []).append(item.tiles_missed)
    return GameReview({seat: tuple(m) for seat, m in missed.items()}, tuple(problems))


def run_games(
    tasks: Iterable[GameTask], work: Work, jobs: int = 1
) -> Generator[Played, None, None]:
    """Every task's game in order, each as soon as it and those before it are done.
    With `jobs` > 1 they are played by worker processes, stopped when this iterator is
    closed (at its end, or Ctrl-C: the games under way are dropped). A game whose worker
    died is played again by another; one that kills a second worker stops the run."""
    if jobs <= 1:
        for task in tasks:
            yield play_task(task, work)
        return
    pool: Pool[GameTask, Played | Crashed] = Pool(
        jobs,
        start=partial(get_backend, work.options.backend),
        work=partial(play_task, work=work),
        crashed=Crashed,
        preload=[__name__, *backend_modules(work.options.backend)],
    )
    try:
        for played in pool.map(one_at_a_time(tasks)):
            if isinstance(played, Crashed):
                raise BatchError(
                    f"game {played.task.number} killed its worker process twice (killed, or a"
                    " crash inside a solver library): the games stop there"
                )
            yield played
    finally:
        pool.close()


@dataclass(frozen=True)
class Crashed:
    """A game that killed two workers: the games stop there, once those before it are in."""

    task: GameTask


# Reports ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class StrategyReport:
    name: str
    seats: int
    games: int
    wins: int
    win_share: float
    win_share_ci: tuple[float, float]
    mean_score: float
    mean_score_ci: tuple[float, float]
    mean_rank: float
    calls_per_decision: float

    def as_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "win_share": round(self.win_share, 4),
            "win_share_ci": [round(x, 4) for x in self.win_share_ci],
            "mean_score": round(self.mean_score, 2),
            "mean_score_ci": [
                round(x, 2) if math.isfinite(x) else None for x in self.mean_score_ci
            ],
            "mean_rank": round(self.mean_rank, 3),
        }


@dataclass(frozen=True)
class PairReport:
    """Of two strategies at the same table, how often the first finished ahead of the
    second (one comparison per pair of their seats a game; ties counted apart), and per
    game the comparisons it was ahead in and those decided: the interval's unit is the
    game, its comparisons being linked (one seat ahead of three is so mostly together)."""

    first: str
    second: str
    ahead: int
    behind: int
    ties: int
    per_game: tuple[tuple[int, int], ...]

    @property
    def share(self) -> float:
        decided = self.ahead + self.behind
        return self.ahead / decided if decided else 0.5

    @property
    def share_ci(self) -> tuple[float, float]:
        return clustered_wilson(self.per_game)

    def as_json(self) -> dict[str, Any]:
        return {
            "first": self.first,
            "second": self.second,
            "first_ahead": self.ahead,
            "second_ahead": self.behind,
            "ties": self.ties,
            "first_share": round(self.share, 4),
            "first_share_ci": [round(x, 4) for x in self.share_ci],
        }


@dataclass(frozen=True)
class PositionReport:
    """A strategy's results from one place in the order of play (1: it started)."""

    position: int
    strategy: str
    games: int
    wins: int

    @property
    def win_share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "strategy": self.strategy,
            "games": self.games,
            "wins": self.wins,
            "win_share": round(self.win_share, 4),
            "win_share_ci": [round(x, 4) for x in wilson(self.wins, self.games)],
        }


@dataclass(frozen=True)
class MissedReport:
    """A strategy's tiles missed per turn against the best move (`--review`), and its 95%
    interval, the game the unit (its turns rise and fall together)."""

    name: str
    turns: int
    per_turn: float
    per_turn_ci: tuple[float, float]

    def as_json(self) -> dict[str, Any]:
        return {
            "turns": self.turns,
            "tiles_missed_per_turn": round(self.per_turn, 4),
            "tiles_missed_per_turn_ci": [
                round(x, 4) if math.isfinite(x) else None for x in self.per_turn_ci
            ],
        }


def missed_report(
    records: Sequence[GameRecord], reviews: Mapping[int, GameReview]
) -> tuple[MissedReport, ...]:
    """Per strategy, over the games finished (each reviewed: `reviews` by game number)."""
    names = list(dict.fromkeys(s for g in records for s in g.strategies.values()))
    reports = []
    for name in names:
        per_game = [
            [
                m
                for seat, s in g.strategies.items()
                if s == name
                for m in reviews[g.number].missed.get(seat, ())
            ]
            for g in records
        ]
        mean, low, high = clustered_mean(per_game)
        reports.append(MissedReport(name, sum(map(len, per_game)), mean, (low, high)))
    return tuple(reports)


@dataclass(frozen=True)
class TournamentReport:
    games: int
    strategies: tuple[StrategyReport, ...]
    pairs: tuple[PairReport, ...]
    positions: tuple[PositionReport, ...]


def tournament_report(records: Sequence[GameRecord]) -> TournamentReport:
    """Per strategy, per pair of strategies and per position in the order of play, over
    the games finished."""
    names = list(dict.fromkeys(s for g in records for s in g.strategies.values()))
    reports = []
    for name in names:
        scores: list[list[float]] = []
        ranks: list[int] = []
        games = wins = calls = decisions = 0
        seats = 0
        for g in records:
            mine = [p for p, s in g.strategies.items() if s == name]
            if not mine:
                continue
            games += 1
            seats = max(seats, len(mine))
            wins += g.score.winner in mine
            scores.append([g.score.scores[p] for p in mine])
            for p in mine:
                ranks.append(1 + sum(v > g.score.scores[p] for v in g.score.scores.values()))
                calls += g.calls.get(p, 0)
                decisions += g.decisions.get(p, 0)
        mean, low, high = clustered_mean(scores)
        reports.append(
            StrategyReport(
                name,
                seats,
                games,
                wins,
                wins / games if games else 0.0,
                wilson(wins, games),
                mean,
                (low, high),
                sum(ranks) / len(ranks) if ranks else 0.0,
                calls / decisions if decisions else 0.0,
            )
        )
    pairs = [_pair(records, a, b) for a, b in itertools.combinations(names, 2)]
    return TournamentReport(len(records), tuple(reports), tuple(pairs), _positions(records, names))


def _pair(records: Sequence[GameRecord], first: str, second: str) -> PairReport:
    ahead = behind = ties = 0
    per_game = []
    for g in records:
        ours = [p for p, s in g.strategies.items() if s == first]
        theirs = [p for p, s in g.strategies.items() if s == second]
        differences = [
            g.score.scores[a] - g.score.scores[b] for a, b in itertools.product(ours, theirs)
        ]
        up = sum(d > 0 for d in differences)
        down = sum(d < 0 for d in differences)
        ahead, behind, ties = ahead + up, behind + down, ties + len(differences) - up - down
        per_game.append((up, up + down))
    return PairReport(first, second, ahead, behind, ties, tuple(per_game))


def _positions(records: Sequence[GameRecord], names: Sequence[str]) -> tuple[PositionReport, ...]:
    games: dict[tuple[int, str], int] = {}
    wins: dict[tuple[int, str], int] = {}
    for g in records:
        seats = list(g.strategies)
        start = seats.index(g.starter)
        for at, seat in enumerate(seats):
            key = ((at - start) % len(seats) + 1, g.strategies[seat])
            games[key] = games.get(key, 0) + 1
            wins[key] = wins.get(key, 0) + (g.score.winner == seat)
    order = {n: i for i, n in enumerate(names)}
    return tuple(
        PositionReport(position, name, games[(position, name)], wins[(position, name)])
        for position, name in sorted(games, key=lambda k: (k[0], order[k[1]]))
    )


def run_tournament(
    strategies: Sequence[str],
    players: int = 4,
    games: int = 100,
    seed: int = 1,
    rules: Rules | None = None,
    think: float | None = None,
    jobs: int = 1,
) -> TournamentReport:
    """A whole tournament, for the library: `strategies` as `--strategies` takes them
    (the last fills the seats left), on the box the rules give for this many players."""
    lineup = Lineup.filled(strategies, players, think)
    rules = rules if rules is not None else Rules(tile_set=tile_set_for(players))
    work = Work(lineup, GameOptions(rules=rules))
    played = run_games(tournament_tasks(lineup, games, seed), work, jobs)
    return tournament_report([p.record for p in played])
