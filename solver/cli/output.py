"""Writing what a command makes: `-` for standard output wherever a file is named, rows
written whole, and a file replaced whole; a write that fails is one line naming the file
(or standard output) and the cause."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterable
from pathlib import Path

import click

from ..files import Write, replace_whole, write_all

STDOUT = "-"
STDOUT_NAME = "standard output"

# Errors of a write itself (not of opening a file): an output that fails with one of these
# and names no file is standard output (click.echo names none).
WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


class CannotWrite(click.ClickException):
    """`cannot write FILE: cause`, exit 1."""

    def __init__(self, where: str, error: OSError) -> None:
        super().__init__(f"cannot write {where}: {error.strerror or error}")


def write_rows(descriptor: int, data: bytes, where: str, write: Write = os.write) -> None:
    """Whole rows to a file descriptor, or none of them where the file can be cut back (see
    `write_all`); a write that fails is raised as CannotWrite naming `where`, a reader
    gone (BrokenPipeError) as it is."""
    try:
        write_all(descriptor, data, write)
    except BrokenPipeError:
        raise
    except OSError as error:
        raise CannotWrite(where, error) from None


class RowFile:
    """A file of rows (`--log`), or standard output for `-`: each row written whole, at
    once. Opened when made, so that a path that cannot be written fails before any work."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._file = None if path == STDOUT else open(path, "wb", buffering=0)  # noqa: SIM115

    def row(self, line: str) -> None:
        if self._file is None:
            write_row(line)
        else:
            write_rows(self._file.fileno(), (line + "\n").encode(), self.path)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


def refuse_existing(paths: Iterable[Path]) -> None:
    """Refuse a run that would replace a file already there (`--out`, `--puzzles`), before
    anything is written: the first such file named, `--overwrite` offered."""
    for path in paths:
        if path.exists():
            raise click.ClickException(f"{path} exists: --overwrite replaces it")


def write_whole(path: Path, text: str, write: Write = os.write) -> None:
    """`text` as the file at `path`, never half of it (see `replace_whole`: a link is
    followed, what is no regular file written as it is); `-` is standard output."""
    if str(path) == STDOUT:
        click.echo(text, nl=False)
        return
    try:
        replace_whole(path, text.encode(), write)
    except OSError as error:
        raise CannotWrite(str(path), error) from None


def output_error(error: OSError) -> click.ClickException | None:
    """The message for an error of writing a command's output that named no file, or None
    for an error of something else: writes to files name their file themselves."""
    if error.filename is None and error.errno in WRITE_ERRORS:
        return CannotWrite(STDOUT_NAME, error)
    return None


def write_row(row: str) -> None:
    """A row and its newline, written whole even when a signal comes midway: Python's
    buffered output drops what is left of a write that a signal cut short, when the
    handler returns (as it does inside `Interrupt.held`), so the row goes to the file
    descriptor here (a full disk leaves none of it). Output with no descriptor (a test's)
    is echoed."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        click.echo(row)
        return
    sys.stdout.flush()
    data = (row + "\n").encode(sys.stdout.encoding, sys.stdout.errors or "strict")
    write_rows(descriptor, data, STDOUT_NAME)
