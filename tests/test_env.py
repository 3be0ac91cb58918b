"""The PettingZoo environment: PettingZoo's own conformance tests on 2, 4 and 6 players,
the observation's parts, the mask, and the same game as the engine's for a strategy of
ours. Skipped where the `rl` extra is not installed."""

from __future__ import annotations

import contextlib
import io
import warnings
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pytest

from rummisolve.game import GameOptions, Seat, play_game
from rummisolve.strategies import Greedy, Hoarder

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test

from rummisolve.env import OBSERVATION, Proposal, env, raw_env
from rummisolve.legality import check_move
from rummisolve.move import SetChange
from rummisolve.tiles import JOKER


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """PettingZoo warns that a classic environment's observation is a dict, not an array."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("players", [2, 4, 6], ids=lambda n: f"{n} players")
def test_pettingzoos_api_and_seed_tests_pass(players: int) -> None:
    with quiet(), contextlib.redirect_stdout(io.StringIO()):
        api_test(env(players=players), num_cycles=4)
        seed_test(lambda: env(players=players, rack_size=8), num_cycles=4)


@pytest.mark.parametrize("rules", ["casual", "hebrew"])
def test_other_rule_profiles_pass_the_api_test(rules: str) -> None:
    with quiet(), contextlib.redirect_stdout(io.StringIO()):
        api_test(env(players=3, rules=rules, rack_size=8), num_cycles=3)


def test_the_observation_shows_the_players_own_tiles_and_the_others_sizes() -> None:
    table = raw_env(players=4)
    table.reset(seed=3)
    agent = table.agent_selection
    seen = table.observe(agent)
    vector, mask = seen["observation"], seen["action_mask"]
    assert vector[OBSERVATION["rack"]].sum() == 14 and vector[OBSERVATION["table"]].sum() == 0
    assert list(vector[OBSERVATION["rack_sizes"]]) == [14, 14, 14, 0, 0]
    assert list(vector[OBSERVATION["pool"]]) == [106 - 4 * 14]
    assert vector[OBSERVATION["opened"]].sum() == 0
    assert mask[Proposal.DRAW] == 1 and mask.dtype == np.int8
    # Nobody else may act now.
    others = [a for a in table.agents if a != agent]
    assert all(table.observe(a)["action_mask"].sum() == 0 for a in others)


def test_five_and_six_players_take_the_160_tile_box() -> None:
    table = raw_env(players=6)
    table.reset(seed=1)
    seen = table.observe(table.agent_selection)["observation"]
    assert list(seen[OBSERVATION["pool"]]) == [160 - 6 * 14]


def test_a_masked_action_ends_the_game_with_a_penalty() -> None:
    table = env(players=2)
    table.reset(seed=5)
    agent = table.agent_selection
    mask = table.last()[0]["action_mask"]
    forbidden = next((a for a in Proposal if not mask[a]), None)
    if forbidden is None:
        pytest.skip("every action is allowed on this deal")
    with quiet():
        table.step(int(forbidden))
    assert table.rewards[agent] == -1 and all(table.terminations.values())


@pytest.mark.parametrize("strategy", [Greedy(), Hoarder()], ids=lambda s: s.name)
def test_a_strategy_through_the_environment_plays_the_engines_game(
    strategy: Greedy | Hoarder,
) -> None:
    table = env(players=2, rack_size=8)
    table.reset(seed=2)
    scores = {}
    for agent in table.agent_iter():
        _, reward, termination, truncation, _ = table.last()
        scores[agent] = reward
        done = termination or truncation
        table.step(None if done else table.unwrapped.strategy_action(strategy))
    seats = [Seat(f"player_{n}", strategy) for n in range(2)]
    options = GameOptions(rules=table.unwrapped.options.rules, rack_size=8)
    record = play_game(seats, options, seed=2)
    assert scores == {name: float(points) for name, points in record.score.scores.items()}


def test_render_shows_the_table_and_every_rack(capsys: pytest.CaptureFixture[str]) -> None:
    table = raw_env(players=2, rack_size=3, render_mode="human")
    table.reset(seed=4)
    table.render()
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "turn 0: table (empty); pool 100"
    assert [line.split(":")[0] for line in lines[1:]] == sorted(
        ["  player_0", "  player_1"], key=lambda name: name != f"  {table.agent_selection}"
    )


def test_a_bad_player_count_is_refused() -> None:
    with pytest.raises(ValueError, match=r"^players: 2 to 6, not 7$"):
        raw_env(players=7)


def test_the_hold_back_actions_keep_what_they_name_on_the_rack() -> None:
    """KEEP_ONE_JOKER keeps one joker more than the most-tiles move; HOLD_SET_N keeps the
    N-th set that move lays from the rack alone; every offered move is legal."""
    held_sets = 0
    for seed in range(3):
        table = raw_env(players=2)
        table.reset(seed=seed)
        for _agent in table.agent_iter():
            *_, termination, truncation, _info = table.last()
            if termination or truncation:
                table.step(None)
                continue
            board = table.view().board
            moves = table.candidates()
            best = moves[Proposal.MOST_TILES]
            mask = table.action_mask()
            for action in Proposal:
                if mask[action] and action is not Proposal.DRAW:
                    assert check_move(board, moves[action]) == []
            if mask[Proposal.KEEP_ONE_JOKER]:
                kept = moves[Proposal.KEEP_ONE_JOKER]
                assert kept.rack.count(JOKER) == best.rack.count(JOKER) + 1
            laid = [s.tiles for s in best.steps if s.change is SetChange.NEW]
            for number, action in enumerate(
                (Proposal.HOLD_SET_1, Proposal.HOLD_SET_2, Proposal.HOLD_SET_3)
            ):
                if mask[action]:
                    held_sets += 1
                    left = Counter(moves[action].rack)
                    assert not Counter(laid[number]) - left
            table.step(Proposal.MOST_TILES if mask[Proposal.MOST_TILES] else Proposal.DRAW)
    assert held_sets > 0
