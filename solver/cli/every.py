"""`rummisolve hint --all`: every best move, each as `hint` shows one, and the count,
proved or as far as the limit let it go."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..board import Board
from ..render import move_json, render_move
from .interrupts import INTERRUPT, INTERRUPTED
from .options import F, plural, use_colour
from .progress import progress

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
    """`hint --all`: every best move found, and their count; Ctrl-C prints those found
    so far, the list marked interrupted (exit status 130)."""
    from ..checked import checked, every_checked
    from ..engine.every import BestMoves

    so_far = BestMoves((), False, 0, 0.0)
    try:
        with progress("best moves", limit) as bar:

            def listed(found: BestMoves) -> None:
                nonlocal so_far
                so_far = found
                bar.at(found.count)

            found = every_checked(
                board, objective, criteria, limit, backend, time_limit, source=path, listed=listed
            )
    except KeyboardInterrupt:
        with INTERRUPT.ignored():
            for move in so_far.moves:
                checked(board, move, path)
            echo_every(board, so_far, as_json, used_backend(so_far, backend), True)
            click.echo(f"interrupted: {plural(so_far.count, 'best move')} listed", err=True)
        raise click.exceptions.Exit(INTERRUPTED) from None
    echo_every(board, found, as_json, used_backend(found, backend))


def used_backend(found: BestMoves, asked: str | None) -> str:
    return found.moves[0].backend if found.moves else (asked or "")


def echo_every(
    board: Board, found: BestMoves, as_json: bool, backend: str, interrupted: bool = False
) -> None:
    """Print the best moves found: a table each and the count, or one JSON object.

    $ rummisolve hint board.txt --all --limit 5
    """
    if as_json:
        import json  # only for --json: ~1 ms of every hint's start

        moves = [move_json(move, board) for move in found.moves]
        whole = {"count": found.count, "complete": found.complete, "moves": moves}
        if interrupted:
            whole["interrupted"] = True
        whole |= {"solves": found.solves, "seconds": round(found.seconds, 6)}
        click.echo(json.dumps(whole))
        return
    colour = use_colour()
    for n, move in enumerate(found.moves, 1):
        shown = render_move(board, move, colour).splitlines()
        if found.count > 1 or not found.complete:
            click.echo(f"Best move {n}{f' of {found.count}' if found.complete else ''}:")
        click.echo("\n".join(shown[:-1] if move.is_move else shown[:1]) + "\n", color=colour)
    click.echo(count_line(found, backend, interrupted))


def count_line(found: BestMoves, backend: str, interrupted: bool = False) -> str:
    """`exactly 2 best moves (proved: ...)`, or `at least N` where the search stopped."""
    how = f"{plural(found.solves, 'solve')}, {found.seconds * 1000:.0f} ms, {backend}"
    if found.complete:
        return f"exactly {plural(found.count, 'best move')} (proved: {how})"
    why = "interrupted" if interrupted else "stopped by the limit"
    return f"at least {plural(found.count, 'best move')} ({why}: {how})"
