"""Board files (interface.md "Board file"): what is read, and what is refused, with which words."""

from __future__ import annotations

import io
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummisolve.board import (
    Board,
    Expectation,
    decode_board,
    format_board,
    names_rules,
    parse_board,
    parse_position,
    read_board,
    split_stream,
    stream_entry,
    with_expectation,
)
from rummisolve.errors import BoardError
from rummisolve.rules import JokerRetrieval, Method, Overrides, Rules, RuleValue
from rummisolve.sets import is_valid_set
from rummisolve.tiles import ALL_COLOURED, COLOURS, JOKER, TILE_SETS, Tile, parse_tiles

from .boards import INTERFACE_EXAMPLE
from .positions import declarations
from .profiles import examples


def problems(text: str, **options: RuleValue) -> list[str]:
    with pytest.raises(BoardError) as caught:
        parse_board(text, "b.txt", Overrides(options=tuple(options.items())))
    return str(caught.value).splitlines()


# (id, board text, the exact problems). Each is one way a user gets a board wrong.
MALFORMED = [
    (
        "unknown-colour",
        "rack: X5",
        ["b.txt:1: unknown tile 'X5': colour must be K, R, O (or Y) or B"],
    ),
    (
        "number-14",
        "table:\nR12 R13 R14\nrack:",
        ["b.txt:2: unknown tile 'R14': number must be 1 to 13"],
    ),
    ("number-0", "rack: R0", ["b.txt:1: unknown tile 'R0': number must be 1 to 13"]),
    (
        "leading-zero",
        "rack: R05",
        ["b.txt:1: unknown tile 'R05': write the number without a leading 0"],
    ),
    (
        "not-a-tile",
        "rack: R5 five",
        ["b.txt:1: unknown tile 'five': a tile is a colour and a number, as in R5, or J"],
    ),
    (
        "two-bad-tiles-one-line",
        "rack: Q1 R20",
        [
            "b.txt:1: unknown tile 'Q1': colour must be K, R, O (or Y) or B",
            "b.txt:1: unknown tile 'R20': number must be 1 to 13",
        ],
    ),
    (
        "unknown-section",
        "rack:\nhand: R1",
        ["b.txt:2: unknown section 'hand:' (known: rules:, opened:, table:, rack:)"],
    ),
    (
        "unknown-section-first-its-lines-skipped",
        "board:\nR1 R2 R3\nrack:",
        ["b.txt:1: unknown section 'board:' (known: rules:, opened:, table:, rack:)"],
    ),
    (
        "bad-joker-retrieval",
        "rules: joker-retrieval=sometimes\nrack:",
        ["b.txt:1: rule joker-retrieval takes strict, replace or free, not 'sometimes'"],
    ),
    (
        "unknown-rule",
        "rules: okey\nrack:",
        [
            "b.txt:1: unknown rule 'okey' (known: official, casual, hebrew, norwegian, "
            "portuguese, french, greek, wraparound, initial-meld=N, tile-set=N, "
            "joker-penalty=N, joker-retrieval=strict|replace|free, locked-joker-sets, "
            "scoring=standard|laid, blocked=difference|fewest-tiles, double-out)"
        ],
    ),
    (
        "initial-meld-not-a-number",
        "rules: initial-meld=thirty\nrack:",
        ["b.txt:1: rule initial-meld needs a whole number, as in initial-meld=30, not 'thirty'"],
    ),
    (
        "initial-meld-negative",
        "rules: initial-meld=-5\nrack:",
        ["b.txt:1: rule initial-meld must be 0 to 999999999, not -5"],
    ),
    (
        "initial-meld-too-large",
        "rules: initial-meld=99999999999999999999\nrack:",
        ["b.txt:1: rule initial-meld must be 0 to 999999999, not 999999999999..."],
    ),
    (
        "joker-penalty-no-value",
        "rules: joker-penalty\nrack:",
        ["b.txt:1: rule joker-penalty needs a value, as in joker-penalty=N"],
    ),
    (
        "joker-penalty-superscript-digit",
        "rules: joker-penalty=\u00b2\nrack:",
        ["b.txt:1: rule joker-penalty needs a whole number, as in joker-penalty=30, not '\u00b2'"],
    ),
    (
        "tile-set-107",
        "rules: tile-set=107\nrack:",
        ["b.txt:1: rule tile-set must be 106 or 160, not 107"],
    ),
    (
        "locked-joker-sets-maybe",
        "rules: locked-joker-sets=sometimes\nrack:",
        ["b.txt:1: rule locked-joker-sets takes no value or yes/no, not 'sometimes'"],
    ),
    (
        "wraparound-maybe",
        "rules: wraparound=maybe\nrack:",
        ["b.txt:1: rule wraparound takes no value or yes/no, not 'maybe'"],
    ),
    ("opened-maybe", "opened: maybe\nrack:", ["b.txt:1: opened: takes yes or no, not 'maybe'"]),
    ("opened-empty", "opened:\nrack:", ["b.txt:1: opened: takes yes or no, not ''"]),
    (
        "line-after-opened",
        "opened:\nno\nrack:",
        [
            "b.txt:1: opened: takes yes or no, not ''",
            "b.txt:2: a line after opened:, which takes its value on its own line",
        ],
    ),
    (
        "line-after-rules",
        "rules:\nwraparound\nrack:",
        ["b.txt:2: a line after rules:, which takes its value on its own line"],
    ),
    ("run-with-gap", "table:\nR3 R4 R6\nrack:", ["b.txt:2: not a valid run or group: R3 R4 R6"]),
    ("run-two-colours", "table:\nR3 R4 K5\nrack:", ["b.txt:2: not a valid run or group: R3 R4 K5"]),
    (
        "group-colour-twice",
        "table:\nK7 R7 R7\nrack:",
        ["b.txt:2: not a valid run or group: K7 R7 R7"],
    ),
    (
        "group-of-five",
        "table:\nK7 R7 O7 B7 J\nrack:",
        ["b.txt:2: not a valid run or group: K7 R7 O7 B7 J"],
    ),
    ("two-tile-set", "table:\nR3 R4\nrack:", ["b.txt:2: a set needs at least 3 tiles: R3 R4"]),
    (
        "wrap-run-without-the-rule",
        "table:\nR12 R13 R1\nrack:",
        ["b.txt:2: not a valid run or group: R12 R13 R1"],
    ),
    (
        "set-shown-canonically",
        "table:\nr12, y13 *  b1\nrack:",
        ["b.txt:2: not a valid run or group: R12 O13 J B1"],
    ),
    (
        "a-bad-word-again-is-a-problem-again",
        "table:\nX9 R2 X9\nrack: X9 R5=K5 X9",
        [f"b.txt:{n}: unknown tile 'X9': colour must be K, R, O (or Y) or B" for n in (2, 2, 3)]
        + ["b.txt:3: only a joker on the table says what it stands for: 'R5=K5'"]
        + ["b.txt:3: unknown tile 'X9': colour must be K, R, O (or Y) or B"],
    ),
    (
        "set-longer-than-any-run",
        "table:\nR1-13 R1\nrack:",
        ["b.txt:2: not a valid run or group: 14 tiles (a set holds at most 13)"],
    ),
    (
        "copies-too-many-in-the-order-they-lie",
        "rack: R2 R1 R1 R2 R2 K3 R1 K3\nK3",
        [
            "b.txt:1: too many copies of R2: the 106-tile set has 2",
            "b.txt:1: too many copies of R1: the 106-tile set has 2",
            "b.txt:2: too many copies of K3: the 106-tile set has 2",
        ],
    ),
    (
        "third-copy-106",
        "table:\nR5 R6 R7\nK5 R5 B5\nrack: K1 R5",
        ["b.txt:4: too many copies of R5: the 106-tile set has 2"],
    ),
    (
        "fourth-copy-160",
        "rules: tile-set=160\ntable:\nR5 R6 R7\nR5 R6 R7\nR5 R6 R7\nrack: R6",
        ["b.txt:6: too many copies of R6: the 160-tile set has 3"],
    ),
    (
        "yellow-counts-as-orange",
        "table:\nO1 O2 O3\nrack: Y1 y1",
        ["b.txt:3: too many copies of O1: the 106-tile set has 2"],
    ),
    (
        "third-joker-106",
        "table:\nR1 J J\nrack: *",
        ["b.txt:3: too many jokers: the 106-tile set has 2"],
    ),
    (
        "fifth-joker-160",
        "rules: tile-set=160\ntable:\nJ J J\nrack: J J",
        ["b.txt:4: too many jokers: the 160-tile set has 4"],
    ),
    (
        "no-rack",
        "table:\nR3 R4 R5\n",
        ["b.txt:2: no rack: section (write 'rack:' alone for an empty rack)"],
    ),
    ("empty-file", "", ["b.txt:1: no rack: section (write 'rack:' alone for an empty rack)"]),
    (
        "only-comments",
        "# nothing here\n\n",
        ["b.txt:2: no rack: section (write 'rack:' alone for an empty rack)"],
    ),
    ("rack-twice", "rack: R1\nrack: R2", ["b.txt:2: section rack: given twice (first on line 1)"]),
    (
        "table-twice",
        "table:\nR1 R2 R3\ntable:\nrack:",
        ["b.txt:3: section table: given twice (first on line 1)"],
    ),
    (
        "expect-missing-value",
        "# expect: tiles=3\nrack:",
        ["b.txt:1: expect: needs both tiles=N and value=N"],
    ),
    (
        "expect-not-a-number",
        "# expect: tiles=three value=11\nrack:",
        ["b.txt:1: expect: takes tiles=N value=N, not 'tiles=three'"],
    ),
    (
        "expect-unknown-word",
        "rack:\n# Expect: tiles=1 value=1 points=1",
        ["b.txt:2: expect: takes tiles=N value=N, not 'points=1'"],
    ),
    (
        "expect-superscript-digit",
        "# expect: tiles=\u00b2 value=1\nrack:",
        ["b.txt:1: expect: takes tiles=N value=N, not 'tiles=\u00b2'"],
    ),
    (
        "expect-twice",
        "# expect: tiles=1 value=1\nrack:\n# expect: tiles=2 value=2",
        ["b.txt:3: expect: given twice (first on line 1)"],
    ),
    (
        "line-before-any-section",
        "R3 R4 R5\ntable:\nrack:",
        ["b.txt:1: a line before any section: start with table: or rack:"],
    ),
    (
        "empty-table-line-of-commas",
        "table:\n, ,\nrack:",
        ["b.txt:2: a table line holds no tiles"],
    ),
    (
        "every-problem-in-line-order",
        "rules: tile-set=999\nopened: perhaps\ntable:\nR1 R2\nK9 K10 K12\nrack: X1, R5\nrack:",
        [
            "b.txt:1: rule tile-set must be 106 or 160, not 999",
            "b.txt:2: opened: takes yes or no, not 'perhaps'",
            "b.txt:4: a set needs at least 3 tiles: R1 R2",
            "b.txt:5: not a valid run or group: K9 K10 K12",
            "b.txt:6: unknown tile 'X1': colour must be K, R, O (or Y) or B",
            "b.txt:7: section rack: given twice (first on line 6)",
        ],
    ),
    (
        "a-stream-of-boards-in-one-file",
        "# --- board 1: rummisolve generate\nrack: R1\n\n# --- board 2: rummisolve generate\n"
        "rack: R1\n",
        [
            "b.txt:4: a second board starts here: a stream of boards (generate and puzzle"
            " without --out) is read board by board from standard input, by batch - or check -"
        ],
    ),
    (
        "a-joker-declared-a-tile-its-set-cannot-read",
        "table:\nR4 R3 J=R7\nK3 R3 J=K3\nrack:",
        [
            "b.txt:2: in R4 R3 J, its joker stands for R2 or R5, not R7",
            "b.txt:3: in K3 R3 J, its joker stands for O3 or B3, not K3",
        ],
    ),
    (
        "a-run-joker-declared-another-tile-than-its-place",
        "rules: tile-set=160\ntable:\nR3 R4 J=R2 | J B3 J=B6 B5\nrack:",
        [
            "b.txt:3: set 1: in R3 R4 J, its joker stands for R5 where it lies, not R2",
            "b.txt:3: set 2: in J B3 J B5, its jokers stand for B2 B4 where they lie, not B6",
        ],
    ),
    (
        "only-a-joker-says-what-it-stands-for",
        "table:\nR3 R4 R5=R6 | J=J R7 R8\nrack: J=R9",
        [
            "b.txt:2: set 1: only a joker stands for another tile, as in J=R5: 'R5=R6'",
            "b.txt:2: set 2: a joker stands for a tile, as in J=R5, not for a joker: 'J=J'",
            "b.txt:3: only a joker on the table says what it stands for: 'J=R9'",
        ],
    ),
    (
        # 1 MiB of `|` made a million empty sets, each a problem: 245 MB and 3 s to read.
        "sets-past-any-table-in-one-line",
        "table: " + "|" * 500_000 + "\nrack:",
        ["b.txt:1: more than 53 sets on the table: the 160-tile set makes at most 53"],
    ),
    (
        "sets-past-any-table-over-lines",
        "table:\n" + "R1 R2 R3\n" * 60 + "rack:",
        [f"b.txt:4: too many copies of R{n}: the 106-tile set has 2" for n in (1, 2, 3)]
        + ["b.txt:55: more than 53 sets on the table: the 160-tile set makes at most 53"],
    ),
    (
        "a-long-word-is-quoted-by-its-start",
        "table:\nR1 R2 R3 " + "R5=" * 100_000 + "\nrack: " + "J=" * 150_000,
        [
            "b.txt:2: only a joker stands for another tile, as in J=R5: 'R5=R5=R5=R5=R5=R5...'",
            "b.txt:3: only a joker on the table says what it stands for: 'J=J=J=J=J=J=J=J=J...'",
        ],
    ),
    (
        "line-numbers-count-crlf-and-cr",
        "table:\r\nR1 R2 R3\rR1 R2\r\nrack:",
        ["b.txt:3: a set needs at least 3 tiles: R1 R2"],
    ),
]


