"""The rows every model starts with: one per coloured tile (the copies of it on the
table after the move), then one for the jokers; and what they cost to look up."""

from __future__ import annotations

import numpy as np

from ..tiles import ALL_COLOURED, JOKER, Tile

TILE_INDEX: dict[Tile, int] = {t: i for i, t in enumerate(ALL_COLOURED)}
TILES = len(ALL_COLOURED)
# Row of the joker count; a padding index in the candidate table, never a real tile.
JOKER_ROW = NO_TILE = TILES
NUMBERS = np.array([t.number for t in ALL_COLOURED], dtype=np.float64)
# Each tile's row: a coloured tile's own, the joker's the joker count's.
ROW_OF = TILE_INDEX | {JOKER: JOKER_ROW}
