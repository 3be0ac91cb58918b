"""The `rummisolve` group: every command, one module each (or a pair), loaded only when
that command runs, and the entry that turns interrupts and unwritable output into one
line."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Sequence
from typing import Any

import click

from .. import __version__
from ..startup import loading
from .interrupts import INTERRUPT, cannot_write, flush_stdout, interrupted, reader_gone
from .options import COLOUR, DEBUG

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
        with INTERRUPT.deferred(), loading():
            command = getattr(importlib.import_module(f".{module}", __package__), name)
        assert isinstance(command, click.Command)
        return command

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """click's main, but Ctrl-C wherever else it reaches click (the group's options
        being parsed, a second Ctrl-C as the first is told) is "interrupted" and its
        status too, never click's "Aborted!" and status 1."""
        run = functools.partial(super().main, args, prog_name, complete_var, False, **extra)
        if not standalone_mode:
            return run()
        try:
            code: object = run()
        except click.Abort as abort:
            if isinstance(abort.__cause__, KeyboardInterrupt):
                interrupted()
            click.echo("Aborted!", err=True)  # end of input at a prompt, as click says it
            raise SystemExit(1) from None
        except click.ClickException as error:
            error.show()
            raise SystemExit(error.exit_code) from None
        raise SystemExit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: click.Context) -> object:
        """The command, loaded, parsed and run: Ctrl-C before it takes Ctrl-C itself is
        "interrupted" here, before click writes a line of its own."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            interrupted()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rummisolve")
@click.option(
    "--debug",
    is_flag=True,
    envvar="RUMMISOLVE_DEBUG",
    help="On an error, print its whole traceback too (as RUMMISOLVE_DEBUG=1 does).",
)
@click.option(
    "--color/--no-color",
    "colour",
    default=None,
    help="Colour the tables, or not  [default: on a terminal, unless NO_COLOR is set;"
    " FORCE_COLOR: always].",
)
@click.pass_context
def cli(ctx: click.Context, debug: bool, colour: bool | None) -> None:
    """Rummikub solver: the proved-best play from a table and a rack."""
    ctx.meta[DEBUG] = debug
    ctx.meta[COLOUR] = colour


def main() -> None:
    """The command, and its end: the exit status of an interrupt is the signal's (INT or
    TERM), and once it ends no signal cuts its clean-up short."""
    try:
        try:
            INTERRUPT.install()  # a signal held since `_entry` is taken here
            cli(prog_name="rummisolve")
        except KeyboardInterrupt:  # before click's own handling
            interrupted()
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
