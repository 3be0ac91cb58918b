"""`rummisolve hint --all`: every best move, each as `hint` shows one, and the count,
proved or as far as the limit let it go."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..board import Board
from ..render import move_json, render_move
from .options import F, plural, use_colour

if TYPE_CHECKING:  # the engine loads when --all is asked for
    from ..engine.every import BestMoves


def every_options(command: F) -> F:
    """`--all`, `--limit N`, `--criteria`: every best move rather than one."""
    command = click.option(
        "--criteria",
        type=click.Choice(["best", "tiles", "value"]),
        default="best",
        help="With --all: moves equal on every criterion of best (best), or the most tiles "
        "(tiles) or points (value) alone.",
    )(command)
    command = click.option(
        "--limit", type=click.IntRange(min=1), help="With --all: list at most N moves."
    )(command)
    return click.option("--all", "every", is_flag=True, help="Every best move, counted.")(command)


def show_every(
    board: Board,
    path: str,
    as_json: bool,
    objective: str,
    backend: str | None,
    time_limit: float | None,
    limit: int | None,
    criteria: str,
) -> None:
    """`hint --all`: every best move found, and their count."""
    from ..checked import every_checked

    found = every_checked(board, objective, criteria, limit, backend, time_limit, source=path)
    used = found.moves[0].backend if found.moves else (backend or "")
    echo_every(board, found, as_json, used)


def echo_every(board: Board, found: BestMoves, as_json: bool, backend: str) -> None:
    """Print the best moves found: a table each and the count, or one JSON object.

    $ rummisolve hint board.txt --all --limit 5
    """
    if as_json:
        import json  # only for --json: ~1 ms of every hint's start

        moves = [move_json(move, board) for move in found.moves]
        whole = {"count": found.count, "complete": found.complete, "moves": moves}
        whole |= {"solves": found.solves, "seconds": round(found.seconds, 6)}
        click.echo(json.dumps(whole))
        return
    colour = use_colour()
    for n, move in enumerate(found.moves, 1):
        shown = render_move(board, move, colour).splitlines()
        if found.count > 1 or not found.complete:
            click.echo(f"Best move {n}{f' of {found.count}' if found.complete else ''}:")
        click.echo("\n".join(shown[:-1] if move.is_move else shown[:1]) + "\n")
    click.echo(count_line(found, backend))


def count_line(found: BestMoves, backend: str) -> str:
    """`exactly 2 best moves (proved: ...)`, or `at least N` where the search stopped."""
    how = f"{plural(found.solves, 'solve')}, {found.seconds * 1000:.0f} ms, {backend}"
    if found.complete:
        return f"exactly {plural(found.count, 'best move')} (proved: {how})"
    return f"at least {plural(found.count, 'best move')} (stopped by the limit: {how})"
