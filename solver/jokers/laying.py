"""Laying a set with its jokers standing for given tiles: the order it lies in."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ..rules import Rules
from ..sets import read_meld
from ..tiles import JOKER, Tile, TileRow, format_tiles
from .readings import RULES_OF


def lay_jokers(row: TileRow, roles: Sequence[Tile], rules: Rules) -> TileRow:
    """The set in the order it lies with its jokers standing for `roles`: a run ascending,
    a group by colour, each joker at the place of the tile it stands for."""
    return lay_with_roles(row, tuple(roles), rules)[0]


def lay_with_roles(row: TileRow, roles: TileRow, rules: Rules) -> tuple[TileRow, TileRow]:
    """The set laid in order with its jokers standing for `roles` (`lay_jokers`), and
    their tiles in the order the jokers then lie."""
    return _laid(tuple(row), tuple(roles), rules.wraparound)


# Every answer under the rules as written is laid so, and a table's sets recur from solve
# to solve: each laid once.
@lru_cache(maxsize=4096)
def _laid(row: TileRow, roles: TileRow, wraparound: bool) -> tuple[TileRow, TileRow]:
    """`lay_with_roles`: the only rule a laying depends on is wraparound."""
    meld = read_meld(tuple(t for t in row if not t.is_joker) + roles, RULES_OF[wraparound])
    assert meld is not None, f"no set with those jokers: {format_tiles(row)}"
    left: dict[Tile, int] = {}  # a dict, not a Counter: laying is on every answer's path
    for t in roles:
        left[t] = left.get(t, 0) + 1
    laid, laid_roles = [], []
    for t in meld.ordered:
        if left.get(t, 0) > 0:
            left[t] -= 1
            laid.append(JOKER)
            laid_roles.append(t)
        else:
            laid.append(t)
    return tuple(laid), tuple(laid_roles)
