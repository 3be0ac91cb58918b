"""The solve pipeline as data (engine/stages.py): which stages the rules call for, and
the engine's table of them, in the order they run."""

from __future__ import annotations

import pytest

import rummisolve.engine
from rummisolve.board import parse_board
from rummisolve.engine.solve import find_move
from rummisolve.engine.stages import STAGES
from rummisolve.legality import check_move
from rummisolve.move import Status

JOKER_TABLE = "table:\nR3 R4 J\nK9 K10 K11\nrack: R5 K12 O5 O6\n"


@pytest.mark.parametrize(
    ("header", "opened", "timed", "expected"),
    [
        ("", True, False, ["pinned", "homes", "looser", "rack-only", "whole"]),
        ("", True, True, ["aside", "pinned", "homes", "looser", "rack-only", "whole"]),
        ("rules: hebrew\n", True, False, ["pinned", "homes", "looser", "rack-only", "whole"]),
        ("rules: joker-retrieval=replace\n", True, False, ["looser", "whole"]),
        ("rules: casual\n", True, True, ["whole"]),
        ("", False, False, ["glance", "whole"]),
    ],
    ids=["official", "official-timed", "wraparound", "replace", "casual", "unopened"],
)
def test_the_stages_the_rules_call_for(
    header: str, opened: bool, timed: bool, expected: list[str]
) -> None:
    text = header + ("" if opened else "opened: no\n") + JOKER_TABLE
    board = parse_board(text)
    assert [s.name for s in STAGES if s.applies(board, timed)] == expected


def test_the_engines_table_names_every_stage_in_order() -> None:
    doc = rummisolve.engine.__doc__ or ""
    table = doc.split("stage      its job", 1)[1].split("\n\n", 1)[0]
    named = [line.split()[0] for line in table.splitlines()[1:] if line[:1].strip()]
    assert named == [s.name for s in STAGES]


# Seed 7's large 4-joker wraparound table 17 (strict_vs_free.py): its pinned answer is
# refused (a freed joker without two rack tiles), and the homes answer passes.
_WRAPAROUND_REFUSED = """rules: wraparound tile-set=160
table:
J R11 R12 R13
O1 O2 O3
K9 K10 K11 K12
B12 B13 B1
R6 R7 R8
K9 R9 J B9
K11 R11 O11 B11
K9 K10 K11
B9 B10 B11
R6 R7 J
R12 R13 R1
K5 R5 O5 B5
R12 R13 R1
K12 O12 B12
B6 B7 B8
O11 O12 O13
J B5 B6
rack: K4 K5 K6 K6 K7 K13 K13 R1 R2 R3 R3 O3 O12 B3 B4 B6 B7 B7
"""


# Seed 7's large 4-joker table 22 (strict_vs_free.py): a freed joker refuses the pinned
# answer, and the staying R5 of J J R7 ... R11 must not be laid in R2 R3 R4 J while the
# R6 goes into a group (a run starting at R7 is not its cut): a cut needs the next piece
# to go on from the joker's, so the homes answer settles it without the whole model.
_CUT_FROM_ITS_SET = """rules: tile-set=160
table:
K10 K11 K12
K7 K8 K9 K10
J B10 B11
B8 B9 B10 B11 B12
K7 R7 O7
B8 B9 B10 B11 B12
J J R7 R8 R9 R10 R11
O5 O6 O7
R1 R2 R3
O7 O8 J
R2 R3 R4
O9 O10 O11
rack: K4 K9 K13 R6 R13 R13 O8 O11 B2 B6 B13
"""


@pytest.mark.parametrize(
    ("text", "played"),
    [
        # Homes hold runs past the 13 and the pinned relaxation a wraparound run's joker
        # needs: settled there, not by the whole model.
        pytest.param(_WRAPAROUND_REFUSED, (17, 93), id="wraparound-run-joker"),
        pytest.param(_CUT_FROM_ITS_SET, (7, 75), id="staying-joker-the-next-piece-joins"),
    ],
)
def test_homes_settle_a_table_the_pinned_answer_refuses(text: str, played: tuple[int, int]) -> None:
    board = parse_board(text)
    ran: list[str] = []
    move = find_move(board, watch=lambda stage, answer, seconds: ran.append(stage))
    assert ran == ["pinned", "homes"]
    assert move.status is Status.OPTIMAL and check_move(board, move) == []
    assert (move.tiles_played, move.value_played) == played
