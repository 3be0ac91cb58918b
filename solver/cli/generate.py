"""`rummisolve generate`: random legal positions, seeded, as board files or a stream."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click

from ..board import Board, format_board, stream_entry
from ..generate import SizeError, Span, generate_boards
from ..rules import (
    Rules,
)
from .interrupts import INTERRUPT
from .options import (
    F,
    core_errors,
    count_option,
    folder_path,
    interrupted_writing,
    plural,
    rule_flags,
    rule_options,
    rule_overrides,
    seed_option,
)
from .output import write_whole


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


def size_options(command: F) -> F:
    """Table and rack sizes of generated positions, each N or LO-HI."""
    for name, default, what in (
        ("--rack-tiles", "5-20", "Tiles on the rack"),
        ("--table-tiles", "0-60", "Tiles on the table"),
    ):
        command = click.option(
            name,
            metavar="N|LO-HI",
            default=default,
            show_default=True,
            callback=size_range,
            help=f"{what}: exactly N, or between LO and HI.",
        )(command)
    return command


@click.command()
@count_option("boards")
@seed_option("boards")
@click.option(
    "--out",
    type=click.Path(),
    callback=folder_path,
    help="Folder for gen-00001.txt, ... (default: all boards on stdout).",
)
@click.option(
    "--overwrite",
    is_flag=True,
    help="Remove the boards an earlier generate wrote in --out first (without it, such a"
    " folder is refused); nothing else is touched.",
)
@size_options
@click.option(
    "--jokers",
    metavar="N|LO-HI",
    callback=size_range,
    help="Jokers in play, table and rack  [default: as dealt]",
)
@click.option("--opened/--not-opened", default=True, show_default=True, help="Initial meld made.")
@rule_options
@core_errors
def generate(
    count: int,
    seed: int,
    out: Path | None,
    overwrite: bool,
    table_tiles: Span,
    rack_tiles: Span,
    jokers: Span | None,
    opened: bool,
    **options: Any,
) -> None:
    """Deal random, legal positions from the box, as board files."""
    if overwrite and out is None:
        raise click.UsageError("--overwrite needs --out")
    rules = rule_overrides(options).apply(Rules())
    boards = deal(
        count,
        seed,
        table_tiles=table_tiles,
        rack_tiles=rack_tiles,
        jokers=jokers,
        rules=rules,
        opened=opened,
    )
    recipe = f"rummisolve generate --seed {seed} --table-tiles {table_tiles}"
    recipe += f" --rack-tiles {rack_tiles}"
    if jokers is not None:
        recipe += f" --jokers {jokers}"
    if not opened:
        recipe += " --not-opened"
    recipe += rule_flags(rules)
    if out is not None:
        prepare_board_folder(out, overwrite)
    width = max(5, len(str(count)))
    written = 0
    try:
        for number, board in enumerate(boards, start=1):
            with INTERRUPT.held():  # a board written whole, even when stopped
                if out is None:
                    click.echo(stream_entry(number, recipe, board), nl=False)
                else:
                    text = f"# {recipe}: board {number}\n{format_board(board, full_rules=True)}"
                    write_whole(out / f"gen-{number:0{width}d}.txt", text)
                written = number
    except KeyboardInterrupt:
        interrupted_writing(written, "board", out)
    if out is not None:
        click.echo(f"wrote {plural(count, 'board')} to {out}")


def deal(count: int, seed: int, **sizes: Any) -> Iterable[Board]:
    """generate_boards, with sizes no position can have a usage error naming the options
    (the core names the arguments at fault, which the options are named after)."""
    try:
        return generate_boards(count, seed, **sizes)
    except SizeError as error:
        options_at_fault = ["--" + argument.replace("_", "-") for argument in error.arguments]
        raise click.BadParameter(str(error), param_hint=options_at_fault) from None


def prepare_board_folder(out: Path, overwrite: bool) -> None:
    """Make `out` hold this run's boards only: a later `batch OUT` must never solve a board
    of an earlier run. Refused, with nothing changed, unless `overwrite` removes them; it
    removes only what generate wrote (its file names, its first line), and only once it
    has checked that it can remove them all."""
    earlier = generated_boards(out) if out.is_dir() else []
    if earlier and not overwrite:
        raise click.ClickException(
            f"{out} already holds boards generate wrote (gen-NNNNN.txt): --overwrite"
            " removes them first"
        )
    out.mkdir(parents=True, exist_ok=True)
    if earlier and not os.access(out, os.W_OK | os.X_OK):
        raise click.ClickException(f"{out}: cannot remove the earlier boards (no write access)")
    for path in earlier:
        path.unlink()


# What generate writes in a folder: its names, and the first line of each.
GENERATED_NAME = re.compile(r"gen-[0-9]{5,}\.txt")


GENERATED_MARK = "# rummisolve generate "


def generated_boards(out: Path) -> list[Path]:
    """The boards an earlier `generate --out` wrote in `out`, and nothing else of a user's:
    regular files named gen-NNNNN.txt whose first line is generate's."""
    found = []
    for path in sorted(out.iterdir()):
        if not GENERATED_NAME.fullmatch(path.name) or not path.is_file():
            continue
        with path.open("rb") as file:
            first = file.readline(len(GENERATED_MARK) + 1)
        if first.startswith(GENERATED_MARK.encode()):
            found.append(path)
    return found
