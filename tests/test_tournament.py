"""Tournaments, the strategies' view of a game, hoarder and search, and the intervals."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import random
import re
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from rummisolve.board import Board
from rummisolve.engine.solve import find_move
from rummisolve.game import GameOptions, Seat, SeatState, play_game, view_of
from rummisolve.legality import check_move
from rummisolve.move import Move, Objective
from rummisolve.rules import Rules
from rummisolve.search import Search, dead_racks, layers_of, lays_plainly, sample
from rummisolve.stats import mean_interval, wilson
from rummisolve.strategies import Hoarder, SetupError, strategy_named
from rummisolve.tiles import Tile, parse_tile
from rummisolve.tournament import (
    Lineup,
    Work,
    match_tasks,
    run_games,
    tournament_report,
    tournament_tasks,
)
from rummisolve.view import Finder, PlayerView, Seen, TurnKind

from .cli import run

EXAMPLES = Path(__file__).parent.parent / "docs" / "examples"


def tiles(text: str) -> list[Tile]:
    return [parse_tile(t) for t in text.split()]


def counted(calls: list[Board]) -> Finder:
    def find(board: Board, objective: Objective) -> Move:
        calls.append(board)
        return find_move(board, objective)

    return find


# The view ------------------------------------------------------------------------------


def two_states(first: str, second: str) -> list[list[SeatState]]:
    """Two games at P1's turn alike in all P1 sees: its rack, the table, the sizes; P2's
    rack differs (`first`, `second`), and so does what lies in the pool."""
    states = []
    for theirs in (first, second):
        me = SeatState("P1", tiles("R1 R2 R3 R9 B9 K9 O4"), seed=5)
        them = SeatState("P2", tiles(theirs), seed=5)
        me.opened = them.opened = True
        states.append([me, them])
    return states


def test_a_player_who_cannot_see_a_difference_decides_alike() -> None:
    """P2's rack and the pool's order are not in P1's view: the same view, the same move
    (search, which samples what it cannot see, included)."""
    table = (tuple(tiles("K10 K11 K12")),)
    states = two_states("B1 B2 B3 O11 O12 O13 K5", "R7 R8 O7 K7 B12 B13 J")
    views = [view_of(players, 0, table, 40, (), Rules()) for players in states]
    assert views[0] == views[1]
    moves = [Search(think=0.05).choose(view, counted([])) for view in views]
    assert [(m.played, m.table, m.rack) for m in moves] == [
        (moves[0].played, moves[0].table, moves[0].rack)
    ] * 2


def test_a_view_holds_sizes_not_racks() -> None:
    seen: list[PlayerView] = []

    class Spy:
        name = "spy"

        def choose(self, view: PlayerView, find: Finder) -> Move:
            seen.append(view)
            return find(view.board, Objective.TILES)

    play_game((Seat("P1", Spy()), Seat("P2", Spy())), GameOptions(), seed=2)
    assert seen and all(set(v.racks) == {"P1", "P2"} for v in seen)
    assert all(isinstance(size, int) for v in seen for size in v.racks.values())
    assert all(v.order[0] == v.player for v in seen)
    drawn = [v for v in seen if v.history and v.history[-1].kind.value == "draw"]
    assert drawn and all(v.history[-1].played == () for v in drawn)


# Strategies ------------------------------------------------------------------------------


def alone(rack: str, table: str = "", pool: int = 20, opened: bool = True) -> PlayerView:
    rows = tuple(tuple(tiles(s)) for s in table.split(",") if s.strip())
    return PlayerView(
        player="P1",
        rack=tuple(tiles(rack)),
        table=rows,
        rules=Rules(),
        order=("P1", "P2"),
        racks={"P1": len(rack.split()), "P2": 14},
        opened={"P1": opened, "P2": True},
        pool=pool,
        history=(),
        luck=7,
    )


@pytest.mark.parametrize(
    ("view", "plays"),
    [
        pytest.param(alone("R1 R2 R3 K9"), False, id="holds-a-partial-lay"),
        pytest.param(alone("R1 R2 R3"), True, id="goes-out"),
        pytest.param(alone("R1 R2 R3 K9", pool=0), True, id="lays-when-the-pool-is-empty"),
        pytest.param(alone("R10 R11 R12 K9", opened=False), True, id="opens"),
    ],
)
def test_hoarder_lays_only_to_go_out(view: PlayerView, plays: bool) -> None:
    move = Hoarder().choose(view, counted([]))
    assert move.is_move is plays
    assert check_move(view.board, move) == []


def test_search_goes_out_at_once_and_is_repeatable() -> None:
    calls: list[Board] = []
    out = Search(think=0.1).choose(alone("R1 R2 R3"), counted(calls))
    assert out.is_move and not out.rack and len(calls) == 1  # a clear choice: one call
    view = alone("R1 R2 R3 K9 K8", "O9 B9 R9")
    first = Search(think=0.05).choose(view, counted(calls))
    again = Search(think=0.05).choose(view, counted([]))
    assert (first.played, first.table) == (again.played, again.table)
    assert check_move(view.board, first) == []


def laid_then_drew(table: str, rack_size: int) -> PlayerView:
    """P1's view after P2 laid twice (so it lays what it can) and then drew."""
    played = (Seen("P2", TurnKind.PLAY, tuple(tiles("K1 K2 K3"))),) * 2
    return dataclasses.replace(
        alone("R1", table),
        racks={"P1": 1, "P2": rack_size},
        history=(*played, Seen("P2", TurnKind.DRAW, ())),
    )


