"""Tiles and tile sets: the vocabulary every other module speaks."""

from __future__ import annotations

import enum
import re
from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from .errors import TileError

MIN_NUMBER, MAX_NUMBER = 1, 13


class Colour(enum.Enum):
    """The four colours, in the order the canonical output lists them."""

    BLACK = "K"
    RED = "R"
    ORANGE = "O"
    BLUE = "B"

    @property
    def letter(self) -> str:
        return self.value

    # Enum's own __hash__ is Python code; tiles are hashed by the hundred thousand in
    # Counters and sets. Members are singletons, so identity hashing is exact.
    __hash__ = object.__hash__


_COLOUR_ORDER = {c: i for i, c in enumerate(Colour)}
# Seed 003 calls orange "jaune": Y is read as orange, never written.
_COLOUR_LETTERS = {c.letter: c for c in Colour} | {"Y": Colour.ORANGE}
# ASCII digits only: `\d` would also read other scripts' digits as numbers.
_TILE_RE = re.compile(r"([A-Za-z])([0-9]+)")
# What separates tiles: spaces and/or commas.
_SEPARATORS = re.compile(r"[\s,]+")
# A message quotes at most this much of a word that is not a tile.
_LONGEST_SHOWN = 20


class Tile(NamedTuple):
    """A coloured tile, or the joker (colour None, number 0).

    A NamedTuple so that tiles sort, hash and compare cheaply in Counters.
    """

    colour: Colour | None
    number: int

    @property
    def is_joker(self) -> bool:
        return self.colour is None

    def __str__(self) -> str:
        return format_tile(self)

    def sort_key(self) -> tuple[int, int]:
        """Jokers last; otherwise by colour, then number."""
        if self.colour is None:
            return (len(_COLOUR_ORDER), 0)
        return (_COLOUR_ORDER[self.colour], self.number)


JOKER = Tile(None, 0)
COLOURS: tuple[Colour, ...] = tuple(Colour)
NUMBERS = range(MIN_NUMBER, MAX_NUMBER + 1)
ALL_COLOURED: tuple[Tile, ...] = tuple(Tile(c, n) for c in COLOURS for n in NUMBERS)
# Tiles in a row: a set as it lies, a rack, the tiles a move plays.
TileRow = tuple[Tile, ...]


# Every word that is a tile, as written (any case), for the tile it is: a board's words
# are read at a dict look-up each, the rules below only for those that are not tiles.
_TILE_WORDS: dict[str, Tile] = {"J": JOKER, "j": JOKER, "*": JOKER} | {
    letter + str(tile.number): tile
    for tile in ALL_COLOURED
    for upper in [k for k, c in _COLOUR_LETTERS.items() if c is tile.colour]
    for letter in (upper, upper.lower())
}


def parse_tile(text: str) -> Tile:
    """Read one tile: `R5`, `k13`, `Y1` (orange), `J` or `*` (joker)."""
    if (known := _TILE_WORDS.get(text)) is not None:
        return known
    word = text.strip()
    if word.upper() == "J" or word == "*":
        return JOKER
    shown = quoted(word)
    match = _TILE_RE.fullmatch(word)
    if match is None:
        raise TileError(f"unknown tile {shown}: a tile is a colour and a number, as in R5, or J")
    letter, digits = match.group(1).upper(), match.group(2)
    colour = _COLOUR_LETTERS.get(letter)
    if colour is None:
        raise TileError(f"unknown tile {shown}: colour must be K, R, O (or Y) or B")
    if digits.startswith("0") and len(digits) > 1:
        raise TileError(f"unknown tile {shown}: write the number without a leading 0")
    # The length test comes first so that a very long number is never converted.
    if len(digits) > 2 or not MIN_NUMBER <= int(digits) <= MAX_NUMBER:
        raise TileError(f"unknown tile {shown}: number must be 1 to 13")
    return Tile(colour, int(digits))


def quoted(word: str) -> str:
    """A word as a problem quotes it: a long one (600 KB of `J=J=`) by its start only."""
    return repr(word if len(word) <= _LONGEST_SHOWN else word[: _LONGEST_SHOWN - 3] + "...")


def format_tile(tile: Tile) -> str:
    return "J" if tile.colour is None else f"{tile.colour.letter}{tile.number}"


def split_tiles(text: str) -> list[str]:
    """Tiles are separated by spaces and/or commas."""
    return [w for w in _SEPARATORS.split(text) if w]


def parse_tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tile(w) for w in split_tiles(text))


def format_tiles(tiles: Iterable[Tile]) -> str:
    return " ".join(format_tile(t) for t in tiles)


def sort_tiles(tiles: Iterable[Tile]) -> list[Tile]:
    return sorted(tiles, key=Tile.sort_key)


def tally(tiles: Iterable[Tile], counts: dict[Tile, int] | None = None) -> dict[Tile, int]:
    """Copies of each tile, added to `counts` if given: a plain dict, as Counter's building
    and its == cost more on rows this short (the steps and the referee count every move)."""
    counts = {} if counts is None else counts
    for t in tiles:
        counts[t] = counts.get(t, 0) + 1
    return counts


def tile_value(tile: Tile, joker_penalty: int) -> int:
    """What a tile costs when left on a rack."""
    return joker_penalty if tile.is_joker else tile.number


class TileSet(NamedTuple):
    """A physical box of tiles: copies of each coloured tile, and jokers."""

    copies: int
    jokers: int

    @property
    def size(self) -> int:
        return self.copies * len(ALL_COLOURED) + self.jokers

    def limit(self, tile: Tile) -> int:
        return self.jokers if tile.is_joker else self.copies

    def tiles(self) -> list[Tile]:
        """Every tile of the box, in canonical order."""
        return [t for t in ALL_COLOURED for _ in range(self.copies)] + [JOKER] * self.jokers

    def excess(self, tiles: Iterable[Tile]) -> dict[Tile, int]:
        """Tiles present more often than the box holds, with their counts."""
        counts = Counter(tiles)
        return {t: n for t, n in counts.items() if n > self.limit(t)}


TILE_SETS = {106: TileSet(copies=2, jokers=2), 160: TileSet(copies=3, jokers=4)}
