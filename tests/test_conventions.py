"""Issue 31's conventions: progress on a terminal for every long job, an interrupted
`hint --all` keeps its list, plug-in errors that name their line, --debug, a profile on a
160-tile board said once, a path that does not exist, colour and shell completion."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rummisolve.engine.every as every
from rummisolve import parse_board
from rummisolve.cli import progress

from .cli import run

EXAMPLE = "puzzles/rules/012-interface-hint-example.txt"


@pytest.mark.parametrize(
    ("args", "label"),
    [
        pytest.param(("bench", EXAMPLE, "--backend", "clp"), "benching", id="bench"),
        pytest.param(("puzzle", "--count", "1", "--out", "-"), "making puzzles", id="puzzle"),
        pytest.param(("hint", EXAMPLE, "--all"), "best moves", id="hint-all"),
        pytest.param(("batch", EXAMPLE), "solving", id="batch"),
    ],
)
def test_a_long_job_shows_progress_on_a_terminal_only(
    args: tuple[str, ...], label: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, piped = run(*args)
    assert code == 0 and label not in piped
    monkeypatch.setattr(progress, "stderr_is_terminal", lambda: True)
    code, _, shown = run(*args)
    assert code == 0 and shown.startswith(label)


def interrupted_after_two(monkeypatch: pytest.MonkeyPatch) -> None:
    """every_best_move that lists the example's first two best moves, then meets Ctrl-C."""
    real = every.every_best_move
    found = real(parse_board(Path(EXAMPLE).read_text()), limit=2)
    assert found.count == 2

    def stopped(*args: object, listed: every.Listed | None = None, **kwargs: object) -> None:
        assert listed is not None
        listed(every.BestMoves(found.moves, False, 5, 0.25))
        raise KeyboardInterrupt

    monkeypatch.setattr(every, "every_best_move", stopped)


def test_hint_all_interrupted_prints_the_moves_listed_so_far(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    interrupted_after_two(monkeypatch)
    code, out, err = run("hint", EXAMPLE, "--all")
    assert code == 130
    assert out.count("Best move ") == 2 and "Best move 1:" in out and "Best move 2:" in out
    assert out.splitlines()[-1].startswith("at least 2 best moves (interrupted: 5 solves, 250 ms")
    assert err == "interrupted: 2 best moves listed\n"


def test_hint_all_json_interrupted_is_marked_incomplete(monkeypatch: pytest.MonkeyPatch) -> None:
    interrupted_after_two(monkeypatch)
    code, out, _ = run("hint", EXAMPLE, "--all", "--json")
    listed = json.loads(out)
    assert code == 130
    assert (listed["count"], listed["complete"], listed["interrupted"]) == (2, False, True)
    assert len(listed["moves"]) == 2