@pytest.mark.parametrize(("text", "expected"), [pytest.param(t, e, id=i) for i, t, e in MALFORMED])
def test_malformed_board(text: str, expected: list[str]) -> None:
    assert problems(text) == expected


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param(b"rack: R1\nR2\x00", "b.txt:2: not a text file (NUL byte)", id="nul-byte"),
        pytest.param(b"rack:\n\nR1 \xff\xfe", "b.txt:3: not a text file (not UTF-8)", id="latin-1"),
        pytest.param(b"\xef\xbb", "b.txt:1: not a text file (not UTF-8)", id="broken-bom"),
        pytest.param(b"rack:\r\r\x00", "b.txt:3: not a text file (NUL byte)", id="nul-after-cr"),
    ],
)
def test_bytes_that_are_not_text(data: bytes, message: str) -> None:
    with pytest.raises(BoardError) as caught:
        decode_board(data, "b.txt")
    assert str(caught.value) == message


def test_a_byte_order_mark_is_not_part_of_the_first_line() -> None:
    text = decode_board("\ufeffrack: R1\n".encode(), "b.txt")
    assert parse_board(text).rack == parse_tiles("R1")


# --- What is read ---------------------------------------------------------------------------


def test_the_interface_example() -> None:
    assert parse_board(INTERFACE_EXAMPLE) == Board(
        table=(parse_tiles("R3 R4 R5"), parse_tiles("K7 R7 B7 J")),
        rack=parse_tiles("R2 B5 O5 J"),
        opened=False,
        rules=Rules(wraparound=True, initial_meld=50, tile_set=160, joker_penalty=20),
    )


