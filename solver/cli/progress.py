"""The progress line of a job that can run past a second (batch, bench, puzzle, play,
tournament, hint --all): drawn on stderr only when a person watches it, never in a log
or a pipe, and taken off its line before a row goes to the same terminal."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click


def stderr_is_terminal() -> bool:
    """Whether a person watches stderr: the injection point of the tests."""
    return sys.stderr.isatty()


class Progress:
    """A progress bar on stderr, or nothing where stderr is no terminal."""

    def __init__(self, bar: Any, shown: bool) -> None:
        self.bar, self.shown = bar, shown
        # On one terminal with the rows, the bar is taken off its line before each row.
        self.clear = "\r\x1b[K" if shown and sys.stdout.isatty() else ""

    def advance(self, steps: int = 1) -> None:
        self.bar.update(steps)

    def at(self, done: int) -> None:
        """Done so far: `done` (a count that is not walked one by one)."""
        self.bar.update(done - self.bar.pos)

    def before_row(self) -> None:
        """Before a row written to standard output."""
        if self.clear:
            click.echo(self.clear, nl=False, err=True)


@contextmanager
def progress(label: str, total: int | None) -> Iterator[Progress]:
    """A bar of `total` steps (None: a count of steps, their number unknown); it leaves
    its line as it ends, before what follows on stderr (an interrupt's message)."""
    shown = stderr_is_terminal()
    with click.progressbar(
        iterable=None if total is not None else iter(()),
        length=total,
        label=label,
        file=sys.stderr,
        hidden=not shown,
        show_pos=True,
    ) as bar:
        yield Progress(bar, shown)
