"""A board file's text: its bytes read (a file, or standard input) and decoded, its lines,
and the streams of boards that `generate` and `puzzle` write."""

from __future__ import annotations

import itertools
import os
import re
import stat
import sys
from typing import TYPE_CHECKING

from ..errors import BoardError, Problem

if TYPE_CHECKING:  # pathlib is ~3 ms of a hint's start, which needs no Path
    from pathlib import Path

# Line breaks as editors count them, so that FILE:LINE points where the user looks
# (str.splitlines would also break at form feeds and other rare separators).
LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LINE_BREAK_BYTES = re.compile(rb"\r\n|\r|\n")
# A board of the 160-tile box with comments takes a few kilobytes.
MAX_BOARD_BYTES = 1 << 20
# `generate` without --out writes its boards one after another, each below such a line.
_STREAM_SEPARATOR = re.compile(rb"^#\s*---\s*board\b", re.MULTILINE)
_STREAM_LINE = re.compile(_STREAM_SEPARATOR.pattern.decode())
# Such a stream saved to a file and given as one board (`generate --count 2 > f; hint f`).
STREAM_IN_ONE_BOARD = (
    "a second board starts here: a stream of boards (generate and puzzle without --out)"
    " is read board by board from standard input, by batch - or check -"
)


def stream_heading(number: int, note: str) -> str:
    """The `# --- board N: note` line above board `number` of a stream (1 first), and but
    for the first an empty line before it."""
    gap = "\n" if number > 1 else ""
    return f"{gap}# --- board {number}: {note}\n"


def split_stream(data: bytes) -> list[bytes]:
    """The boards of a stream `generate` wrote, or the one board the data is."""
    starts = [match.start() for match in _STREAM_SEPARATOR.finditer(data)][1:]
    bounds = [0, *starts, len(data)]
    return [data[start:end] for start, end in itertools.pairwise(bounds)]


def board_lines(text: str, source: str) -> list[str]:
    """A board's lines; a stream of boards saved to one file is refused at its second
    board's start (else every section of the second board is "given twice")."""
    lines = LINE_BREAK.split(text)
    if lines[-1] == "":
        lines.pop()
    starts = [n for n, line in enumerate(lines, start=1) if _STREAM_LINE.match(line)]
    if len(starts) > 1:
        raise BoardError([Problem(source, starts[1], STREAM_IN_ONE_BOARD)])
    return lines


def read_text(path: str | Path) -> str:
    """A text file's contents (standard input for `-`), or a named error saying why not."""
    return decode_board(read_bytes(path), str(path))


def read_bytes(path: str | Path, limit: int = MAX_BOARD_BYTES) -> bytes:
    """A file's bytes (standard input's for `-`), no more than one past `limit`:
    `/dev/zero` or a stray disk image is refused, not read to the end. Anything but a
    regular file (a FIFO, a device, a folder) is refused before a byte is read, since it
    could block for ever; standard input that is closed is named as such."""
    source = str(path)
    try:
        if source == "-":
            if sys.stdin is None:
                raise BoardError([Problem(source, 0, "cannot read: standard input is closed")])
            return sys.stdin.buffer.read(limit + 1)
        if not source:  # open(""): no such file, where Path("") is "."
            raise FileNotFoundError(2, "No such file or directory")
        # Opened without blocking, so that a FIFO with no writer is refused, not waited on.
        descriptor = os.open(source, os.O_RDONLY | os.O_NONBLOCK)
        kind = _not_regular(os.fstat(descriptor).st_mode)
        if kind:
            os.close(descriptor)
            raise BoardError([Problem(source, 0, f"not a board file: {kind}")])
        with os.fdopen(descriptor, "rb") as file:
            return file.read(limit + 1)
    except OSError as error:
        reason = error.strerror or str(error)
        raise BoardError([Problem(source, 0, f"cannot read: {reason}")]) from None


def _not_regular(mode: int) -> str:
    """What a file that is not a regular one is ("a FIFO", "a folder", ...); "" if it is."""
    kinds = [
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ]
    return next(
        (name for test, name in kinds if test(mode)),
        "" if stat.S_ISREG(mode) else "not a regular file",
    )


def decode_board(data: bytes, source: str) -> str:
    """Text from bytes, or a named error for a file that is not text."""
    if len(data) > MAX_BOARD_BYTES:
        raise BoardError([Problem(source, 0, "too large for a board (over 1 MiB)")])
    if b"\0" in data:
        line = _line_of(data, data.index(b"\0"))
        raise BoardError([Problem(source, line, "not a text file (NUL byte)")])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = _line_of(data, error.start)
        raise BoardError([Problem(source, line, "not a text file (not UTF-8)")]) from None


def _line_of(data: bytes, offset: int) -> int:
    return len(_LINE_BREAK_BYTES.split(data[:offset]))
