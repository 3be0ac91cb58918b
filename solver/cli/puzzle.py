"""`rummisolve puzzle`: positions with one best move, proved, each with its difficulty."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click

from ..board import stream_heading
from ..puzzle import Band, Kind, make_puzzles
from ..rules import Rules
from .interrupts import INTERRUPT
from .options import (
    backend_option,
    core_errors,
    count_option,
    folder_path,
    interrupted_writing,
    plural,
    rule_options,
    rule_overrides,
    seed_option,
)
from .output import refuse_existing, write_whole
from .progress import progress


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
    help="Folder for KIND[-BAND]-SEED-NNN.txt files (default, or -: all puzzles on stdout).",
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
    stem = f"{kind}-{difficulty}-{seed}-" if difficulty else f"{kind}-{seed}-"
    if out is not None:
        if not overwrite:
            refuse_existing(out / name for name in puzzles_in(out, stem, width, count))
        out.mkdir(parents=True, exist_ok=True)
    written = 0
    try:
        puzzles = make_puzzles(count, seed, kind, difficulty, rules, backend)
        with progress("making puzzles", count) as bar:
            for number, made in enumerate(puzzles, start=1):
                name = f"{stem}{number:0{width}d}.txt"
                with INTERRUPT.held():  # a puzzle written whole, even when stopped
                    if out is None:
                        bar.before_row()
                        click.echo(stream_heading(number, name) + made.text(), nl=False)
                    else:
                        write_whole(out / name, made.text())
                    written = number
                    bar.advance()
    except KeyboardInterrupt:
        interrupted_writing(written, "puzzle", out)
    if out is not None:
        click.echo(f"wrote {plural(written, 'puzzle')} to {out}")


def puzzles_in(out: Path, stem: str, width: int, count: int) -> list[str]:
    """The files of `out` this run would write (STEM, then 1..count in `width` digits),
    found by listing the folder: a count of any size costs no more than the folder holds."""
    if not out.is_dir():
        return []
    numbered = re.compile(re.escape(stem) + f"([0-9]{{{width}}})\\.txt")
    found = (numbered.fullmatch(path.name) for path in out.iterdir())
    return sorted(m.group(0) for m in found if m and 1 <= int(m.group(1)) <= count)
