"""Which rows are valid sets, what each joker stands for (rules.md "Sets")."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummisolve.jokers import place_reading, set_readings, table_readings
from rummisolve.rules import Rules
from rummisolve.sets import (
    Kind,
    Meld,
    candidate_sets,
    candidate_shapes,
    is_valid_set,
    read_meld,
)
from rummisolve.tiles import ALL_COLOURED, COLOURS, JOKER, Colour, Tile, format_tiles, parse_tiles

from .reference import set_value

PLAIN = Rules()
WRAP = Rules(wraparound=True)
BIG_BOX = Rules(tile_set=160)


def meld_of(text: str, rules: Rules = PLAIN) -> Meld:
    meld = read_meld(parse_tiles(text), rules)
    assert meld is not None, f"{text} should be a valid set"
    return meld


VALID = [
    # Runs: 3 or more of one colour, consecutive.
    ("R3 R4 R5", PLAIN, "run-of-3"),
    ("B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13", PLAIN, "run-1-to-13"),
    ("K11 K12 K13", PLAIN, "run-ends-at-13"),
    ("O1 O2 O3", PLAIN, "run-starts-at-1"),
    ("R5 R3 R4", PLAIN, "run-out-of-order"),
    # Groups: 3 or 4 of one number, distinct colours.
    ("K7 R7 B7", PLAIN, "group-of-3"),
    ("K7 R7 O7 B7", PLAIN, "group-of-4"),
    ("B1 O1 R1", PLAIN, "group-of-1s"),
    # Jokers in runs, at the start, middle and end; several; only jokers.
    ("J R4 R5", PLAIN, "run-joker-start"),
    ("R3 J R5", PLAIN, "run-joker-middle"),
    ("R3 R4 J", PLAIN, "run-joker-end"),
    ("J R4 J", PLAIN, "run-jokers-both-ends"),
    ("R3 J J R6", PLAIN, "run-two-jokers-middle"),
    ("J J R13", PLAIN, "run-two-jokers-before-13"),
    ("R1 J J", PLAIN, "run-two-jokers-after-1"),
    ("R12 R13 J", PLAIN, "run-joker-at-end-after-13-means-11"),
    ("R12 R13 J J", PLAIN, "run-jokers-go-below-when-no-room-above"),
    ("J J J", PLAIN, "three-jokers"),
    ("J J J J", BIG_BOX, "four-jokers"),
    ("J K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13", PLAIN, "run-13-with-joker-as-1"),
    # Jokers in groups.
    ("J R7 B7", PLAIN, "group-joker-start"),
    ("K7 J B7", PLAIN, "group-joker-middle"),
    ("K7 R7 J", PLAIN, "group-joker-end"),
    ("K7 R7 O7 J", PLAIN, "group-of-4-with-joker"),
    ("K7 J J B7", PLAIN, "group-two-jokers"),
    # Wraparound (seed 000): 1 is the low or the high end, never both.
    ("R12 R13 R1", WRAP, "wrap-12-13-1"),
    ("R11 R12 R13 R1", WRAP, "wrap-11-12-13-1"),
    ("R1 R2 R3", WRAP, "wrap-still-1-2-3"),
    ("R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", WRAP, "wrap-2-to-13-1-length-13"),
    ("R12 R13 J", WRAP, "wrap-joker-after-13"),
    ("J R13 R1", WRAP, "wrap-joker-before-13-1"),
    ("R12 J R1", WRAP, "wrap-joker-as-13"),
    ("K1 R1 O1", WRAP, "wrap-group-of-1s"),
    # Every set the seeds show.
    ("R2 R3 R4", PLAIN, "seed-000-result-run"),
    ("R5 B5 O5", PLAIN, "seed-000-result-group"),
    ("K9 K10 K11 K12", PLAIN, "seed-000-run-example"),
    ("B6 B7 B8 B9 B10", PLAIN, "seed-000-long-blue"),
    ("B6 B7 B8", PLAIN, "seed-000-split-left"),
    ("B8 B9 B10", PLAIN, "seed-000-split-right"),
    ("B6 R6 O6", PLAIN, "seed-000-group-of-6"),
    ("B6 R6 O6 K6", PLAIN, "seed-000-group-with-black"),
    ("B3 B4 J", PLAIN, "seed-000-joker-run"),
    ("B3 B4 B5", PLAIN, "seed-000-joker-replaced"),
    ("J R7 O7", PLAIN, "seed-000-joker-group"),
    ("R6 R7 R8", PLAIN, "seed-001-red-run"),
    ("O6 K6 R6", PLAIN, "seed-001-group-of-6"),
    ("R3 R4 R5 R6 R7", PLAIN, "seed-003-extended-run"),
    ("K10 R10 B10 Y10", PLAIN, "seed-003-square-with-yellow"),
    ("K5 R5 O5 B5", PLAIN, "seed-003-square-of-5"),
    ("K6 R6 O6", PLAIN, "seed-003-tierce-of-6"),
    ("K8 K9 K10", PLAIN, "seed-003-black-run"),
    ("R4 R5 R6", PLAIN, "seed-003-split-left"),
    ("R6 R7 R8", PLAIN, "seed-003-split-right"),
    ("R4 R5 R6", PLAIN, "seed-004-red-4-5-6"),
]

INVALID = [
    ("", PLAIN, "empty"),
    ("R3 R4", PLAIN, "two-tiles"),
    ("J J", PLAIN, "two-jokers"),
    ("R3 R4 R6", PLAIN, "run-gap"),
    ("R3 R4 B5", PLAIN, "run-two-colours"),
    ("R3 R3 R4", PLAIN, "run-number-twice"),
    ("R3 R4 R5 R4", PLAIN, "run-number-twice-long"),
    ("R3 R3 J", PLAIN, "run-number-twice-with-joker"),
    ("R12 R13 R1", PLAIN, "no-wrap-12-13-1"),
    ("R11 R12 R13 R1", PLAIN, "no-wrap-11-12-13-1"),
    ("R13 R1 R2", WRAP, "wrap-13-1-2"),
    ("R12 R13 R1 R2", WRAP, "wrap-12-13-1-2"),
    ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", WRAP, "wrap-1-twice-length-14"),
    ("J J J J J J J J J J J J J J", BIG_BOX, "fourteen-jokers"),
    ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J", PLAIN, "run-14-with-joker"),
    ("K7 R7 R7", PLAIN, "group-colour-twice"),
    ("K7 R7 B8", PLAIN, "group-two-numbers"),
    ("K7 R7 O7 B7 J", PLAIN, "group-of-5-with-joker"),
    ("K7 R7 O7 Y7", PLAIN, "group-yellow-is-orange-twice"),
    ("K7 R7 J J J", PLAIN, "group-of-5-with-jokers"),
    ("J R7 R7", PLAIN, "group-joker-and-colour-twice"),
]


@pytest.mark.parametrize(("text", "rules"), [pytest.param(t, r, id=i) for t, r, i in VALID])
def test_valid_sets(text: str, rules: Rules) -> None:
    assert is_valid_set(parse_tiles(text), rules)


@pytest.mark.parametrize(("text", "rules"), [pytest.param(t, r, id=i) for t, r, i in INVALID])
def test_invalid_sets(text: str, rules: Rules) -> None:
    assert not is_valid_set(parse_tiles(text), rules)


@pytest.mark.parametrize("rules", [PLAIN, BIG_BOX], ids=["106", "160"])
def test_validity_does_not_depend_on_the_box(rules: Rules) -> None:
    assert is_valid_set(parse_tiles("R3 R4 R5"), rules)
    assert is_valid_set(parse_tiles("K7 R7 O7 B7"), rules)
    assert not is_valid_set(parse_tiles("K7 R7 O7 B7 K7"), rules)


@pytest.mark.parametrize(
    ("text", "rules", "stand_ins", "ordered", "kind"),
    [
        pytest.param("R3 R4 J", PLAIN, "R3 R4 R5", "R3 R4 J", Kind.RUN, id="joker-after-is-R5"),
        # The reading worth most, wherever the joker lies: the player names what it stands for.
        pytest.param("J R3 R4", PLAIN, "R5 R3 R4", "R3 R4 J", Kind.RUN, id="joker-before-is-R5"),
        pytest.param("R3 J R5", PLAIN, "R3 R4 R5", "R3 J R5", Kind.RUN, id="joker-between-is-R4"),
        pytest.param("R5 J R3", PLAIN, "R5 R4 R3", "R3 J R5", Kind.RUN, id="descending-row"),
        pytest.param("R5 R3 R4", PLAIN, "R5 R3 R4", "R3 R4 R5", Kind.RUN, id="run-sorted"),
        pytest.param("R3 R4 J R5", PLAIN, "R3 R4 R6 R5", "R3 R4 R5 J", Kind.RUN, id="fills-gap"),
        pytest.param(
            "R12 R13 J", PLAIN, "R12 R13 R11", "J R12 R13", Kind.RUN, id="no-room-above-13"
        ),
        pytest.param("R12 R13 J", WRAP, "R12 R13 R11", "J R12 R13", Kind.RUN, id="wrap-R11-richer"),
        pytest.param("R1 R13 R12", WRAP, "R1 R13 R12", "R12 R13 R1", Kind.RUN, id="wrap-sorted"),
        pytest.param("J J R1", PLAIN, "R2 R3 R1", "R1 J J", Kind.RUN, id="no-wrap-jokers-above-1"),
        pytest.param("J J R1", WRAP, "R12 R13 R1", "J J R1", Kind.RUN, id="wrap-jokers-below-1"),
        pytest.param("J K2 K3", PLAIN, "K4 K2 K3", "K2 K3 J", Kind.RUN, id="joker-is-K4-not-K1"),
        pytest.param("B5 J O5", PLAIN, "B5 K5 O5", "J O5 B5", Kind.GROUP, id="group-joker"),
        pytest.param("B7 J J", PLAIN, "B7 B8 B9", "B7 J J", Kind.RUN, id="run-read-before-group"),
        pytest.param(
            "K7 R7 J J", PLAIN, "K7 R7 O7 B7", "K7 R7 J J", Kind.GROUP, id="group-two-jokers"
        ),
        pytest.param("B1 O1 R1", PLAIN, "B1 O1 R1", "R1 O1 B1", Kind.GROUP, id="group-by-colour"),
        # A choice left by position goes to the reading worth most (the player names the jokers).
        pytest.param(
            "J J B13", PLAIN, "K13 R13 B13", "J J B13", Kind.GROUP, id="group-39-beats-run"
        ),
        pytest.param("B5 J J", PLAIN, "B5 B6 B7", "B5 J J", Kind.RUN, id="run-18-beats-group"),
        pytest.param("J J J", PLAIN, "K13 R13 O13", "J J J", Kind.GROUP, id="jokers-alone-13s"),
        pytest.param(
            "J J J J J", BIG_BOX, "K9 K10 K11 K12 K13", "J J J J J", Kind.RUN, id="five-jokers"
        ),
        pytest.param("R6 R4 J J", PLAIN, "R6 R4 R5 R7", "R4 J R6 J", Kind.RUN, id="richest-window"),
        pytest.param("R13 J J", WRAP, "R13 K13 O13", "J R13 J", Kind.GROUP, id="wrap-13s"),
        pytest.param("R13 R12 J", WRAP, "R13 R12 R11", "J R12 R13", Kind.RUN, id="wrap-not-richer"),
    ],
)
def test_stand_ins_and_order(
    text: str, rules: Rules, stand_ins: str, ordered: str, kind: Kind
) -> None:
    meld = meld_of(text, rules)
    assert meld.kind is kind
    assert meld.tiles == parse_tiles(text)
    assert format_tiles(meld.stand_ins) == stand_ins
    assert format_tiles(meld.ordered) == ordered


@pytest.mark.parametrize(
    ("text", "rules", "value"),
    [
        pytest.param("R3 R4 R5", PLAIN, 12, id="run"),
        pytest.param("K10 R10 B10", PLAIN, 30, id="group-of-10s-is-30"),
        pytest.param("R9 R10 J", PLAIN, 30, id="joker-counts-R11"),
        pytest.param("J R9 R10", PLAIN, 30, id="joker-counts-R11-wherever-it-lies"),
        pytest.param("K13 R13 J", PLAIN, 39, id="group-joker-counts-13"),
        pytest.param("R12 R13 R1", WRAP, 26, id="high-1-counts-1"),
        pytest.param("J J B13", PLAIN, 39, id="jokers-as-13s-not-B11-B12"),
        pytest.param("J J J", PLAIN, 39, id="three-jokers-most"),
        pytest.param("J J J J", BIG_BOX, 52, id="four-jokers-most"),
    ],
)
def test_face_value(text: str, rules: Rules, value: int) -> None:
    assert meld_of(text, rules).face_value == value


@pytest.mark.parametrize("rules", [PLAIN, WRAP], ids=["plain", "wraparound"])
def test_candidate_sets_are_valid_joker_free_and_distinct(rules: Rules) -> None:
    found = candidate_sets(rules)
    assert len(found) == len(set(found))
    assert all(JOKER not in s and is_valid_set(s, rules) for s in found)
    runs = [s for s in found if len({t.colour for t in s}) == 1]
    groups = [s for s in found if len({t.colour for t in s}) > 1]
    # 3 to 5 long, from every start that fits; 5 groups (the 4, and 3 ways to drop one) a number.
    per_colour = 11 + 10 + 9 if not rules.wraparound else 12 + 11 + 10
    assert len(runs) == len(COLOURS) * per_colour
    assert len(groups) == 13 * 5
    wrapped = parse_tiles("R12 R13 R1")
    assert (wrapped in found) is rules.wraparound


# --- Properties ---------------------------------------------------------------------------


@st.composite
def runs_with_jokers(draw: st.DrawFn) -> tuple[tuple[Tile, ...], Rules]:
    """A slice of a run of one colour, any tiles made jokers, shuffled."""
    rules = draw(st.sampled_from([PLAIN, WRAP]))
    colour = draw(st.sampled_from(COLOURS))
    length = draw(st.integers(3, 13))
    last_start = (14 if rules.wraparound else 13) - length + 1
    start = draw(st.integers(1, last_start))
    run = [Tile(colour, 1 if n == 14 else n) for n in range(start, start + length)]
    jokers = draw(st.sets(st.integers(0, length - 1)))
    row = [JOKER if i in jokers else t for i, t in enumerate(run)]
    return tuple(draw(st.permutations(row))), rules


def stand_in_counts(row: tuple[Tile, ...], rules: Rules) -> Counter[Tile]:
    meld = read_meld(row, rules)
    assert meld is not None
    return Counter(meld.stand_ins)


@given(runs_with_jokers())
def test_any_slice_of_a_run_with_jokers_is_valid(case: tuple[tuple[Tile, ...], Rules]) -> None:
    row, rules = case
    meld = read_meld(row, rules)
    assert meld is not None
    assert Counter(meld.ordered) == Counter(row)
    assert stand_in_counts(meld.ordered, rules) == Counter(meld.stand_ins)


def oracle(row: tuple[Tile, ...], rules: Rules) -> bool:
    """The rules read literally: some choice of tiles for the jokers makes a run or a group."""
    real = [t for t in row if not t.is_joker]
    if len(row) < 3:
        return False
    group = (
        len(row) <= 4
        and len({t.number for t in real}) <= 1
        and len({t.colour for t in real}) == len(real)
    )
    if group:
        return True
    if len({t.colour for t in real}) > 1 or len(row) > 13:
        return False
    top = 14 if rules.wraparound else 13
    for start in range(1, top - len(row) + 2):
        window = range(start, start + len(row))
        places = [14 if t.number == 1 and 14 in window else t.number for t in real]
        if len(set(places)) == len(places) and set(places) <= set(window):
            return True
    return False


@given(
    st.lists(
        st.sampled_from([*[t for t in ALL_COLOURED if t.colour is not Colour.BLUE], JOKER]),
        min_size=0,
        max_size=6,
    ),
    st.sampled_from([PLAIN, WRAP]),
)
def test_validity_matches_the_literal_rules(row: list[Tile], rules: Rules) -> None:
    assert is_valid_set(row, rules) is oracle(tuple(row), rules)


@st.composite
def near_sets(draw: st.DrawFn) -> tuple[Tile, ...]:
    """Rows close to a set, so that most are valid or nearly: one colour or one number."""
    if draw(st.booleans()):
        colour = draw(st.sampled_from(COLOURS))
        pool = [Tile(colour, n) for n in range(1, 14)]
    else:
        number = draw(st.integers(1, 13))
        pool = [Tile(c, number) for c in COLOURS]
    return tuple(draw(st.lists(st.sampled_from([*pool, JOKER]), min_size=3, max_size=7)))


@given(near_sets(), st.sampled_from([PLAIN, WRAP]))
def test_near_sets_match_the_literal_rules(row: tuple[Tile, ...], rules: Rules) -> None:
    meld = read_meld(row, rules)
    assert (meld is not None) is oracle(row, rules)
    if meld is not None:
        # Real tiles stand for themselves; the stand-ins form a joker-free valid set.
        assert all(s == t for s, t in zip(meld.stand_ins, row, strict=True) if not t.is_joker)
        assert is_valid_set(meld.stand_ins, rules)
        assert Counter(meld.ordered) == Counter(row)


@given(near_sets(), st.sampled_from([PLAIN, WRAP]))
def test_a_set_is_worth_the_most_its_jokers_can_stand_for(
    row: tuple[Tile, ...], rules: Rules
) -> None:
    """The initial meld counts this value: held to the exhaustive reference's shapes."""
    meld = read_meld(row, rules)
    best = set_value(row, rules.wraparound)
    assert (meld is None) is (best is None)
    if meld is not None:
        assert meld.face_value == best
        again = read_meld(meld.ordered, rules)
        assert again is not None and Counter(again.stand_ins) == Counter(meld.stand_ins)


