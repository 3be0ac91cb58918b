"""`rummisolve hint` and `rummisolve check`: one board, its best move or its validity."""

from __future__ import annotations

import json
from typing import Any

import click

from ..board import Board
from ..engine.solve import find_move
from ..errors import printable
from ..legality import check_move
from ..render import move_json, render_move
from .options import (
    backend_option,
    core_errors,
    objective_option,
    plural,
    rule_options,
    rule_overrides,
    time_limit_option,
    use_colour,
)
from .position import board_argument, next_option, position_options, read_position, write_next


@click.command()
@board_argument
@position_options
@rule_options
@core_errors
def check(board_path: str | None, **options: Any) -> None:
    """Validate BOARD (a file, or - for standard input), or the position given with
    --table and --rack: exit 0 valid, 1 invalid.

    rummisolve check --table "R3 R4 R5 | K7 R7 B7 J" --rack "R2 B5 O5 J"
    """
    name, board = read_position(board_path, options, rule_overrides(options))
    click.echo(f"{printable(name)}: valid: {describe_board(board)}")


@click.command()
@board_argument
@position_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/format.md).")
@next_option
@objective_option
@backend_option
@time_limit_option
@rule_options
@core_errors
def hint(
    board_path: str | None,
    as_json: bool,
    next_path: str | None,
    objective: str,
    backend: str,
    time_limit: float | None,
    **options: Any,
) -> None:
    """The best move on BOARD (a file, or - for standard input), or on the position given
    with --table and --rack, proved best.

    rummisolve hint --table "R3 R4 R5 | K7 R7 B7 J" --rack "R2 B5 O5 J" --next turn2.txt
    """
    board_path, board = read_position(board_path, options, rule_overrides(options))
    move = find_move(board, objective=objective, backend=backend, time_limit=time_limit)
    if problems := check_move(board, move):
        raise click.ClickException(
            f"{board_path}: the answer breaks the rules (a solver bug): {'; '.join(problems)}"
        )
    write_next(next_path, board, move)
    if as_json:
        click.echo(json.dumps(move_json(move, board.rules, opened=board.opened)))
    else:
        click.echo(render_move(board, move, colour=use_colour()), nl=False)


def describe_board(board: Board) -> str:
    sets, tiles = len(board.table), len(board.table_tiles)
    words = [
        f"{plural(sets, 'set')} ({tiles} tiles) on the table",
        f"{plural(len(board.rack), 'tile')} on the rack",
        "opened" if board.opened else "not opened",
    ]
    if rule_words := board.rules.words():
        words.append("rules: " + " ".join(rule_words))
    return ", ".join(words)
