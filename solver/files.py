"""Writing a file whole: bytes written part after part (a signal may cut a write short) or
cut back to where they began, and a file replaced whole by renaming a scratch file onto it.
A symbolic link is followed, never replaced; what is no regular file (a pipe, a terminal,
a device, a descriptor under /proc) is written as it is, never replaced."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
import sys
from collections.abc import Callable
from pathlib import Path

Write = Callable[[int, bytes | memoryview], int]

# Where /dev/stdout, /dev/fd/N and /proc/self/fd/N lead: a process's descriptor N, whose
# file the process may be writing through it already.
_DESCRIPTOR = re.compile(r"/proc/(?P<pid>\d+)/(?:task/\d+/)?fd/(?P<fd>\d+)")

# Links followed before a path is taken as a loop (as the kernel's limit).
_MOST_LINKS = 40


def write_all(descriptor: int, data: bytes | memoryview, write: Write = os.write) -> None:
    """All of `data` to a file descriptor, or none of it where the file can be cut back
    (a regular file): a write that fails midway (a full disk) is undone, then raised."""
    start = _offset(descriptor)
    left = memoryview(data)
    try:
        while left:
            left = left[write(descriptor, left) :]
    except BrokenPipeError:
        raise
    except OSError:
        if start is not None:
            with contextlib.suppress(OSError):  # the write's error is the one to tell
                os.ftruncate(descriptor, start)
        raise


def _offset(descriptor: int) -> int | None:
    """Where the next write lands in a regular file; None where nothing can be cut back."""
    try:
        if stat.S_ISREG(os.fstat(descriptor).st_mode):
            return os.lseek(descriptor, 0, os.SEEK_CUR)
    except OSError:
        pass
    return None


def replaceable(path: str | Path) -> Path | None:
    """The regular file (or the new file's place) that `path` names, its links followed;
    None for what must be written as it is: no regular file, or a process's descriptor."""
    target = _target(path)
    return target if isinstance(target, Path) else None


def _target(path: str | Path) -> Path | int | None:
    """What `path` names, its links followed one by one: a regular file or a new file's
    place; this process's own descriptor (/dev/stdout); or None for anything else."""
    current = Path(path)
    for _ in range(_MOST_LINKS):
        current = Path(os.path.realpath(current.parent), current.name)
        if (own := _DESCRIPTOR.fullmatch(str(current))) is not None:
            return int(own["fd"]) if int(own["pid"]) == os.getpid() else None
        if str(current).startswith("/proc/"):
            return None
        try:
            mode = current.lstat().st_mode
        except FileNotFoundError:
            return current  # a new file (or a dangling link's target)
        if not stat.S_ISLNK(mode):
            return current if stat.S_ISREG(mode) else None
        current = current.parent / os.readlink(current)
    raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path))


def replace_whole(path: str | Path, data: bytes, write: Write = os.write) -> None:
    """`data` as the file `path` names, never half of it, wherever the run stops (Ctrl-C,
    a full disk): written under another name in the file's own folder, then renamed onto
    it, its permissions kept. Through a link, its target is replaced and the link kept.
    What is no regular file is written as it is: this process's own descriptor (named as
    /dev/stdout) after what Python holds for it, anything else opened to append to."""
    target = _target(path)
    if isinstance(target, int):
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(AttributeError, OSError, ValueError):
                if stream.fileno() == target:
                    stream.flush()
        write_all(target, data, write)
        return
    if target is None:
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND)
        try:
            write_all(descriptor, data, write)
        finally:
            os.close(descriptor)
        return
    scratch, descriptor = _scratch(target)
    try:
        try:
            write_all(descriptor, data, write)
        finally:
            os.close(descriptor)
        with contextlib.suppress(FileNotFoundError):  # a file replaced keeps its permissions
            os.chmod(scratch, stat.S_IMODE(target.stat().st_mode))
        os.replace(scratch, target)
    finally:
        scratch.unlink(missing_ok=True)


def _scratch(target: Path) -> tuple[Path, int]:
    """A new file beside `target`, named after it and hidden, made as `open` makes files
    (its permissions under the umask), and its open descriptor."""
    while True:
        scratch = target.with_name(f".{target.name}.{secrets.token_hex(4)}.partial")
        try:
            return scratch, os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
