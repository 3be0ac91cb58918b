"""Ctrl-C, TERM and output that cannot be written: each a one-line message and the
right exit status, never a traceback. The state of an interrupt lives here alone."""

from __future__ import annotations

import os
import signal
import sys
from typing import Any, NoReturn

import click

_interrupted = False


def on_ctrl_c(signum: int, frame: object) -> None:
    """Python's own Ctrl-C, remembered: a broken pipe that follows is part of it."""
    global _interrupted
    _interrupted = True
    raise KeyboardInterrupt


class CtrlC:
    """Ctrl-C taken between rows: never inside one (a row blocked on a full pipe would be
    cut short). The batch stops before the next row; a second Ctrl-C stops at once, even
    while waiting for a worker."""

    def __init__(self) -> None:
        self.pressed = False
        self.previous: Any = None

    def __enter__(self) -> CtrlC:
        self.previous = signal.signal(signal.SIGINT, self.on_interrupt)
        return self

    def __exit__(self, *exc: object) -> None:
        signal.signal(signal.SIGINT, self.previous)

    def on_interrupt(self, signum: int, frame: object) -> None:
        global _interrupted
        if self.pressed:
            on_ctrl_c(signum, frame)
        self.pressed = _interrupted = True


def flush_stdout() -> None:
    """Output that cannot be written (a full disk, /dev/full) is a message, not a traceback."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        reader_gone()
    except OSError as error:
        cannot_write(error)


def cannot_write(error: OSError) -> NoReturn:
    drop_stdout()
    click.echo(f"Error: cannot write the output: {error.strerror or error}", err=True)
    raise SystemExit(1) from None


def reader_gone() -> NoReturn:
    """The output's reader stopped reading (`| head`): stop quietly, status 1 as the output
    is cut short. After Ctrl-C, which stops a pipeline's reader too, it is an interrupt."""
    drop_stdout()
    if _interrupted:
        click.echo("\ninterrupted", err=True)
        raise SystemExit(130)
    raise SystemExit(1)


def drop_stdout() -> None:
    """What is still buffered for a closed output goes nowhere, instead of failing again."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