def test_search_samples_agree_with_an_opponents_draw() -> None:
    """P2 drew, so the tiles it held before could not add to R4-R6: no sampled rack holds
    R3 or R7 but for the tile drawn (its last)."""
    view = laid_then_drew("R4 R5 R6", rack_size=3)
    dead = dead_racks(view, layers_of(view))
    assert set(dead) == {"P2"} and dead["P2"].drew
    rng = random.Random(3)
    for _ in range(40):
        racks, pool = sample(view, view.unseen(), dead, rng)
        assert len(racks["P2"]) == 3 and len(pool) == len(view.unseen()) - 3
        assert not set(racks["P2"][:-1]) & set(tiles("R3 R7"))


@pytest.mark.parametrize(
    ("rack", "table", "since", "plays"),
    [
        pytest.param("B5 K5 O5", "", "", True, id="a-set-of-its-own"),
        pytest.param("B5 K5 J", "", "", False, id="jokers-aside"),
        pytest.param("R7 B1", "R4 R5 R6", "", True, id="adds-to-a-run"),
        pytest.param("R7 B1", "R4 R5 R6", "R4", False, id="a-set-laid-since"),
        pytest.param("O9 B1", "R9 B9 K9", "", True, id="adds-to-a-group"),
    ],
)
def test_what_a_rack_plainly_lays(rack: str, table: str, since: str, plays: bool) -> None:
    view = alone("R1", table)
    assert lays_plainly(tiles(rack), view, Counter(tiles(since))) is plays


def test_search_lays_with_no_pool_when_an_opponent_is_near_out() -> None:
    """Passing would keep every point held while P2, two tiles from the end, may go out."""
    view = dataclasses.replace(alone("R1 R2 R3 K9", pool=0), racks={"P1": 4, "P2": 2})
    move = Search(think=0.05).choose(view, counted([]))
    assert move.is_move and check_move(view.board, move) == []


def test_search_budget_counts_samples() -> None:
    assert Search(think=0.0).samples == 3
    assert Search(think=1.0).samples > Search(think=0.1).samples


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("lucky", "unknown strategy 'lucky'"),
        ("no_such_module_here:X", "cannot import 'no_such_module_here'"),
        ("rummisolve.strategies:Nothing", "has no 'Nothing'"),
        ("rummisolve.strategies:SetupError", "has no `name` and `choose(view, find)`"),
    ],
    ids=["unknown", "no-module", "no-class", "not-a-strategy"],
)
def test_unknown_strategies_are_refused_by_name(name: str, message: str) -> None:
    with pytest.raises(SetupError, match=message.replace("(", r"\(").replace(")", r"\)")):
        strategy_named(name)


def test_a_plug_in_is_loaded_by_module_and_class() -> None:
    strategy = strategy_named("rummisolve.strategies:Hoarder")
    assert strategy.name == "hoarder"


