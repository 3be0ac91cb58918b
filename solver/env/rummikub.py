"""The Rummikub AEC environment: 2-6 players under any rule profile, an adapter over the
game's own state (`GameState`, as PettingZoo's classic games are over their engines): the
game of `play_game` a turn at a time, the exact engine its referee.

A turn may rearrange the whole table, so an action is no move of tiles but a choice
among a few moves the solver proposes for the player to act (`Proposal`); the mask says
which of them lay anything. Rewards are the game's scores, given when it ends.
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..board import Board, format_sets
from ..engine.solve import find_move
from ..game import RACK_SIZE, GameOptions, GameState, tile_set_for
from ..holding import held_back, without_jokers
from ..move import Move, Objective, SetChange, TileRow, no_move
from ..rules import Rules, profile_rules
from ..scoring import MAX_PLAYERS, MIN_PLAYERS
from ..search import smallest_opening
from ..tiles import JOKER, Colour, Tile, format_tiles
from ..view import PlayerView, Strategy


class Proposal(enum.IntEnum):
    """What each of an agent's actions (its number) proposes: the moves a player chooses
    among."""

    DRAW = 0
    """Lay nothing: draw a tile (pass when the pool is empty). Always allowed."""
    MOST_TILES = 1
    """The move that lays the most tiles (greedy's)."""
    MOST_POINTS = 2
    """The move that lays the most points."""
    KEEP_JOKERS = 3
    """The most tiles, keeping every joker on the rack."""
    INITIAL_MELD_ONLY = 4
    """Before opening: the initial meld of the fewest tiles, the rest kept back."""
    KEEP_ONE_JOKER = 5
    """The most tiles, keeping one joker on the rack (where the most-tiles move lays two)."""
    HOLD_SET_1 = 6
    """The most tiles, holding back the first set the most-tiles move lays from the rack
    alone (its tiles stay on the rack)."""
    HOLD_SET_2 = 7
    """As HOLD_SET_1, for the second such set."""
    HOLD_SET_3 = 8
    """As HOLD_SET_1, for the third such set."""


ACTIONS = len(Proposal)
# The sets laid from the rack alone that HOLD_SET_1... can hold back, at most.
HELD_SETS = 3

# Tile kinds: the 52 coloured tiles (colour by colour, 1 to 13), then the joker.
COLOURS = tuple(Colour)
KINDS = len(COLOURS) * 13 + 1


def kind(tile: Tile) -> int:
    if tile.colour is None:
        return KINDS - 1
    return COLOURS.index(tile.colour) * 13 + tile.number - 1


# The parts of an observation, in order, and their sizes.
PARTS = {
    "rack": KINDS,  # this player's tiles, a count per kind
    "table": KINDS,  # the table's tiles, a count per kind
    "rack_sizes": MAX_PLAYERS - 1,  # the opponents' rack sizes, in the order they play
    "pool": 1,  # tiles left to draw
    "opened": MAX_PLAYERS,  # 1 for each player who has opened: this one, then the opponents
}


def _slices() -> dict[str, slice]:
    at, found = 0, {}
    for name, size in PARTS.items():
        found[name] = slice(at, at + size)
        at += size
    return found


OBSERVATION = _slices()
"""Where each part lies in the observation vector: `observation[OBSERVATION["rack"]]`."""

SIZE = sum(PARTS.values())
MAX_COUNT = 160  # the largest box: no count is larger


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual guards: an action the mask forbids ends
    the game (reward -1 for its player), and the API's calls in their order."""
    table: AECEnv = raw_env(**kwargs)
    table = wrappers.TerminateIllegalWrapper(table, illegal_reward=-1)
    table = wrappers.AssertOutOfBoundsWrapper(table)
    return wrappers.OrderEnforcingWrapper(table)


class raw_env(AECEnv):
    """Rummikub for `players` agents, `player_0`... in seat order, under a rule profile's
    name or a `Rules`; a profile played by 5-6 takes the 160-tile box. `rack_size` is the
    deal (14 by the rules; fewer make short games for tests)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human"],
        "name": "rummikub_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        rules: str | Rules = "official",
        rack_size: int = RACK_SIZE,
        backend: str | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players: {MIN_PLAYERS} to {MAX_PLAYERS}, not {players}")
        if isinstance(rules, str):
            rules = profile_rules(rules).replace(tile_set=tile_set_for(players))
        self.options = GameOptions(rules=rules, backend=backend, rack_size=rack_size)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{n}" for n in range(players)]
        observation = spaces.Dict(
            {
                "observation": spaces.Box(0, MAX_COUNT, shape=(SIZE,), dtype=np.int16),
                "action_mask": spaces.Box(0, 1, shape=(ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = {a: spaces.Discrete(ACTIONS) for a in self.possible_agents}
        self._seeds = random.Random()
        self.seed: int | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # The game ----------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal: from `seed` the same deal as `play_game(..., seed)`; without one,
        the next of the seeds the last given one started."""
        if seed is not None:
            self._seeds = random.Random(seed)
            self.seed = seed
        else:
            self.seed = self._seeds.getrandbits(31)
        names = self.possible_agents
        rules, rack_size = self.options.rules, self.options.rack_size
        self.game = GameState.deal(names, rules, self.seed, rack_size)
        self._proposed: list[Move] | None = None
        self.agents = list(names)
        self.rewards = dict.fromkeys(names, 0.0)
        self._cumulative_rewards = dict.fromkeys(names, 0.0)
        self.terminations = dict.fromkeys(names, False)
        self.truncations = dict.fromkeys(names, False)
        self.infos: dict[str, dict[str, Any]] = {name: {} for name in names}
        self.agent_selection = self.game.player.name

    def view(self) -> PlayerView:
        """What the player to act sees (as a strategy of ours would)."""
        return self.game.view()

    def _find(self, board: Board, objective: Objective) -> Move:
        return find_move(board, objective, self.options.backend, self.options.time_limit)

    def candidates(self) -> list[Move]:
        """The move each action makes for the player to act (DRAW's lays nothing)."""
        if self._proposed is None:
            view = self.view()
            board = view.board
            best = self._find(board, Objective.TILES)
            proposed = [no_move(board), best, self._find(board, Objective.VALUE)]
            holds = best.is_move and JOKER in best.played and bool(best.rack)
            proposed.append(without_jokers(view, self._find, best) if holds else no_move(board))
            opening = not board.opened and best.is_move and bool(best.rack)
            smaller = smallest_opening(view, self._find, best) if opening else best
            proposed.append(smaller if len(smaller.played) < len(best.played) else no_move(board))
            two_jokers = best.played.count(JOKER) == 2
            proposed.append(self._holding(board, (JOKER,)) if two_jokers else no_move(board))
            from_rack = [s.tiles for s in best.steps if s.change is SetChange.NEW]
            for number in range(HELD_SETS):
                held = number < len(from_rack) and len(from_rack[number]) < len(board.rack)
                proposed.append(self._holding(board, from_rack[number]) if held else no_move(board))
            self._proposed = proposed
        return self._proposed

    def _holding(self, board: Board, held: TileRow) -> Move:
        """The most tiles with `held` kept on the rack (no move when nothing else lays)."""
        move = held_back(board, self._find, held)
        return move if move.is_move else no_move(board)

    def action_mask(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        return np.array(
            [a == Proposal.DRAW or m.is_move for a, m in enumerate(self.candidates())],
            dtype=np.int8,
        )

    def strategy_action(self, strategy: Strategy) -> Proposal:
        """The action that makes the move a strategy of ours chooses for the player to act
        (DRAW when it lays nothing); ValueError when no action makes it."""
        move = strategy.choose(self.view(), self._find)
        if not move.is_move:
            return Proposal.DRAW
        for action, proposed in enumerate(self.candidates()):
            if _same(proposed, move):
                return Proposal(action)
        raise ValueError(f"{strategy.name}'s move is not among the actions' moves")

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation (`OBSERVATION`), with the mask of the actions it may take now
        (none when it is not its turn, or the game is over)."""
        game = self.game
        at = next(i for i, p in enumerate(game.seats) if p.name == agent)
        order = [*game.seats[at:], *game.seats[:at]]
        vector = np.zeros(SIZE, dtype=np.int16)
        for tile, count in Counter(order[0].rack).items():
            vector[OBSERVATION["rack"].start + kind(tile)] = count
        for tile, count in Counter(t for row in game.table for t in row).items():
            vector[OBSERVATION["table"].start + kind(tile)] = count
        for n, other in enumerate(order[1:]):
            vector[OBSERVATION["rack_sizes"].start + n] = len(other.rack)
        vector[OBSERVATION["pool"].start] = len(game.pool)
        for n, player in enumerate(order):
            vector[OBSERVATION["opened"].start + n] = player.opened
        acting = agent == self.agent_selection and not self.terminations[agent]
        mask = self.action_mask() if acting else np.zeros(ACTIONS, dtype=np.int8)
        return {"observation": vector, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        self.game.apply(self.candidates()[int(action)])
        self._proposed = None
        self._cumulative_rewards[agent] = 0
        if self.game.finished:
            self._end()
        else:
            self.agent_selection = self.game.player.name
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end(self) -> None:
        """The game is over: each player's score is its reward."""
        score = self.game.outcome(self.options.scoring).score
        self.score = score
        self.rewards = {name: float(score.scores[name]) for name in self.agents}
        self.terminations = dict.fromkeys(self.agents, True)

    def render(self) -> None:
        """The table and every rack, as text."""
        if self.render_mode is None:
            return
        game = self.game
        table = format_sets(game.table) or "(empty)"
        print(f"turn {game.turns}: table {table}; pool {len(game.pool)}")
        for player in game.seats:
            print(f"  {player.name}: {format_tiles(player.rack)}")

    def close(self) -> None:
        pass


def _same(one: Move, other: Move) -> bool:
    """The same tiles laid and the same table (sets in any order)."""
    return Counter(one.played) == Counter(other.played) and Counter(one.table) == Counter(
        other.table
    )
