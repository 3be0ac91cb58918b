"""The words of a board: a tile, a run written short (`R3-6`), a declared joker
(`J=R5`), a tile marked as played from the rack (`R2*`); and sets written on one line."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from functools import lru_cache

from ..errors import TileError
from ..tiles import JOKER, MAX_NUMBER, Tile, format_tile, parse_tile, quoted

# Sets on one line (a table line, or --table) are separated by `|`.
SET_SEPARATOR = "|"
# A run written short, as players say it: R3-6, k10-13, R3-R6; R12-1 wraps past the 13.
_SHORT_RUN_RE = re.compile(r"([A-Za-z])([0-9]+)-([A-Za-z]?)([0-9]+)")
# A joker of the table saying what it stands for: J=R5 (or *=R5).
DECLARES = "="
# A tile marked as played from the rack, as `hint` shows the table after a move (R2*,
# J*=K5): read as the tile, so that the table shown can be the next turn's board.
RACK_MARK = "*"


def format_sets(
    sets: Iterable[Iterable[Tile]], declared: Iterable[Iterable[Tile | None]] = ()
) -> str:
    """Sets on one line, as `--table` takes them: `R3 R4 R5 | K7 R7 B7 J=O7` (`declared`:
    `Board.declared`, what their jokers were declared to stand for)."""
    said = itertools.chain(declared, itertools.repeat(()))
    shown = (format_declared(s, d) for s, d in zip(sets, said, strict=False))
    return f" {SET_SEPARATOR} ".join(shown)


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


def word_reading(word: str, on_table: bool) -> _Reading:
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
