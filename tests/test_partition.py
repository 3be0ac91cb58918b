"""`can_partition`, the proof that a rack cannot go out, against the exhaustive reference:
never "cannot" where the tiles cut into sets, and exact at the fewest jokers it allows."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummisolve.board import Board
from rummisolve.partition import can_partition, cannot_go_out
from rummisolve.rules import Rules
from rummisolve.tiles import COLOURS, JOKER, TILE_SETS, Tile, parse_tiles

from . import reference

MOST_JOKERS = max(box.jokers for box in TILE_SETS.values())


@st.composite
def crowded(draw: st.DrawFn) -> tuple[Tile, ...]:
    """Up to 8 tiles of a few colours and a few numbers in a row (which may pass the 13 to
    the 1), each at most as often as a box holds it: runs, groups and copies that compete."""
    colours = draw(st.lists(st.sampled_from(COLOURS), min_size=1, max_size=4, unique=True))
    low = draw(st.integers(1, 13))
    numbers = [1 + (n - 1) % 13 for n in range(low, low + draw(st.integers(3, 6)))]
    drawn = draw(
        st.lists(st.builds(Tile, st.sampled_from(colours), st.sampled_from(numbers)), max_size=8)
    )
    copies = draw(st.sampled_from(sorted({box.copies for box in TILE_SETS.values()})))
    return tuple(t for t, n in Counter(drawn).items() for _ in range(min(n, copies)))


@given(crowded(), st.booleans())
def test_never_cannot_where_the_reference_cuts_and_exact_at_the_fewest_jokers(
    real: tuple[Tile, ...], wraparound: bool
) -> None:
    with_jokers = [real + (JOKER,) * k for k in range(MOST_JOKERS + 1)]
    answers = [can_partition(tiles, wraparound) for tiles in with_jokers]
    truth = [reference.partitionable(tiles, wraparound) for tiles in with_jokers]
    assert all(answer for answer, cuts in zip(answers, truth, strict=True) if cuts)
    assert answers == sorted(answers)  # a joker more never makes it say "cannot"
    if True in answers:  # the fewest jokers it allows do cut the tiles into sets
        assert truth[answers.index(True)]


@pytest.mark.parametrize(
    ("tiles", "wraparound", "cuts"),
    [
        pytest.param("R1 R2 R3 R3 R4 R5", False, True, id="two-runs"),
        pytest.param("R12 R13 R1", True, True, id="12-13-1"),
        pytest.param("R12 R13 R1", False, False, id="12-13-1-without-wraparound"),
        pytest.param("R13 R1 R2", True, False, id="never-13-1-2"),
        pytest.param("R12 R13 R1 R1 R2 R3", True, True, id="a-1-at-each-end"),
        pytest.param("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", True, True, id="14-in-two"),
        pytest.param("K7 R7 O7 B7 K7 R7 O7", False, True, id="a-group-of-four-and-three"),
        pytest.param("K7 R7 O7 B7 K7 R7", False, True, id="two-groups-of-three"),
        pytest.param("K7 R7 O7 B7 K7", False, False, id="a-fifth-seven"),
        pytest.param("K7 R7 J K8 K9 K10", False, True, id="a-joker-completes-a-group"),
        pytest.param("K7 J K9 R3 R4", False, False, id="one-joker-for-two-sets"),
        pytest.param("K7 J K9 R3 R4 J", False, True, id="a-joker-each"),
        pytest.param("K5 J J K9 J", False, True, id="jokers-inside-and-beside"),
        pytest.param("K5 K5 K5 K6 K6 K6 K7 K7 K7", False, True, id="three-copies"),
    ],
)
def test_examples(tiles: str, wraparound: bool, cuts: bool) -> None:
    bag = parse_tiles(tiles)
    assert can_partition(bag, wraparound) is cuts is reference.partitionable(bag, wraparound)


def test_a_joker_left_over_beside_full_sets_is_not_proved_either_way() -> None:
    """The one place it is not exact: a group of four takes no joker more, so the reference
    cannot cut these, but the check counts only the jokers the other tiles need."""
    bag = parse_tiles("K5 R5 O5 B5 J")
    assert can_partition(bag, False) and not reference.partitionable(bag, False)


@pytest.mark.parametrize(
    ("table", "rack", "opened", "rules", "proved"),
    [
        pytest.param("R4 R5 R6", "R7 R8", True, Rules(), False, id="onto-the-table"),
        pytest.param("R4 R5 R6", "R7 R8", False, Rules(), True, id="an-initial-meld-is-the-racks"),
        pytest.param("R4 R5 R6", "R7 J", True, Rules(), False, id="a-joker-in-the-rack"),
        pytest.param("R4 R5 R6", "R8 K1", True, Rules(), True, id="a-lone-tile"),
        pytest.param("R12 R13 R1", "K1 B1 O1", True, Rules(), False, id="a-table-set-not-read"),
        pytest.param("R12 R13 R1", "K5", True, Rules(wraparound=True), True, id="read-wrapped"),
    ],
)
def test_cannot_go_out(table: str, rack: str, opened: bool, rules: Rules, proved: bool) -> None:
    board = Board((parse_tiles(table),), parse_tiles(rack), opened, rules)
    assert cannot_go_out(board) is proved
