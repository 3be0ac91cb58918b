"""`rummisolve check` over many boards: a line (or a JSON object) per board, the problems
of the bad ones on stderr, exit status 1 when any is bad."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Sequence

import click

from ..board import Board
from ..errors import BoardError, printable
from ..inputs import board_paths, folder_problem, read_path, read_standard_input
from ..rules import Overrides
from .options import ProblemsError, plural
from .position import WAITING


def check_boards(
    paths: Sequence[str], overrides: Overrides, as_json: bool, opened: bool | None = None
) -> None:
    """Check every board below the paths, as `batch` finds them (`opened`, when given,
    in place of each board's own).

    $ rummisolve check puzzles/ --json
    """
    if "-" in paths and sys.stdin is not None and sys.stdin.isatty():
        click.echo(WAITING, err=True)
    files, standard_input = read_standard_input(board_paths(paths))
    bad: list[str] = []
    for path in files:
        problems = folder_problem(path)
        board = None
        if problems is None:
            try:
                board = read_path(path, standard_input, overrides)
            except BoardError as error:
                problems = str(error)
        if board is None:
            bad.append(str(problems))
            if as_json:
                click.echo(json.dumps({"file": path, "valid": False, "problems": _lines(problems)}))
            elif len(files) > 1:
                click.echo(f"{printable(path)}: invalid", err=False)
            continue
        if opened is not None:
            board = dataclasses.replace(board, opened=opened)
        show_valid(path, board, as_json)
    if bad:
        message = "\n".join(bad)
        if len(files) > 1:
            message += f"\n{plural(len(bad), 'board')} of {len(files)} invalid"
        raise ProblemsError(message)


def show_valid(name: str, board: Board, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(board_json(name, board)))
    else:
        click.echo(f"{printable(name)}: valid: {describe_board(board)}")


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


def _lines(problems: str | None) -> list[str]:
    return (problems or "").splitlines()


def board_json(path: str, board: Board) -> dict[str, object]:
    """A valid board's summary: what `check` prints, as keys."""
    return {
        "file": path,
        "valid": True,
        "sets": len(board.table),
        "table_tiles": len(board.table_tiles),
        "rack_tiles": len(board.rack),
        "opened": board.opened,
        "expect": None if board.expect is None else board.expect._asdict(),
        "rules": board.rules.as_json(),
    }