# Tournaments -----------------------------------------------------------------------------


def test_lineups_fill_with_the_last_and_rotate() -> None:
    lineup = Lineup.filled(["search", "greedy"], 4)
    assert lineup.strategies == ("search", "greedy", "greedy", "greedy")
    assert lineup.rotations == 4
    assert Lineup.filled(["greedy"], 4).rotations == 1
    assert Lineup.filled(["hoarder", "greedy", "hoarder", "greedy"], 4).rotations == 2
    assert [s.strategy.name for s in lineup.seats(1)] == ["greedy", "search", "greedy", "greedy"]
    with pytest.raises(SetupError, match="3 strategies for 2 players"):
        Lineup.filled(["greedy", "heavy", "cautious"], 2)


def test_each_deal_is_played_once_per_rotation() -> None:
    lineup = Lineup.filled(["hoarder", "greedy"], 2)
    tasks = list(tournament_tasks(lineup, 5, seed=3))
    assert [(t.deal, t.rotation) for t in tasks] == [(1, 0), (1, 1), (2, 0), (2, 1), (3, 0)]
    assert tasks[0].seed == tasks[1].seed != tasks[2].seed
    work = Work(lineup, GameOptions(Rules(tile_set=106)))
    games = [p.record for p in run_games(tasks[:2], work)]
    # The same deal: the same first player and the same racks, strategies swapped.
    assert games[0].starter == games[1].starter
    assert games[0].strategies == {"P1": "hoarder", "P2": "greedy"}
    assert games[1].strategies == {"P1": "greedy", "P2": "hoarder"}


def test_a_match_seeds_its_games_as_play_match_does() -> None:
    assert [t.number for t in match_tasks(1, 3)] == [1, 2, 3]


def test_worker_processes_play_the_same_games() -> None:
    lineup = Lineup.filled(["hoarder", "greedy"], 2)
    work = Work(lineup, GameOptions(Rules(tile_set=106), rack_size=7), keep_turns=True)
    tasks = list(tournament_tasks(lineup, 4, seed=9))
    here = [(p.record.score, p.turns) for p in run_games(tasks, work)]
    there = [(p.record.score, p.turns) for p in run_games(tasks, work, jobs=2)]
    assert here == there


def test_a_report_counts_wins_ranks_and_pairs() -> None:
    lineup = Lineup.filled(["hoarder", "greedy"], 3)
    work = Work(lineup, GameOptions(Rules(tile_set=106), rack_size=7))
    records = [p.record for p in run_games(tournament_tasks(lineup, 6, seed=2), work)]
    report = tournament_report(records)
    hoarder, greedy = report.strategies
    assert (hoarder.games, greedy.games) == (6, 6)
    winners = sum(r.score.winner is not None for r in records)
    assert hoarder.wins + greedy.wins == winners
    assert hoarder.win_share_ci[0] <= hoarder.win_share <= hoarder.win_share_ci[1]
    assert 1 <= hoarder.mean_rank <= 3
    [pair] = report.pairs
    assert pair.ahead + pair.behind + pair.ties == 6 * 2
    assert sum(p.games for p in report.positions) == 6 * 3


@pytest.mark.parametrize(
    ("wins", "games", "interval"),
    [(0, 10, (0.0, 0.2775)), (5, 10, (0.2366, 0.7634)), (81, 263, (0.2553, 0.3662))],
    ids=["none", "half", "large"],
)
def test_wilson_intervals(wins: int, games: int, interval: tuple[float, float]) -> None:
    low, high = wilson(wins, games)
    assert (round(low, 4), round(high, 4)) == interval


def test_mean_intervals() -> None:
    assert mean_interval([]) == (0.0, 0.0, 0.0)
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and low == pytest.approx(2.5 - 1.959964 * 1.2910 / 2, abs=1e-3)
    assert high - mean == pytest.approx(mean - low)


# The command -----------------------------------------------------------------------------


