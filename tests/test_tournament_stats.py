"""How sure a tournament report is: its intervals take a game as the unit, not a seat.

A strategy in several seats of one game (one `search` against three `greedy`) gives
several scores and several seat-against-seat comparisons a game, and they rise and fall
together: counting each as a trial of its own made an interval look surer than the games
allow."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping

import pytest

from rummisolve.game import Ending, GameRecord
from rummisolve.scoring import FinishedGame, GameScore
from rummisolve.stats import clustered_mean, clustered_wilson, mean_interval, wilson
from rummisolve.tournament import tournament_report


def game(number: int, strategies: Mapping[str, str], scores: Mapping[str, int]) -> GameRecord:
    winner = max(scores, key=lambda seat: scores[seat])
    return GameRecord(
        number=number,
        seed=number,
        starter="P1",
        turns=10,
        end=Ending.OUT,
        result=FinishedGame(()),
        score=GameScore(winner, dict(scores)),
        solver_calls=0,
        solver_seconds=0.0,
        seconds=0.0,
        strategies=dict(strategies),
    )


ONE_AGAINST_THREE = {"P1": "search", "P2": "greedy", "P3": "greedy", "P4": "greedy"}


def one_against_three(won: int, lost: int) -> list[GameRecord]:
    """`search` ahead of every `greedy` seat in `won` games, behind each in `lost`."""
    ahead = {"P1": 60, "P2": -10, "P3": -20, "P4": -30}
    behind = {"P1": -60, "P2": 80, "P3": -5, "P4": -15}
    results = [ahead] * won + [behind] * lost
    return [game(n, ONE_AGAINST_THREE, s) for n, s in enumerate(results, start=1)]


def test_a_pair_whose_seat_comparisons_move_together_is_as_sure_as_its_games() -> None:
    [pair] = tournament_report(one_against_three(won=14, lost=6)).pairs
    assert (pair.ahead, pair.behind) == (42, 18)
    assert pair.share == pytest.approx(0.7)
    assert pair.share_ci == pytest.approx(wilson(14, 20))


def test_one_seat_each_keeps_the_plain_wilson_interval() -> None:
    lineup = {"P1": "search", "P2": "greedy"}
    results = [{"P1": 20, "P2": -20}] * 7 + [{"P1": -20, "P2": 20}] * 5
    [pair] = tournament_report([game(n, lineup, s) for n, s in enumerate(results)]).pairs
    assert pair.share_ci == pytest.approx(wilson(7, 12))


def test_a_mean_score_over_seats_that_move_together_is_as_sure_as_its_games() -> None:
    lineup = {"P1": "search", "P2": "search", "P3": "greedy", "P4": "greedy"}
    results = [
        {"P1": 30, "P2": 30, "P3": -30, "P4": -30},
        {"P1": -10, "P2": -10, "P3": 10, "P4": 10},
        {"P1": 50, "P2": 50, "P3": -50, "P4": -50},
        {"P1": -40, "P2": -40, "P3": 40, "P4": 40},
        {"P1": 20, "P2": 20, "P3": -20, "P4": -20},
    ]
    report = tournament_report([game(n, lineup, s) for n, s in enumerate(results)])
    search = next(s for s in report.strategies if s.name == "search")
    mean, low, high = mean_interval([30, -10, 50, -40, 20])
    assert search.mean_score == pytest.approx(mean)
    assert search.mean_score_ci == pytest.approx((low, high))


def test_one_seat_a_game_keeps_the_plain_mean_interval() -> None:
    values = [3.0, -1.0, 4.0, 1.0, -5.0]
    assert clustered_mean([[v] for v in values]) == pytest.approx(mean_interval(values))


@pytest.mark.parametrize(
    ("groups", "interval"),
    [
        ([(1, 1)] * 7 + [(0, 1)] * 5, wilson(7, 12)),
        ([(3, 3)] * 14 + [(0, 3)] * 6, wilson(14, 20)),
        ([(3, 3)] * 5, wilson(5, 5)),
        ([(0, 2)] * 4, wilson(0, 4)),
        ([], (0.0, 1.0)),
    ],
    ids=["one-a-game", "three-together", "all-ahead", "all-behind", "none"],
)
def test_clustered_wilson(groups: list[tuple[int, int]], interval: tuple[float, float]) -> None:
    assert clustered_wilson(groups) == pytest.approx(interval)


def test_comparisons_that_split_within_games_count_no_more_than_they_are() -> None:
    """Negatively linked comparisons (one ahead, one behind, every game) are never
    counted as more trials than were made."""
    low, high = clustered_wilson([(1, 2)] * 10)
    assert (low, high) == pytest.approx(wilson(10, 20))


def test_one_game_says_nothing_of_how_far_the_mean_score_may_be() -> None:
    """One game's scores give no spread between games: the interval is unbounded (null in
    JSON), not the single score as if it were certain."""
    report = tournament_report(one_against_three(won=1, lost=0))
    search, greedy = report.strategies
    assert search.mean_score == 60 and search.mean_score_ci == (-math.inf, math.inf)
    assert greedy.mean_score == -20 and greedy.mean_score_ci == (-math.inf, math.inf)
    assert search.as_json()["mean_score_ci"] == [None, None]
    assert json.loads(json.dumps(search.as_json()))["mean_score_ci"] == [None, None]