def test_case_stars_yellow_commas_comments_and_a_rack_over_several_lines() -> None:
    text = """\
# expect: tiles=4 value=16
RULES: WrapAround Joker-Penalty=20   # a table's house rule
Opened: YES
TABLE:
  r12, R13,*    # spaces and commas both separate tiles

k1 r1 Y1 # inline comment
Rack: b1,
  b2
J
"""
    board = parse_board(text)
    assert board.table == (parse_tiles("R12 R13 J"), parse_tiles("K1 R1 O1"))
    assert board.rack == parse_tiles("B1 B2 J")
    assert board.opened
    assert board.rules == Rules(wraparound=True, joker_penalty=20)
    assert board.expect == Expectation(tiles=4, value=16)


@pytest.mark.parametrize(
    ("text", "table", "rack", "opened"),
    [
        pytest.param("rack:", (), (), True, id="only-an-empty-rack"),
        pytest.param("table:\nrack: R1", (), parse_tiles("R1"), True, id="empty-table"),
        pytest.param(
            "table: R1 R2 R3\nrack:", (parse_tiles("R1 R2 R3"),), (), True, id="set-on-header"
        ),
        pytest.param(
            "rack: R1\ntable:\nK1 R1 B1",
            (parse_tiles("K1 R1 B1"),),
            parse_tiles("R1"),
            True,
            id="rack-before-table",
        ),
        pytest.param("opened: n\nrack:", (), (), False, id="opened-n"),
        pytest.param("opened: false\nrack:", (), (), False, id="opened-false"),
        pytest.param("opened: On\nrack:", (), (), True, id="opened-on"),
        pytest.param("# expect tiles=1 value=1\nrack:", (), (), True, id="comment-not-expect"),
        pytest.param("# expected play: R1 R2 R3\nrack:", (), (), True, id="comment-expected"),
    ],
)
def test_valid_shapes(
    text: str, table: tuple[tuple[Tile, ...], ...], rack: tuple[Tile, ...], opened: bool
) -> None:
    board = parse_board(text)
    assert (board.table, board.rack, board.opened) == (table, rack, opened)


