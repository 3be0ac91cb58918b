"""`rummisolve tournament`: strategies against each other over many games, on duplicate
deals, with confidence intervals; and the streaming of finished games that `play` shares."""

from __future__ import annotations

import contextlib
import json
import textwrap
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import Any

import click

from ..batch.pool import BatchError, usable_cpus
from ..game import STRATEGIES, GameOptions, GameRecord, tile_set_for
from ..rules import Rules
from ..scoring import MAX_PLAYERS, MIN_PLAYERS
from ..search import MAX_THINK
from ..strategies import SetupError
from ..tournament import (
    GameReview,
    Lineup,
    MissedReport,
    Played,
    TournamentReport,
    Work,
    check_names,
    missed_report,
    run_games,
    tournament_report,
    tournament_tasks,
)
from .batch import needs_ray
from .interrupts import INTERRUPT, INTERRUPTED, drop_stdout
from .options import (
    F,
    backend_option,
    core_errors,
    finite,
    plural,
    rule_options,
    rule_overrides,
    seed_option,
    time_limit_option,
)
from .output import CannotWrite, RowFile, write_row
from .progress import progress
from .tables import columns


def strategy_names(ctx: click.Context, param: click.Parameter, value: str) -> tuple[str, ...]:
    """`greedy,cautious`: one strategy per seat, in seat order, each made once here so
    that a bad one is a usage error before any game."""
    names = tuple(n.strip() for n in value.split(","))
    if not all(names):
        raise click.BadParameter("an empty strategy name")
    try:
        check_names(names)
    except SetupError as error:
        raise click.BadParameter(str(error)) from None
    return names


def strategies_option(default: str, fill: str) -> Callable[[F], F]:
    """`--strategies` (`--strategy` too): the strategies at the table, as `play` and
    `tournament` take them; `fill`: how seats left are filled."""
    return click.option(
        "--strategies",
        "--strategy",
        "strategies",
        default=default,
        show_default=True,
        callback=strategy_names,
        help=f"One per seat, comma-separated; {fill} ({', '.join(STRATEGIES)}, or module:Class).",
    )


players_option = click.option(
    "--players",
    type=click.IntRange(MIN_PLAYERS, MAX_PLAYERS),
    default=4,
    show_default=True,
    help="5-6 play with the 160-tile set.",
)
jobs_option = click.option(
    "--jobs",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Worker processes playing games at once (at most the CPUs this process may use).",
)
think_option = click.option(
    "--think",
    type=click.FloatRange(0, MAX_THINK),
    metavar="SECONDS",
    callback=finite,
    help="The budget of `search` per decision  [default: 0.1; at most 120, the rulebook's"
    " two minutes a turn]",
)
log_option = click.option(
    "--log",
    "log_path",
    type=click.Path(allow_dash=True),
    help="Write one JSON line per turn, the state after it, to this file (-: standard output).",
)


def table_rules(players: int, options: dict[str, Any]) -> Rules:
    """The rule options given, on the box the rules give for this many players."""
    overrides = rule_overrides(options)
    rules = overrides.apply(Rules())
    if not overrides.sets("tile_set"):
        rules = rules.replace(tile_set=tile_set_for(players))
    return rules


def usable_jobs(jobs: int, games: int | None) -> int:
    cpus = usable_cpus()
    if jobs > cpus:
        click.echo(
            f"--jobs {jobs}: this process may use {plural(cpus, 'CPU')}; using {cpus}", err=True
        )
        jobs = cpus
    return max(1, min(jobs, games or jobs))


def stream_games(
    games: Iterable[Played],
    total: int | None,
    show: Callable[[Played], str | None],
    log: RowFile | None,
    rules: Rules,
    keep: Callable[[GameRecord], None],
) -> Iterator[Played]:
    """Each finished game: its turns to the log, its row (`show`) to stdout, a progress
    bar on a terminal's stderr, its record to `keep`; yielded once kept. Ctrl-C stops at
    once while games are played, and after the row and the record while one is written
    (see batch): a game whose row was written is in the report."""
    with progress("playing", total) as bar:
        for played in games:
            with INTERRUPT.held():
                try:
                    if log is not None:
                        for turn in played.turns:
                            log.row(json.dumps(turn.as_json() | {"rules": rules.as_json()}))
                    if (row := show(played)) is not None:
                        bar.before_row()
                        write_row(row)
                except BrokenPipeError:
                    if not INTERRUPT.came:
                        raise
                    drop_stdout()
                    raise KeyboardInterrupt from None
                keep(played.record)
                bar.advance()
            yield played


