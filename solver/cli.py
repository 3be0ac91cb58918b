"""The command line: parse options, call the core, format what it returns.

The core raises named errors (`RummisolveError`); here each becomes a one-line
`click.ClickException`, exit status 1, never a traceback.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from . import __version__
from .board import Board, read_board
from .errors import BoardError, RummisolveError

F = TypeVar("F", bound=Callable[..., Any])


class ProblemsError(click.ClickException):
    """Several `FILE:LINE: message` lines on stderr, exit 1, no `Error:` prefix."""

    def show(self, file: Any = None) -> None:
        click.echo(self.message, err=True)


def core_errors(command: F) -> F:
    """Turn the core's named errors into click's exit-1 messages."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except BoardError as error:
            raise ProblemsError(str(error)) from None
        except RummisolveError as error:
            raise click.ClickException(str(error)) from None

    return wrapper  # type: ignore[return-value]


def rule_options(command: F) -> F:
    """The rule options every board-reading command takes; the command line wins."""
    options = [
        click.option("--wraparound/--no-wraparound", default=None, help="12-13-1 is a run."),
        click.option("--initial-meld", type=click.IntRange(0), help="Points the initial meld needs."),
        click.option("--tile-set", type=click.Choice(["106", "160"]), help="Which box of tiles."),
        click.option("--joker-penalty", type=click.IntRange(0), help="A joker's value on a rack."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def rule_overrides(kwargs: dict[str, Any]) -> dict[str, object]:
    """The rule options given on the command line, as `parse_board` takes them."""
    tile_set = kwargs.pop("tile_set", None)
    return {
        "wraparound": kwargs.pop("wraparound", None),
        "initial_meld": kwargs.pop("initial_meld", None),
        "tile_set": int(tile_set) if tile_set is not None else None,
        "joker_penalty": kwargs.pop("joker_penalty", None),
    }


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rummisolve")
def cli() -> None:
    """Rummikub solver: the proved-best play from a table and a rack."""


@cli.command()
@click.argument("board_path", metavar="BOARD", )
@rule_options
@core_errors
def check(board_path: str, **options: Any) -> None:
    """Validate a board file (exit 0 valid, 1 invalid)."""
    board = read_board(board_path, **rule_overrides(options))
    click.echo(f"{board_path}: valid: {describe_board(board)}")


def describe_board(board: Board) -> str:
    sets, tiles = len(board.table), len(board.table_tiles)
    words = [
        f"{sets} set{'s' * (sets != 1)} ({tiles} tiles) on the table",
        f"{len(board.rack)} tile{'s' * (len(board.rack) != 1)} on the rack",
        "opened" if board.opened else "not opened",
    ]
    if differences := board.rules.differences():
        words.append("rules: " + " ".join(differences))
    return ", ".join(words)


def main() -> None:
    cli(prog_name="rummisolve")


if __name__ == "__main__":
    sys.exit(main())
