"""The exhaustive reference, held to positions worked out by hand from the rules.

Each case gives a board and the reference's answer for the objective "tiles", (tiles,
value, kept): the most tiles played, then the most value played (a joker at the penalty,
30 here), then the most table sets kept exactly as they lie.
The joker rules (docs/rules.md, "The official reading, precisely"): a table joker
not freed stays beside a real tile of its own set, standing for the same tile in one
reading of that set (a run's joker: the tile of the place it lies at, where that place can
be); it is freed only by a rack copy of that tile played this turn (one
copy frees one joker); under STRICT the freed joker lies in a set holding two tiles played
from the rack. locked-joker-sets keeps the real tiles of a set with a joker, and its jokers
not freed, in one final set.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummisolve.board import Board, parse_board
from rummisolve.rules import JokerRetrieval

from .positions import positions
from .reference import best_move


def board(rules: str, table: str, rack: str, opened: bool = True) -> Board:
    """A board from its rules words, its table (sets separated by '/') and its rack."""
    sets = "".join(f"{s.strip()}\n" for s in table.split("/") if s.strip())
    opened_line = "yes" if opened else "no"
    return parse_board(f"rules: {rules}\nopened: {opened_line}\ntable:\n{sets}rack: {rack}\n")


STRICT = "joker-retrieval=strict"
REPLACE = "joker-retrieval=replace"
FREE = "joker-retrieval=free"

CASES = [
    # -- A joker leaves its set only when its tile, from the rack, frees it. --
    # R3 R4 R5 J's joker is the R6, where it lies: B7 O7 have no third tile but that joker,
    # which no rack tile frees.
    ("run-joker-not-freed-strict", STRICT, "R3 R4 R5 J", "B7 O7", (0, 0, 1)),
    ("run-joker-not-freed-replace", REPLACE, "R3 R4 R5 J", "B7 O7", (0, 0, 1)),
    # Jokers move freely: J B7 O7, and R3 R4 R5 as a set of its own (not the set as it lay).
    ("run-joker-free", FREE, "R3 R4 R5 J", "B7 O7", (2, 14, 0)),
    # 000's example: B5 frees the joker (read B5) and takes its place; J R7 O7 is a new set
    # holding two rack tiles.
    ("hebrew-example", STRICT, "B3 B4 J", "B5 R7 O7", (3, 19, 0)),
    # The group's joker is O7 and nothing else; O7 is not on the rack, so the joker may not
    # walk off into O8 O9 J, nor stand for O7 there (no tile of its set beside it).
    ("group-joker-stays-strict", STRICT, "K7 R7 B7 J", "O8 O9", (0, 0, 1)),
    ("group-joker-free", FREE, "K7 R7 B7 J", "O8 O9", (2, 17, 0)),
    # R8 J O8 is read J=K8 or J=B8, and the rack holds neither. R7 needs R6/R9 or a 7 of
    # another colour, B7 and B9 a second B8: only that joker could give them, and it may
    # only stand for K8 or B8 beside R8 or O8. Nothing is played, whatever the rules.
    ("blue-run-and-group-nothing", STRICT, "B6 B7 B8 B9 B10 / R8 J O8", "R7 B7 B9", (0, 0, 2)),
    ("blue-run-and-group-nothing-free", FREE, "B6 B7 B8 B9 B10 / R8 J O8", "R7 B7 B9", (0, 0, 2)),
    # With K8 besides: K8 frees the joker (read K8), R8 O8 K8 stays a group, and the joker
    # becomes a second B8 in a new B7 J B9 (two rack tiles beside it), the blue run kept as
    # it lies. R7 still finds no set: 3 tiles, 24 points.
    ("blue-run-and-group-k8-frees", STRICT, "B6 B7 B8 B9 B10 / R8 J O8", "R7 B7 B9 K8", (3, 24, 1)),
    # -- Where a freed joker may go (STRICT: beside two tiles from the rack). --
    # B5 frees the joker of B3 B4 J (the B5, where it lies); beside R12 alone (R8 R9 R10 J
    # R12) it is refused under STRICT, and the B5 goes nowhere else: nothing is played.
    ("freed-beside-one-rack-tile-strict", STRICT, "B3 B4 J / R8 R9 R10", "B5 R12", (0, 0, 2)),
    ("freed-beside-one-rack-tile-replace", REPLACE, "B3 B4 J / R8 R9 R10", "B5 R12", (2, 17, 0)),
    # Beside R12 and R13 it is allowed: J R12 R13 (read R11), R8 R9 R10 kept as it lies.
    ("freed-beside-two-rack-tiles", STRICT, "B3 B4 J / R8 R9 R10", "B5 R12 R13", (3, 30, 1)),
    # The freeing tile counts as a rack tile where it lies: O7 frees the group's joker and
    # goes on with it, O7 O8 J; K7 R7 B7 stays a group.
    ("freeing-tile-counts", STRICT, "K7 R7 B7 J", "O7 O8", (2, 15, 0)),
    # A joker played from the rack counts too: B3 B4 B5 and J R7 J.
    ("rack-joker-counts", STRICT, "B3 B4 J", "B5 R7 J", (3, 42, 0)),
    # A tile from the table does not: B5 frees the joker, which J O9 K9 would hold beside O9
    # alone (K9 is the run's). STRICT plays nothing; REPLACE allows it (K10 K11 K12 stays).
    ("table-tile-does-not-count", STRICT, "B3 B4 J / K9 K10 K11 K12", "B5 O9", (0, 0, 2)),
    ("table-tile-does-not-count-replace", REPLACE, "B3 B4 J / K9 K10 K11 K12", "B5 O9", (2, 14, 0)),
    # -- One played copy frees one joker. --
    # R3 R4 J's joker is the R5, R6 R7 J's the R8 (where they lie): one R5 frees the first,
    # so only one of K9 O9 / K10 O10 gets a joker: R5 K10 O10. A second R5 frees nothing:
    # it goes before R6 R7 J, whose joker stays the R8.
    ("one-copy-frees-one-joker", STRICT, "R3 R4 J / R6 R7 J", "R5 K9 O9 K10 O10", (3, 25, 1)),
    (
        "two-copies-free-two-jokers",
        STRICT,
        "R3 R4 J / R6 R7 J",
        "R5 R5 K9 O9 K10 O10",
        (4, 30, 0),
    ),
    # -- A run's joker is the tile of its place; where the place cannot say, any reading. --
    # J B10 B11 is the B9: the B12 does not free it (rules.md; issue 30).
    ("place-low-end-not-freed-by-high", STRICT, "J B10 B11", "B12 R7 O7", (1, 12, 0)),
    ("place-low-end-not-freed-replace", REPLACE, "J B10 B11", "B12 R7 O7", (1, 12, 0)),
    # R11 R12 R13 J has no R14: the joker may be the R10, which frees it.
    ("place-off-the-end-any-reading", STRICT, "R11 R12 R13 J", "R10 K3 O3", (3, 16, 0)),
    # B4 B3 J is written out of order: the B2 or the B5; the B2 frees it.
    ("place-out-of-order-any-reading", STRICT, "B4 B3 J", "B2 K7 O7", (3, 16, 0)),
    # With wraparound R12 R13 J is the R1 (the 1 after the 13), which frees it.
    ("place-wraps-to-the-1", f"{STRICT} wraparound", "R12 R13 J", "R1 K5 O5", (3, 11, 0)),
    ("one-copy-free-rules", FREE, "R3 R4 J / R6 R7 J", "R5 K9 O9 K10 O10", (5, 43, 0)),
    # -- Two jokers of one set, split: each needs a tile of its own set beside it. --
    # J R4 R5 J read R3..R6: J R4 R5(rack) and R5(table) J R7, the jokers still R3 and R6,
    # beside R4 and the table's R5: two tiles of their set, one each.
    ("split-jokers-own-anchors", STRICT, "J R4 R5 J", "R5 R7", (2, 12, 0)),
    # J R5 J read R4 R5 R6: R3 J R5 and R5 J R7 would need the set's one R5 in both (the
    # rack's R5 is not of that set): refused. Nothing else places R5.
    (
        "split-jokers-same-anchor-strict",
        STRICT,
        "J R5 J / R3 K3 O3 B3 / R7 K7 O7 B7",
        "R5",
        (0, 0, 3),
    ),
    (
        "split-jokers-same-anchor-replace",
        REPLACE,
        "J R5 J / R3 K3 O3 B3 / R7 K7 O7 B7",
        "R5",
        (0, 0, 3),
    ),
    ("split-jokers-same-anchor-free", FREE, "J R5 J / R3 K3 O3 B3 / R7 K7 O7 B7", "R5", (1, 5, 0)),
    # -- One reading for both jokers of a set. --
    # J R4 J is read R2 R3, R3 R5, R5 R6, or two of K4 O4 B4. O4 frees a joker read O4 into
    # O2 J O4 (two rack tiles), but the other joker is then K4 or B4 and finds no group of
    # 4s; R2 J R4 (R2 from the 2s, the joker as R3) would mix two readings. O4 alone goes in:
    # J R4 J O4, the jokers K4 and B4.
    ("one-reading-for-both-jokers", STRICT, "J R4 J / K2 O2 R2 B2", "O4 O2", (1, 4, 1)),
    # REPLACE lets the freed joker stand beside one rack tile: J R4 O4 (K4 stays), J O2 R2.
    ("one-reading-replace", REPLACE, "J R4 J / K2 O2 R2 B2", "O4 O2", (2, 6, 0)),
    # -- A table set of jokers only stays as it lies (REPLACE, STRICT). --
    ("jokers-only-set-stays", f"{STRICT} tile-set=160", "J J J", "R5 R6", (0, 0, 1)),
    ("jokers-only-set-free", f"{FREE} tile-set=160", "J J J", "R5 R6", (2, 11, 0)),
    # With locked-joker-sets under FREE its jokers stay together, in a set that may grow (our
    # reading): R5 R6 J J J.
    (
        "jokers-only-set-locked-free",
        f"{FREE} tile-set=160 locked-joker-sets",
        "J J J",
        "R5 R6",
        (2, 11, 0),
    ),
    # -- locked-joker-sets: a set with a joker keeps its tiles (and jokers not freed). --
    # The joker is K6. Without the rule: R6 J J (the table's joker still K6, beside the
    # table's R6; the rack's joker) and R6 B6 O6 with the rack's R6. With it the table's
    # R6 B6 O6 and its joker stay in one set, a full group: nothing is played.
    ("locked-group-strict", f"{STRICT} locked-joker-sets", "J R6 B6 O6", "R6 J", (0, 0, 1)),
    ("locked-group-free", f"{FREE} locked-joker-sets", "J R6 B6 O6", "R6 J", (0, 0, 1)),
    ("unlocked-group-strict", STRICT, "J R6 B6 O6", "R6 J", (2, 36, 0)),
    ("unlocked-group-free", FREE, "J R6 B6 O6", "R6 J", (2, 36, 0)),
    # Locked, a freed joker still leaves (STRICT): B5 frees it, B3 B4 B5 stay together.
    ("locked-freed-joker-leaves", f"{STRICT} locked-joker-sets", "B3 B4 J", "B5 R7 O7", (3, 19, 0)),
    # Under FREE nothing frees a joker: locked, it stays with B3 B4 (B3 B4 B5 J).
    ("locked-free-joker-stays", f"{FREE} locked-joker-sets", "B3 B4 J", "B5 R7 O7", (1, 5, 0)),
    # -- Initial meld (not opened: the last field): the table as it lies; the rack's own sets
    # worth the meld. --
    # R9 R10 J counts 30 (the joker as R11, the most it can be): enough.
    ("meld-joker-counts-its-tile", STRICT, "R11 R12 R13", "R9 R10 J K2", (3, 49, 1), False),
    # R8 R9 J counts 27 at the most (J as R10): not enough.
    ("meld-short", STRICT, "R11 R12 R13", "R8 R9 J K2", (0, 0, 1), False),
    # The table may not be used before the initial meld.
    ("meld-not-the-table", STRICT, "R11 R12 R13", "R9 R10", (0, 0, 1), False),
]


@pytest.mark.parametrize("case", CASES, ids=[str(case[0]) for case in CASES])
def test_hand_worked_case(case: tuple[object, ...]) -> None:
    _, rules, table, rack, expected, *opened = case
    position = board(str(rules), str(table), str(rack), opened=bool(opened[0]) if opened else True)
    assert tuple(best_move(position)) == expected


def test_the_table_may_be_used_once_opened() -> None:
    assert tuple(best_move(board(STRICT, "R11 R12 R13", "R9 R10"))) == (2, 19, 0)


def test_value_objective_weighs_value_first() -> None:
    """R2 O2 J is three tiles (34 points, R7 R8 R9 kept); R5 J R7 R8 R9 two, of 35."""
    position = board(STRICT, "R7 R8 R9", "R2 O2 R5 J")
    assert tuple(best_move(position, "tiles")) == (3, 34, 1)
    assert tuple(best_move(position, "value")) == (2, 35, 0)


def test_order_of_tiles_fixes_no_reading() -> None:
    """J R4 R5 J and R4 R5 J J are the same set: the jokers may be read R3 and R6."""
    for table in ("J R4 R5 J", "R4 R5 J J", "R4 J J R5"):
        assert tuple(best_move(board(STRICT, table, "R5 R7"))) == (2, 12, 0)


def rank(answer: tuple[int, int, int], objective: str) -> tuple[int, int, int]:
    tiles, value, kept = answer
    return (tiles, value, kept) if objective == "tiles" else (value, tiles, kept)


def under(position: Board, retrieval: JokerRetrieval, locked: bool | None = None) -> Board:
    rules = position.rules.replace(joker_retrieval=retrieval)
    if locked is not None:
        rules = rules.replace(locked_joker_sets=locked)
    return Board(position.table, position.rack, position.opened, rules)


@settings(max_examples=60)
@given(
    position=st.one_of(positions(max_rack=5), positions(max_rack=4, freeing=True)),
    objective=st.sampled_from(["tiles", "value"]),
)
def test_looser_rules_never_do_worse(position: Board, objective: str) -> None:
    """Every final table STRICT allows, REPLACE allows, and FREE too: so their best moves
    rank FREE >= REPLACE >= STRICT (on all three criteria, kept sets last)."""
    free, replace, strict = (
        rank(best_move(under(position, r, locked=False), objective), objective)
        for r in (JokerRetrieval.FREE, JokerRetrieval.REPLACE, JokerRetrieval.STRICT)
    )
    assert free >= replace >= strict


@settings(max_examples=40)
@given(
    position=positions(max_sets=2, max_rack=4, locked=True),
    objective=st.sampled_from(["tiles", "value"]),
)
def test_locked_joker_sets_never_do_better(position: Board, objective: str) -> None:
    """locked-joker-sets only refuses: never better than without it, under each retrieval;
    locked, REPLACE still allows all STRICT does."""
    for retrieval in JokerRetrieval:
        locked = rank(best_move(under(position, retrieval, locked=True), objective), objective)
        unlocked = rank(best_move(under(position, retrieval, locked=False), objective), objective)
        assert locked <= unlocked
    replace = best_move(under(position, JokerRetrieval.REPLACE, locked=True), objective)
    strict = best_move(under(position, JokerRetrieval.STRICT, locked=True), objective)
    assert rank(replace, objective) >= rank(strict, objective)
