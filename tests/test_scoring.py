"""Scoring a finished game: every example of rules.md, each scoring option, score files."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from rummisolve.errors import BoardError
from rummisolve.rules import Blocked, Method
from rummisolve.scoring import (
    FinishedGame,
    GameScore,
    Match,
    PlayerResult,
    ScoreError,
    ScoreSheet,
    Scoring,
    format_score_sheet,
    parse_score_sheet,
    score_game,
)
from rummisolve.tiles import ALL_COLOURED, JOKER, TILE_SETS, Tile, parse_tiles

from .cli import run

# laid= under the standard scoring, which would not count it: refused, not ignored.
LAID_UNDER_STANDARD = "laid= counts only under the laid scoring (scoring=laid, --scoring laid)"


def game(*racks: str, doubled: bool = False, laid: tuple[int, ...] = ()) -> FinishedGame:
    """Players A, B, C, ... with these racks left (and these values laid, if given)."""
    return FinishedGame(
        tuple(
            PlayerResult(chr(ord("A") + i), parse_tiles(rack), laid[i] if laid else None)
            for i, rack in enumerate(racks)
        ),
        doubled,
    )


def test_000_example() -> None:
    """000: B has 5 left, C 10, D 3: A +18, B -5, C -10, D -3."""
    result = score_game(game("", "R5", "K10", "O3"), Scoring())
    assert result == GameScore("A", {"A": 18, "B": -5, "C": -10, "D": -3})


def test_003_two_games_make_a_match() -> None:
    """003's table: A +24 -6, B -5 -11, C -16 +22, D -3 -5 (a joker would count 20)."""
    scoring = Scoring(joker_penalty=20)
    first = score_game(game("", "R5", "K10 B6", "O3"), scoring)
    second = score_game(game("R1 B5", "K11", "", "O2 O3"), scoring)
    assert first.scores == {"A": 24, "B": -5, "C": -16, "D": -3}
    assert second.scores == {"A": -6, "B": -11, "C": 22, "D": -5}
    match = Match().then(first).then(second)
    assert match.totals == {"A": 18, "B": -16, "C": 6, "D": -8}
    assert match.leaders == ["A"]


@pytest.mark.parametrize("penalty", [20, 30, 50], ids=lambda p: f"joker-{p}")
def test_a_joker_left_on_a_rack_costs_the_penalty(penalty: int) -> None:
    result = score_game(game("", "J R2", "K4"), Scoring(joker_penalty=penalty))
    assert result.scores == {"A": penalty + 6, "B": -(penalty + 2), "C": -4}


def test_pool_exhausted_lowest_total_wins_the_differences() -> None:
    """004: nobody went out; A has 5 left, the lowest: the others lose the difference."""
    result = score_game(game("R2 R3", "K10", "O7 O8", "J"), Scoring())
    assert result == GameScore("A", {"A": 40, "B": -5, "C": -10, "D": -25})


def test_pool_exhausted_fewest_tiles_reading() -> None:
    """000: the fewest tiles wins and the game is scored the usual way."""
    result = score_game(game("R2 R3", "K13", "O7 O8"), Scoring(blocked=Blocked.FEWEST_TILES))
    assert result == GameScore("B", {"A": -5, "B": 20, "C": -15})


@pytest.mark.parametrize("blocked", list(Blocked), ids=lambda b: b.value)
def test_a_tie_in_a_blocked_game_has_no_winner(blocked: Blocked) -> None:
    result = score_game(game("R2 R3", "K5", "B1 O4", "K13"), Scoring(blocked=blocked))
    assert result.winner is None
    if blocked is Blocked.DIFFERENCE:
        assert result.scores == {"A": 0, "B": 0, "C": 0, "D": -8}
    else:
        assert result.scores == {"A": -5, "B": -5, "C": -5, "D": -13}


def test_doubled_for_going_out_in_one_turn() -> None:
    """004's house rule: the winner scores double, and everyone else loses double."""
    result = score_game(game("", "R5", "K10", "O3", doubled=True), Scoring())
    assert result == GameScore("A", {"A": 36, "B": -10, "C": -20, "D": -6})


def test_doubled_needs_someone_out() -> None:
    with pytest.raises(ScoreError, match="nobody went out"):
        score_game(game("R1", "R2", doubled=True), Scoring())


def test_laid_minus_rack_001() -> None:
    """001/002: laid minus rack; the winner, laid plus the other racks."""
    result = score_game(
        game("", "R5", "K10", "O3", laid=(60, 40, 0, 20)), Scoring(method=Method.LAID)
    )
    assert result == GameScore("A", {"A": 78, "B": 35, "C": -10, "D": 17})


def test_laid_scoring_needs_the_value_laid() -> None:
    with pytest.raises(ScoreError, match="laid=N"):
        score_game(game("", "R5"), Scoring(method=Method.LAID))


