"""Board files: the table, the rack, whether the player has opened, and rule options.

`parse_board` and `format_board` undo each other; the format is in docs/format.md.
"""

from __future__ import annotations

import itertools
import os
import re
import stat
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from .errors import BoardError, Problem, TileError
from .rules import NO_OVERRIDES, WHOLE_NUMBER, Overrides, Rules, parse_rule_word
from .sets import MIN_SET, fits_declared, place_reading, read_meld, readings_in_order
from .tiles import (
    JOKER,
    MAX_NUMBER,
    TILE_SETS,
    Tile,
    format_tile,
    format_tiles,
    parse_tile,
    quoted,
    split_tiles,
)

if TYPE_CHECKING:  # pathlib is ~3 ms of a hint's start, which needs no Path
    from pathlib import Path

SECTIONS = ("rules", "opened", "table", "rack")
_SECTION_RE = re.compile(r"\s*([A-Za-z][A-Za-z0-9_-]*)\s*:(.*)")
# An expect line names its keys: any other comment that starts "expect:" stays a comment.
# "expected:" is read too: written so, it is meant as one, never to be silently skipped.
_EXPECT_RE = re.compile(r"#\s*expect(?:ed)?\s*:(\s*(?:tiles|value)\s*=.*)", re.IGNORECASE)
_YES, _NO = ("yes", "y", "true", "on"), ("no", "n", "false", "off")
# Line breaks as editors count them, so that FILE:LINE points where the user looks
# (str.splitlines would also break at form feeds and other rare separators).
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LINE_BREAK_BYTES = re.compile(rb"\r\n|\r|\n")
# An unknown section's lines are skipped: its header already carries the problem.
_SKIPPED = "?"
# Sets on one line (a table line, or --table) are separated by `|`.
SET_SEPARATOR = "|"
# The most sets a legal table holds: the largest box's tiles, three to a set. Reading
# stops past them (1 MiB of `|` made a million empty sets, each a problem).
MAX_TABLE_SETS = max(box.size for box in TILE_SETS.values()) // MIN_SET
# A run written short, as players say it: R3-6, k10-13, R3-R6; R12-1 wraps past the 13.
_SHORT_RUN_RE = re.compile(r"([A-Za-z])([0-9]+)-([A-Za-z]?)([0-9]+)")
# A joker of the table saying what it stands for: J=R5 (or *=R5).
DECLARES = "="
# A tile marked as played from the rack, as `hint` shows the table after a move (R2*,
# J*=K5): read as the tile, so that the table shown can be the next turn's board.
RACK_MARK = "*"
# The options that give a position on the command line, as problems name them.
TABLE_OPTION, RACK_OPTION = "--table", "--rack"


class Expectation(NamedTuple):
    """The answer a puzzle file records for itself (`# expect: tiles=3 value=12`)."""

    tiles: int
    value: int

    def __str__(self) -> str:
        return f"tiles={self.tiles} value={self.value}"


@dataclass(frozen=True)
class Board:
    """A position: the sets on the table as they lie, the rack, and the rules in force."""

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


def format_declared(tiles: Iterable[Tile], declared: Iterable[Tile | None]) -> str:
    """A table set as a board file writes it: each declared joker with its tile (`J=R5`)."""
    roles = iter(declared)
    words = []
    for t in tiles:
        role = next(roles, None) if t.is_joker else None
        words.append(format_tile(t) + (DECLARES + format_tile(role) if role else ""))
    return " ".join(words)


def read_table_word(word: str) -> tuple[tuple[Tile, ...], tuple[Tile | None, ...]]:
    """The tiles one word of a table set stands for, as `read_word` reads them, and what
    each joker among them was declared to stand for: `J=R5` (a joker standing for R5),
    `R2*` (an R2, starred as `hint` shows a tile from the rack)."""
    shown, declares, role = word.partition(DECLARES)
    if len(shown) > 1 and shown.endswith(RACK_MARK):
        shown = shown[: -len(RACK_MARK)]
    if not declares:
        tiles = read_word(shown)
        return tiles, tuple(None for t in tiles if t.is_joker)
    if not parse_tile(shown).is_joker:
        raise TileError(f"only a joker stands for another tile, as in J=R5: {quoted(word)}")
    stands_for = parse_tile(role)
    if stands_for.is_joker:
        raise TileError(f"a joker stands for a tile, as in J=R5, not for a joker: {quoted(word)}")
    return (JOKER,), (stands_for,)