@contextlib.contextmanager
def reporting(
    played: Generator[Played, None, None],
    records: Sequence[GameRecord],
    total: int | None,
    report: Callable[[], None],
) -> Iterator[None]:
    """The report of the games finished, once they end: also on Ctrl-C (then a line on
    stderr, exit 130) or an error (a worker killed twice, an output that cannot be
    written; then the error), the games under way stopped first."""
    try:
        yield
    except KeyboardInterrupt:
        played.close()
        with INTERRUPT.ignored():
            report()
            of = f" of {total}" if total else ""
            click.echo(f"interrupted: {len(records)}{of} games played", err=True)
        raise click.exceptions.Exit(INTERRUPTED) from None
    except (BatchError, CannotWrite):
        played.close()
        report()  # the games finished stand: their report, then the error
        raise
    report()


def game_rows(records: Iterable[GameRecord]) -> list[dict[str, Any]]:
    """The `rows` of `play --json` and `tournament --json`: one object per game."""
    return [
        {
            "winner": g.score.winner,
            "scores": dict(g.score.scores),
            "turns": g.turns,
            "end": g.end.value,
            "starter": g.starter,
            "seed": g.seed,
            "doubled": g.result.doubled,
            "solver_calls": g.solver_calls,
            "seats": dict(g.strategies),
        }
        for g in records
    ]


@click.command()
@players_option
@strategies_option("search,greedy", "the last fills the seats left")
@click.option(
    "--games", type=click.IntRange(1), default=100, show_default=True, help="Games in all."
)
@seed_option("games")
@think_option
@jobs_option
@click.option(
    "--ray",
    "ray_address",
    metavar="ADDRESS",
    help="Play on a Ray cluster: auto (the running one), local (a new one here), or its"
    " address; --jobs then counts actors  [default: the cluster's CPUs].",
)
@backend_option
@time_limit_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object: the report.")
@log_option
@click.option(
    "--review",
    "review",
    is_flag=True,
    help="Review each game's turns against the best move (as `rummisolve review`): per"
    " strategy the tiles missed per turn, with its 95% interval.",
)
@rule_options
@core_errors
def tournament(
    players: int,
    strategies: tuple[str, ...],
    games: int,
    seed: int,
    think: float | None,
    jobs: int,
    ray_address: str | None,
    backend: str | None,
    time_limit: float | None,
    as_json: bool,
    log_path: str | None,
    review: bool,
    **options: Any,
) -> None:
    """Play strategies against each other on duplicate deals: which is stronger, and how
    sure we are (95% intervals).

    Example: rummisolve tournament --players 4 --strategies search,greedy --games 40
    """
    try:
        lineup = Lineup.filled(strategies, players, think)
    except SetupError as error:
        raise click.BadParameter(str(error), param_hint="'--strategies'") from None
    rules = table_rules(players, options)
    game_options = GameOptions(rules=rules, backend=backend, time_limit=time_limit)
    work = Work(lineup, game_options, keep_turns=log_path is not None, review=review)
    on_ray = None
    if ray_address is None:
        jobs = usable_jobs(jobs, games)
    else:
        try:
            from ..batch.ray_pool import RayGames  # Ray is loaded only when asked for
        except ImportError as error:
            raise click.BadParameter(needs_ray(error), param_hint="'--ray'") from None
        explicit = click.get_current_context().get_parameter_source("jobs")
        default = explicit is click.core.ParameterSource.DEFAULT
        on_ray = RayGames(ray_address, work, None if default else jobs, most=games)
        jobs = on_ray.jobs
    records: list[GameRecord] = []
    reviews: dict[int, GameReview] = {}
    started = time.perf_counter()

    def report() -> None:
        summary = tournament_report(records)
        missed = missed_report(records, reviews) if review else None
        problems = [m for r in records if review for m in reviews[r.number].problems]
        seconds = time.perf_counter() - started
        if as_json:
            shown = tournament_json(summary, records, lineup, seed, rules, seconds, missed)
            click.echo(json.dumps(shown))
        else:
            click.echo(tournament_table(summary, lineup, seed, seconds, jobs))
            if missed is not None:
                click.echo(missed_table(missed))
        for problem in problems:
            click.echo(f"review: {problem}", err=True)

    def noted(games: Iterable[Played]) -> Iterator[Played]:
        """The games, each one's review kept by its number (the report takes those of
        the games finished)."""
        for game in games:
            if game.review is not None:
                reviews[game.record.number] = game.review
            yield game

    with contextlib.ExitStack() as stack:
        log = RowFile(log_path) if log_path else None  # a bad path fails before any game
        if log is not None:
            stack.callback(log.close)
        if not as_json:
            click.echo(game_header(players))
        show: Callable[[Played], str | None] = (lambda played: None) if as_json else game_row
        tasks = tournament_tasks(lineup, games, seed)
        played = on_ray.run(tasks) if on_ray else run_games(tasks, work, jobs)
        stack.callback(played.close)
        with reporting(played, records, games, report):
            for _game in stream_games(noted(played), games, show, log, rules, records.append):
                pass