@pytest.mark.parametrize(
    ("row", "wraparound", "expected"),
    [
        pytest.param("B3 B4 J", False, ["B5"], id="the-seeds-example-the-b5"),
        pytest.param("J R3 R4", False, ["R2"], id="low-end-the-r2"),
        pytest.param("R5 J R7", False, ["R6"], id="middle-the-r6"),
        pytest.param("J J O5 O6", False, ["O3 O4"], id="two-jokers-one-reading"),
        pytest.param("R12 R13 J", True, ["R1"], id="wraparound-the-1-after-the-13"),
        pytest.param("R11 R12 R13 J", False, ["R10"], id="no-r14-any-reading"),
        pytest.param("J R1 R2", False, ["R3"], id="no-r0-any-reading"),
        pytest.param("B4 B3 J", False, ["B2", "B5"], id="out-of-order-any-reading"),
        pytest.param("K7 R7 J", False, ["O7", "B7"], id="group-any-colour-it-lacks"),
        pytest.param("R5 J J", False, None, id="one-tile-a-run-or-a-group"),
    ],
)
def test_a_table_joker_is_read_where_it_lies(
    row: str, wraparound: bool, expected: list[str] | None
) -> None:
    """A run's joker is the tile of its place; where the place cannot say (out of order,
    off the end), a group, or one tile with jokers: any reading (rules.md, 'Jokers')."""
    tiles, rules = parse_tiles(row), Rules(wraparound=wraparound)
    readings = [format_tiles(r) for r in table_readings(tiles, (None,) * tiles.count(JOKER), rules)]
    if expected is None:
        assert place_reading(tiles, rules) is None and len(readings) > 2
    else:
        assert sorted(readings) == sorted(expected)


