"""Whole games: the invariants of every turn, the end of a game, matches, and the CLI."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from pathlib import Path

import pytest

from rummisolve.board import Board
from rummisolve.engine.solve import find_move
from rummisolve.game import (
    STRATEGIES,
    Ending,
    GameOptions,
    GameRecord,
    GameState,
    IllegalMoveError,
    LogError,
    SetupError,
    Strategy,
    Turn,
    draw_for_start,
    make_seats,
    play_game,
    play_match,
    replay,
    strategy_named,
    strategy_stats,
    tile_set_for,
)
from rummisolve.jokers import joker_problems
from rummisolve.move import Move, Objective, no_move
from rummisolve.rules import Blocked, JokerRetrieval, Method, Rules
from rummisolve.sets import read_meld
from rummisolve.tiles import JOKER, Tile, parse_tile
from rummisolve.view import Finder, PlayerView, Seen, TurnKind

from .cli import run


def view_alone(board: Board, pool: int) -> PlayerView:
    """A view of one board, as the first of two players (the other holds 14 tiles)."""
    return PlayerView(
        player="P1",
        rack=board.rack,
        table=board.table,
        rules=board.rules,
        order=("P1", "P2"),
        racks={"P1": len(board.rack), "P2": 14},
        opened={"P1": board.opened, "P2": True},
        pool=pool,
        history=(),
        luck=1,
    )


def options_for(players: int, **rules: object) -> GameOptions:
    return GameOptions(rules=Rules(tile_set=tile_set_for(players)).replace(**rules))


def play_logged(
    players: int, seed: int, strategies: str = "greedy", options: GameOptions | None = None
) -> tuple[GameRecord, list[Turn]]:
    turns: list[Turn] = []
    seats = make_seats([strategy_named(s) for s in strategies.split(",")], players)
    record = play_game(seats, options or options_for(players), seed, on_turn=turns.append)
    return record, turns


def assert_every_turn_legal(record: GameRecord, turns: list[Turn], rules: Rules) -> None:
    """The invariants of rules.md on the state after each turn."""
    box = Counter(rules.box.tiles())
    names = list(turns[0].racks)
    racks = {name: Counter[Tile]() for name in names}
    opened = dict.fromkeys(names, False)
    table: tuple[tuple[Tile, ...], ...] = ()
    pool = rules.box.size - 14 * len(names)
    for turn in turns:
        for row in turn.table:
            assert read_meld(row, rules) is not None, f"turn {turn.number}: {row}"
        placed = Counter(t for row in turn.table for t in row)
        for rack in turn.racks.values():
            placed += Counter(rack)
        assert not placed - box, f"turn {turn.number}: tiles that are not in the box"
        assert sum(placed.values()) + turn.pool == rules.box.size, f"turn {turn.number}"
        before = racks[turn.player]
        after = Counter(turn.racks[turn.player])
        others = [n for n in names if n != turn.player and turn.number > len(names)]
        assert all(racks[n] == Counter(turn.racks[n]) for n in others)
        if turn.kind is TurnKind.PLAY:
            assert turn.played
            if turn.number > len(names):
                assert before - Counter(turn.played) == after
            if not opened[turn.player]:
                assert_initial_meld(table, turn, rules)
            else:
                # The rules on jokers, from the log alone: each table joker stayed with
                # its set or was freed by its tile from the rack (and placed as they say).
                board = Board(table, tuple(before.elements()), True, rules)
                assert joker_problems(board, turn.table, Counter(turn.played)) == []
            opened[turn.player] = True
        elif turn.kind is TurnKind.DRAW:
            assert turn.pool == pool - 1 and turn.table == table
            if turn.number > len(names):
                assert sum((after - before).values()) == 1 and not before - after
        else:
            assert turn.pool == pool == 0 and turn.table == table
        racks = {n: Counter(turn.racks[n]) for n in names}
        table, pool = turn.table, turn.pool
    assert record.turns == len(turns)
    last = turns[-1]
    if record.end is Ending.OUT:
        assert last.racks[last.player] == () and last.kind is TurnKind.PLAY
    else:
        assert last.pool == 0
        assert all(t.kind is TurnKind.PASS for t in turns[-len(names) :])


def assert_initial_meld(table: tuple[tuple[Tile, ...], ...], turn: Turn, rules: Rules) -> None:
    """A first play: the table as it lay, plus new sets made only of the tiles played."""
    new = Counter(turn.table)
    new.subtract(Counter(table))
    assert all(n >= 0 for n in new.values()), "an initial meld touched the table"
    new_rows = list(new.elements())
    assert Counter(t for row in new_rows for t in row) == Counter(turn.played)
    melds = [read_meld(row, rules) for row in new_rows]
    assert sum(m.face_value for m in melds if m is not None) >= rules.initial_meld


GAMES = [
    pytest.param(4, 1, "greedy", {}, id="4p-greedy-seed1"),
    pytest.param(4, 2, "greedy,cautious,heavy,cautious", {}, id="4p-mixed-seed2"),
    pytest.param(
        4, 3, "cautious,heavy", {"initial_meld": 50, "wraparound": True}, id="4p-meld50-wrap"
    ),
    pytest.param(6, 1, "greedy", {}, id="6p-greedy-seed1"),
    pytest.param(6, 2, "heavy,cautious,greedy", {"joker_penalty": 50}, id="6p-mixed-joker50"),
    pytest.param(
        4,
        4,
        "greedy,cautious",
        {"joker_retrieval": JokerRetrieval.REPLACE},
        id="4p-joker-retrieval-replace",
    ),
    pytest.param(
        4,
        5,
        "greedy,cautious",
        {"joker_retrieval": JokerRetrieval.STRICT},
        id="4p-joker-retrieval-strict",
    ),
    pytest.param(
        6,
        3,
        "greedy,heavy",
        {"joker_retrieval": JokerRetrieval.STRICT},
        id="6p-joker-retrieval-strict",
    ),
    *(
        pytest.param(players, seed, "greedy,cautious,heavy", {}, id=f"{players}p-sweep-seed{seed}")
        for players in (4, 6)
        for seed in range(10, 16)
    ),
]


@pytest.mark.parametrize(("players", "seed", "strategies", "rules"), GAMES)
def test_every_turn_keeps_the_rules(
    players: int, seed: int, strategies: str, rules: dict[str, object]
) -> None:
    options = options_for(players, **rules)
    record, turns = play_logged(players, seed, strategies, options)
    assert_every_turn_legal(record, turns, options.rules)
    assert len(turns[0].racks) == players
    if record.score.winner is not None:
        assert sum(record.score.scores.values()) == 0


def test_six_players_play_with_the_160_tile_set() -> None:
    record, turns = play_logged(6, 1)
    in_play = sum(len(r) for r in turns[0].racks.values()) + turns[0].pool
    assert in_play + sum(len(row) for row in turns[0].table) == 160
    assert record.result.players[0].name == "P1"


def test_same_seed_same_game() -> None:
    first, first_turns = play_logged(4, 7, "greedy,cautious")
    second, second_turns = play_logged(4, 7, "greedy,cautious")
    assert first_turns == second_turns
    assert (first.score, first.starter, first.turns) == (second.score, second.starter, second.turns)
    _, other_turns = play_logged(4, 8, "greedy,cautious")
    assert other_turns != first_turns


@dataclasses.dataclass(frozen=True)
class Idle:
    """Never plays: draws until the pool is empty, then passes."""

    name: str = "idle"

    def choose(self, view: PlayerView, find: Finder) -> Move:
        return no_move(view.board)


def test_a_game_nobody_can_finish_ends_blocked() -> None:
    """With nobody playing, the pool runs out and a full round of passes ends the game."""
    seats = make_seats([Idle()], 2)
    turns: list[Turn] = []
    record = play_game(seats, GameOptions(), seed=3, on_turn=turns.append)
    assert record.end is Ending.BLOCKED
    assert record.solver_calls == 0
    assert record.turns == 106 - 28 + 2
    assert [t.kind for t in turns[-3:]] == [TurnKind.DRAW, TurnKind.PASS, TurnKind.PASS]
    racks = {p.name: p.rack for p in record.result.players}
    assert sum(len(r) for r in racks.values()) == 106
    assert_every_turn_legal(record, turns, Rules())
    assert sum(record.score.scores.values()) == 0 or record.score.winner is None


@dataclasses.dataclass(frozen=True)
class Cheat:
    """Plays the best move but slips one table tile onto its own rack."""

    name: str = "cheat"

    def choose(self, view: PlayerView, find: Finder) -> Move:
        move = strategy_named("greedy").choose(view, find)
        if not move.is_move or not view.table:
            return move
        return dataclasses.replace(move, table=move.table[1:])


def test_an_illegal_move_is_refused_by_name() -> None:
    seats = make_seats([Cheat()], 4)
    with pytest.raises(IllegalMoveError, match=r"P\d \(cheat\) proposed an illegal move"):
        play_game(seats, GameOptions(), seed=1)


def test_cautious_keeps_jokers_unless_going_out() -> None:
    board = Board(
        table=((parse_tile("R3"), parse_tile("R4"), parse_tile("R5")),),
        rack=(JOKER, parse_tile("R6"), parse_tile("K9")),
    )
    calls: list[Board] = []

    def find(b: Board, objective: Objective) -> Move:
        calls.append(b)
        return find_move(b, objective)

    move = strategy_named("cautious").choose(view_alone(board, 10), find)
    assert move is not None
    assert move.played == (parse_tile("R6"),)
    assert Counter(move.rack) == Counter((JOKER, parse_tile("K9")))
    assert JOKER not in calls[-1].rack
    greedy = strategy_named("greedy").choose(view_alone(board, 10), find)
    assert greedy is not None and JOKER in greedy.played
    # With the pool empty, holding the joker only costs points: it is played.
    empty_pool = strategy_named("cautious").choose(view_alone(board, 0), find)
    assert empty_pool is not None and JOKER in empty_pool.played


@pytest.mark.parametrize("players", range(2, 7), ids=lambda n: f"{n}-players")
def test_the_draw_for_the_first_player(players: int) -> None:
    box = Rules(tile_set=tile_set_for(players)).box.tiles()
    rng = random.Random(players)
    starts = Counter(draw_for_start(box, players, rng) for _ in range(200))
    assert set(starts) == set(range(players))


def test_an_official_round_is_one_game_per_player() -> None:
    seats = make_seats([strategy_named("greedy")], 3)
    record = play_match(seats, options_for(3), seed=5)
    assert [g.number for g in record.games] == [1, 2, 3]
    totals = record.match.totals
    assert totals == {
        name: sum(g.score.scores[name] for g in record.games) for name in ("P1", "P2", "P3")
    }
    [stats] = strategy_stats(record)
    assert stats.wins == sum(1 for g in record.games if g.score.winner is not None)


def test_a_target_match_stops_once_a_total_reaches_it() -> None:
    seats = make_seats([strategy_named("greedy")], 2)
    record = play_match(seats, options_for(2), seed=2, games=5, target=1)
    assert len(record.games) == 1
    assert max(record.match.totals.values()) >= 1


@pytest.mark.parametrize("players", [1, 7], ids=["one", "seven"])
def test_players_out_of_range_are_refused(players: int) -> None:
    with pytest.raises(SetupError, match="2 to 6 players"):
        play_match(make_seats([strategy_named("greedy")], players), GameOptions(), seed=1)


def test_laid_scoring_in_a_game() -> None:
    options = options_for(4, scoring=Method.LAID, blocked=Blocked.FEWEST_TILES)
    record, _ = play_logged(4, 1, options=options)
    laid = {p.name: p.laid for p in record.result.players}
    assert all(v is not None and v >= 0 for v in laid.values())
    winner = record.score.winner
    assert winner is not None
    for player in record.result.players:
        if player.name != winner:
            rack = options.scoring.rack_total(player.rack)
            assert record.score.scores[player.name] == (player.laid or 0) - rack


# The command line ----------------------------------------------------------------------------


SCORE_FILE = "A:\nB: R5\nC: K10 B6\nD: O3\n"


@pytest.fixture
def score_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.txt"
    path.write_text(SCORE_FILE)
    return path


def test_score_prints_a_table(score_file: Path) -> None:
    assert run("score", str(score_file)) == (
        0,
        "A  +24  out\nB   -5  R5\nC  -16  K10 B6 (16)\nD   -3  O3\nwinner: A\n",
        "",
    )


def test_score_json_as_the_interface_says(score_file: Path) -> None:
    code, out, err = run("score", str(score_file), "--json")
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "scores": {"A": 24, "B": -5, "C": -16, "D": -3},
        "winner": "A",
    }


@pytest.mark.parametrize(
    ("text", "args", "scores"),
    [
        ("A:\nB: R5\nC: K10\nD: O3\n", [], {"A": 18, "B": -5, "C": -10, "D": -3}),
        ("A:\nB: R5\nC: K10\nD: O3\n", ["--doubled"], {"A": 36, "B": -10, "C": -20, "D": -6}),
        ("A: R1 B5\nB: K11\nC:\nD: O2 O3\n", [], {"A": -6, "B": -11, "C": 22, "D": -5}),
        ("A:\nB: J\n", ["--joker-penalty", "50"], {"A": 50, "B": -50}),
        ("rules: joker-penalty=20\nA:\nB: J\n", [], {"A": 20, "B": -20}),
        ("A: R2 R3\nB: K10\nC: J\n", [], {"A": 30, "B": -5, "C": -25}),
        ("A: R2 R3\nB: K13\n", ["--blocked", "fewest-tiles"], {"A": -5, "B": 5}),
        ("A: laid=50\nB: R5 laid=31\n", ["--scoring", "laid"], {"A": 55, "B": 26}),
    ],
    ids=[
        "000",
        "doubled",
        "003-game-2",
        "joker-50-option",
        "joker-20-rules-line",
        "pool-exhausted",
        "fewest-tiles",
        "laid-001",
    ],
)
def test_score_reproduces_the_rules_examples(
    tmp_path: Path, text: str, args: list[str], scores: dict[str, int]
) -> None:
    path = tmp_path / "game.txt"
    path.write_text(text)
    code, out, err = run("score", str(path), "--json", *args)
    assert (code, err) == (0, "")
    assert json.loads(out)["scores"] == scores


def test_score_refuses_a_bad_file_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("A:\nB: R5 Q1\n")
    assert run("score", str(path)) == (
        1,
        "",
        f"{path}:2: unknown tile 'Q1': colour must be K, R, O (or Y) or B\n",
    )


def test_score_doubled_without_anyone_out_fails(tmp_path: Path) -> None:
    path = tmp_path / "blocked.txt"
    path.write_text("A: R1\nB: R2\n")
    code, out, err = run("score", str(path), "--doubled")
    assert (code, out) == (1, "")
    assert "nobody went out" in err


def test_play_json_shape_and_log(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    args = ["play", "--players", "2", "--games", "2", "--seed", "4", "--json", "--log", str(log)]
    code, out, err = run(*args)
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["games"] == len(data["rows"]) == 2
    for game in data["rows"]:
        assert set(game) >= {"winner", "scores", "turns", "end"}
        assert game["end"] in ("out", "blocked")
        assert set(game["scores"]) == {"P1", "P2"}
    assert data["totals"] == {p: sum(g["scores"][p] for g in data["rows"]) for p in ("P1", "P2")}
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(lines) == sum(g["turns"] for g in data["rows"])
    keys = {"game", "turn", "player", "action", "played", "table", "stand_for", "racks", "pool"}
    assert set(lines[0]) == keys | {"rules"}
    for line in lines:  # what each joker of the table stands for, read back as a board
        said = [[parse_tile(t) for t in roles] for roles in line["stand_for"]]
        table = [tuple(parse_tile(t) for t in row) for row in line["table"]]
        board = Board(tuple(table), declared=tuple(map(tuple, said)) if any(said) else ())
        assert [len(r) for r in said] == [row.count(JOKER) for row in board.table]
    assert lines[0]["rules"] == data["rules"] == Rules().as_json()
    assert [line["game"] for line in lines] == sorted(line["game"] for line in lines)
    assert run(*args[:-2]) == (0, out, "")


def test_play_human_output() -> None:
    code, out, err = run("play", "--players", "2", "--games", "1", "--seed", "4")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "seed 4: 2 players (P1 greedy, P2 greedy)"
    assert lines[1].split() == ["game", "winner", "end", "turns", "P1", "P2"]
    assert lines[3].startswith("total")
    assert lines[5].split() == ["strategy", "seats", "wins", "mean", "score"]
    assert lines[6].split()[:2] == ["greedy", "2"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "7"], "Invalid value for '--players'"),
        (["--strategy", "lucky"], "unknown strategy 'lucky'"),
        (["--players", "2", "--strategy", "greedy,heavy,cautious"], "3 strategies for 2 players"),
    ],
    ids=["seven-players", "unknown-strategy", "too-many-strategies"],
)
def test_play_usage_errors(args: list[str], message: str) -> None:
    code, out, err = run("play", *args)
    assert (code, out) == (2, "")
    assert message in err


def test_strategy_names_are_known() -> None:
    assert set(STRATEGIES) == {"greedy", "heavy", "cautious", "hoarder", "search"}
    strategy: Strategy = strategy_named(" Cautious ")
    assert strategy.name == "cautious"


def test_play_refuses_a_log_it_cannot_write_before_playing(tmp_path: Path) -> None:
    log = tmp_path / "missing" / "log.jsonl"
    assert run("play", "--players", "2", "--log", str(log)) == (
        1,
        "",
        f"Error: {log}: No such file or directory\n",
    )


@pytest.mark.parametrize("house_rule", [True, False], ids=["doubled-on", "doubled-off"])
def test_going_out_in_one_turn_doubles_under_the_house_rule(house_rule: bool) -> None:
    """With racks of 3, seed 35 deals P1 a set worth 30+: out on the first turn."""
    seats = make_seats([strategy_named("greedy")], 2)
    options = GameOptions(Rules(double_out=house_rule), rack_size=3)
    record = play_game(seats, options, seed=35)
    assert (record.turns, record.end, record.score.winner) == (1, Ending.OUT, "P1")
    assert record.result.doubled is house_rule
    left = GameOptions().scoring.rack_total(record.result.players[1].rack)
    factor = 2 if house_rule else 1
    assert record.score.scores == {"P1": factor * left, "P2": -factor * left}


def test_a_game_under_the_official_rules_keeps_its_jokers_with_their_sets() -> None:
    """Whole games under the default: the log shows turns that change sets holding a joker,
    and in every one each joker stayed with its set or was freed by its tile from the rack,
    the freed joker beside two tiles from that rack (assert_every_turn_legal)."""
    touched = 0
    for seed in (1, 2, 3):
        record, turns = play_logged(4, seed)
        assert_every_turn_legal(record, turns, Rules())
        before: tuple[tuple[Tile, ...], ...] = ()
        for turn in turns:
            kept = Counter(turn.table)
            touched += any(JOKER in row and kept[row] == 0 for row in before)
            before = turn.table
    assert touched > 0


@dataclasses.dataclass(frozen=True)
class Watcher:
    """Greedy, noting each board it is given: what the game says of the table's jokers."""

    boards: list[Board]
    name: str = "watcher"

    def choose(self, view: PlayerView, find: Finder) -> Move:
        self.boards.append(view.board)
        return find(view.board, Objective.TILES)