def game_header(players: int) -> str:
    seats = "".join(f"{f'P{i + 1}':>7}" for i in range(players))
    return f"{'game':>5} {'deal':>5}  {'winner':<20} {'end':<7} {'turns':>5}{seats}"


def game_row(played: Played) -> str:
    """A finished game on one line of fixed widths (rows come out as games finish)."""
    g = played.record
    winner = f"{g.score.winner} {g.strategies[g.score.winner]}" if g.score.winner else "-"
    scores = "".join(f"{g.score.scores[p]:>+7d}" for p in g.strategies)
    deal = played.task.deal
    return f"{g.number:>5} {deal:>5}  {winner[:20]:<20} {g.end.value:<7} {g.turns:>5}{scores}"


def tournament_table(
    summary: TournamentReport, lineup: Lineup, seed: int, seconds: float, jobs: int
) -> str:
    """The report: per strategy, per pair, per position in the order of play."""
    counts: dict[str, int] = {}
    for name in (s.strategy.name for s in lineup.seats()):
        counts[name] = counts.get(name, 0) + 1
    table = ", ".join(f"{n} x{c}" for n, c in counts.items())
    dealt = f"each deal played in {plural(lineup.rotations, 'seat rotation')}"
    if last := summary.games % lineup.rotations:  # games not a whole number of deals
        dealt += f", the last in {last}"
    lines = [
        "",
        f"{plural(summary.games, 'game')} in {seconds:.1f} s ({plural(jobs, 'job')}), seed {seed}:"
        f" {table}, {dealt}",
        *columns(
            [
                [
                    "strategy",
                    "games",
                    "wins",
                    "win share",
                    "95% interval",
                    "mean score",
                    "95% interval",
                    "mean rank",
                ]
            ]
            + [
                [
                    s.name,
                    str(s.games),
                    str(s.wins),
                    f"{s.win_share:.3f}",
                    f"{s.win_share_ci[0]:.3f}-{s.win_share_ci[1]:.3f}",
                    f"{s.mean_score:+.1f}",
                    f"{s.mean_score_ci[0]:+.1f} to {s.mean_score_ci[1]:+.1f}",
                    f"{s.mean_rank:.2f}",
                ]
                for s in summary.strategies
            ],
            right_from=1,
        ),
    ]
    if summary.pairs:
        lines += [
            "",
            *columns(
                [["pair", "ahead", "behind", "ties", "ahead share", "95% interval"]]
                + [
                    [
                        f"{p.first} vs {p.second}",
                        str(p.ahead),
                        str(p.behind),
                        str(p.ties),
                        f"{p.share:.3f}",
                        f"{p.share_ci[0]:.3f}-{p.share_ci[1]:.3f}",
                    ]
                    for p in summary.pairs
                ],
                right_from=1,
            ),
        ]
    lines += [
        "",
        *columns(
            [["position", "strategy", "games", "wins", "win share"]]
            + [
                [str(p.position), p.strategy, str(p.games), str(p.wins), f"{p.win_share:.3f}"]
                for p in summary.positions
            ],
            right_from=2,
        ),
    ]
    return "\n".join(lines)


def missed_table(missed: Sequence[MissedReport]) -> str:
    """`--review`: per strategy the tiles missed per turn against the best move."""
    from ..review import MEASURE

    rows = [["strategy", "turns", "tiles missed per turn", "95% interval"]]
    rows += [
        [
            m.name,
            str(m.turns),
            f"{m.per_turn:.2f}",
            f"{m.per_turn_ci[0]:.2f} to {m.per_turn_ci[1]:.2f}",
        ]
        for m in missed
    ]
    return "\n".join(["", *columns(rows, right_from=1), *textwrap.wrap(MEASURE, width=88)])


def tournament_json(
    summary: TournamentReport,
    records: Iterable[GameRecord],
    lineup: Lineup,
    seed: int,
    rules: Rules,
    seconds: float,
    missed: Sequence[MissedReport] | None = None,
) -> dict[str, Any]:
    """docs/format.md's shape: the issue's keys, then the lineup and per position, the
    review (`--review`), and last the games' rows (as in play --json)."""
    review = {} if missed is None else {"review": {m.name: m.as_json() for m in missed}}
    return {
        "games": summary.games,
        "strategies": {s.name: s.as_json() for s in summary.strategies},
        "pairs": [p.as_json() for p in summary.pairs],
        "seed": seed,
        "rules": rules.as_json(),
        "players": list(lineup.strategies),
        "rotations": lineup.rotations,
        "think": lineup.think,
        "positions": [p.as_json() for p in summary.positions],
        "calls_per_decision": {s.name: round(s.calls_per_decision, 2) for s in summary.strategies},
        "seconds": round(seconds, 3),
        **review,
        "rows": game_rows(records),
    }