def test_a_joker_says_what_it_stands_for_and_the_table_hint_shows_reads_back() -> None:
    """`J=R5` (or `*=r5`) on the table: the reading the table agreed on, written back as
    given; a tile starred as hint shows one from the rack reads as the tile."""
    board = parse_board("table:\nR2* R3 R4 *=r5\nK7 R7 O7* J=b7 | B9 B10 B11\nrack: R6")
    r5, b7, k5 = parse_tiles("R5 B7 K5")
    assert board.table == (
        parse_tiles("R2 R3 R4 J"),
        parse_tiles("K7 R7 O7 J"),
        parse_tiles("B9 B10 B11"),
    )
    assert board.declared == ((r5,), (b7,), ())
    assert format_board(board).splitlines()[2:5] == ["R2 R3 R4 J=R5", "K7 R7 O7 J=B7", "B9 B10 B11"]
    assert parse_position("J=K5 O5 B5 | R1 R2 R3", "R4").declared == ((k5,), ())


def test_expect_line_in_any_case_anywhere() -> None:
    board = parse_board("rack: R1\n  #EXPECT: Value=0 TILES=0\n")
    assert board.expect == Expectation(tiles=0, value=0)


def test_expected_is_read_as_expect_not_skipped_as_a_comment() -> None:
    board = parse_board("# expected: tiles=0 value=0\nrack: R1\n")
    assert board.expect == Expectation(tiles=0, value=0)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        pytest.param("rules: wraparound=yes\nrack: R1\n", True, id="a-rule"),
        pytest.param("RULES : initial-meld=0\r\nrack: R1", True, id="any-case-crlf"),
        pytest.param("rules:\nrack: R1\n", False, id="empty-line"),
        pytest.param("rules: # house rules\nrack: R1\n", False, id="only-a-comment"),
        pytest.param("# rules: wraparound=yes\nrack: R1\n", False, id="commented-out"),
        pytest.param("rack: R1\n", False, id="no-rules-line"),
    ],
)
def test_names_rules_as_the_reader_reads_the_rules_line(text: str, named: bool) -> None:
    assert names_rules(text) is named


