"""The glance before an initial meld (`model.no_initial_meld`), which `find_move` takes
before building a model: it may miss a rack that cannot meld, never one that can."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings

from rummisolve.board import Board, parse_board
from rummisolve.engine import stages
from rummisolve.engine.model import no_initial_meld
from rummisolve.engine.solve import find_move
from rummisolve.game import GameOptions, make_seats, play_game, strategy_named, tile_set_for
from rummisolve.generate import generate_boards
from rummisolve.move import Status
from rummisolve.rules import Rules

from .positions import positions
from .profiles import examples
from .reference import best_move

SCALE = max(1, settings().max_examples // 100)


@pytest.mark.parametrize(
    ("rack", "glance"),
    [
        ("R1 R2 R3 B9 K9", True),  # a run worth 6, and two 9s that make nothing
        ("R1 R2 R3 B4 K4 O4 R11 B12", True),  # 6 and 12 in sets, 18 < 30
        ("R9 R10 R11", False),  # 30
        ("R9 J R11", False),  # the joker may stand for the 10
        ("R1 J", True),  # no set holds R1 and one joker: 0 + 13 for the joker
        ("R9 J J", False),  # R9 R10 R11, jokers counted at 13: 9 + 26
    ],
)
def test_what_the_glance_sees(rack: str, glance: bool) -> None:
    board = parse_board(f"opened: no\nrack: {rack}\n")
    assert no_initial_meld(board) is glance
    if glance:
        assert find_move(board).status is Status.NO_MOVE


def test_an_opened_player_is_never_glanced_at() -> None:
    assert not no_initial_meld(parse_board("rack: R1 R2 B9\n"))


@settings(max_examples=examples(400 * SCALE))
@given(board=positions(max_rack=9))
def test_the_glance_never_misses_a_meld(board: Board) -> None:
    unopened = dataclasses.replace(board, opened=False)
    if no_initial_meld(unopened):
        assert best_move(unopened).tiles == 0


def test_the_glance_agrees_with_the_solver_on_dealt_racks() -> None:
    """Where it says no meld, the model finds none; and it says so often, or games gain
    nothing from it."""
    boards = list(generate_boards(300, 102, opened=False, table_tiles=0))
    glanced = [b for b in boards if no_initial_meld(b)]
    assert len(glanced) > len(boards) // 4
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stages, "no_initial_meld", lambda board: False)
        for board in glanced:
            assert find_move(board).status is Status.NO_MOVE


@pytest.mark.parametrize("players", [2, 4])
def test_games_are_the_same_without_the_glance(
    monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    options = GameOptions(rules=Rules(tile_set=tile_set_for(players)))
    seats = make_seats([strategy_named("greedy")], players)

    def turns(seed: int) -> list[dict[str, Any]]:
        logged: list[dict[str, Any]] = []
        play_game(seats, options, seed, on_turn=lambda t: logged.append(t.as_json()))
        return logged

    with_glance = [turns(seed) for seed in range(1, 4)]
    monkeypatch.setattr(stages, "no_initial_meld", lambda board: False)
    assert [turns(seed) for seed in range(1, 4)] == with_glance