def test_tournament_json_shape(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    args = ["tournament", "--players", "2", "--strategies", "heavy,greedy", "--games", "3"]
    code, out, err = run(*args, "--seed", "3", "--json", "--log", str(log))
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert list(data)[:5] == ["games", "strategies", "pairs", "seed", "rules"]
    assert data["games"] == 3 and data["seed"] == 3
    keys = [
        "games",
        "wins",
        "win_share",
        "win_share_ci",
        "mean_score",
        "mean_score_ci",
        "mean_rank",
    ]
    assert {name: list(s) for name, s in data["strategies"].items()} == {
        "heavy": keys,
        "greedy": keys,
    }
    assert data["rules"] == Rules().as_json()
    turns = [json.loads(line) for line in log.read_text().splitlines()]
    assert Counter(t["game"] for t in turns).keys() == {1, 2, 3}


def test_tournament_rows_then_the_report() -> None:
    args = ["tournament", "--players", "2", "--strategies", "heavy,greedy", "--games", "2"]
    code, out, err = run(*args, "--seed", "3")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split() == ["game", "deal", "winner", "end", "turns", "P1", "P2"]
    assert [line.split()[:2] for line in lines[1:3]] == [["1", "1"], ["2", "1"]]
    assert lines[4].startswith("2 games in ")
    assert lines[5].split()[:3] == ["strategy", "games", "wins"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--strategies", "lucky"], "unknown strategy 'lucky'"),
        (["--players", "2", "--strategies", "greedy,heavy,cautious"], "3 strategies for 2 players"),
        (["--think", "500"], "Invalid value for '--think'"),
    ],
    ids=["unknown-strategy", "too-many", "think-past-two-minutes"],
)
def test_tournament_usage_errors(args: list[str], message: str) -> None:
    code, out, err = run("tournament", *args)
    assert (code, out) == (2, "")
    assert message in err


