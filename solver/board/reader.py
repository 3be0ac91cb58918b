"""Reading a board: a board file's sections (or `--table` and `--rack`) into a `Board`,
every problem found at once, each named by its line (or option) and place."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from ..errors import BoardError, Problem
from ..jokers import fits_declared, place_reading, set_readings
from ..rules import NO_OVERRIDES, WHOLE_NUMBER, Overrides, Rules, parse_rule_word
from ..sets import MIN_SET, read_meld
from ..tiles import MAX_NUMBER, TILE_SETS, Tile, format_tile, format_tiles, quoted, split_tiles
from .core import EXPECT_RE, Board, Expectation
from .files import LINE_BREAK, board_lines, read_text
from .words import SET_SEPARATOR, word_reading

if TYPE_CHECKING:
    from pathlib import Path

SECTIONS = ("rules", "opened", "table", "rack")
_SECTION_RE = re.compile(r"\s*([A-Za-z][A-Za-z0-9_-]*)\s*:(.*)")
_YES, _NO = ("yes", "y", "true", "on"), ("no", "n", "false", "off")
# An unknown section's lines are skipped: its header already carries the problem.
_SKIPPED = "?"
# The most sets a legal table holds: the largest box's tiles, three to a set. Reading
# stops past them (1 MiB of `|` made a million empty sets, each a problem).
MAX_TABLE_SETS = max(box.size for box in TILE_SETS.values()) // MIN_SET
# The options that give a position on the command line, as problems name them.
TABLE_OPTION, RACK_OPTION = "--table", "--rack"


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
    lines = board_lines(text, source)
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
    for number, raw in enumerate(board_lines(text, source), start=1):
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


def names_rules(text: str) -> bool:
    """Whether a board's `rules:` line names a rule (one with none, or only a comment,
    leaves the rules to the caller's defaults, as `serve`'s options)."""
    for raw in LINE_BREAK.split(text):
        line = raw.split("#", 1)[0].strip()
        header = _SECTION_RE.fullmatch(line) if line else None
        if header is not None and header.group(1).lower() == "rules" and header.group(2).strip():
            return True
    return False


def read_board(path: str | Path, overrides: Overrides = NO_OVERRIDES) -> Board:
    """Read a board file, or standard input when the path is `-`."""
    return parse_board(read_text(path), str(path), overrides)


def read_board_rules(path: str | Path, overrides: Overrides = NO_OVERRIDES) -> Rules:
    """The rules of a board file (or standard input), from its `rules:` line alone."""
    return parse_board_rules(read_text(path), str(path), overrides)


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
            reading = word_reading(word, on_table=declared is not None)
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
            if m := EXPECT_RE.match(raw.strip()):
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
        readings = [placed] if placed is not None else list(set_readings(tiles, rules))
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
