"""Rule profiles end to end: the words of a board's rules: line, --rules on the command
line, `rummisolve rules`, and the rules each answer carries (docs/rules.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rummisolve.board import format_board, parse_board
from rummisolve.rules import (
    OPTIONS,
    PROFILE_NAMES,
    PROFILES,
    Blocked,
    JokerRetrieval,
    Method,
    Rules,
    parse_rule_word,
)

from .cli import run

# The first board: the joker may not leave for O7 B7 under the rules as written.
JOKER_WALKS = "table:\nR3 R4 R5 J\nrack: B7 O7\n"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param("official", Rules(), id="official"),
        pytest.param(
            "casual", Rules(profile="casual", joker_retrieval=JokerRetrieval.FREE), id="casual"
        ),
        pytest.param(
            "hebrew",
            Rules(profile="hebrew", wraparound=True, blocked=Blocked.FEWEST_TILES),
            id="hebrew",
        ),
        pytest.param(
            "norwegian",
            Rules(
                profile="norwegian", initial_meld=50, locked_joker_sets=True, scoring=Method.LAID
            ),
            id="norwegian",
        ),
        pytest.param(
            "portuguese",
            Rules(
                profile="portuguese", initial_meld=50, locked_joker_sets=True, scoring=Method.LAID
            ),
            id="portuguese-as-norwegian",
        ),
        pytest.param("french", Rules(profile="french", joker_penalty=20), id="french"),
        pytest.param("greek", Rules(profile="greek"), id="greek-house-rule-off"),
    ],
)
def test_each_profile_sets_what_its_document_says(name: str, expected: Rules) -> None:
    assert PROFILES[name].rules == expected
    assert parse_rule_word(name.upper(), Rules()) == expected


def test_every_profile_names_a_source_for_every_option() -> None:
    for name in PROFILE_NAMES:
        rules = PROFILES[name].rules
        for option in OPTIONS:
            source = rules.source_of(option.field)
            # Documents by their language, never by seed number ("000", "001", ...).
            assert source and not re.search(r"\b00[0-4]\b", source), (name, option, source)


@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_a_profile_goes_through_a_board_file_unchanged(name: str) -> None:
    board = parse_board(f"rules: {name} joker-penalty=50\n{JOKER_WALKS}")
    assert board.rules == PROFILES[name].rules.replace(joker_penalty=50)
    assert parse_board(format_board(board)) == board
    assert parse_board(format_board(board, full_rules=True)) == board


def test_words_after_a_profile_win_and_the_command_line_wins_over_the_file() -> None:
    text = f"rules: casual joker-retrieval=replace\n{JOKER_WALKS}"
    assert parse_board(text).rules.joker_retrieval is JokerRetrieval.REPLACE
    code, out, _ = run("hint", "-", "--json", "--rules", "casual", stdin=text)
    assert code == 0
    answer = json.loads(out)
    assert answer["rules"]["profile"] == "casual"
    assert answer["rules"]["joker_retrieval"] == "free"
    assert answer["tiles_played"] == 2


def test_the_rules_as_written_by_default_and_casual_as_a_profile() -> None:
    code, out, _ = run("hint", "-", stdin=JOKER_WALKS)
    assert code == 0
    assert out.startswith("No move: draw a tile.\n")
    assert out.rstrip().endswith(", clp)")
    code, out, _ = run("hint", "-", "--rules", "casual", stdin=JOKER_WALKS)
    assert code == 0
    assert out.startswith("Play 2 tiles (14 points): B7 O7\n")
    assert out.rstrip().endswith("; rules: casual)")


def test_the_hebrew_example_plays_all_three() -> None:
    code, out, _ = run("hint", "-", "--json", stdin="table:\nB3 B4 J\nrack: B5 R7 O7\n")
    answer = json.loads(out)
    assert (code, answer["tiles_played"], answer["status"]) == (0, 3, "optimal")
    assert sorted(map(sorted, answer["table"])) == [["B3", "B4", "B5"], ["J", "O7", "R7"]]


def test_rules_lists_every_profile_with_its_sources() -> None:
    code, out, _ = run("rules", "--json")
    assert code == 0
    profiles = json.loads(out)["profiles"]
    assert list(profiles) == list(PROFILE_NAMES)
    for name, entry in profiles.items():
        assert entry["rules"] == PROFILES[name].rules.as_json()
        assert set(entry["sources"]) == {o.field for o in OPTIONS}
    assert "Hebrew" in profiles["hebrew"]["sources"]["wraparound"]
    assert "rulebook" in profiles["official"]["sources"]["joker_retrieval"]


def test_rules_of_a_profile_with_an_option_says_the_table_chose_it() -> None:
    code, out, _ = run("rules", "norwegian", "--joker-penalty", "50")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("norwegian: ")
    assert lines[0].endswith("(changed here: joker-penalty=50)")
    assert ["joker-penalty=50", "chosen", "for", "this", "table"] in [x.split() for x in lines]
    assert any(line.split()[0] == "locked-joker-sets" and "Norwegian" in line for line in lines)


def test_rules_of_a_board_file_on_standard_input() -> None:
    code, out, _ = run("rules", "-", "--json", stdin=f"rules: french\n{JOKER_WALKS}")
    assert code == 0
    answer = json.loads(out)
    assert answer["rules"] == PROFILES["french"].rules.as_json()


# A board that `rules` reads only for its rules: line, its tiles wrong (X5, R3 R4 R6).
WRONG_TILES = "table:\nR3 R4 R6\nrack: X5 R5 R5 R5\n"


def test_rules_of_a_board_read_only_its_rules_line(tmp_path: Path) -> None:
    """The tiles can be wrong: the rules were refused for a bad tile they do not need."""
    board = tmp_path / "board.txt"
    board.write_text(f"# a board\nrules: hebrew joker-penalty=20\n{WRONG_TILES}")
    code, out, err = run("rules", str(board), "--json")
    assert (code, err) == (0, "")
    assert json.loads(out)["words"][:5] == [
        "hebrew",
        "wraparound",
        "initial-meld=30",
        "tile-set=106",
        "joker-penalty=20",
    ]


@pytest.mark.parametrize(
    ("text", "errors"),
    [
        pytest.param(
            f"rules: wraparound jokers=free\n{WRONG_TILES}",
            ["{f}:1: unknown rule 'jokers=free'"],
            id="unknown-rule",
        ),
        pytest.param(
            f"rules: hebrew\n{WRONG_TILES}rules: casual\n",
            ["{f}:5: section rules: given twice (first on line 1)"],
            id="rules-twice",
        ),
        pytest.param(
            f"rules:\nhebrew\n{WRONG_TILES}",
            ["{f}:2: a line after rules:, which takes its value on its own line"],
            id="a-line-after-rules",
        ),
    ],
)
def test_rules_of_a_board_name_only_the_rules_lines_problems(
    tmp_path: Path, text: str, errors: list[str]
) -> None:
    board = tmp_path / "board.txt"
    board.write_text(text)
    code, out, err = run("rules", str(board))
    assert (code, out) == (1, "")
    lines = err.splitlines()
    assert len(lines) == len(errors)
    for line, error in zip(lines, errors, strict=True):
        assert line.startswith(error.format(f=board))


def test_rules_of_a_name_that_is_no_profile_nor_file_names_the_profiles() -> None:
    """`rummisolve rules okey`: a typed profile name, not a file that cannot be read."""
    code, out, err = run("rules", "okey")
    assert (code, out) == (1, "")
    assert err == (
        "okey: neither a profile (official, casual, hebrew, norwegian, portuguese, french,"
        " greek) nor a board file\n"
    )


def test_an_unknown_profile_is_a_usage_error_naming_the_choices() -> None:
    code, _, err = run("hint", "-", "--rules", "okey", stdin=JOKER_WALKS)
    assert code == 2
    assert "'okey' is not one of 'official', 'casual', 'hebrew'" in err


def test_score_takes_a_profiles_scoring(tmp_path: Path) -> None:
    """The Norwegian rules score the value laid minus the rack; the winner takes the value
    laid plus the other racks (5 + 16 + 3 = 24, and 40 laid)."""
    sheet = tmp_path / "game.txt"
    sheet.write_text("A: laid=40\nB: R5 laid=10\nC: K10 B6 laid=0\nD: O3 laid=5\n")
    code, out, _ = run("score", str(sheet), "--rules", "norwegian", "--json")
    assert code == 0
    assert json.loads(out)["scores"] == {"A": 64, "B": 5, "C": -16, "D": 2}
    # The command line wins: the standard scoring, which has no use for the values laid.
    code, out, err = run("score", str(sheet), "--rules", "norwegian", "--scoring", "standard")
    assert (code, out) == (1, "")
    assert err.splitlines()[0] == f"{sheet}:1: laid= counts only under the laid scoring" + (
        " (scoring=laid, --scoring laid)"
    )
