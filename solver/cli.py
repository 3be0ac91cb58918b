"""The command line: parse options, call the core, format what it returns.

The core raises named errors (`RummisolveError`); here each becomes a one-line
`click.ClickException`, exit status 1, never a traceback.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from . import __version__
from .board import Board, format_board, read_board
from .errors import BoardError, RummisolveError
from .generate import Span, generate_boards
from .rules import Rules

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
        click.option(
            "--initial-meld", type=click.IntRange(0), help="Points the initial meld needs."
        ),
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


def size_range(ctx: click.Context, param: click.Parameter, value: str | None) -> Span | None:
    """A size on the command line: `N`, or `LO-HI` for a random size in that range."""
    if value is None:
        return None
    low, dash, high = value.partition("-")
    if not low.isdigit() or (dash and not high.isdigit()):
        raise click.BadParameter(f"{value!r} is not a size N or a range LO-HI")
    span = Span(int(low), int(high) if dash else int(low))
    if span.low > span.high:
        raise click.BadParameter(f"{value!r} is an empty range")
    return span


@cli.command()
@click.option("--count", type=click.IntRange(0), default=10, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True, help="Same seed, same boards.")
@click.option(
    "--out", type=click.Path(file_okay=False, path_type=Path),
    help="Folder for gen-00001.txt, ... (default: all boards on stdout).",
)
@click.option("--table-tiles", metavar="N|LO-HI", default="0-60", show_default=True,
              callback=size_range)
@click.option("--rack-tiles", metavar="N|LO-HI", default="5-20", show_default=True,
              callback=size_range)
@click.option("--jokers", metavar="N|LO-HI", callback=size_range,
              help="Jokers in play, table and rack  [default: as dealt]")
@click.option("--opened/--not-opened", default=True, show_default=True, help="Initial meld made.")
@rule_options
@core_errors
def generate(
    count: int, seed: int, out: Path | None, table_tiles: Span, rack_tiles: Span,
    jokers: Span | None, opened: bool, **options: Any,
) -> None:
    """Deal random, legal positions from the box, as board files."""
    rules = Rules().replace(**{k: v for k, v in rule_overrides(options).items() if v is not None})
    boards = generate_boards(
        count, seed, table_tiles=table_tiles, rack_tiles=rack_tiles, jokers=jokers,
        rules=rules, opened=opened,
    )
    recipe = f"rummisolve generate --seed {seed} --table-tiles {table_tiles}"
    recipe += f" --rack-tiles {rack_tiles}"
    if jokers is not None:
        recipe += f" --jokers {jokers}"
    if out is None:
        for number, board in enumerate(boards, start=1):
            gap = "\n" if number > 1 else ""
            click.echo(f"{gap}# --- board {number}: {recipe}\n{format_board(board)}", nl=False)
        return
    out.mkdir(parents=True, exist_ok=True)
    width = max(5, len(str(count)))
    for number, board in enumerate(boards, start=1):
        path = out / f"gen-{number:0{width}d}.txt"
        path.write_text(f"# {recipe}: board {number}\n{format_board(board)}", encoding="utf-8")
    click.echo(f"wrote {count} board{'s' * (count != 1)} to {out}")


def main() -> None:
    cli(prog_name="rummisolve")


if __name__ == "__main__":
    main()
