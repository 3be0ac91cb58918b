"""Ctrl-C, TERM and output that cannot be written: each a one-line message and the
right exit status, never a traceback.

INT and TERM are taken alike, as Ctrl-C: a `KeyboardInterrupt` that every command
already stops on, keeping what it finished, stopping its children and removing their
files. Which signal came is kept in one place, `INTERRUPT`, set by its handler alone;
the exit status is read from it once, as the program ends (130 for INT, 143 for TERM).
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import click

from .output import STDOUT_NAME

# The status a command gives for an interrupt; `exit_status` turns it into the signal's.
INTERRUPTED = 128 + signal.SIGINT


class Interrupt:
    """The signal that stopped this run, if one did: raised as `KeyboardInterrupt` at
    once, or, inside `held`, as soon as it ends (a second one raises at once)."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.signal: int | None = None
        self.holding = False

    def install(self) -> None:
        """Take INT and TERM from here on; one held since the command began (`_entry`)
        is taken now, as `KeyboardInterrupt`."""
        self.signal = None
        for number in self.SIGNALS:
            signal.signal(number, self.on_signal)
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_UNBLOCK, self.SIGNALS)

    def on_signal(self, signum: int, frame: object) -> None:
        first = self.signal is None
        self.signal = signum
        if not (self.holding and first):
            raise KeyboardInterrupt

    @contextmanager
    def deferred(self) -> Iterator[None]:
        """While a command's modules load: a signal raised inside an extension's import
        (numpy's) comes out as an ImportError, so INT and TERM wait, blocked, and one that
        came is taken as the import ends."""
        if not hasattr(signal, "pthread_sigmask"):
            yield
            return
        signal.pthread_sigmask(signal.SIG_BLOCK, self.SIGNALS)
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, self.SIGNALS)

    @property
    def came(self) -> bool:
        return self.signal is not None

    @contextmanager
    def held(self) -> Iterator[None]:
        """A row written whole: a signal that comes meanwhile stops the command right
        after it (a row cut short would be a wrong row, or a blocked pipe's half)."""
        previous: list[Any] = [signal.signal(s, self.on_signal) for s in self.SIGNALS]
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
            for number, handler in zip(self.SIGNALS, previous, strict=True):
                signal.signal(number, handler)
        if self.came:
            raise KeyboardInterrupt

    def exit_status(self, status: int | str | None) -> int | str | None:
        """A command's exit status, the interrupt's own if it stopped on one: as a shell
        reports a process a signal killed, 128 and the signal's number."""
        if status == INTERRUPTED and self.signal is not None:
            return 128 + self.signal
        return status

    @contextmanager
    def ignored(self) -> Iterator[None]:
        """While a command that stopped says what it kept: a second signal would cut its
        summary short."""
        previous: list[Any] = [signal.signal(s, signal.SIG_IGN) for s in self.SIGNALS]
        try:
            yield
        finally:
            for number, handler in zip(self.SIGNALS, previous, strict=True):
                signal.signal(number, handler)

    def ignore(self) -> None:
        """From here on the program only ends: a signal now would cut short its clean-up
        (removing scratch files) with a traceback."""
        for number in self.SIGNALS:
            signal.signal(number, signal.SIG_IGN)


INTERRUPT = Interrupt()


def interrupted() -> NoReturn:
    """Ctrl-C or TERM where no command took it (while one loads, or parses its options)."""
    with INTERRUPT.ignored():
        click.echo("\ninterrupted", err=True)
    raise SystemExit(INTERRUPTED)


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
    click.echo(f"Error: cannot write {STDOUT_NAME}: {error.strerror or error}", err=True)
    raise SystemExit(1) from None


def reader_gone() -> NoReturn:
    """The output's reader stopped reading (`| head`): stop quietly, status 1 as the output
    is cut short. After Ctrl-C, which stops a pipeline's reader too, it is an interrupt."""
    drop_stdout()
    if INTERRUPT.came:
        click.echo("\ninterrupted", err=True)
        raise SystemExit(INTERRUPTED)
    raise SystemExit(1)


def drop_stdout() -> None:
    """What is still buffered for a closed output goes nowhere, instead of failing again."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
