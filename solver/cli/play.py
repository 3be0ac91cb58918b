"""`rummisolve play` and `rummisolve score`: whole games between solver-driven players,
and a finished game's scores."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Callable
from typing import Any

import click

from ..game import (
    GameOptions,
    GameRecord,
    MatchRecord,
    strategy_stats,
)
from ..rules import (
    MAX_JOKER_PENALTY,
    PROFILE_NAMES,
    PROFILES,
    Blocked,
    Method,
)
from ..scoring import (
    Match,
    Scoring,
    read_score_sheet,
    score_game,
)
from ..tournament import Lineup, Played, Work, match_tasks, run_games
from .options import (
    backend_option,
    core_errors,
    rule_options,
    seed_option,
    time_limit_option,
)
from .output import RowFile
from .tables import (
    match_footer,
    match_header,
    match_row,
    score_table,
)
from .tournament import (
    game_rows,
    jobs_option,
    log_option,
    players_option,
    reporting,
    strategies_option,
    stream_games,
    table_rules,
    think_option,
    usable_jobs,
)


@click.command()
@players_option
@click.option(
    "--games",
    type=click.IntRange(1),
    help="Games to play  [default: one per player, the official round; with --target: no limit]",
)
@click.option(
    "--target",
    type=click.IntRange(1),
    help="Play until a total reaches this score (--games then caps the match).",
)
@seed_option("games")
@strategies_option("greedy", "repeated if fewer")
# Before --double-out was a rule option, play took --doubled for it: kept, not shown.
@click.option("--doubled", is_flag=True, hidden=True)
@think_option
@jobs_option
@backend_option
@time_limit_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object: games and totals.")
@log_option
@rule_options
@core_errors
def play(
    players: int,
    games: int | None,
    target: int | None,
    seed: int,
    strategies: tuple[str, ...],
    doubled: bool,
    think: float | None,
    jobs: int,
    backend: str,
    time_limit: float | None,
    as_json: bool,
    log_path: str | None,
    **options: Any,
) -> None:
    """Simulate games between solver-driven players, and score them.

    Example: rummisolve play --players 4 --games 4 --strategies hoarder,greedy
    """
    if len(strategies) > players:
        raise click.BadParameter(
            f"{len(strategies)} strategies for {players} players", param_hint="'--strategies'"
        )
    if doubled:
        options["double_out"] = True
    rules = table_rules(players, options)
    lineup = Lineup(tuple(strategies[i % len(strategies)] for i in range(players)), think)
    game_options = GameOptions(rules=rules, backend=backend, time_limit=time_limit)
    work = Work(lineup, game_options, keep_turns=log_path is not None)
    if games is None and target is None:
        games = players
    jobs = usable_jobs(jobs, games)
    seats = lineup.seats()
    records: list[GameRecord] = []

    def report() -> None:
        record = MatchRecord(seats, tuple(records))
        if as_json:
            click.echo(json.dumps(match_json(record, seed) | {"rules": rules.as_json()}))
        elif records:
            click.echo(match_footer(record))

    with contextlib.ExitStack() as stack:
        log = RowFile(log_path) if log_path else None  # a bad path fails before any game
        if log is not None:
            stack.callback(log.close)
        if not as_json:
            click.echo(match_header(seats, seed))
        played = run_games(match_tasks(seed, games), work, jobs)
        stack.callback(played.close)
        show: Callable[[Played], str | None] = (
            (lambda _: None) if as_json else (lambda p: match_row(p.record, seats))
        )
        match = Match()
        with reporting(played, records, games, report):
            for game in stream_games(played, games, show, log, rules, records.append):
                match = match.then(game.record.score)
                if target is not None and max(match.totals.values()) >= target:
                    break


def match_json(record: MatchRecord, seed: int) -> dict[str, Any]:
    """`play --json`: docs/format.md's keys (`games` a count and `rows` the games, as in
    tournament --json), then the seeds and each strategy's results."""
    return {
        "games": len(record.games),
        "rows": game_rows(record.games),
        "totals": record.match.totals,
        "seed": seed,
        "players": {s.name: s.strategy.name for s in record.seats},
        "strategies": {
            s.name: {"seats": s.seats, "wins": s.wins, "mean_score": round(s.mean_score, 2)}
            for s in strategy_stats(record)
        },
    }


@click.command()
@click.argument("score_path", metavar="FILE")
@click.option(
    "--rules",
    "profile",
    type=click.Choice(PROFILE_NAMES, case_sensitive=False),
    help="A rules profile's scoring (its method, blocked-game winner and joker penalty),"
    " over the file's; the options below win.",
)
@click.option(
    "--joker-penalty",
    type=click.IntRange(0, MAX_JOKER_PENALTY),
    help="A joker's value on a rack  [default: the file's rules: line, else 30]",
)
@click.option("--doubled", is_flag=True, help="The winner went out in one turn (house rule).")
@click.option(
    "--scoring",
    "method",
    type=click.Choice([m.value for m in Method]),
    help="standard: losers lose their rack, the winner takes the sum; laid: value laid minus"
    " the rack, needs laid=N (the Norwegian rules).",
)
@click.option(
    "--blocked",
    type=click.Choice([b.value for b in Blocked]),
    help="Who wins when no rack is empty: the lowest total (the rulebook) or the fewest tiles"
    " (the Hebrew rules).",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object: the scores.")
@core_errors
def score(
    score_path: str,
    profile: str | None,
    joker_penalty: int | None,
    doubled: bool,
    method: str | None,
    blocked: str | None,
    as_json: bool,
) -> None:
    """Score a finished game from the racks left (one line per player, NAME: tiles).

    Example: rummisolve score game.txt --rules norwegian
    """

    def options_over(scoring: Scoring) -> Scoring:
        """The file's scoring with the command line's over it."""
        if profile is not None:
            scoring = Scoring.of(PROFILES[profile.lower()].rules)
        if joker_penalty is not None:
            scoring = dataclasses.replace(scoring, joker_penalty=joker_penalty)
        if method is not None:
            scoring = dataclasses.replace(scoring, method=Method(method))
        if blocked is not None:
            scoring = dataclasses.replace(scoring, blocked=Blocked(blocked))
        return scoring

    sheet = read_score_sheet(score_path, options_over, doubled)
    scoring, finished = sheet.scoring, sheet.game
    result = score_game(finished, scoring)
    if as_json:
        click.echo(json.dumps({"scores": dict(result.scores), "winner": result.winner}))
        return
    click.echo(score_table(finished, result, scoring))
