"""`rummisolve hint` and `rummisolve check`: one board, its best move or its validity."""

from __future__ import annotations

from typing import Any

import click

from ..render import move_json, render_move
from ..startup import loading
from .every import every_options, show_every
from .options import (
    backend_option,
    core_errors,
    move_rule_options,
    objective_option,
    rule_options,
    rule_overrides,
    time_limit_option,
    use_colour,
)
from .output import STDOUT
from .position import board_argument, next_option, position_options, read_position, write_next


@click.command()
@click.argument("paths", metavar="[BOARD]...", nargs=-1)
@position_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per board (docs/format.md).")
@rule_options
@core_errors
def check(paths: tuple[str, ...], as_json: bool, **options: Any) -> None:
    """Validate each BOARD (files, folders: every *.txt below them, - for standard
    input), or the position given with --table and --rack: exit 0 when all are valid,
    1 otherwise.

    rummisolve check --table "R3 R4 R5 | K7 R7 B7 J" --rack "R2 B5 O5 J"
    """
    from .checks import check_boards, show_valid

    overrides = rule_overrides(options)
    if paths and options["table"] is None and options["rack"] is None:
        check_boards(paths, overrides, as_json, opened=options["opened"])
    else:
        name, board = read_position(paths[0] if paths else None, options, overrides)
        show_valid(name, board, as_json)


@click.command()
@board_argument
@position_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/format.md).")
@next_option
@objective_option
@backend_option
@time_limit_option
@every_options
@move_rule_options
@core_errors
def hint(
    board_path: str | None,
    as_json: bool,
    next_path: str | None,
    objective: str,
    backend: str,
    time_limit: float | None,
    every: bool,
    limit: int | None,
    criteria: str,
    **options: Any,
) -> None:
    """The best move on BOARD (a file, or - for standard input), or on the position given
    with --table and --rack, proved best; with --all, every best move and their count.

    rummisolve hint --table "R3 R4 R5 | K7 R7 B7 J" --rack "R2 B5 O5 J" --next turn2.txt
    """
    with loading():  # the engine and numpy: only here, not for check
        from ..checked import solve_checked

    listing = every or limit is not None or criteria != "best"
    if listing and next_path is not None:
        raise click.UsageError("--next writes the board after one move: not with --all")
    board_path, board = read_position(board_path, options, rule_overrides(options))
    if listing:
        show_every(board, board_path, as_json, objective, backend, time_limit, limit, criteria)
        return
    move = solve_checked(board, objective, backend, time_limit, source=board_path)
    move_to_stderr = next_path == STDOUT  # standard output holds the next board
    if as_json:
        import json  # only for --json: ~1 ms of every hint's start

        click.echo(json.dumps(move_json(move, board)), err=move_to_stderr)
    else:
        colour = use_colour() and not move_to_stderr
        shown = render_move(board, move, colour=colour)
        click.echo(shown, nl=False, err=move_to_stderr, color=colour)
    # After the move is shown: a --next that cannot be written does not hide it.
    write_next(next_path, board, move)
