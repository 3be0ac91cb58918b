"""`rummisolve hint` and `rummisolve check`: one board, its best move or its validity."""

from __future__ import annotations

import json
from typing import Any

import click

from ..board import Board, read_board
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


@click.command()
@click.argument(
    "board_path",
    metavar="BOARD",
)
@rule_options
@core_errors
def check(board_path: str, **options: Any) -> None:
    """Validate BOARD (a file, or - for standard input): exit 0 valid, 1 invalid."""
    board = read_board(board_path, rule_overrides(options))
    click.echo(f"{printable(board_path)}: valid: {describe_board(board)}")


@click.command()
@click.argument("board_path", metavar="BOARD")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/format.md).")
@objective_option
@backend_option
@time_limit_option
@rule_options
@core_errors
def hint(
    board_path: str,
    as_json: bool,
    objective: str,
    backend: str,
    time_limit: float | None,
    **options: Any,
) -> None:
    """The best move on BOARD (a file, or - for standard input), proved best."""
    from ..engine.solve import find_move  # the engine and numpy: only here, not for check

    board = read_board(board_path, rule_overrides(options))
    move = find_move(board, objective=objective, backend=backend, time_limit=time_limit)
    if problems := check_move(board, move):
        raise click.ClickException(
            f"{board_path}: the answer breaks the rules (a solver bug): {'; '.join(problems)}"
        )
    if as_json:
        click.echo(json.dumps(move_json(move, board.rules)))
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
