"""The solve pipeline as data (engine/stages.py): which stages the rules call for, and
the engine's table of them, in the order they run."""

from __future__ import annotations

import pytest

import rummisolve.engine
from rummisolve.board import parse_board
from rummisolve.engine.stages import STAGES

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