@pytest.mark.parametrize(
    ("text", "stamped"),
    [
        pytest.param("rack: R1\n", "# expect: tiles=1 value=2\nrack: R1\n", id="added-first"),
        pytest.param(
            "\ufeffrack: R1\r\n", "\ufeff# expect: tiles=1 value=2\r\nrack: R1\r\n", id="bom-crlf"
        ),
        pytest.param(
            "rack: R1\n  # Expected: tiles=0 value=0\n",
            "rack: R1\n# expect: tiles=1 value=2\n",
            id="replaced-in-place",
        ),
        pytest.param(
            "# expect: nothing\nrack: R1\n",
            "# expect: tiles=1 value=2\n# expect: nothing\nrack: R1\n",
            id="a-comment-stays",
        ),
    ],
)
def test_with_expectation_writes_the_line_the_reader_reads(text: str, stamped: str) -> None:
    expect = Expectation(tiles=1, value=2)
    assert with_expectation(text, expect) == stamped
    assert parse_board(stamped.removeprefix("\ufeff")).expect == expect


@pytest.mark.parametrize(
    ("word", "rules"),
    [
        pytest.param("wraparound=yes", Rules(wraparound=True), id="wraparound-yes"),
        pytest.param("wraparound=off", Rules(), id="wraparound-off"),
        pytest.param("initial-meld=0", Rules(initial_meld=0), id="initial-meld-0"),
        pytest.param("initial-meld=50", Rules(initial_meld=50), id="initial-meld-50-seed-001"),
        pytest.param("tile-set=106", Rules(), id="tile-set-106"),
        pytest.param("joker-penalty=50", Rules(joker_penalty=50), id="joker-penalty-50"),
        pytest.param(
            "joker-retrieval=replace",
            Rules(joker_retrieval=JokerRetrieval.REPLACE),
            id="joker-retrieval-replace-all-seeds",
        ),
        pytest.param(
            "joker-retrieval=Strict",
            Rules(joker_retrieval=JokerRetrieval.STRICT),
            id="joker-retrieval-strict-000-001",
        ),
        pytest.param(
            "joker-retrieval=FREE",
            Rules(joker_retrieval=JokerRetrieval.FREE),
            id="joker-retrieval-free",
        ),
        pytest.param(
            "casual", Rules(profile="casual", joker_retrieval=JokerRetrieval.FREE), id="casual"
        ),
        pytest.param(
            "norwegian initial-meld=30",
            Rules(
                profile="norwegian",
                locked_joker_sets=True,
                scoring=Method.LAID,
            ),
            id="a-profile-then-an-option",
        ),
        pytest.param("hebrew official", Rules(), id="the-last-profile-wins"),
        pytest.param(
            "locked-joker-sets", Rules(locked_joker_sets=True), id="locked-joker-sets-seed-001"
        ),
        pytest.param("Locked-Joker-Sets=ON", Rules(locked_joker_sets=True), id="locked-on"),
        pytest.param("locked-joker-sets=no", Rules(), id="locked-no"),
    ],
)
def test_rule_words(word: str, rules: Rules) -> None:
    assert parse_board(f"rules: {word}\nrack:").rules == rules


