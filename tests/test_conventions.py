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


BAD_PLUG_IN = """\
class Bad:
    name = "bad"

    def choose(self, view, find):
        return 1 / 0
"""


@pytest.fixture
def bad_plug_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A plug-in whose `choose` raises on its line 5, in the current folder."""
    (tmp_path / "bad.py").write_text(BAD_PLUG_IN)
    monkeypatch.chdir(tmp_path)
    return "bad.py:Bad,greedy"


def test_a_plug_in_that_raises_is_named_by_its_file_and_line(bad_plug_in: str) -> None:
    code, _, err = run("play", "--strategies", bad_plug_in, "--games", "1", "--jobs", "1")
    assert code == 1
    assert err.splitlines()[-1] == (
        "Error: bad.py:5: turn 1: P3 (bad), strategy 'bad.py:Bad' failed:"
        " ZeroDivisionError: division by zero"
    )
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("debug", "env"),
    [
        pytest.param(("--debug",), {}, id="option"),
        pytest.param((), {"RUMMISOLVE_DEBUG": "1"}, id="variable"),
    ],
)
def test_debug_prints_the_plug_in_s_whole_traceback(
    bad_plug_in: str, debug: tuple[str, ...], env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    args = ("tournament", "--strategies", bad_plug_in, "--games", "1", "--jobs", "1")
    code, _, err = run(*debug, *args)
    assert code == 1
    assert err.startswith("Traceback (most recent call last):\n")
    assert 'bad.py", line 5, in choose\n    return 1 / 0\n' in err
    assert err.splitlines()[-1].startswith("Error: bad.py:5: turn ")


def test_debug_is_a_documented_global_option() -> None:
    _, out, _ = run("--help")
    assert "--debug" in out and "RUMMISOLVE_DEBUG" in out
    assert "--color / --no-color" in out


ANSI = "\x1b["


@pytest.mark.parametrize(
    ("args", "env", "coloured"),
    [
        pytest.param((), {}, False, id="piped"),
        pytest.param(("--color",), {}, True, id="color"),
        pytest.param(("--color",), {"NO_COLOR": "1"}, True, id="color-over-NO_COLOR"),
        pytest.param((), {"FORCE_COLOR": "1"}, True, id="FORCE_COLOR"),
        pytest.param(("--no-color",), {"FORCE_COLOR": "1"}, False, id="no-color-over-FORCE"),
    ],
)
@pytest.mark.parametrize("every", [(), ("--all",)], ids=["hint", "hint-all"])
def test_colour_as_the_options_and_variables_say(
    args: tuple[str, ...],
    env: dict[str, str],
    coloured: bool,
    every: tuple[str, ...],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code, out, _ = run(*args, "hint", EXAMPLE, *every)
    assert code == 0 and (ANSI in out) is coloured


BOARD_160 = """\
rules: tile-set=160
table:
R5 R6 R7 | R5 R6 R7 | R5 R6 R7 | K5 K6 K7 | K5 K6 K7 | K5 K6 K7
rack: R8 K8
"""


def test_a_profile_on_a_160_tile_board_says_the_cause_once(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text(BOARD_160)
    code, _, err = run("check", str(tmp_path / "big.txt"), "--rules", "hebrew")
    assert code == 1
    assert err.splitlines()[0] == (
        f"{tmp_path / 'big.txt'}:1: a board for the 160-tile set, but --rules hebrew plays"
        " the 106-tile set, with too few copies (--tile-set 160 keeps the board's)"
    )
    assert "too many copies" not in err
    code, _, _ = run("check", str(tmp_path / "big.txt"), "--rules", "hebrew", "--tile-set", "160")
    assert code == 0


def test_too_many_copies_for_the_board_s_own_box_are_still_named_per_tile(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text(BOARD_160.replace("rules: tile-set=160\n", ""))
    code, _, err = run("check", str(tmp_path / "big.txt"), "--rules", "hebrew")
    assert code == 1 and "too many copies of R5: the 106-tile set has 2" in err


def test_batch_names_a_path_that_does_not_exist_and_counts_no_board(tmp_path: Path) -> None:
    missing = str(tmp_path / "nosuchdir")
    code, out, err = run("batch", missing)
    assert (code, out, err) == (1, "", f"{missing}: no such file or folder\n")
    code, out, err = run("batch", missing, EXAMPLE)
    assert code == 1 and EXAMPLE in out
    lines = err.splitlines()
    assert lines[0] == f"{missing}: no such file or folder"
    assert lines[-2].startswith("1 board in ") and lines[-2].endswith(
        "1 solved, 0 no move, 0 failed"
    )
    assert lines[-1] == f"1 path not found: {missing}"


def test_the_puzzle_format_md_shows_is_what_puzzle_writes_today() -> None:
    """docs/format.md shows this file (its example `cat`s it): the file is regenerated."""
    code, out, _ = run(
        "puzzle",
        "--kind",
        "all-out",
        "--difficulty",
        "medium",
        "--seed",
        "1",
        "--count",
        "1",
        "--out",
        "-",
    )
    header, _, made = out.partition("\n")
    assert (code, header) == (0, "# --- board 1: all-out-medium-1-001.txt")
    assert made == Path("puzzles/generated/all-out-medium-1-001.txt").read_text()


def test_the_completion_script_is_produced() -> None:
    """The README's shell completion: click writes the script for bash and zsh."""
    from click.testing import CliRunner

    from rummisolve.cli import cli

    for shell, line in (("bash", "_rummisolve_completion()"), ("zsh", "#compdef rummisolve")):
        result = CliRunner().invoke(
            cli, [], prog_name="rummisolve", env={"_RUMMISOLVE_COMPLETE": f"{shell}_source"}
        )
        assert result.exit_code == 0 and line in result.output