@pytest.mark.parametrize(
    "racks",
    [("", "", "R1"), ("", "R1", "")],
    ids=["two-empty", "first-and-last-empty"],
)
def test_only_one_rack_may_be_empty(racks: tuple[str, ...]) -> None:
    with pytest.raises(ScoreError, match="only the winner"):
        score_game(game(*racks), Scoring())


tiles = st.sampled_from((*ALL_COLOURED, JOKER))
racks = st.lists(st.lists(tiles, max_size=8).map(tuple), min_size=2, max_size=6)


@given(
    racks=racks,
    winner=st.integers(0, 5),
    someone_out=st.booleans(),
    blocked=st.sampled_from(Blocked),
    penalty=st.sampled_from([20, 30, 50]),
    doubled=st.booleans(),
)
def test_standard_scores_sum_to_zero(
    racks: list[tuple[Tile, ...]],
    winner: int,
    someone_out: bool,
    blocked: Blocked,
    penalty: int,
    doubled: bool,
) -> None:
    winner %= len(racks)
    racks = [r or (Tile(ALL_COLOURED[0].colour, 1),) for r in racks]
    if someone_out:
        racks[winner] = ()
    players = tuple(PlayerResult(f"P{i}", r) for i, r in enumerate(racks))
    result = score_game(
        FinishedGame(players, doubled and someone_out),
        Scoring(blocked=blocked, joker_penalty=penalty),
    )
    if result.winner is not None:
        assert sum(result.scores.values()) == 0
        assert result.scores[result.winner] == max(result.scores.values())
    assert all(s <= 0 for name, s in result.scores.items() if name != result.winner)


# Score files -----------------------------------------------------------------------------


def test_parse_the_interface_example() -> None:
    sheet = parse_score_sheet("A:\nB: R5\nC: K10 B6\nD: O3\n")
    assert sheet == ScoreSheet(game("", "R5", "K10 B6", "O3"))


def test_parse_rules_line_comments_and_laid() -> None:
    text = (
        "# 003, game 2\n"
        "rules: joker-penalty=20 scoring=laid blocked=fewest-tiles doubled\n"
        "\n"
        "Anna: laid=61\n"
        "Bo: y1, *  laid=7  # a comment\n"
    )
    sheet = parse_score_sheet(text)
    assert sheet.scoring == Scoring(Method.LAID, Blocked.FEWEST_TILES, 20)
    assert sheet.game == FinishedGame(
        (PlayerResult("Anna", (), 61), PlayerResult("Bo", parse_tiles("O1 J"), 7)), True
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A:\nB: R5 X9\n", "f.txt:2: unknown tile 'X9'"),
        ("A:\nB R5\n", "f.txt:2: expected NAME: tiles left on the rack"),
        ("A:\nB: R5\nA: K1\n", "f.txt:3: player 'A' given twice (first on line 1)"),
        ("A:\nB:\nC: R5\n", "f.txt:2: a second empty rack: only the winner's may be empty"),
        ("A:\n", "f.txt:1: a game needs at least two players"),
        ("# nothing\n", "f.txt:1: no players: one line per player, NAME: tiles"),
        ("rules: fast\nA:\nB: R1\n", "f.txt:1: unknown rule 'fast'"),
        ("rules: scoring=odd\nA:\nB: R1\n", "f.txt:1: scoring must be standard|laid, not 'odd'"),
        ("rules: joker-penalty=x\nA:\nB: R1\n", "f.txt:1: rule joker-penalty needs a whole"),
        ("rules: doubled\nA: R2\nB: R1\n", "f.txt:1: doubled: nobody went out"),
        ("rules: scoring=laid\nA: laid=3\nB: R1\n", "f.txt:3: the laid scoring needs laid=N for B"),
        ("A:\nB: R1 laid=3\n", f"f.txt:2: {LAID_UNDER_STANDARD}"),
    ],
    ids=[
        "bad-tile",
        "no-colon",
        "same-name",
        "two-empty",
        "one-player",
        "no-players",
        "unknown-rule",
        "unknown-scoring",
        "penalty-not-a-number",
        "doubled-nobody-out",
        "laid-missing",
        "laid-under-standard",
    ],
)
def test_bad_score_files_name_the_line(text: str, message: str) -> None:
    with pytest.raises(BoardError) as caught:
        parse_score_sheet(text, "f.txt")
    assert str(caught.value).startswith(message)


names = (
    st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ abcxyz_-0123456789", min_size=1, max_size=8)
    .map(str.strip)
    .filter(lambda n: n != "" and n.lower() != "rules")
)


