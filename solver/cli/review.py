"""`rummisolve review`: every turn of logged games against the best move of its position."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

import click

from ..puzzle import ProofCut
from ..review import (
    MEASURE,
    LogProblem,
    PlayerSummary,
    Position,
    Solving,
    TurnReview,
    read_logs,
    review,
    summarize,
    summary_json,
)
from ..review.puzzles import PROOF_SOLVES, puzzle_name, puzzle_of
from .interrupts import INTERRUPT, INTERRUPTED
from .options import backend_option, core_errors, folder_path, plural, time_limit_option
from .output import refuse_existing, write_row, write_whole


@click.command()
@click.argument("logs", metavar="LOG...", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON row per turn, then a summary row.")
@click.option(
    "--turns",
    type=click.Choice(["all", "missed"]),
    default="all",
    show_default=True,
    help="missed: only the turns that laid fewer tiles than they could, each with the best"
    " move's steps.",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Worker processes solving turns at once (the rows come out in order).",
)
@time_limit_option
@backend_option
@click.option(
    "--puzzles",
    "puzzle_dir",
    type=click.Path(),
    callback=folder_path,
    help="Write each turn that missed --min-missed tiles or more, where its best move is"
    " the only one, as a puzzle file in this folder (LOG-gGAME-tTURN.txt).",
)
@click.option(
    "--min-missed",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="The tiles a turn must miss to become a puzzle.",
)
@click.option(
    "--proof-solves",
    type=click.IntRange(min=1),
    default=PROOF_SOLVES,
    show_default=True,
    help="Integer programs a puzzle's uniqueness proof may solve: a turn whose proof needs"
    " more is skipped and counted, never written.",
)
@click.option(
    "--overwrite", is_flag=True, help="Replace puzzle files of the same names in --puzzles."
)
@core_errors
def review_command(
    logs: tuple[str, ...],
    as_json: bool,
    turns: str,
    jobs: int,
    time_limit: float | None,
    backend: str | None,
    puzzle_dir: Path | None,
    min_missed: int,
    proof_solves: int,
    overwrite: bool,
) -> None:
    """Review game logs (play --log, tournament --log): each turn against the most tiles
    it could have laid, proved; per player, the share of best turns and what was missed.

    A strategy that holds tiles back on purpose shows its choices as misses: the figure,
    not a verdict.

    Example: rummisolve review --turns missed puzzles/games/greedy-heavy-cautious.jsonl
    """
    if overwrite and puzzle_dir is None:
        raise click.UsageError("--overwrite needs --puzzles")
    found = read_logs(logs)
    if puzzle_dir is not None and not overwrite:
        refuse_existing(puzzle_dir / puzzle_name(p) for p in found if isinstance(p, Position))
    total = sum(not isinstance(f, LogProblem) for f in found)
    solving = Solving(backend, time_limit)
    done: list[TurnReview] = []
    problems = shown = 0
    mined = _Mined(puzzle_dir, backend, proof_solves)
    hidden = not sys.stderr.isatty()
    try:
        with click.progressbar(
            length=total, label="reviewing", file=sys.stderr, hidden=hidden, show_pos=True
        ) as bar:
            for item in review(found, solving, jobs):
                with INTERRUPT.held():
                    if isinstance(item, LogProblem):
                        problems += 1
                        click.echo(item.message, err=True)
                        continue
                    done.append(item)
                    bar.update(1)
                    if row := _row(item, as_json, turns, not shown):
                        write_row(row)
                        shown += 1
                    if puzzle_dir is not None and item.tiles_missed >= min_missed:
                        mined.add(item)
    except KeyboardInterrupt:
        with INTERRUPT.ignored():
            _summary(done, problems, as_json)
            mined.report()
            click.echo(f"interrupted: {plural(len(done), 'turn')} of {total} reviewed", err=True)
        raise click.exceptions.Exit(INTERRUPTED) from None
    _summary(done, problems, as_json)
    mined.report()
    if problems:
        raise click.exceptions.Exit(1)


HEADER = f"{'game':>4} {'turn':>4}  {'player':<8} {'laid':<16} {'best':<16} mark"


def _row(turn: TurnReview, as_json: bool, which: str, first: bool) -> str | None:
    """A turn's row: JSON, a line of the table, or (missed only) the line and the steps."""
    if as_json:
        return json.dumps(turn.as_json())
    if which == "missed" and not turn.tiles_missed:
        return None
    p, best = turn.position, turn.best
    laid = _laid(len(p.played), p.value_played) if p.played else p.kind.value
    line = (
        f"{p.game:>4} {p.turn:>4}  {p.player:<8} {laid:<16} {_laid(best.tiles, best.value):<16}"
        f" {turn.mark_text()}"
    )
    rows = [HEADER] if first else []
    rows.append(line)
    if which == "missed":
        rows.extend(f"            {step}" for step in best.steps.splitlines())
    return "\n".join(rows)


def _laid(tiles: int, points: int) -> str:
    return f"{tiles} ({points} pts)" if tiles else "-"


def _summary(done: Sequence[TurnReview], problems: int, as_json: bool) -> None:
    players = summarize(done)
    if as_json:
        write_row(json.dumps(summary_json(players, problems)))
    else:
        write_row(_summary_table(players))


def _summary_table(players: Sequence[PlayerSummary]) -> str:
    lines = [
        "",
        f"{'player':<8} {'turns':>5} {'best':>5} {'tiles missed':>12} {'points missed':>13}"
        f" {'could go out':>12}",
    ]
    for p in players:
        lines.append(
            f"{p.player:<8} {p.turns:>5} {p.best_share:>5.0%} {p.tiles_missed_per_turn:>12.2f}"
            f" {p.points_missed_per_turn:>13.1f} {p.could_have_gone_out:>12}"
        )
    lines.append("(tiles and points missed: per turn, against the best move)")
    for p in players:
        if p.biggest:
            misses = "; ".join(f"game {m.game} turn {m.turn}: {m.tiles}" for m in p.biggest)
            lines.append(f"{p.player} biggest misses (tiles): {misses}")
    not_proved = sum(p.not_proved for p in players)
    if not_proved:
        lines.append(
            f"{plural(not_proved, 'turn')} not proved: the time limit cut the search short"
        )
    lines.extend(textwrap.wrap(MEASURE, width=88))
    return "\n".join(lines)


class _Mined:
    """The puzzles written to a folder, and the turns skipped because their proof was cut."""

    def __init__(self, folder: Path | None, backend: str | None, max_solves: int) -> None:
        self.folder, self.backend, self.max_solves = folder, backend, max_solves
        self.written = self.cut = 0

    def add(self, turn: TurnReview) -> None:
        assert self.folder is not None
        made = puzzle_of(turn, self.backend, self.max_solves)
        if isinstance(made, ProofCut):
            self.cut += 1
        elif made is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_whole(self.folder / made.name, made.text)
            self.written += 1

    def report(self) -> None:
        if self.folder is None:
            return
        cut = ""
        if self.cut:
            cut = (
                f"; {plural(self.cut, 'turn')} skipped: proving the best move the only one"
                f" needed more than {plural(self.max_solves, 'solve')} (--proof-solves)"
            )
        click.echo(f"wrote {plural(self.written, 'puzzle')} to {self.folder}{cut}", err=True)
