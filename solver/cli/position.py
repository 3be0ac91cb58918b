"""The position on the command line (`--table`, `--rack`, `--not-opened`) for `hint` and
`check`, a word on standard error where `-` would wait on a terminal in silence, and
`hint --next FILE`, the board after the move."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from ..board import Board, format_board, parse_position, read_board
from ..move import Move
from ..rules import Overrides
from ..table_reading import board_after

F = TypeVar("F", bound=Callable[..., Any])

# How `check` names a position given on the command line (a file is named by its path).
POSITION_NAME = "--table/--rack"
WAITING = (
    "Reading a board from standard input: type it (table: then one set per line, rack: and"
    " your tiles), then Ctrl-D on a line of its own."
    ' Or give it as options: --table "R3 R4 R5 | K7 R7 B7 J" --rack "R2 B5 O5 J".'
)


def given_once(how: str) -> Callable[[click.Context, click.Parameter, tuple[str, ...]], str | None]:
    """A callback for an option taken with `multiple=True` only to see it repeated: click
    keeps the last of a repeated option, silently dropping the others. `how`: how to give
    everything in one."""

    def once(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> str | None:
        if len(values) > 1:
            raise click.BadParameter(f"given twice: give it once, {how}")
        return values[0] if values else None

    return once


def position_options(command: F) -> F:
    """`--table`, `--rack` and `--opened/--not-opened`: the position without a file."""
    options = [
        click.option(
            "--table",
            metavar="SETS",
            multiple=True,
            callback=given_once("the sets separated by |"),
            help='The sets on the table, separated by |: "R3 R4 R5 | K7 R7 B7 J" (R3-6 is'
            " a run written short). Instead of BOARD.",
        ),
        click.option(
            "--rack",
            metavar="TILES",
            multiple=True,
            callback=given_once("with all your tiles"),
            help='Your tiles: "R2 B5 O5 J". Instead of BOARD.',
        ),
        click.option(
            "--opened/--not-opened",
            default=None,
            help="Whether you have made your initial meld (default: the board's opened:, or yes).",
        ),
    ]
    for decorator in reversed(options):
        command = decorator(command)
    return command


def board_argument(command: F) -> F:
    """BOARD: a path, `-` for standard input, or left out for --table/--rack."""
    return click.argument("board_path", metavar="[BOARD]", required=False)(command)


def read_position(
    board_path: str | None,
    options: dict[str, Any],
    overrides: Overrides,
    stdin_is_terminal: Callable[[], bool] = lambda: sys.stdin is not None and sys.stdin.isatty(),
) -> tuple[str, Board]:
    """The board to work on and its name: BOARD's file, or the options' position (taken
    out of the command's keyword arguments). Both, or neither, is a usage error."""
    table, rack, opened = options.pop("table"), options.pop("rack"), options.pop("opened")
    if table is None and rack is None:
        if board_path is None:
            raise click.UsageError(
                "Missing argument 'BOARD': a board file (- for standard input),"
                ' or the position as --table "SETS" --rack "TILES".'
            )
        if board_path == "-" and stdin_is_terminal():
            click.echo(WAITING, err=True)
        board = read_board(board_path, overrides)
        if opened is not None:
            board = dataclasses.replace(board, opened=opened)
        return board_path, board
    if board_path is not None:
        raise click.UsageError("Give either BOARD or --table/--rack, not both.")
    return POSITION_NAME, parse_position(table, rack, opened is not False, overrides)


next_option = click.option(
    "--next",
    "next_path",
    metavar="FILE",
    type=click.Path(dir_okay=False, writable=True, allow_dash=True),
    help="Also write the board after the move to FILE (the new table, the rack left, its"
    " rules in full): the next turn's board. -: to standard output, the move to standard"
    " error.",
)


def write_next(path: str | None, board: Board, move: Move) -> None:
    """The board after the move, for the next turn, if --next asks for it: written whole
    or not at all."""
    if path is not None:
        from pathlib import Path  # only for --next: ~3 ms of every hint's start

        from .output import write_whole

        write_whole(Path(path), format_board(board_after(board, move), full_rules=True))