def test_the_readme_python_api_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's "Python API" block, run as it stands."""
    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    code = text.split("## Python API", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("2 (")
    assert [line.split()[0] for line in printed[2:]] == ["hoarder", "greedy"]


def test_an_interrupted_tournament_reports_the_games_finished() -> None:
    """TERM (as Ctrl-C): the games finished are reported, the workers stopped, exit 143."""
    args = ["tournament", "--players", "2", "--strategies", "heavy,greedy", "--games", "200"]
    process = subprocess.Popen(
        [sys.executable, "-m", "rummisolve", *args, "--jobs", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,  # what `readline` takes is all `communicate` does not
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        shown = process.stdout.readline() + process.stdout.readline()  # the header, a game
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    lines = (shown + out).decode().splitlines()
    rows = lines[1 : lines.index("")]
    assert process.returncode == 143, err
    summary = re.compile(rf"{len(rows)} games? in [0-9.]+ s \(2 jobs\)")
    assert any(summary.match(line) for line in lines), "\n".join(lines)
    assert err.decode().endswith(f"interrupted: {len(rows)} of 200 games played\n")


def test_the_benchmark_records_a_baseline_with_its_command(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent.parent
    command = ["benchmarks/tournament_bench.py", "goal", "--games", "1", "--jobs", "1"]
    done = subprocess.run(
        [sys.executable, *command, "--baselines", "hoarder", "--results", str(tmp_path)],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "tournament-goal-summary.json").read_text(encoding="utf-8"))
    [row] = summary["baselines"]
    assert row["command"].startswith(
        "rummisolve tournament --players 4 --strategies search,hoarder"
    )
    assert row["games"] == 1 and set(row["search"]) >= {"win_share_ci", "mean_score"}


PLUG_INS = """
from rummisolve import no_move


class Raises:
    name = "raises"

    def choose(self, view, find):
        raise ValueError("kaput")


class Babbles:
    name = "babbles"

    def choose(self, view, find):
        return "nonsense"
"""


@pytest.mark.parametrize(
    ("strategy", "message"),
    [
        pytest.param("Raises", "failed: ValueError: kaput", id="raises"),
        pytest.param("Babbles", "returned a str, not a Move", id="returns-no-move"),
    ],
)
@pytest.mark.parametrize("command", ["play", "tournament"])
def test_a_plug_in_that_fails_is_one_line_naming_it(
    tmp_path: Path, command: str, strategy: str, message: str
) -> None:
    """A plug-in's bug stops the games as an illegal move does, in one line that names
    the turn, the seat and the plug-in (the line of its file that raised, if it did):
    never a traceback."""
    source = tmp_path / "plugs.py"
    source.write_text(PLUG_INS)
    spec = f"{source}:{strategy}"
    option = "--strategy" if command == "play" else "--strategies"
    code, _, err = run(command, "--players", "2", "--games", "1", option, f"{spec},greedy")
    assert code == 1
    assert len(err.splitlines()) == 1
    line = f"{re.escape(str(source))}:9: " if strategy == "Raises" else ""
    seat = rf"P\d \({strategy.lower()}\)"
    assert re.fullmatch(
        rf"Error: {line}turn \d+: {seat}, strategy '{re.escape(spec)}' {message}\n",
        err,
    ), err


@pytest.mark.parametrize(
    ("source", "told"),
    [
        pytest.param(
            "def (:\n",
            "1: {spec}: cannot import '{file}' (SyntaxError: invalid syntax)",
            id="syntax",
        ),
        pytest.param(
            "import os\nraise RuntimeError('x')\n",
            "2: {spec}: cannot import '{file}' (RuntimeError: x)",
            id="raises-on-import",
        ),
        pytest.param(
            "class X:\n    def __init__(self):\n        {}['k']\n",
            "3: {spec}: making one raised KeyError: 'k'",
            id="raises-when-made",
        ),
    ],
)
@pytest.mark.parametrize("command", ["play", "tournament"])
def test_a_plug_in_that_fails_to_load_is_one_line_naming_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, source: str, told: str
) -> None:
    """A SyntaxError (or any error but ImportError, OSError and ValueError) while a
    plug-in was loaded was a traceback: it is a usage error as a missing one is, naming
    the plug-in's file and line."""
    monkeypatch.chdir(tmp_path)
    Path("plug.py").write_text(source)
    option = "--strategy" if command == "play" else "--strategies"
    code, out, err = run(command, "--players", "2", "--games", "1", option, "plug.py:X")
    said = told.format(spec="strategy 'plug.py:X'", file="plug.py")
    assert (code, out, err.splitlines()[-1]) == (
        2,
        "",
        f"Error: Invalid value for '--strategies' / '--strategy': plug.py:{said}",
    )


def test_two_strategies_of_one_name_are_refused_before_any_game(tmp_path: Path) -> None:
    """The report counts by a strategy's `name`: two versions of one plug-in (both
    'wary') were one strategy in every seat, with no pair to compare them by."""
    other = tmp_path / "wary2.py"
    other.write_text(EXAMPLES.joinpath("wary.py").read_text().replace("<= 4", "<= 2"))
    first, second = f"{EXAMPLES / 'wary.py'}:Wary", f"{other}:Wary"
    with pytest.raises(SetupError, match="both named 'wary'"):
        Lineup.filled([first, second], 2)
    with pytest.raises(SetupError, match="both named 'hoarder'"):
        Lineup.filled(["hoarder", "rummisolve.strategies:Hoarder"], 3)
    assert Lineup.filled([first, "greedy", first], 3).strategies == (first, "greedy", first)


def test_play_refuses_two_strategies_of_one_name_too(tmp_path: Path) -> None:
    """`play` counts its report by strategy name as `tournament` does: two specs named
    'wary' were one strategy with two seats."""
    other = tmp_path / "wary2.py"
    other.write_text(EXAMPLES.joinpath("wary.py").read_text().replace("<= 4", "<= 2"))
    first, second = f"{EXAMPLES / 'wary.py'}:Wary", f"{other}:Wary"
    code, out, err = run(
        "play", "--players", "2", "--games", "1", "--strategy", f"{first},{second}"
    )
    assert (code, out) == (2, "")
    assert f"{first} and {second} are both named 'wary'" in err


def test_a_tournament_whose_last_deal_is_short_of_its_rotations_says_so() -> None:
    """Six games of one hoarder and three greedy: deals of four rotations, the second
    played in two of them; the summary line said every deal was played in four."""
    code, out, _ = run(
        "tournament", "--players", "4", "--strategies", "hoarder,greedy", "--games", "6"
    )
    assert code == 0
    assert ": hoarder x1, greedy x3, each deal played in 4 seat rotations, the last in 2\n" in out