def test_a_tile_set_that_does_not_exist_is_refused_by_rules_too() -> None:
    with pytest.raises(ValueError, match="tile-set must be 106 or 160, not 107"):
        Rules(tile_set=107)


# --- The command line wins over `rules:` -------------------------------------------------------


def test_override_replaces_the_file_rule() -> None:
    text = "rules: wraparound initial-meld=50\ntable:\nR12 R13 R1\nrack:"
    assert parse_board(text).rules == Rules(wraparound=True, initial_meld=50)
    assert problems(text, wraparound=False) == ["b.txt:3: not a valid run or group: R12 R13 R1"]
    board = parse_board(
        text, overrides=Overrides(options=(("initial_meld", 30), ("joker_penalty", 20)))
    )
    assert board.rules == Rules(wraparound=True, joker_penalty=20)


def test_no_override_keeps_the_file_rules() -> None:
    text = "rules: tile-set=160\nrack:"
    assert parse_board(text, overrides=Overrides()).rules == Rules(tile_set=160)


def test_an_override_profile_sets_every_option_before_the_options_given() -> None:
    text = "rules: wraparound tile-set=160\nrack:"
    overrides = Overrides("french", (("initial_meld", 50),))
    assert parse_board(text, overrides=overrides).rules == Rules(
        profile="french", joker_penalty=20, initial_meld=50
    )


def test_overrides_refuse_an_unknown_option_or_profile() -> None:
    with pytest.raises(ValueError, match="unknown rule options"):
        Overrides(options=(("wrap", True),))
    with pytest.raises(ValueError, match="unknown rules profile"):
        Overrides("klingon")


