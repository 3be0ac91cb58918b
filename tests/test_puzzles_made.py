"""Puzzle makers' commands: `puzzle`, `batch --unique` and `--write-expected`, `check`
over folders and `--json`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummisolve.board import read_board
from rummisolve.engine.every import every_best_move
from rummisolve.legality import check_move
from rummisolve.puzzle import Band, Kind, make_puzzles

from .cli import run

FIRST_EXAMPLE = Path("puzzles/rules/012-interface-hint-example.txt")
UNIQUE = Path("puzzles/rules/000-extend-and-split.txt")


@pytest.mark.parametrize("kind", list(Kind), ids=[k.value for k in Kind])
def test_puzzles_have_one_best_move_of_their_kind(kind: Kind) -> None:
    for puzzle in make_puzzles(2, 3, kind):
        found = every_best_move(puzzle.board)
        assert found.unique
        answer = found.moves[0]
        assert check_move(puzzle.board, answer) == []
        assert puzzle.board.expect == (answer.tiles_played, answer.value_played)
        if kind is Kind.ALL_OUT:
            assert answer.rack == ()
        assert puzzle.board.opened is (kind is not Kind.INITIAL_MELD)
        assert puzzle.difficulty.band is Band.of(puzzle.difficulty.score)


def test_the_same_seed_gives_the_same_puzzles() -> None:
    first = [p.text() for p in make_puzzles(2, 5, Kind.MOST_TILES)]
    assert first == [p.text() for p in make_puzzles(2, 5, Kind.MOST_TILES)]


def test_puzzle_files_read_back_and_batch_confirms_them(tmp_path: Path) -> None:
    code, out, err = run("puzzle", "--count", "3", "--seed", "1", "--out", str(tmp_path))
    assert (code, out, err) == (0, f"wrote 3 puzzles to {tmp_path}\n", "")
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["all-out-1-001.txt", "all-out-1-002.txt", "all-out-1-003.txt"]
    text = (tmp_path / names[0]).read_text()
    assert text.startswith("# rummisolve puzzle: all-out, seed 1, candidate ")
    assert "\n# difficulty: " in text and "\n# expect: tiles=" in text
    code, out, err = run("check", str(tmp_path))
    assert code == 0 and out.count(": valid: ") == 3
    code, _, err = run("batch", str(tmp_path), "--check-expected", "--unique", "--jobs", "1")
    assert code == 0
    assert err.splitlines()[-2].endswith("expect: 3 checked, 0 mismatched")
    assert err.splitlines()[-1] == "unique: 3 of 3 best moves proved the only ones"
    # The same names again: refused unless --overwrite.
    code, _, err = run("puzzle", "--count", "1", "--seed", "1", "--out", str(tmp_path))
    assert code == 1 and "--overwrite replaces it" in err


def test_puzzles_on_standard_output_are_a_stream_batch_reads(tmp_path: Path) -> None:
    code, out, _ = run("puzzle", "--count", "2", "--seed", "2", "--kind", "most-tiles")
    assert code == 0 and out.count("# --- board ") == 2
    code, _, err = run("batch", "-", "--check-expected", "--unique", "--jobs", "1", stdin=out)
    assert code == 0 and "2 checked, 0 mismatched" in err


def test_a_band_never_dealt_is_an_error_after_the_puzzles_found() -> None:
    code, _, err = run(
        "puzzle",
        "--count",
        "1",
        "--kind",
        "initial-meld",
        "--rules",
        "casual",
        "--initial-meld",
        "1000",
    )
    assert code == 1
    assert "only 0 of 1 initial-meld puzzles in 400 candidates (seed 1)" in err


def test_unique_fails_a_board_with_two_best_moves(tmp_path: Path) -> None:
    for path in (FIRST_EXAMPLE, UNIQUE):
        (tmp_path / path.name).write_text(path.read_text())
    code, out, err = run("batch", str(tmp_path), "--unique", "--jobs", "1", "--format", "jsonl")
    assert code == 1
    assert f"{tmp_path / FIRST_EXAMPLE.name}: not unique: at least 2 best moves" in err
    assert err.splitlines()[-1] == "unique: 1 of 2 best moves proved the only ones"
    assert [json.loads(row)["status"] for row in out.splitlines()] == ["optimal", "optimal"]


def test_write_expected_stamps_answers_and_keeps_a_different_line(tmp_path: Path) -> None:
    fresh, wrong = tmp_path / "fresh.txt", tmp_path / "wrong.txt"
    fresh.write_text("# a note\ntable:\nR3 R4 R5\nrack: R2 B5 O5\n")
    wrong.write_text("# expect: tiles=1 value=1\ntable:\nR3 R4 R5\nrack: R6\n")
    code, _, err = run("batch", str(tmp_path), "--write-expected", "--jobs", "1")
    assert code == 1
    assert (
        fresh.read_text()
        == "# expect: tiles=3 value=12\n# a note\ntable:\nR3 R4 R5\nrack: R2 B5 O5\n"
    )
    assert f"{wrong}: its expect line says tiles=1 value=1, the answer is tiles=1 value=6" in err
    assert err.splitlines()[-1] == "expect lines written: 1"
    code, _, err = run("batch", str(tmp_path), "--write-expected", "--force", "--jobs", "1")
    assert code == 0
    assert wrong.read_text().startswith("# expect: tiles=1 value=6\ntable:")
    assert read_board(fresh).expect == (3, 12)


def test_force_needs_write_expected() -> None:
    code, _, err = run("batch", str(UNIQUE), "--force")
    assert code == 2 and "only with --write-expected" in err


def test_check_takes_folders_and_prints_json(tmp_path: Path) -> None:
    (tmp_path / "good.txt").write_text(UNIQUE.read_text())
    (tmp_path / "bad.txt").write_text("table:\nR3 R4 X5\n")
    code, out, err = run("check", str(tmp_path), "--json")
    assert code == 1
    rows = [json.loads(line) for line in out.splitlines()]
    bad = f"{tmp_path / 'bad.txt'}:2: unknown tile 'X5': colour must be K, R, O (or Y) or B"
    assert rows[0] == {"file": str(tmp_path / "bad.txt"), "valid": False, "problems": [bad]}
    assert rows[1]["valid"] is True and rows[1]["expect"] == {"tiles": 3, "value": 12}
    assert err == f"{bad}\n1 board of 2 invalid\n"


GENERATED = sorted(Path("puzzles/generated").glob("*.txt"))


def test_the_generated_library_covers_every_kind_and_band() -> None:
    assert len(GENERATED) == 30
    names = {p.name.rsplit("-", 2)[0] for p in GENERATED}
    assert names == {f"{k.value}-{b.value}" for k in Kind for b in Band}


@pytest.mark.parametrize("path", GENERATED, ids=lambda p: p.name)
def test_a_generated_puzzle_has_one_answer_its_band_and_its_comment(path: Path) -> None:
    board = read_board(path)
    found = every_best_move(board)
    assert found.unique
    answer = found.moves[0]
    assert board.expect == (answer.tiles_played, answer.value_played)
    lines = path.read_text().splitlines()
    band = path.name.rsplit("-", 2)[0].rsplit("-", 1)[1]
    assert lines[1].startswith(f"# difficulty: {band} (score ")
    assert f"#   Play {answer.tiles_played} tile" in lines[3]


def test_unique_within_a_time_limit_that_cuts_the_proof_short() -> None:
    """A proof the time limit stops is not a second move: it says so."""
    from rummisolve.batch.rows import best_two
    from rummisolve.move import Objective

    board = read_board(UNIQUE)
    assert best_two(board, Objective.TILES, None, None)[1] is None
    assert best_two(read_board(FIRST_EXAMPLE), Objective.TILES, None, None)[1] == (
        "not unique: at least 2 best moves (rummisolve hint --all lists them)"
    )
    assert every_best_move(read_board(FIRST_EXAMPLE), limit=1).past_limit
    assert not every_best_move(board, limit=1).past_limit


def test_overwrite_without_out_is_a_usage_error_as_generate_s() -> None:
    """`puzzle --overwrite` without --out printed the puzzles and said nothing of it."""
    code, out, err = run("puzzle", "--count", "1", "--kind", "all-out", "--overwrite")
    assert (code, out) == (2, "")
    assert err.endswith("Error: --overwrite needs --out\n")
