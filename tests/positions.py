"""Hypothesis strategies for small, crowded positions: few numbers and colours, so that
the tiles interact (runs to extend, groups to complete, jokers to move)."""

from __future__ import annotations

from collections import Counter

from hypothesis import strategies as st

from rummisolve.board import Board
from rummisolve.rules import JokerRetrieval, Rules
from rummisolve.tiles import COLOURS, JOKER, Tile


@st.composite
def positions(
    draw: st.DrawFn,
    max_sets: int = 3,
    max_rack: int = 6,
    retrieval: JokerRetrieval | None = None,
    freeing: bool = False,
) -> Board:
    """A position; `retrieval` fixes the joker-retrieval rule, else it is drawn too.

    `freeing`: the table is in play, and the rack often holds tiles that the table's jokers
    stand for (besides its `max_rack` drawn tiles), so that jokers are freed.
    """
    rules = Rules(
        wraparound=draw(st.booleans()),
        tile_set=draw(st.sampled_from([106, 160])),
        initial_meld=draw(st.sampled_from([10, 20, 30, 50])),
        joker_penalty=draw(st.sampled_from([20, 30, 50])),
        joker_retrieval=retrieval or draw(st.sampled_from(JokerRetrieval)),
    )
    box = Counter(rules.box.tiles())
    colours = draw(st.lists(st.sampled_from(COLOURS), min_size=1, max_size=3, unique=True))
    low = draw(st.integers(1, 9))
    numbers = [1 + (n - 1) % 13 for n in range(low, low + 6)]

    def take(tiles: list[Tile]) -> bool:
        need = Counter(tiles)
        if any(box[t] < n for t, n in need.items()):
            return False
        box.subtract(need)
        return True

    replaced: list[Tile] = []

    def jokered(tiles: list[Tile]) -> list[Tile]:
        places = draw(st.sets(st.integers(0, len(tiles) - 1), min_size=freeing, max_size=2))
        row = [
            JOKER if i in places and (freeing or draw(st.booleans())) else t
            for i, t in enumerate(tiles)
        ]
        replaced.extend(t for t, r in zip(tiles, row, strict=True) if r != t)
        return row

    table = []
    for _ in range(draw(st.integers(0, max_sets))):
        if draw(st.booleans()):
            colour = draw(st.sampled_from(colours))
            length = draw(st.integers(3, 6))
            last = 14 if rules.wraparound else 13
            start = draw(st.integers(max(1, min(low, last - length + 1)), last - length + 1))
            tiles = [Tile(colour, 1 if n == 14 else n) for n in range(start, start + length)]
        else:
            number = draw(st.sampled_from(numbers))
            size = draw(st.integers(3, 4))
            colours_of_group = draw(st.permutations(COLOURS))[:size]
            tiles = [Tile(c, number) for c in colours_of_group]
        tiles = jokered(tiles)
        if take(tiles):
            table.append(tuple(tiles))
    pool = [Tile(c, n) for c in colours for n in numbers] + [JOKER]
    rack = []
    hints = [t for t in replaced if draw(st.booleans())] if freeing else []
    for t in hints + draw(st.lists(st.sampled_from(pool), min_size=1, max_size=max_rack)):
        if take([t]):
            rack.append(t)
    return Board(
        table=tuple(table),
        rack=tuple(rack),
        opened=freeing or draw(st.sampled_from([True, True, True, False])),
        rules=rules,
    )
