"""The MIP's optimum equals the exhaustive reference's on random small positions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummisolve.board import Board
from rummisolve.engine import branch
from rummisolve.engine.backends import DEFAULT_BACKEND
from rummisolve.engine.solve import find_move
from rummisolve.legality import check_move
from rummisolve.move import SetChange, Step
from rummisolve.rules import PROFILE_NAMES, PROFILES, JokerRetrieval

from .positions import positions
from .profiles import examples
from .reference import best_move

# Examples per backend, in fiftieths of the thorough profile's; the default run draws 100
# at most.
EXAMPLES = {
    backend: examples(count)
    for backend, count in {"highs": 400, "clp": 400, "pulp-highs": 120, "cbc": 100}.items()
}
# With locked-joker-sets on: tables of two sets at most, the first holding a joker (the
# reference partitions every tile, so each table tile more costs it dearly).
LOCKED_EXAMPLES = {
    backend: examples(count)
    for backend, count in {"highs": 250, "clp": 250, "pulp-highs": 80, "cbc": 80}.items()
}
SCALE = max(1, settings().max_examples // 100)


def kept_sets(steps: tuple[Step, ...]) -> int:
    return sum(1 for s in steps if s.change is SetChange.KEEP)


def assert_agrees(board: Board, objective: str = "tiles", backend: str = DEFAULT_BACKEND) -> None:
    """The solver's move is legal and as good as the reference's on all three criteria."""
    move = find_move(board, objective=objective, backend=backend)
    assert check_move(board, move) == []
    expected = best_move(board, objective)
    assert (move.tiles_played, move.value_played) == (expected.tiles, expected.value)
    assert kept_sets(move.steps) == expected.kept


def test_mip_agrees_with_reference(backend: str) -> None:
    @settings(max_examples=EXAMPLES[backend] * SCALE)
    @given(board=positions(), objective=st.sampled_from(["tiles", "value"]))
    def agrees(board: Board, objective: str) -> None:
        assert_agrees(board, objective, backend=backend)

    agrees()


@pytest.mark.parametrize("lp_engine", ["highs", "clp"])
def test_highs_mip_fallback_agrees_with_reference(
    monkeypatch: pytest.MonkeyPatch, lp_engine: str
) -> None:
    """Past the node limit HiGHS's own MIP takes over: hold that path to the reference too,
    after the LPs of either engine."""
    monkeypatch.setitem(branch.NODE_LIMIT, lp_engine, 1)

    @settings(max_examples=100 * SCALE)
    @given(board=positions())
    def agrees(board: Board) -> None:
        assert_agrees(board, backend=lp_engine)

    agrees()


def test_strict_retrieval_agrees_with_reference() -> None:
    """joker-retrieval=strict on positions made to free jokers, on the default backend:
    where a freed joker may go is the model's most intricate part."""

    @settings(max_examples=100 * SCALE)
    @given(
        board=positions(max_rack=5, retrieval=JokerRetrieval.STRICT, freeing=True),
        objective=st.sampled_from(["tiles", "value"]),
    )
    def agrees(board: Board, objective: str) -> None:
        assert_agrees(board, objective)

    agrees()


def test_jokers_that_say_what_they_stand_for_agree_with_reference() -> None:
    """A table's jokers declared to stand for one tile (`J=R5`) under every joker rule:
    only the tile declared frees one, and one that stays keeps standing for it."""

    @settings(max_examples=100 * SCALE)
    @given(
        board=positions(max_rack=5, freeing=True, declaring=True),
        objective=st.sampled_from(["tiles", "value"]),
    )
    def agrees(board: Board, objective: str) -> None:
        assert_agrees(board, objective)

    agrees()


def test_locked_joker_sets_agree_with_reference(backend: str) -> None:
    """locked-joker-sets under each joker-retrieval rule: the real tiles of a set with a
    joker stay together, in the set as it lies or in one set grown from it."""

    @settings(max_examples=LOCKED_EXAMPLES[backend] * SCALE)
    @given(
        board=positions(max_sets=2, max_rack=4, locked=True),
        objective=st.sampled_from(["tiles", "value"]),
    )
    def agrees(board: Board, objective: str) -> None:
        assert_agrees(board, objective, backend=backend)

    agrees()


def test_strict_and_locked_agree_with_reference() -> None:
    """joker-retrieval=strict with locked-joker-sets, on positions made to free jokers: a
    freed joker may end in the set that holds a locked set's tiles, whose tiles are then
    the table's, not the rack's."""

    @settings(max_examples=100 * SCALE)
    @given(
        board=positions(
            max_sets=2, max_rack=2, retrieval=JokerRetrieval.STRICT, freeing=True, locked=True
        ),
        objective=st.sampled_from(["tiles", "value"]),
    )
    def agrees(board: Board, objective: str) -> None:
        assert_agrees(board, objective)

    agrees()


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_every_profile_agrees_with_reference(profile: str) -> None:
    """Each profile as it sets the rules (the Norwegian ones lock sets with a joker), on
    the default backend."""
    locked = PROFILES[profile].rules.locked_joker_sets

    @settings(max_examples=100 * SCALE)
    @given(
        board=positions(max_sets=2 if locked else 3, max_rack=4 if locked else 6, profile=profile),
        objective=st.sampled_from(["tiles", "value"]),
    )
    def agrees(board: Board, objective: str) -> None:
        assert_agrees(board, objective)

    agrees()