def read_word(word: str) -> tuple[Tile, ...]:
    """The tiles one word stands for: a tile (`R5`, `J`), or a run written short as
    players say it, `R3-6` (`R3-R6` too) for R3 R4 R5 R6. `R12-1` is R12 R13 R1: whether
    that is a run is the rules' business (wraparound), as for the same tiles written out."""
    short = _SHORT_RUN_RE.fullmatch(word)
    if short is None:
        return (parse_tile(word),)
    letter, low, other, high = short.groups()
    first = parse_tile(letter + low)
    last = parse_tile((other or letter) + high)
    if first.colour is not last.colour:
        raise TileError(f"a run written short is one colour: {quoted(word)}")
    if first.number < last.number:
        return tuple(Tile(first.colour, n) for n in range(first.number, last.number + 1))
    if last.number == 1 and first.number > 1:
        return (*(Tile(first.colour, n) for n in range(first.number, MAX_NUMBER + 1)), last)
    raise TileError(
        f"a run written short goes up, as in R3-6 (or past the 13 to the 1, R12-1): {quoted(word)}"
    )


# What one word of a board reads as: its tiles and what its jokers were declared to
# stand for, or the problem it is.
_Reading = tuple[tuple[Tile, ...], tuple[Tile | None, ...]] | str
# The longest word that can be a tile or tiles (`R10-R13*`, a run starred on the table).
_LONGEST_TILE_WORD = 8


def _reading(word: str, on_table: bool) -> _Reading:
    """A word as `read_table_word` reads it (or, off the table, `read_word`), or the
    problem it is. A word that can be tiles is read once (a board of 1 MiB repeats its
    words: 170,000 `R1-13`, 350,000 `X9`); a longer one is not kept (a thousand words of
    1 MiB would be a GiB)."""
    if len(word) <= _LONGEST_TILE_WORD:
        return _kept_reading(word, on_table)
    return _read_once(word, on_table)


def _read_once(word: str, on_table: bool) -> _Reading:
    try:
        if on_table:
            return read_table_word(word)
        if DECLARES in word:
            return f"only a joker on the table says what it stands for: {quoted(word)}"
        return read_word(word), ()
    except TileError as error:
        return str(error)


_kept_reading = lru_cache(maxsize=1 << 10)(_read_once)


def format_sets(
    sets: Iterable[Iterable[Tile]], declared: Iterable[Iterable[Tile | None]] = ()
) -> str:
    """Sets on one line, as `--table` takes them: `R3 R4 R5 | K7 R7 B7 J=O7` (`declared`:
    `Board.declared`, what their jokers were declared to stand for)."""
    said = itertools.chain(declared, itertools.repeat(()))
    shown = (format_declared(s, d) for s, d in zip(sets, said, strict=False))
    return f" {SET_SEPARATOR} ".join(shown)


def parse_position(
    table: str | None,
    rack: str | None,
    opened: bool = True,
    overrides: Overrides = NO_OVERRIDES,
) -> Board:
    """A board given on the command line: `--table "R3 R4 R5 | K7 R7 B7 J"`, `--rack
    "R2 B5 O5 J"`; each problem names the option and its place (`--table: set 2, tile 3`)."""
    reader = _Reader("")
    sets: list[_Set] = []
    chunks = (
        reader.set_chunks(table or "", _Where(0, TABLE_OPTION)) if (table or "").strip() else []
    )
    for number, chunk in enumerate(chunks, start=1):
        where = _Where(0, TABLE_OPTION, f"set {number}")
        read = reader.table_set(chunk, where, tile_places=True)
        if read is not None and not read.tiles:
            reader.problem(where, "holds no tiles (a '|' with no set before or after it)")
        elif read is not None:
            sets.append(read)
    racked: list[_Placed] = []
    words = split_tiles((rack or "").replace(SET_SEPARATOR, " "))
    for number, word in enumerate(words, start=1):
        where = _Where(0, RACK_OPTION, f"tile {number}")
        racked.append((where, reader.words(word, where) or ()))
    rules = overrides.apply(Rules())
    reader.check_sets(sets, rules)
    reader.check_counts(_places(sets, racked), rules)
    if reader.problems:
        raise BoardError(reader.problems)
    table_sets = tuple(s.tiles for s in sets)
    rack_tiles = tuple(t for _, tiles in racked for t in tiles)
    return Board(table_sets, rack_tiles, opened, rules, declared=_declared(sets))


