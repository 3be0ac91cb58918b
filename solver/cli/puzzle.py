"""`rummisolve puzzle`: positions with one best move, proved, each with its difficulty."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..puzzle import Band, Kind, make_puzzles
from ..rules import Rules
from .generate import write_whole
from .interrupts import INTERRUPT, INTERRUPTED
from .options import (
    backend_option,
    core_errors,
    count_option,
    folder_path,
    plural,
    rule_options,
    rule_overrides,
    seed_option,
)


@click.command()
@count_option("puzzles")
@seed_option("puzzles")
@click.option(
    "--kind",
    type=click.Choice([k.value for k in Kind]),
    default=Kind.ALL_OUT.value,
    show_default=True,
    help="all-out: the whole rack can be laid; most-tiles: the most, not all; "
    "initial-meld: the first meld.",
)
@click.option(
    "--difficulty",
    type=click.Choice([b.value for b in Band]),
    help="Only puzzles of this band  [default: any]",
)
@click.option(
    "--out",
    type=click.Path(),
    callback=folder_path,
    help="Folder for KIND[-BAND]-SEED-NNN.txt files (default: all puzzles on stdout).",
)
@click.option("--overwrite", is_flag=True, help="Replace puzzle files of the same names in --out.")
@backend_option
@rule_options
@core_errors
def puzzle(
    count: int,
    seed: int,
    kind: str,
    difficulty: str | None,
    out: Path | None,
    overwrite: bool,
    backend: str | None,
    **options: Any,
) -> None:
    """Generate puzzles whose best move is the only one (proved), each file with its
    answer as comments, its '# expect:' line and its difficulty.

    $ rummisolve puzzle --count 20 --seed 1 --kind all-out --out puzzles/new
    """
    if overwrite and out is None:
        raise click.UsageError("--overwrite needs --out")
    rules = rule_overrides(options).apply(Rules())
    width = max(3, len(str(count)))
    stem = f"{kind}-{difficulty}" if difficulty else kind
    names = [f"{stem}-{seed}-{n:0{width}d}.txt" for n in range(1, count + 1)]
    if out is not None:
        if not overwrite and (taken := [n for n in names if (out / n).exists()]):
            raise click.ClickException(f"{out / taken[0]} exists: --overwrite replaces it")
        out.mkdir(parents=True, exist_ok=True)
    written = 0
    try:
        puzzles = make_puzzles(count, seed, kind, difficulty, rules, backend)
        for number, (name, made) in enumerate(zip(names, puzzles, strict=False), start=1):
            with INTERRUPT.held():  # a puzzle written whole, even when stopped
                if out is None:
                    gap = "\n" if number > 1 else ""
                    click.echo(f"{gap}# --- board {number}: {name}\n{made.text()}", nl=False)
                else:
                    write_whole(out / name, made.text())
                written = number
    except KeyboardInterrupt:
        where = "" if out is None else f" to {out}"
        click.echo(f"interrupted: {plural(written, 'puzzle')} written{where}", err=True)
        raise click.exceptions.Exit(INTERRUPTED) from None
    if out is not None:
        click.echo(f"wrote {plural(written, 'puzzle')} to {out}")