def test_override_tile_set_decides_the_copies_allowed() -> None:
    text = "table:\nR5 R6 R7\nR5 R6 R7\nrack: R5"
    assert problems(text) == ["b.txt:4: too many copies of R5: the 106-tile set has 2"]
    assert parse_board(text, overrides=Overrides(options=(("tile_set", 160),))).rules == Rules(
        tile_set=160
    )
    assert problems("rules: tile-set=160\n" + text, tile_set=106) == [
        "b.txt:5: too many copies of R5: the 106-tile set has 2"
    ]


# --- read_board: files and standard input --------------------------------------------------------


def test_read_board_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "board.txt"
    path.write_bytes(b"table:\r\nR1 R2 R3\r\nrack: R4\r\n")
    assert read_board(path) == Board(table=(parse_tiles("R1 R2 R3"),), rack=parse_tiles("R4"))
    assert read_board(str(path), Overrides(options=(("tile_set", 160),))).rules == Rules(
        tile_set=160
    )


def test_read_board_names_the_file_in_problems(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("rack: R99\n")
    with pytest.raises(BoardError) as caught:
        read_board(path)
    assert str(caught.value) == f"{path}:1: unknown tile 'R99': number must be 1 to 13"


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        pytest.param("missing.txt", "cannot read: No such file or directory", id="missing"),
        pytest.param(".", "not a board file: a folder", id="directory"),
    ],
)
def test_read_board_unreadable_path(tmp_path: Path, name: str, reason: str) -> None:
    path = tmp_path / name
    with pytest.raises(BoardError) as caught:
        read_board(path)
    assert str(caught.value) == f"{path}: {reason}"
    assert caught.value.problems[0].line == 0


def test_read_board_not_text(tmp_path: Path) -> None:
    path = tmp_path / "board.bin"
    path.write_bytes(b"rack:\n\x89PNG")
    with pytest.raises(BoardError) as caught:
        read_board(path)
    assert str(caught.value) == f"{path}:2: not a text file (not UTF-8)"


def test_read_board_from_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(b"rack: K13\nwhat: ever\n"))
    monkeypatch.setattr(sys, "stdin", stdin)
    with pytest.raises(BoardError) as caught:
        read_board("-")
    assert str(caught.value) == (
        "-:2: unknown section 'what:' (known: rules:, opened:, table:, rack:)"
    )


# --- Properties -------------------------------------------------------------------------------


@st.composite
def rule_options(draw: st.DrawFn) -> Rules:
    return Rules(
        wraparound=draw(st.booleans()),
        initial_meld=draw(st.sampled_from([30, 50, 0, 1, 99])),
        tile_set=draw(st.sampled_from(sorted(TILE_SETS))),
        joker_penalty=draw(st.sampled_from([30, 20, 50, 0, 7])),
        joker_retrieval=draw(st.sampled_from(JokerRetrieval)),
        locked_joker_sets=draw(st.booleans()),
    )


@st.composite
def a_set(draw: st.DrawFn, rules: Rules) -> tuple[Tile, ...]:
    """A run or a group, some tiles made jokers, in any order (a table line may be unsorted)."""
    if draw(st.booleans()):
        colour = draw(st.sampled_from(COLOURS))
        length = draw(st.integers(3, 13))
        top = 14 if rules.wraparound else 13
        start = draw(st.integers(1, top - length + 1))
        tiles = [Tile(colour, 1 if n == 14 else n) for n in range(start, start + length)]
    else:
        number = draw(st.integers(1, 13))
        colours = draw(st.lists(st.sampled_from(COLOURS), min_size=3, max_size=4, unique=True))
        tiles = [Tile(c, number) for c in colours]
    jokers = draw(st.sets(st.integers(0, len(tiles) - 1), max_size=2))
    row = [JOKER if i in jokers else t for i, t in enumerate(tiles)]
    return tuple(draw(st.permutations(row)))


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """Any board the format can hold: valid sets and a rack within the box's limits."""
    rules = draw(rule_options())
    box = rules.box
    used: Counter[Tile] = Counter()
    table = []
    for candidate in draw(st.lists(a_set(rules), max_size=6)):
        if not box.excess(used + Counter(candidate)):
            assert is_valid_set(candidate, rules)
            table.append(candidate)
            used.update(candidate)
    rack = []
    for tile in draw(st.lists(st.sampled_from([*ALL_COLOURED, JOKER]), max_size=20)):
        if used[tile] < box.limit(tile):
            rack.append(tile)
            used[tile] += 1
    expect = draw(st.none() | st.builds(Expectation, st.integers(0, 106), st.integers(0, 10**6)))
    declared = draw(declarations(tuple(table), rules))
    return Board(tuple(table), tuple(rack), draw(st.booleans()), rules, expect, declared)