def parse_board(text: str, source: str = "<board>", overrides: Overrides = NO_OVERRIDES) -> Board:
    """Read a board; every problem found is reported at once, each with its line.

    `overrides` are rule options from the command line: they win over the file's `rules:`.
    """
    reader = _Reader(source)
    lines = _board_lines(text, source)
    board = reader.read(lines, overrides)
    if reader.problems:
        raise BoardError(sorted(reader.problems, key=lambda p: p.line))
    return board


def parse_board_rules(
    text: str, source: str = "<board>", overrides: Overrides = NO_OVERRIDES
) -> Rules:
    """The rules a board puts in force, from its `rules:` line alone: its tiles may be
    wrong (`rummisolve rules BOARD` needs none of them). Only that line's problems are
    reported: a bad word, a second `rules:`, a line after it."""
    reader = _Reader(source)
    rules, first, in_rules = Rules(), 0, False
    for number, raw in enumerate(_board_lines(text, source), start=1):
        line = raw.split("#", 1)[0].strip()
        header = _SECTION_RE.fullmatch(line) if line else None
        if header is None:
            if line and in_rules:
                reader.problem(number, "a line after rules:, which takes its value on its own line")
            continue
        in_rules = header.group(1).lower() == "rules"
        if in_rules:
            if first:
                reader.problem(number, f"section rules: given twice (first on line {first})")
            first = first or number
            rules = reader.rules(number, header.group(2).strip(), rules)
    if reader.problems:
        raise BoardError(reader.problems)
    return overrides.apply(rules)


def _board_lines(text: str, source: str) -> list[str]:
    """A board's lines; a stream of boards saved to one file is refused at its second
    board's start (else every section of the second board is "given twice")."""
    lines = _LINE_BREAK.split(text)
    if lines[-1] == "":
        lines.pop()
    starts = [n for n, line in enumerate(lines, start=1) if _STREAM_LINE.match(line)]
    if len(starts) > 1:
        raise BoardError([Problem(source, starts[1], STREAM_IN_ONE_BOARD)])
    return lines


# A board of the 160-tile box with comments takes a few kilobytes.
MAX_BOARD_BYTES = 1 << 20


def read_board(path: str | Path, overrides: Overrides = NO_OVERRIDES) -> Board:
    """Read a board file, or standard input when the path is `-`."""
    return parse_board(read_text(path), str(path), overrides)


def read_board_rules(path: str | Path, overrides: Overrides = NO_OVERRIDES) -> Rules:
    """The rules of a board file (or standard input), from its `rules:` line alone."""
    return parse_board_rules(read_text(path), str(path), overrides)


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


# `generate` without --out writes its boards one after another, each below such a line.
_STREAM_SEPARATOR = re.compile(rb"^#\s*---\s*board\b", re.MULTILINE)
_STREAM_LINE = re.compile(_STREAM_SEPARATOR.pattern.decode())
# Such a stream saved to a file and given as one board (`generate --count 2 > f; hint f`).
STREAM_IN_ONE_BOARD = (
    "a second board starts here: a stream of boards (generate and puzzle without --out)"
    " is read board by board from standard input, by batch - or check -"
)


def stream_entry(number: int, note: str, board: Board) -> str:
    """Board `number` of a stream (1 first), below its `# --- board N: note` line and, but
    for the first, an empty line: what `split_stream` cuts apart again."""
    gap = "\n" if number > 1 else ""
    return f"{gap}# --- board {number}: {note}\n{format_board(board, full_rules=True)}"


