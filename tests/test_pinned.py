"""The pinned relaxation (joker_model.JokerPart.PINNED, engine/pinned.py): find_move keeps
its answer, as the best move, wherever the checker passes it, so its optimum must never
fall below the whole strict model's; and on the strict examples it answers alone."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from rummisolve.board import Board, parse_board
from rummisolve.engine.backends import get_backend
from rummisolve.engine.candidates import catalogue_for
from rummisolve.engine.joker_model import JokerPart
from rummisolve.engine.model import Arrangement, read_solution
from rummisolve.engine.pinned import Parts, _index, _is_group, _layings, _Need, pin_jokers
from rummisolve.engine.solve import find_move
from rummisolve.engine.stages import solve_model
from rummisolve.engine.tile_rows import TILE_INDEX
from rummisolve.generate import generate_boards
from rummisolve.legality import check_move
from rummisolve.move import Objective, Status
from rummisolve.rules import Rules
from rummisolve.tiles import ALL_COLOURED, COLOURS, JOKER, parse_tiles, tile_value

Score = tuple[int, int, int]


def _optimum(board: Board, part: JokerPart) -> Score:
    """The optimum of the strict model, whole or pinned: tiles, points, sets kept."""
    solution, layout = solve_model(board, Objective.TILES, get_backend("clp"), None, part)
    assert solution.proved
    if solution.values is None:
        return (0, 0, 0)
    arrangement = read_solution(layout, solution.values)
    penalty = board.rules.joker_penalty
    value = sum(tile_value(t, penalty) * n for t, n in arrangement.played.items())
    tiles = sum(arrangement.played.values())
    return (tiles, value, len(arrangement.kept)) if tiles else (0, 0, 0)


RULES = {
    "strict": (Rules(), (2, 2)),
    "strict-160-tiles": (Rules(tile_set=160), (3, 4)),
    "strict-wraparound": (Rules(wraparound=True), (2, 2)),
    "strict-locked": (Rules(locked_joker_sets=True), (2, 2)),
}


@pytest.mark.parametrize("name", RULES)
def test_the_pinned_optimum_bounds_the_whole_models(name: str) -> None:
    rules, jokers = RULES[name]
    boards = generate_boards(
        40, 21, table_tiles=(12, 30), rack_tiles=(6, 14), jokers=jokers, rules=rules
    )
    for board in boards:
        if board.opened and any(JOKER in s for s in board.table):
            assert _optimum(board, JokerPart.PINNED) >= _optimum(board, JokerPart.WHOLE), board


def test_a_groups_joker_is_pinned_in_a_group_with_its_set() -> None:
    """K9 can lie in the run K6 K7 K8 K9 or in the group; the joker standing for K9 stays
    with R9 O9, so the pinned answer the checker passes keeps it in a group of nines."""
    board = parse_board("table:\nJ R9 O9\nK6 K7 K8\nrack: B9 K5\n")
    solution, layout = solve_model(board, Objective.TILES, get_backend(), None, JokerPart.PINNED)
    relaxed = read_solution(layout, solution.values) if solution.values is not None else None
    assert relaxed is not None
    pinned = pin_jokers(board, layout, solution, relaxed)
    assert pinned is not None
    move = find_move(board)
    assert (move.status, move.tiles_played, check_move(board, move)) == (Status.OPTIMAL, 2, [])


def test_an_answer_without_a_staying_jokers_tile_is_refused_not_a_crash() -> None:
    """The joker of J R9 O9 B9 stays for K9 as R9 goes to R9 R10 R11 (no rack K9 frees
    it), laid in K9 O9 B9. An answer whose new sets hold no K9 (never the model's: its
    tile rows give K9 a place) has no set to put the joker back in: refused, not a crash."""
    board = parse_board("table:\nJ R9 O9 B9\nK6 K7 K8\nrack: R10 R11\n")
    solution, layout = solve_model(board, Objective.TILES, get_backend(), None, JokerPart.PINNED)
    assert solution.values is not None
    relaxed = read_solution(layout, solution.values)
    assert pin_jokers(board, layout, solution, relaxed) is not None
    k9, o9, b9 = parse_tiles("K9 O9 B9")
    assert (k9, o9, b9) in relaxed.pieces
    without = [piece for piece in relaxed.pieces if k9 not in piece] + [(o9, b9)]
    relaxed = Arrangement(without, relaxed.played, Counter(), relaxed.kept)
    assert pin_jokers(board, layout, solution, relaxed) is None


def test_a_set_of_one_tile_and_jokers_may_hold_a_pinned_joker() -> None:
    """J R8 J has one real tile: a group or a run. (Found by the thorough reference run:
    telling the kind of such a set read a second real tile that is not there.)"""
    board = parse_board(
        "rules: locked-joker-sets tile-set=160\ntable:\nK8 J K10 J\nJ R8 J\nrack: B8 K8\n"
    )
    move = find_move(board)
    assert check_move(board, move) == []


@pytest.mark.parametrize("wraparound", [False, True], ids=["plain", "wraparound"])
def test_a_needs_parts_as_arrays_are_the_catalogues_sets_that_meet_it(wraparound: bool) -> None:
    """`met_by_parts` (homes' shapes, as arrays) and `met_by` (the catalogue's index) say
    the same of the catalogue's sets, every place open, for needs of every kind; with
    wraparound too, where a run's needs count the high 1's place as 14."""
    catalogue = catalogue_for(Rules(wraparound=wraparound)).sets
    index = _index(catalogue)
    holds = np.zeros((len(catalogue), len(ALL_COLOURED)), dtype=np.bool_)
    for n, tiles in enumerate(catalogue):
        holds[n, [TILE_INDEX[t] for t in tiles]] = True
    group = np.array([_is_group(tiles) for tiles in catalogue])
    colour = [
        -1 if g else COLOURS.index(s[0].colour) for s, g in zip(catalogue, group, strict=True)
    ]
    first = [s[0].number for s in catalogue]
    last = [f if g else f + len(s) - 1 for s, f, g in zip(catalogue, first, group, strict=True)]
    spans = np.zeros(len(catalogue), dtype=np.bool_)
    parts = Parts(
        holds, holds, group, np.array(colour), np.array(first), np.array(last), spans, spans
    )
    r1, r5, r9, r13, b5, k5 = parse_tiles("R1 R5 R9 R13 B5 K5")
    needs = [
        _Need("kind", r5, True),
        _Need("kind", r5, False),
        _Need("group", r5, own=frozenset({b5, k5})),
        _Need("run", r5, nearest=2, place=5),
        _Need("run", r5, nearest=8, place=5),
        _Need("run", r9, nearest=13, place=9),
        _Need("run", r1, nearest=3, place=1),
    ]
    if wraparound:  # R12 R13 J: the joker is the high 1; J J R1: the second is R13
        needs += [_Need("run", r1, nearest=13, place=14), _Need("run", r13, nearest=14, place=13)]
        # J R2 R3: a 1 may lie first or past the 13 (R3 ... R13 J), beside a tile of its set
        high = _Need("run", r1, nearest=3, place=14)
        needs.append(_Need("run", r1, nearest=2, place=1, other_end=high))
    for need in needs:
        assert np.flatnonzero(need.met_by_parts(parts)).tolist() == sorted(need.met_by(index))
        # A cut's sides: the joker's among spans, the other among extensions on its side.
        for end, b in need.cuts():
            joker, going_on = end.cut_by(index, b)
            past = np.full(len(catalogue), end.place <= b)
            extensions = parts._replace(extension=~spans, past_end=past)
            assert np.flatnonzero(end.cut_by_parts(parts, b)[0][0]).tolist() == sorted(joker)
            on = end.cut_by_parts(extensions, b)[0][1]
            assert np.flatnonzero(on).tolist() == sorted(going_on)
    # Where its tile's place is held for another joker or a rack tile, a set holding it
    # meets a kind need no more.
    closed = parts._replace(opens=holds & (np.arange(len(ALL_COLOURED)) != TILE_INDEX[r5]))
    assert not needs[0].met_by_parts(closed).any()


def test_a_stand_in_may_change_places_with_a_tile_it_may_stand_for() -> None:
    """A pinned optimum may lay a freed joker in K13 J B13 (one rack tile there), which
    the checker refuses; the same move with the joker changing places with
    the O13 of O11 O12 O13 O1 (its rack tiles O11 and O1) is among the layings tried."""
    k13, r13, b13, o11, o12, o13, o1 = parse_tiles("K13 R13 B13 O11 O12 O13 O1")
    relaxed = Arrangement([(k13, r13, b13), (o11, o12, o13, o1)], Counter(), Counter({r13: 1}), [])
    board = parse_board("rules: wraparound\ntable:\nO11 O12 O13\nrack: K13 O1\n")
    layings = [[tuple(row) for row in laid] for laid in _layings(board, relaxed)]
    assert layings[0] == [(o11, o12, o13, o1), (k13, JOKER, b13)]
    assert [(o11, o12, JOKER, o1), (k13, o13, b13)] in layings
