"""Reports as aligned text tables: batch summaries, backend timings, games and scores."""

from __future__ import annotations

from collections.abc import Sequence

from ..batch import (
    Tally,
)
from ..bench import BackendResult, BenchReport
from ..game import (
    GameRecord,
    MatchRecord,
    Seat,
    strategy_stats,
)
from ..scoring import (
    FinishedGame,
    GameScore,
    Scoring,
)
from ..tiles import format_tiles
from .options import (
    plural,
)


def batch_summary(tally: Tally, seconds: float, jobs: int, check_expected: bool) -> str:
    """`200 boards in 1.203 s (2 jobs): 190 solved, 7 no move, 3 failed`, and the checks."""
    words = [f"{tally.solved} solved", f"{tally.no_move} no move", f"{tally.failed} failed"]
    if tally.unproved:
        words.append(f"{tally.unproved} not proved best (time limit)")
    if tally.nothing_found:
        words.append(f"{tally.nothing_found} with nothing found in the time limit")
    line = f"{plural(tally.total, 'board')} in {seconds:.3f} s ({plural(jobs, 'job')}): "
    line += ", ".join(words)
    if check_expected:
        line += f"; expect: {tally.checked} checked, {tally.mismatched} mismatched"
        # A board without an expect line, or one a time limit cut short, is not checked.
        if unchecked := tally.total - tally.failed - tally.checked:
            line += f", {unchecked} unchecked"
    return line


def bench_table(report: BenchReport) -> str:
    """The times per backend, then whether the backends agree, naming every board they don't."""
    solves = f"{report.repeat} solves" if report.repeat > 1 else "1 solve"
    rows = [["backend", "median ms", "p90 ms", "max ms", "not proved best"]]
    rows += [bench_row(result) for result in report.backends]
    if not any(result.unproved for result in report.backends):
        rows = [row[:-1] for row in rows]  # the column only when the time limit cut a search
    boards = plural(report.boards, "board")
    lines = [f"{boards}, {solves} per board and backend", *columns(rows, 1)]
    lines += bench_agreement(report)
    lines.extend(f"illegal answer: {line}" for line in report.illegal)
    return "\n".join(lines)


def bench_agreement(report: BenchReport) -> list[str]:
    """Whether the answers proved best agree, naming every board where they do not."""
    unproved = ""
    if report.unproved_boards:
        boards = plural(report.unproved_boards, "board")
        unproved = f"; answers not proved best (on {boards}) not compared"
    if report.disagreements:
        return [
            f"optimum differs on {plural(len(report.disagreements), 'board')}{unproved}:",
            *(
                f"  {d.board}: " + ", ".join(f"{b} {o}" for b, o in d.optima.items())
                for d in report.disagreements
            ),
        ]
    running = sum(result.failure is None for result in report.backends)
    if running < 2:
        return [f"same optimum: {plural(running, 'backend')}, nothing to compare"]
    if not report.boards:
        return ["same optimum: no board benched"]
    if report.unproved_boards:
        return [f"same optimum: the answers proved best agree on every board{unproved}"]
    return [f"same optimum: all {running} backends agree on every board"]


def bench_row(result: BackendResult) -> list[str]:
    """Backend, times in ms, answers not proved best; or that it failed, or had no board."""
    if result.failure is not None:
        return [result.backend, "failed", "", "", ""]
    if result.timing is None:
        return [result.backend, "-", "-", "-", "-"]
    return [result.backend, *(f"{s * 1000:.1f}" for s in result.timing), str(result.unproved)]


def score_table(finished: FinishedGame, result: GameScore, scoring: Scoring) -> str:
    """One row per player: name, score, what was left on the rack; then the winner."""
    width = max(len(p.name) for p in finished.players)
    points = {name: f"{s:+d}" for name, s in result.scores.items()}
    digits = max(len(p) for p in points.values())
    lines = []
    for player in finished.players:
        left = format_tiles(player.rack) if player.rack else "out"
        total = f" ({scoring.rack_total(player.rack)})" if len(player.rack) > 1 else ""
        lines.append(f"{player.name:<{width}}  {points[player.name]:>{digits}}  {left}{total}")
    double = " (doubled: out in one turn)" if finished.doubled else ""
    lines.append(f"winner: {result.winner}{double}" if result.winner else "no winner: a tie")
    return "\n".join(lines)


def match_header(seats: Sequence[Seat], seed: int) -> str:
    """The players, and the columns of the rows that follow as games finish."""
    names = "".join(f"{s.name:>6}" for s in seats)
    players = ", ".join(f"{s.name} {s.strategy.name}" for s in seats)
    columns = f"{'game':<6}{'winner':<8}{'end':<13}{'turns':>5}{names}"
    return f"seed {seed}: {len(seats)} players ({players})\n{columns}"


def match_row(game: GameRecord, seats: Sequence[Seat]) -> str:
    """One game, in fixed widths: winner, how it ended, each player's score."""
    end = f"{game.end.value}, doubled" if game.result.doubled else game.end.value
    scores = "".join(f"{game.score.scores[s.name]:>+6d}" for s in seats)
    return f"{game.number:<6}{game.score.winner or '-':<8}{end:<13}{game.turns:>5}{scores}"


def match_footer(record: MatchRecord) -> str:
    """The totals, and a row per strategy: its wins and mean score per game."""
    totals = record.match.totals
    leaders = " ".join(record.match.leaders)
    scores = "".join(f"{totals[s.name]:>+6d}" for s in record.seats)
    lines = [
        f"{'total':<6}{leaders:<8}{'':<13}{'':>5}{scores}",
        "",
        *columns(
            [["strategy", "seats", "wins", "mean score"]]
            + [
                [s.name, str(s.seats), str(s.wins), f"{s.mean_score:+.1f}"]
                for s in strategy_stats(record)
            ],
            right_from=1,
        ),
    ]
    return "\n".join(lines)


def columns(rows: list[list[str]], right_from: int) -> list[str]:
    """Rows as aligned text columns: left-aligned, then right-aligned from `right_from`."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.ljust(w) if i < right_from else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]
