"""The board: a position as a board file gives it, and how it is written back.

`format_board` writes what `parse_board` (reader.py) reads back to the same board; the
format is in docs/format.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from ..rules import Rules
from ..tiles import JOKER, Tile, format_tiles
from .files import stream_heading
from .words import format_declared

# An expect line names its keys: any other comment that starts "expect:" stays a comment.
# "expected:" is read too: written so, it is meant as one, never to be silently skipped.
_EXPECT = r"#{s}*expect(?:ed)?{s}*:({s}*(?:tiles|value){s}*=[^\r\n]*)"
# As the reader reads one, on a line stripped of its spaces: group 1, its keys.
EXPECT_RE = re.compile(_EXPECT.format(s=r"\s"), re.IGNORECASE)
# As `with_expectation` replaces one in place: on a line of its own, after a byte-order
# mark on the first, up to its line end (\r\n kept).
_EXPECT_IN_TEXT = re.compile(r"^(\ufeff?)[ \t]*" + _EXPECT.format(s=r"[ \t]"), re.I | re.M)


class Expectation(NamedTuple):
    """The answer a puzzle file records for itself (`# expect: tiles=3 value=12`)."""

    tiles: int
    value: int

    def __str__(self) -> str:
        return f"tiles={self.tiles} value={self.value}"


@dataclass(frozen=True)
class Board:
    """A board: the sets on the table as they lie, the rack, and the rules in force."""

    table: tuple[tuple[Tile, ...], ...] = ()
    rack: tuple[Tile, ...] = ()
    opened: bool = True
    rules: Rules = field(default_factory=Rules)
    expect: Expectation | None = None
    # What the jokers of each table set were declared to stand for (`J=R5`): for each set,
    # an entry a joker, in the order they lie (None: not declared); () where none is. A
    # declared joker stands for that tile only: the reading the table agreed on.
    declared: tuple[tuple[Tile | None, ...], ...] = ()

    def __post_init__(self) -> None:
        if self.declared and [len(d) for d in self.declared] != [
            s.count(JOKER) for s in self.table
        ]:
            raise ValueError("declared: one entry for each joker of each table set")

    @property
    def table_tiles(self) -> list[Tile]:
        return [t for s in self.table for t in s]

    def declared_for(self, number: int) -> tuple[Tile | None, ...]:
        """What the jokers of table set `number` were declared to stand for, in the order
        they lie (None: not declared)."""
        return self.declared[number] if self.declared else (None,) * self.table[number].count(JOKER)


def format_board(board: Board, full_rules: bool = False) -> str:
    """The board as a file that `parse_board` reads back to the same board; `full_rules`:
    every rule option written out, so that it reads back the same whatever the defaults
    become (boards that `generate` writes)."""
    lines = []
    if board.expect is not None:
        lines.append(f"# expect: {board.expect}")
    if words := board.rules.words(full=full_rules):
        lines.append("rules: " + " ".join(words))
    lines.append(f"opened: {'yes' if board.opened else 'no'}")
    lines.append("table:")
    lines.extend(format_declared(s, board.declared_for(n)) for n, s in enumerate(board.table))
    lines.append("rack: " + format_tiles(board.rack) if board.rack else "rack:")
    return "\n".join(lines) + "\n"


def with_expectation(text: str, expect: Expectation) -> str:
    """A board file's text with `expect` as its `# expect:` line: in place of its own, or
    else first (after a byte-order mark), ended as the file's lines are; the rest as it was."""
    line = f"# expect: {expect}"
    text, replaced = _EXPECT_IN_TEXT.subn(lambda m: m.group(1) + line, text, count=1)
    if replaced:
        return text
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    end = "\r\n" if "\r\n" in text else "\n"
    return f"{bom}{line}{end}{text.removeprefix(bom)}"


def stream_entry(number: int, note: str, board: Board) -> str:
    """Board `number` of a stream (1 first), below its heading: what `split_stream` cuts
    apart again."""
    return stream_heading(number, note) + format_board(board, full_rules=True)
