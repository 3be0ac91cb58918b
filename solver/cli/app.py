"""The `rummisolve` group: every command, one module each (or a pair), and the entry
that turns interrupts and unwritable output into one line."""

from __future__ import annotations

import click

from .. import __version__
from .batch import batch, bench
from .generate import generate
from .hint import check, hint
from .interrupts import INTERRUPT, cannot_write, flush_stdout, reader_gone
from .play import play, score
from .rules import rules_command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rummisolve")
def cli() -> None:
    """Rummikub solver: the proved-best play from a table and a rack."""


for command in (rules_command, check, hint, generate, batch, bench, score, play):
    cli.add_command(command)


def main() -> None:
    """The command, and its end: the exit status of an interrupt is the signal's (INT or
    TERM), and once it ends no signal cuts its clean-up short."""
    INTERRUPT.install()
    try:
        try:
            cli(prog_name="rummisolve")
        except SystemExit:
            flush_stdout()
            raise
        except BrokenPipeError:
            reader_gone()
        except OSError as error:
            # Only writing the output fails outside a command (`--help > /dev/full`): the
            # commands turn their own errors into messages.
            cannot_write(error)
    except SystemExit as end:
        INTERRUPT.ignore()
        raise SystemExit(INTERRUPT.exit_status(end.code)) from None