def split_stream(data: bytes) -> list[bytes]:
    """The boards of a stream `generate` wrote, or the one board the data is."""
    starts = [match.start() for match in _STREAM_SEPARATOR.finditer(data)][1:]
    bounds = [0, *starts, len(data)]
    return [data[start:end] for start, end in itertools.pairwise(bounds)]


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


def _declared(table: list[_Set]) -> tuple[tuple[Tile | None, ...], ...]:
    """Board.declared for the sets read: () where no joker says what it stands for."""
    return tuple(s.declared for s in table) if any(any(s.declared) for s in table) else ()


class _Where(NamedTuple):
    """Where a problem lies: a line of the file, or an option of the command line; and
    the place in it, where a line holds more than one set (`set 2`, `set 2, tile 3`)."""

    line: int
    option: str = ""
    place: str = ""

    def within(self, place: str) -> _Where:
        return self._replace(place=f"{self.place}, {place}" if self.place else place)


class _Set(NamedTuple):
    """A set of the table as read: where, its tiles, what its jokers were declared to
    stand for (an entry a joker, None where not)."""

    where: _Where
    tiles: tuple[Tile, ...]
    declared: tuple[Tile | None, ...]


# Tiles as they lie at one place: a table set, a line of the rack, a word of --rack.
_Placed = tuple[_Where, tuple[Tile, ...]]


