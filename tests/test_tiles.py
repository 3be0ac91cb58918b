"""Tiles as users write them, and the two boxes of tiles (rules.md "Tiles")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummisolve.errors import TileError
from rummisolve.tiles import (
    ALL_COLOURED,
    JOKER,
    TILE_SETS,
    Colour,
    Tile,
    format_tile,
    format_tiles,
    parse_tile,
    parse_tiles,
    sort_tiles,
    split_tiles,
    tile_value,
)


@pytest.mark.parametrize(
    ("text", "tile"),
    [
        pytest.param("R5", Tile(Colour.RED, 5), id="red"),
        pytest.param("K13", Tile(Colour.BLACK, 13), id="black-13"),
        pytest.param("O1", Tile(Colour.ORANGE, 1), id="orange-1"),
        pytest.param("B10", Tile(Colour.BLUE, 10), id="blue-10"),
        pytest.param("r5", Tile(Colour.RED, 5), id="lower-case"),
        pytest.param("Y7", Tile(Colour.ORANGE, 7), id="yellow-is-orange"),
        pytest.param("y7", Tile(Colour.ORANGE, 7), id="lower-yellow"),
        pytest.param("J", JOKER, id="joker"),
        pytest.param("j", JOKER, id="lower-joker"),
        pytest.param("*", JOKER, id="star-joker"),
        pytest.param("  B2 ", Tile(Colour.BLUE, 2), id="surrounding-space"),
    ],
)
def test_parse_tile(text: str, tile: Tile) -> None:
    assert parse_tile(text) == tile


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("X5", "unknown tile 'X5': colour must be K, R, O (or Y) or B", id="colour"),
        pytest.param("R14", "unknown tile 'R14': number must be 1 to 13", id="above-13"),
        pytest.param("R0", "unknown tile 'R0': number must be 1 to 13", id="zero"),
        pytest.param("R05", "unknown tile 'R05': write the number without a leading 0", id="0-pad"),
        pytest.param("R100", "unknown tile 'R100': number must be 1 to 13", id="three-digits"),
        pytest.param(
            "R", "unknown tile 'R': a tile is a colour and a number, as in R5, or J", id="no-number"
        ),
        pytest.param(
            "5R", "unknown tile '5R': a tile is a colour and a number, as in R5, or J", id="5R"
        ),
        pytest.param(
            "JJ", "unknown tile 'JJ': a tile is a colour and a number, as in R5, or J", id="JJ"
        ),
        pytest.param(
            "R-5", "unknown tile 'R-5': a tile is a colour and a number, as in R5, or J", id="minus"
        ),
        pytest.param(
            "R\u0665",
            "unknown tile 'R\u0665': a tile is a colour and a number, as in R5, or J",
            id="arabic-digit",
        ),
        pytest.param(
            "R" + "9" * 5000,
            "unknown tile 'R9999999999999999...': number must be 1 to 13",
            id="huge-number",
        ),
    ],
)
def test_parse_tile_refuses(text: str, message: str) -> None:
    with pytest.raises(TileError) as caught:
        parse_tile(text)
    assert str(caught.value) == message


def test_spaces_and_commas_separate_tiles() -> None:
    assert split_tiles(" R1,R2 ,  R3\tJ,,* ") == ["R1", "R2", "R3", "J", "*"]
    assert format_tiles(parse_tiles("r1, y2 *")) == "R1 O2 J"


@given(st.sampled_from([*ALL_COLOURED, JOKER]))
def test_format_then_parse_is_identity(tile: Tile) -> None:
    assert parse_tile(format_tile(tile)) == tile
    assert parse_tile(format_tile(tile).lower()) == tile
    assert str(tile) == format_tile(tile)


def test_sort_puts_colours_in_order_and_jokers_last() -> None:
    shuffled = parse_tiles("J B1 O13 K2 R1 K1")
    assert format_tiles(sort_tiles(shuffled)) == "K1 K2 R1 O13 B1 J"


@pytest.mark.parametrize(
    ("tile", "penalty", "value"),
    [
        pytest.param(Tile(Colour.RED, 7), 30, 7, id="face-value"),
        pytest.param(JOKER, 30, 30, id="joker-30"),
        pytest.param(JOKER, 20, 20, id="joker-20-seed-003"),
        pytest.param(JOKER, 50, 50, id="joker-50-seed-004"),
    ],
)
def test_tile_value(tile: Tile, penalty: int, value: int) -> None:
    assert tile_value(tile, penalty) == value


@pytest.mark.parametrize(
    ("name", "size", "copies", "jokers"),
    [pytest.param(106, 106, 2, 2, id="106"), pytest.param(160, 160, 3, 4, id="160")],
)
def test_tile_sets(name: int, size: int, copies: int, jokers: int) -> None:
    box = TILE_SETS[name]
    assert box.size == size == len(box.tiles())
    assert box.limit(Tile(Colour.BLUE, 13)) == copies
    assert box.limit(JOKER) == jokers
    assert box.excess(box.tiles()) == {}
    assert box.excess([*box.tiles(), JOKER, Tile(Colour.RED, 1)]) == {
        JOKER: jokers + 1,
        Tile(Colour.RED, 1): copies + 1,
    }