@given(
    players=st.lists(
        st.tuples(names, st.lists(tiles, min_size=1, max_size=6), st.none() | st.integers(0, 300)),
        min_size=2,
        max_size=6,
        unique_by=lambda p: p[0],
    ),
    out=st.booleans(),
    scoring=st.builds(
        Scoring,
        st.sampled_from(Method),
        st.sampled_from(Blocked),
        st.sampled_from([20, 30, 50]),
    ),
    doubled=st.booleans(),
)
def test_format_and_parse_round_trip(
    players: list[tuple[str, list[Tile], int | None]],
    out: bool,
    scoring: Scoring,
    doubled: bool,
) -> None:
    box = TILE_SETS[106 if len(players) <= 4 else 160]
    assume(not box.excess(t for _, rack, _ in players for t in rack))  # racks from one box
    results = [PlayerResult(name, tuple(rack), laid) for name, rack, laid in players]
    if out:
        results[0] = PlayerResult(results[0].name, (), results[0].laid)
    # The laid scoring needs every value laid; the standard one takes none.
    if scoring.method is Method.LAID:
        results = [PlayerResult(p.name, p.rack, p.laid or 0) for p in results]
    else:
        results = [PlayerResult(p.name, p.rack) for p in results]
    sheet = ScoreSheet(FinishedGame(tuple(results), doubled and out), scoring)
    assert parse_score_sheet(format_score_sheet(sheet)) == sheet


@pytest.mark.parametrize("players", [7, 9], ids=lambda n: f"{n}-players")
def test_more_players_than_the_rules_allow_are_refused_at_the_first_too_many(
    tmp_path: Path, players: int
) -> None:
    """rules.md: 2-4 players, 5-6 with the 160-tile set. Seven were scored, and seven with
    more tiles than a 160-tile box holds were refused only for their copies."""
    sheet = tmp_path / "game.txt"
    racks = ["", *(f"R{n}" for n in range(1, players))]
    sheet.write_text("".join(f"P{n}: {rack}\n" for n, rack in enumerate(racks, start=1)))
    assert run("score", str(sheet)) == (
        1,
        "",
        f"{sheet}:7: 'P7' is player 7: a game has at most 6 players\n",
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A:\nB: J\nC: J\nD: J\n", "<score>:4: too many jokers: the box has 2"),
        ("A:\nB: J R5 R5 R5\n", "<score>:2: too many copies of R5: the box has 2"),
    ],
    ids=["three-jokers-106", "three-R5-106"],
)
def test_racks_hold_no_more_than_the_box(text: str, message: str) -> None:
    with pytest.raises(BoardError) as raised:
        parse_score_sheet(text)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("text", "options", "errors"),
    [
        pytest.param(
            "A:\nB: R1 R2\nC: K5\n",
            ["--scoring", "laid"],
            [
                "{f}:1: the laid scoring needs laid=N for A",
                "{f}:2: the laid scoring needs laid=N for B",
                "{f}:3: the laid scoring needs laid=N for C",
            ],
            id="scoring-laid-without-laid",
        ),
        pytest.param(
            "A:\nB: R1 R2 laid=4\n",
            ["--rules", "norwegian"],
            ["{f}:1: the laid scoring needs laid=N for A"],
            id="norwegian-without-laid",
        ),
        pytest.param(
            "rules: norwegian\nA: laid=4\nB: R1 R2 laid=4\nC: K5\n",
            ["--scoring", "standard"],
            [f"{{f}}:2: {LAID_UNDER_STANDARD}", f"{{f}}:3: {LAID_UNDER_STANDARD}"],
            id="scoring-standard-with-laid",
        ),
        pytest.param(
            "A: R3\nB: R1 R2\n",
            ["--doubled"],
            ["--doubled: nobody went out (no rack is empty)"],
            id="doubled-nobody-out",
        ),
    ],
)
def test_a_scoring_the_options_ask_for_names_each_line_it_lacks(
    tmp_path: Path, text: str, options: list[str], errors: list[str]
) -> None:
    """As a score file's own rules: line does: `FILE:LINE` for each player, not one
    'Error: A: ...' for the first."""
    sheet = tmp_path / "game.txt"
    sheet.write_text(text)
    code, out, err = run("score", str(sheet), *options)
    assert (code, out) == (1, "")
    assert err.splitlines() == [e.format(f=sheet) for e in errors]


@pytest.mark.parametrize(
    ("word", "message"),
    [
        pytest.param(
            "laid=\u0663",
            "laid= needs a whole number, as in laid=40, not '\u0663'",
            id="arabic-digit",
        ),
        pytest.param(
            "laid=1_0", "laid= needs a whole number, as in laid=40, not '1_0'", id="underscore"
        ),
        pytest.param(
            "laid=+3", "laid= needs a whole number, as in laid=40, not '+3'", id="plus-sign"
        ),
        pytest.param("laid=", "laid= needs a whole number, as in laid=40, not ''", id="empty"),
    ],
)
def test_laid_is_a_number_in_ascii_digits_as_every_number_of_a_board(
    word: str, message: str
) -> None:
    """`laid=٣` was read as 3 (a regex's \\d and int() take any script's digits); `laid=1_0`
    was 'unknown tile'."""
    with pytest.raises(BoardError) as caught:
        parse_score_sheet(f"rules: scoring=laid\nA: laid=4\nB: R5 {word}\n", "f.txt")
    assert str(caught.value).splitlines()[0] == f"f.txt:3: {message}"