def test_a_joker_keeps_standing_for_the_tile_the_move_that_laid_it_showed() -> None:
    """The rules as written: a joker stands for one tile until it is freed. Each turn's
    board declares every joker of the table as the move before laid it (`J=R5`), so the
    next player cannot read `R3 R4 J` as the R2 where it was laid as the R5."""
    boards: list[Board] = []
    seats = make_seats([Watcher(boards)], 4)
    play_game(seats, options_for(4), seed=5)
    with_jokers = [b for b in boards if any(JOKER in row for row in b.table)]
    assert with_jokers, "no joker was laid in this game: pick another seed"
    for board in with_jokers:
        assert [len(board.declared_for(n)) for n in range(len(board.table))] == [
            row.count(JOKER) for row in board.table
        ]
        for n, row in enumerate(board.table):
            roles = [t for t in board.declared_for(n) if t is not None]
            assert len(roles) == row.count(JOKER)
            real = [t for t in row if not t.is_joker]
            assert read_meld((*real, *roles), board.rules) is not None, (row, roles)


# The game's state, and its log read back -----------------------------------------------


def logged_game(seed: int, rack_size: int = 14) -> list[str]:
    """The log lines of one greedy game of three, as `play --log` writes them."""
    rules = Rules()
    turns: list[Turn] = []
    options = GameOptions(rules=rules, rack_size=rack_size)
    play_game(make_seats([strategy_named("greedy")], 3), options, seed, on_turn=turns.append)
    return [json.dumps(t.as_json() | {"rules": rules.as_json()}) for t in turns]