def test_a_declared_joker_keeps_its_tile() -> None:
    """`J=O7` names a group's colour; a declaration its place contradicts, which only a
    program can make (the board reader refuses it), still keeps its tile."""
    rules = Rules()
    assert table_readings(parse_tiles("K7 R7 J"), parse_tiles("O7"), rules) == (parse_tiles("O7"),)
    assert table_readings(parse_tiles("B3 B4 J"), parse_tiles("B2"), rules) == (parse_tiles("B2"),)


def _every_shapes_readings(row: tuple[Tile, ...], rules: Rules) -> list[tuple[Tile, ...]]:
    """The readings of a set's jokers found the slow way, as a reference: each joker-free
    set of the row's length that holds its real tiles, less those tiles, in one order."""
    if read_meld(row, rules) is None:
        return []
    real = [t for t in row if not t.is_joker]
    found = {
        tuple(sorted(set(shape) - set(real), key=Tile.sort_key))
        for shape in candidate_shapes(len(row), rules)
        if set(real) <= set(shape) and len(set(real)) == len(real)
    }
    readings = [r for r in found if len(r) == len(row) - len(real)]
    return sorted(readings, key=lambda roles: [t.sort_key() for t in roles])


ROWS = st.tuples(
    st.lists(st.sampled_from(ALL_COLOURED), max_size=13), st.integers(0, 3), st.booleans()
)


@given(ROWS)
def test_set_readings_are_every_shapes_readings(drawn: tuple[list[Tile], int, bool]) -> None:
    real, jokers, wraparound = drawn
    rules = Rules(wraparound=wraparound)
    row = (*real, *(JOKER,) * jokers)
    assert list(set_readings(row, rules)) == _every_shapes_readings(row, rules)


@given(st.sampled_from(ALL_COLOURED), st.integers(2, 13), st.integers(1, 3), st.booleans())
def test_set_readings_of_runs_and_groups(
    first: Tile, length: int, jokers: int, wraparound: bool
) -> None:
    """Rows that are sets (the random rows above rarely are): a run or a group with some
    of its tiles replaced by jokers."""
    rules = Rules(wraparound=wraparound)
    run = [Tile(first.colour, 1 + (first.number + i - 1) % 13) for i in range(length)]
    group = [t for t in ALL_COLOURED if t.number == first.number][: min(length, 4)]
    for row in (run, group):
        kept = row[: max(0, len(row) - jokers)]
        tiles = (*kept, *(JOKER,) * min(jokers, len(row)))
        assert list(set_readings(tiles, rules)) == _every_shapes_readings(tiles, rules)