class _Reader:
    """One pass over a board's lines, collecting problems instead of stopping at the first."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.problems: list[Problem] = []
        self.set_places = 0  # the table's sets so far, empty ones too

    def set_chunks(self, text: str, where: _Where) -> list[str]:
        """A table line's sets, `|` apart; none past `MAX_TABLE_SETS` on the table, which
        is then one problem, and the rest of the table is not read."""
        before, self.set_places = self.set_places, self.set_places + text.count(SET_SEPARATOR) + 1
        if self.set_places <= MAX_TABLE_SETS:
            return text.split(SET_SEPARATOR)
        if before <= MAX_TABLE_SETS:
            most = max(TILE_SETS)
            self.problem(
                where,
                f"more than {MAX_TABLE_SETS} sets on the table: the {most}-tile set makes"
                f" at most {MAX_TABLE_SETS}",
            )
        return []

    def problem(self, where: int | _Where, message: str) -> None:
        if isinstance(where, int):
            where = _Where(where)
        text = f"{where.place}: {message}" if where.place else message
        self.problems.append(Problem(where.option or self.source, where.line, text))

    def words(
        self,
        text: str,
        where: _Where,
        tile_places: bool = False,
        declared: list[Tile | None] | None = None,
    ) -> tuple[Tile, ...] | None:
        """The tiles of some words, or None (with a problem for each bad word, named by
        its place among them where `tile_places`). A table set's words (`declared` given)
        may say what a joker stands for, which goes there, an entry a joker."""
        tiles: list[Tile] = []
        ok = True
        for number, word in enumerate(split_tiles(text), start=1):
            reading = _reading(word, on_table=declared is not None)
            if isinstance(reading, str):
                self.problem(where.within(f"tile {number}") if tile_places else where, reading)
                ok = False
                continue
            read, roles = reading
            tiles.extend(read)
            if declared is not None:
                declared.extend(roles)
        return tuple(tiles) if ok else None

    def read(self, lines: list[str], overrides: Overrides) -> Board:
        rules, opened = Rules(), True
        expect: Expectation | None = None
        expect_line = 0
        table: list[_Set] = []
        rack: list[_Placed] = []
        seen: dict[str, int] = {}
        section = None
        for number, raw in enumerate(lines, start=1):
            if m := _EXPECT_RE.match(raw.strip()):
                if expect_line:
                    self.problem(number, f"expect: given twice (first on line {expect_line})")
                expect, expect_line = self.expectation(number, m.group(1)), number
                continue
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            header = _SECTION_RE.fullmatch(line)
            if header is not None:
                name, rest = header.group(1).lower(), header.group(2).strip()
                if name not in SECTIONS:
                    known = ", ".join(f"{s}:" for s in SECTIONS)
                    self.problem(number, f"unknown section {name + ':'!r} (known: {known})")
                    section = _SKIPPED
                    continue
                if name in seen:
                    first = seen[name]
                    self.problem(number, f"section {name}: given twice (first on line {first})")
                seen[name] = number
                section = name
                if name == "rules":
                    rules = self.rules(number, rest, rules)
                elif name == "opened":
                    opened = self.opened(number, rest, opened)
                elif name == "table" and rest:
                    self.table_line(number, rest, table)
                elif name == "rack":
                    self.rack_line(number, rest, rack)
            elif section == "table":
                self.table_line(number, line, table)
            elif section == "rack":
                self.rack_line(number, line, rack)
            elif section in ("rules", "opened"):
                self.problem(
                    number, f"a line after {section}:, which takes its value on its own line"
                )
            elif section is None:
                self.problem(number, "a line before any section: start with table: or rack:")
        if "rack" not in seen and not self.problems:
            self.problem(
                len(lines) or 1, "no rack: section (write 'rack:' alone for an empty rack)"
            )
        written, rules = rules, overrides.apply(rules)
        self.check_sets(table, rules)
        places = _places(table, rack)
        # A profile that plays a smaller box than the board's: the cause said once, not
        # each tile (an explicit --tile-set is asked for: its copies are named).
        profile_box = not overrides.sets("tile_set") and rules.tile_set != written.tile_set
        if profile_box and _over(places, rules) and not _over(places, written):
            self.problem(
                seen.get("rules", 1),
                f"a board for the {written.tile_set}-tile set, but --rules"
                f" {overrides.profile} plays the {rules.tile_set}-tile set, with too few"
                f" copies (--tile-set {written.tile_set} keeps the board's)",
            )
        else:
            self.check_counts(places, rules)
        return Board(
            table=tuple(s.tiles for s in table),
            rack=tuple(t for _, tiles in rack for t in tiles),
            opened=opened,
            rules=rules,
            expect=expect,
            declared=_declared(table),
        )

    def rack_line(self, number: int, text: str, rack: list[_Placed]) -> None:
        """The tiles of one line of the rack, and where; a problem for each bad word; a `|`
        among rack tiles only groups them."""
        where = _Where(number)
        rack.append((where, self.words(text.replace(SET_SEPARATOR, " "), where) or ()))

    def table_line(self, number: int, text: str, table: list[_Set]) -> None:
        """One set, or several separated by `|`, each then named by its place (`set 2`)."""
        chunks = self.set_chunks(text, _Where(number))
        for place, chunk in enumerate(chunks, start=1):
            where = _Where(number, place=f"set {place}" if len(chunks) > 1 else "")
            read = self.table_set(chunk, where)
            if read is not None and not read.tiles:
                empty = "holds no tiles (a '|' with no set before or after it)"
                self.problem(where, empty if where.place else "a table line holds no tiles")
            elif read is not None:
                table.append(read)

    def table_set(self, text: str, where: _Where, tile_places: bool = False) -> _Set | None:
        """One set of the table, with what its jokers were declared to stand for; None
        (with its problems) where a word is wrong."""
        declared: list[Tile | None] = []
        tiles = self.words(text, where, tile_places, declared)
        return None if tiles is None else _Set(where, tiles, tuple(declared))

    def rules(self, number: int, text: str, rules: Rules) -> Rules:
        for word in text.split():
            try:
                rules = parse_rule_word(word, rules)
            except ValueError as error:
                self.problem(number, str(error))
        return rules

    def opened(self, number: int, text: str, opened: bool) -> bool:
        if text.lower() in _YES:
            return True
        if text.lower() in _NO:
            return False
        self.problem(number, f"opened: takes yes or no, not {text!r}")
        return opened

    def expectation(self, number: int, text: str) -> Expectation | None:
        values: dict[str, int] = {}
        for word in text.split():
            key, _, value = word.lower().partition("=")
            if key not in ("tiles", "value") or not WHOLE_NUMBER.fullmatch(value):
                self.problem(number, f"expect: takes tiles=N value=N, not {quoted(word)}")
                return None
            values[key] = int(value)
        if set(values) != {"tiles", "value"}:
            self.problem(number, "expect: needs both tiles=N and value=N")
            return None
        return Expectation(values["tiles"], values["value"])

    def check_sets(self, table: Iterable[_Set], rules: Rules) -> None:
        for number, tiles, declared in table:
            if len(tiles) > MAX_NUMBER:  # no run or group: neither read nor quoted whole
                count = f"{len(tiles)} tiles (a set holds at most {MAX_NUMBER})"
                self.problem(number, f"not a valid run or group: {count}")
            elif len(tiles) < MIN_SET:
                self.problem(number, f"a set needs at least {MIN_SET} tiles: {format_tiles(tiles)}")
            elif read_meld(tiles, rules) is None:
                self.problem(number, f"not a valid run or group: {format_tiles(tiles)}")
            elif any(declared):
                self.check_declared(number, tiles, declared, rules)

    def check_declared(
        self,
        where: _Where,
        tiles: tuple[Tile, ...],
        declared: tuple[Tile | None, ...],
        rules: Rules,
    ) -> None:
        """A declared joker stands for a tile its set allows: in a run laid in order, the
        tile of its place (docs/rules.md, "Jokers"); else any of the set's readings."""
        placed = place_reading(tiles, rules)
        readings = [placed] if placed is not None else readings_in_order(tiles, rules)
        if not any(fits_declared(r, declared) for r in readings):
            one = len(readings[0]) == 1
            jokers = "its joker stands" if one else "its jokers stand"
            options = " or ".join(format_tiles(r) for r in readings)
            lies = (" where it lies" if one else " where they lie") if placed is not None else ""
            said = format_tiles(t for t in declared if t is not None)
            plain = format_tiles(tiles)
            self.problem(where, f"in {plain}, {jokers} for {options}{lies}, not {said}")

    def check_counts(self, places: list[_Placed], rules: Rules) -> None:
        """A tile of which the box holds fewer copies: said once, where the first copy too
        many lies. All are counted at once (a rack of 1 MiB holds 2,000,000 tiles, `R1-13`
        after `R1-13`); the places are looked through only for the tiles there are too many of."""
        box = rules.box
        over = _over(places, rules)
        before: Counter[Tile] = Counter()
        for where, tiles in places:
            if not over:
                return
            # Each tile the box runs out of here, with the index of its first copy too many.
            here = {}
            for tile, copies in _copies(tiles, over).items():
                if before[tile] + copies > box.limit(tile):
                    here[tile] = _copy_index(tiles, tile, box.limit(tile) - before[tile])
                before[tile] += copies
            for tile in sorted(here, key=here.__getitem__):
                what = "jokers" if tile.is_joker else f"copies of {format_tile(tile)}"
                self.problem(
                    where, f"too many {what}: the {rules.tile_set}-tile set has {box.limit(tile)}"
                )
            over -= here.keys()


def _places(table: list[_Set], rack: list[_Placed]) -> list[_Placed]:
    return [*((s.where, s.tiles) for s in table), *rack]


def _over(places: list[_Placed], rules: Rules) -> set[Tile]:
    """The tiles of which the places hold more copies than the rules' box."""
    totals = Counter(itertools.chain.from_iterable(tiles for _, tiles in places))
    return {t for t, n in totals.items() if n > rules.box.limit(t)}


def _copies(tiles: tuple[Tile, ...], among: set[Tile]) -> dict[Tile, int]:
    """How many copies of each tile `among` the tiles hold: all counted in one pass where
    the tiles outnumber them, else each tile's copies by themselves."""
    if len(tiles) > len(among):
        counted = Counter(tiles)
        return {t: counted[t] for t in among}
    return {t: tiles.count(t) for t in among}


def _copy_index(tiles: tuple[Tile, ...], tile: Tile, copy: int) -> int:
    """Where copy `copy` (0: the first) of the tile lies among the tiles."""
    at = -1
    for _ in range(copy + 1):
        at = tiles.index(tile, at + 1)
    return at
