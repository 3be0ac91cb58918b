"""Board files: the table, the rack, whether the player has opened, and rule options.

The one home of the board format (docs/format.md): `core` holds the `Board` and writes it,
`reader` reads it back, `words` reads and writes a tile's word, `files` a file's bytes
and streams. Every other module reads and writes boards through the names below.
"""

from .core import Board, Expectation, format_board, stream_entry, with_expectation
from .files import (
    MAX_BOARD_BYTES,
    STREAM_IN_ONE_BOARD,
    decode_board,
    read_bytes,
    read_text,
    split_stream,
    stream_heading,
)
from .reader import (
    names_rules,
    parse_board,
    parse_board_rules,
    parse_position,
    read_board,
    read_board_rules,
)
from .words import format_sets, read_word

__all__ = [
    "MAX_BOARD_BYTES",
    "STREAM_IN_ONE_BOARD",
    "Board",
    "Expectation",
    "decode_board",
    "format_board",
    "format_sets",
    "names_rules",
    "parse_board",
    "parse_board_rules",
    "parse_position",
    "read_board",
    "read_board_rules",
    "read_bytes",
    "read_text",
    "read_word",
    "split_stream",
    "stream_entry",
    "stream_heading",
    "with_expectation",
]
