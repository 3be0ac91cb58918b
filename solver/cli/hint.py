"""`rummisolve hint` and `rummisolve check`: one board, its best move or its validity."""

from __future__ import annotations

import json
from typing import Any

import click

from ..board import Board, read_board
from ..engine.solve import find_move
from ..legality import check_move
from ..render import move_json, render_move
from .every import every_options, show_every
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
@click.argument("paths", metavar="BOARD...", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per board (docs/format.md).")
@rule_options
@core_errors
def check(paths: tuple[str, ...], as_json: bool, **options: Any) -> None:
    """Validate each BOARD (files, folders: every *.txt below them, - for standard
    input): exit 0 when all are valid, 1 otherwise."""
    from .checks import check_boards

    check_boards(paths, rule_overrides(options), as_json)


@click.command()
@click.argument("board_path", metavar="BOARD")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/format.md).")
@objective_option
@backend_option
@time_limit_option
@every_options
@rule_options
@core_errors
def hint(
    board_path: str,
    as_json: bool,
    objective: str,
    backend: str,
    time_limit: float | None,
    every: bool,
    limit: int | None,
    criteria: str,
    **options: Any,
) -> None:
    """The best move on BOARD (a file, or - for standard input), proved best; with --all,
    every best move and their count."""
    board = read_board(board_path, rule_overrides(options))
    if every or limit is not None or criteria != "best":
        show_every(board, board_path, as_json, objective, backend, time_limit, limit, criteria)
        return
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