@given(boards())
def test_format_then_parse_gives_the_same_board(board: Board) -> None:
    assert parse_board(format_board(board)) == board


@given(st.lists(boards(), min_size=1, max_size=4), st.text(alphabet="abc -=", max_size=20))
def test_a_stream_cut_apart_gives_the_boards_written(written: list[Board], note: str) -> None:
    stream = "".join(stream_entry(n, note, b) for n, b in enumerate(written, start=1))
    cut = split_stream(stream.encode())
    assert [parse_board(part.decode()) for part in cut] == written


@given(boards())
def test_a_formatted_board_survives_lower_case_and_commas(board: Board) -> None:
    lines = []
    for line in format_board(board).lower().splitlines():
        head, colon, tiles = line.rpartition(":")
        if head in ("", "rack"):
            tiles = tiles.replace(" ", " , ")
        lines.append(head + colon + tiles)
    assert parse_board("\n".join(lines)) == board


# The thorough profile's examples, and at least 500 there.
FUZZ = settings(max_examples=examples(max(500, settings().max_examples)))


def board_or_refusal(text: str) -> None:
    try:
        assert isinstance(parse_board(text, "b.txt"), Board)
    except BoardError as error:
        assert error.problems
        assert all(p.source == "b.txt" and p.line >= 1 for p in error.problems)


# Fragments of board files, so that random text reaches past the first line's checks.
FRAGMENTS = [
    "rules:",
    "opened:",
    "table:",
    "rack:",
    "wraparound",
    "tile-set=160",
    "locked-joker-sets",
    "initial-meld=",
    "joker-penalty=2",
    "yes",
    "no",
    "# expect:",
    "tiles=3",
    "value=",
    "R1",
    "r13",
    "Y7",
    "B14",
    "K0",
    "J",
    "*",
    ",",
    " ",
    "\n",
    "\r\n",
    "\r",
    "#",
    "\t",
    ":",
    "=",
    "\u00b2",
    "\x00",
]


@FUZZ
@given(st.text())
def test_any_text_is_a_board_or_a_board_error(text: str) -> None:
    board_or_refusal(text)


@FUZZ
@given(st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=3), max_size=40).map("".join))
def test_any_board_like_text_is_a_board_or_a_board_error(text: str) -> None:
    board_or_refusal(text)


@FUZZ
@given(
    st.binary()
    | st.lists(st.sampled_from(FRAGMENTS), max_size=30).map(lambda parts: "".join(parts).encode())
)
def test_any_bytes_are_a_board_or_a_board_error(data: bytes) -> None:
    try:
        text = decode_board(data, "b.txt")
    except BoardError as error:
        assert len(error.problems) == 1 and error.problems[0].line >= 1
        return
    board_or_refusal(text)


def test_a_tile_set_that_is_not_a_number_is_shown_a_tile_set() -> None:
    """`rules: tile-set=x` says 'as in tile-set=30': a box of 30 tiles, which no rule has."""
    assert problems("rules: tile-set=x\nrack: R1") == [
        "b.txt:1: rule tile-set needs a whole number, as in tile-set=106, not 'x'"
    ]


def test_table_option_past_any_table_is_one_problem() -> None:
    with pytest.raises(BoardError) as caught:
        parse_position("R1 R2 R3 " + "|" * 100_000, "R4")
    assert str(caught.value) == (
        "--table: more than 53 sets on the table: the 160-tile set makes at most 53"
    )
