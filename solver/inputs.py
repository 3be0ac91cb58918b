"""What a batch solves: the boards below the paths given, and standard input's boards
read once at the start (a worker process has no standard input of its own)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from .board import Board, decode_board, parse_board, read_board, read_bytes, split_stream
from .errors import BoardError, Problem
from .rules import Overrides

# Standard input may hold a stream of boards (`generate | batch -`), each at most a board's
# size; past this, it is refused rather than read for ever (`batch - < /dev/zero`).
MAX_STREAM_BYTES = 256 << 20


def board_paths(paths: Iterable[str | Path]) -> list[str]:
    """Each path as given, a folder replaced by every `*.txt` below it, sorted.

    A path that does not exist or cannot be looked at, a folder with no boards and a
    folder below that cannot be read stay in the list: each one's row then says so,
    like any other bad board's. Links to folders are followed, each folder once. Every
    name ending in .txt below a folder is a row: one that is not a regular file (a FIFO,
    a device, a folder) says so in its row, and is never opened for reading.
    """
    found: list[str] = []
    for path in map(str, paths):
        boards = _boards_below(path) if os.path.isdir(path) else []
        found.extend(boards or [path])
    return found


def _boards_below(folder: str) -> list[str]:
    """Every .txt name below the folder, folders walked with a list of their own rather
    than by recursion (a folder nested a thousand deep is a RecursionError for os.walk
    before Python 3.12), in os.walk's top-down order."""
    boards: list[Path] = []
    seen = {_identity(folder)}
    waiting = [folder]
    while waiting:
        root = waiting.pop()
        try:
            with os.scandir(root) as entries:
                listed = [(e.name, e.is_dir(), e.is_symlink()) for e in entries]
        except OSError:
            boards.append(Path(root))  # a folder that cannot be read gets its row
            continue
        # Each folder once, under its own name before any link's: a link back to one
        # would loop for ever, and a link beside it would give its boards twice.
        kept = []
        for name, _, _ in sorted((e for e in listed if e[1]), key=lambda e: (e[2], e[0])):
            identity = _identity(os.path.join(root, name))
            if identity not in seen:
                seen.add(identity)
                kept.append(name)
        files = [name for name, is_dir, _ in listed if not is_dir]
        boards.extend(Path(root, name) for name in files + kept if name.endswith(".txt"))
        waiting.extend(os.path.join(root, name) for name in reversed(kept))
    return [str(board) for board in sorted(boards)]


def _identity(folder: str) -> tuple[int, int] | str:
    """What makes a folder the same one under another name: its device and inode (one
    look-up, where resolving its real path looks up each folder above it, a thousand
    deep a thousand times); its name if it cannot be looked at."""
    try:
        status = os.stat(folder)
    except OSError:
        return folder
    return status.st_dev, status.st_ino


def read_path(path: str, standard_input: Mapping[str, bytes], overrides: Overrides) -> Board:
    """The board at `path`, or one of standard input's as `read_standard_input` read them
    at the start (a worker process has no standard input of its own)."""
    if (data := standard_input.get(path)) is not None:
        return parse_board(decode_board(data, path), path, overrides)
    return read_board(path, overrides)


def read_standard_input(paths: Sequence[str]) -> tuple[list[str], dict[str, bytes]]:
    """The paths with `-` standing for standard input's boards, and those boards by name:
    `-` for one board, `-#1`, `-#2`... for each of a stream `generate` wrote."""
    if "-" not in paths:
        return list(paths), {}
    data = read_bytes("-", limit=MAX_STREAM_BYTES)
    if len(data) > MAX_STREAM_BYTES:
        raise BoardError([Problem("-", 0, "too large for standard input (over 256 MiB)")])
    boards = split_stream(data)
    names = ["-"] if len(boards) == 1 else [f"-#{n}" for n in range(1, len(boards) + 1)]
    expanded = [name for path in paths for name in (names if path == "-" else [path])]
    return expanded, dict(zip(names, boards, strict=True))


def folder_problem(path: str) -> str | None:
    """Why a folder `board_paths` kept holds no board to solve; None for any other path."""
    if not os.path.isdir(path):
        return None
    try:
        os.listdir(path)
    except OSError as error:
        return f"{path}: cannot read this folder: {error.strerror or error}"
    return f"{path}: no *.txt boards in this folder"
