"""The `rummisolve` group: every command, one module each (or a pair), loaded only when
that command runs, and the entry that turns interrupts and unwritable output into one
line."""

from __future__ import annotations

import importlib

import click

from .. import __version__
from ..startup import loading
from .interrupts import INTERRUPT, cannot_write, flush_stdout, reader_gone

# Each command's module and function: `rummisolve hint` imports neither the batch pool,
# nor the games, nor PuLP (issue 14: a whole `hint` near numpy's own import time).
COMMANDS = {
    "batch": "batch:batch",
    "bench": "batch:bench",
    "check": "hint:check",
    "generate": "generate:generate",
    "hint": "hint:hint",
    "play": "play:play",
    "puzzle": "puzzle:puzzle",
    "review": "review:review_command",
    "rules": "rules:rules_command",
    "score": "play:score",
    "serve": "serve:serve",
    "tournament": "tournament:tournament",
}


class LazyGroup(click.Group):
    """A group whose commands are imported when named (all of them for `--help`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, name = COMMANDS[cmd_name].split(":")
        with loading():
            command = getattr(importlib.import_module(f".{module}", __package__), name)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rummisolve")
def cli() -> None:
    """Rummikub solver: the proved-best play from a table and a rack."""


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
