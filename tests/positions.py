"""Hypothesis strategies for small, crowded positions: few numbers and colours, so that
the tiles interact (runs to extend, groups to complete, jokers to move)."""

from __future__ import annotations

from collections import Counter

from hypothesis import strategies as st

from rummisolve.board import Board
from rummisolve.jokers import place_reading, set_readings
from rummisolve.rules import PROFILES, JokerRetrieval, Rules
from rummisolve.tiles import COLOURS, JOKER, Tile


@st.composite
def positions(
    draw: st.DrawFn,
    max_sets: int = 3,
    max_rack: int = 6,
    retrieval: JokerRetrieval | None = None,
    freeing: bool = False,
    locked: bool = False,
    profile: str | None = None,
    declaring: bool = False,
) -> Board:
    """A position; `retrieval` fixes the joker-retrieval rule, else it is drawn too.

    `freeing`: the table is in play, and the rack often holds tiles that the table's jokers
    stand for (besides its `max_rack` drawn tiles), so that jokers are freed.
    `locked`: locked-joker-sets is on, the table is in play, its first set holds a joker,
    and the rack often holds tiles that would take a tile out of it (a group of its number,
    or the run beyond it), so that the rule has something to refuse.
    `profile`: the rules are that profile's, as it sets them (locked as it says).
    `declaring`: the jokers of some table sets say what they stand for (`J=R5`), all or
    some of them, one of the set's readings.
    """
    rules = Rules(
        wraparound=draw(st.booleans()),
        tile_set=draw(st.sampled_from([106, 160])),
        initial_meld=draw(st.sampled_from([10, 20, 30, 50])),
        joker_penalty=draw(st.sampled_from([20, 30, 50])),
        joker_retrieval=retrieval or draw(st.sampled_from(JokerRetrieval)),
        locked_joker_sets=locked,
    )
    if profile is not None:
        rules = PROFILES[profile].rules
        locked = rules.locked_joker_sets
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
    lures: list[Tile] = []

    def lure(row: list[Tile]) -> None:
        """Two rack tiles that make a set with an end tile of the row (a group for a run's
        tile, a run for a group's); often two more that need a joker."""
        tile = draw(st.sampled_from([t for t in (row[0], row[-1]) if t != JOKER] or row))
        if tile == JOKER:
            return
        if len({t.number for t in row if t != JOKER}) > 1:
            others = [c for c in COLOURS if c != tile.colour]
            lures.extend(Tile(c, tile.number) for c in draw(st.permutations(others))[:2])
        else:
            step = draw(st.sampled_from([-1, 1]))
            beyond = [tile.number + step, tile.number + 2 * step]
            lures.extend(Tile(tile.colour, n) for n in beyond if 1 <= n <= 13)
        if draw(st.booleans()):
            number = draw(st.sampled_from(numbers))
            two = draw(st.permutations(COLOURS))[:2]
            lures.extend(Tile(c, number) for c in two)

    def jokered(tiles: list[Tile], first: bool) -> list[Tile]:
        forced = freeing or (locked and first)
        places = draw(st.sets(st.integers(0, len(tiles) - 1), min_size=forced, max_size=2))
        row = [
            JOKER if i in places and (forced or draw(st.booleans())) else t
            for i, t in enumerate(tiles)
        ]
        replaced.extend(t for t, r in zip(tiles, row, strict=True) if r != t)
        if locked and first and draw(st.booleans()):
            lure(row)
        return row

    table: list[tuple[Tile, ...]] = []
    for _ in range(draw(st.integers(0, max_sets))):
        if draw(st.booleans()):
            colour = draw(st.sampled_from(colours))
            length = draw(st.integers(4 if locked else 3, 6))
            last = 14 if rules.wraparound else 13
            start = draw(st.integers(max(1, min(low, last - length + 1)), last - length + 1))
            tiles = [Tile(colour, 1 if n == 14 else n) for n in range(start, start + length)]
        else:
            number = draw(st.sampled_from(numbers))
            size = draw(st.integers(3, 4))
            colours_of_group = draw(st.permutations(COLOURS))[:size]
            tiles = [Tile(c, number) for c in colours_of_group]
        tiles = jokered(tiles, first=not table)
        if take(tiles):
            table.append(tuple(tiles))
    pool = [Tile(c, n) for c in colours for n in numbers] + [JOKER]
    rack = []
    hints = [t for t in replaced if draw(st.booleans())] if freeing else []
    for t in hints + lures + draw(st.lists(st.sampled_from(pool), min_size=1, max_size=max_rack)):
        if take([t]):
            rack.append(t)
    return Board(
        table=tuple(table),
        rack=tuple(rack),
        opened=freeing or locked or draw(st.sampled_from([True, True, True, False])),
        rules=rules,
        declared=draw(declarations(tuple(table), rules)) if declaring else (),
    )


@st.composite
def declarations(
    draw: st.DrawFn, table: tuple[tuple[Tile, ...], ...], rules: Rules
) -> tuple[tuple[Tile | None, ...], ...]:
    """What the jokers of some sets say they stand for (`Board.declared`), all of them or
    some: a run's, where their places say, the tiles of their places (the reader refuses
    another); else one reading of the set, in any order."""
    declared: list[tuple[Tile | None, ...]] = []
    for row in table:
        readings = list(set_readings(row, rules))
        if JOKER not in row or len(row) == row.count(JOKER) or not draw(st.booleans()):
            declared.append((None,) * row.count(JOKER))
            continue
        placed = place_reading(row, rules)
        roles = placed or draw(st.permutations(draw(st.sampled_from(readings))))
        said = [t if draw(st.booleans()) else None for t in roles]
        declared.append(tuple(said) if any(said) else tuple(roles))
    return tuple(declared) if any(any(d) for d in declared) else ()
