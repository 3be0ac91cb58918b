"""Games: one game's state, whole games between strategies, matches, and game logs.

The state of a game (`GameState`, state.py) is the one place the game is written; `play`
and tournaments (`play_game`), `search`'s look-ahead and the PettingZoo environment all
drive it. The words a newcomer needs:

- **seat**: a player at the table, by name (`P1`...); `names` lists them as the table
  does, `seats` in turn order (the first to play first, as the deal's draw decided).
- **deal**: `GameState.deal(names, rules, seed)`: the shuffle, the first player and each
  rack, from the seed alone; the same seed deals the same game.
- **view**: what the player to act sees (`PlayerView`): its rack, the table, the others'
  rack sizes, the pool's size, the turns so far. A strategy decides from the view alone.
- **move**: a turn's action, a `Move`; one that lays nothing draws a tile (passes once the
  pool is empty). `apply` referees it (`IllegalMoveError`) and lays it.
- **finished**: someone went out, or every seat passed in a row (`Ending`); `outcome`
  then gives the end, what scoring reads, and the scores (scoring.py).
- **log**: `Turn`, one line of `play --log` (the state after a turn); `replay` reads a log
  back into the state before each turn.
"""

from ..strategies import SetupError, strategy_named
from ..view import Finder, PlayerView, Strategy, TurnKind
from .games import (
    STRATEGIES,
    GameOptions,
    GameRecord,
    MatchRecord,
    Seat,
    StrategyStats,
    make_seats,
    play_game,
    play_match,
    strategy_stats,
    tile_set_for,
)
from .log import LogError, Turn, replay
from .state import (
    RACK_SIZE,
    Ending,
    GameState,
    IllegalMoveError,
    Outcome,
    SeatState,
    draw_for_start,
    view_of,
)

__all__ = [
    "RACK_SIZE",
    "STRATEGIES",
    "Ending",
    "Finder",
    "GameOptions",
    "GameRecord",
    "GameState",
    "IllegalMoveError",
    "LogError",
    "MatchRecord",
    "Outcome",
    "PlayerView",
    "Seat",
    "SeatState",
    "SetupError",
    "Strategy",
    "StrategyStats",
    "Turn",
    "TurnKind",
    "draw_for_start",
    "make_seats",
    "play_game",
    "play_match",
    "replay",
    "strategy_named",
    "strategy_stats",
    "tile_set_for",
    "view_of",
]