def test_a_state_driven_by_hand_is_the_game_play_game_plays() -> None:
    greedy = strategy_named("greedy")
    record = play_game(make_seats([greedy], 2), GameOptions(), seed=8)
    state = GameState.deal(["P1", "P2"], Rules(), seed=8)
    while not state.finished:
        state.apply(greedy.choose(state.view(), lambda b, o: find_move(b, o)))
    outcome = state.outcome(GameOptions().scoring)
    assert (outcome.score, outcome.end, state.turns) == (record.score, record.end, record.turns)


def test_a_finished_state_takes_no_more_turns() -> None:
    state = GameState.deal(["P1", "P2"], Rules(), seed=1, rack_size=1)
    while not state.finished:
        state.apply(no_move(state.board()))
    with pytest.raises(AssertionError, match="the game is over"):
        state.apply(no_move(state.board()))


@pytest.mark.parametrize("seed", [2, 6], ids=lambda s: f"seed {s}")
def test_a_log_replays_into_the_states_before_each_turn(seed: int) -> None:
    lines = logged_game(seed)
    replayed = list(replay(lines))
    turns = [Turn.from_json(json.loads(line)) for line in lines]
    first_drew = turns[0].kind is TurnKind.DRAW
    assert [t for _, t in replayed] == turns[1:] if first_drew else turns
    for (state, turn), before in zip(replayed[1:], replayed, strict=False):
        # The position a turn faced is what the turn before left.
        assert state.table == before[1].table and state.player.name == turn.player
        assert len(state.pool) == before[1].pool
        assert state.player.rack == before[1].racks[turn.player]
    # Whether a player had opened: once it has played.
    state, turn = replayed[-1]
    played = {t.player for t in turns[: turn.number - 1] if t.kind is TurnKind.PLAY}
    assert {p.name for p in state.seats if p.opened} == played


def test_a_replayed_state_is_a_copy_that_later_turns_leave_alone() -> None:
    replayed = list(replay(logged_game(3)))
    state, turn = replayed[-2]
    assert len(state.history) == turn.number - 1


def test_a_first_turn_that_draws_is_replayed_from_the_second() -> None:
    """The log does not say which tile the first turn drew: the replay starts after it."""
    games = (logged_game(seed, rack_size=4) for seed in range(40))
    lines = next(g for g in games if json.loads(g[0])["action"] == "draw")
    state, turn = next(replay(lines))
    assert turn.number == 2 and state.turns == 1


def test_a_log_with_a_tile_that_appears_from_nowhere_is_refused_by_line() -> None:
    lines = logged_game(4)
    line = json.loads(lines[2])
    mover = line["player"]
    line["racks"][mover] = [*line["racks"][mover], "J"]
    lines[2] = json.dumps(line)
    with pytest.raises(LogError, match=r"^game\.log, line 3: turn 3: "):
        list(replay(lines, "game.log"))


def test_a_line_that_is_not_a_log_line_is_refused_by_line() -> None:
    with pytest.raises(LogError, match=r"^game\.log, line 1: not a log line: it has no \""):
        list(replay(['{"game": 1}'], "game.log"))


def test_a_logged_turn_reads_back_as_it_was_written() -> None:
    for line in logged_game(5):
        written = json.loads(line)
        del written["rules"]
        assert Turn.from_json(written).as_json() == written


def test_a_plug_in_reads_a_turns_kind_by_its_former_name() -> None:
    """A strategy written when a turn's kind was its `action` still reads it."""
    seen = Seen("ana", TurnKind.DRAW, ())
    assert seen.action is seen.kind is TurnKind.DRAW
