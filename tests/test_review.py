"""`rummisolve review`: each logged turn against the best move of its position."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummisolve.review import LogProblem, Position, read_log

from .cli import run

SHIPPED = Path(__file__).resolve().parent.parent / "puzzles" / "games"


@pytest.fixture(scope="module")
def greedy_hoarder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A seeded game, greedy (P1) against hoarder (P2), logged."""
    log = tmp_path_factory.mktemp("games") / "games.jsonl"
    code, _, err = run(
        "play", "--players", "2", "--games", "1", "--seed", "3",
        "--strategy", "greedy,hoarder", "--log", str(log),
    )  # fmt: skip
    assert (code, err) == (0, "")
    return log


@pytest.fixture(scope="module")
def reviewed(greedy_hoarder: Path) -> list[dict[str, object]]:
    code, out, err = run("review", "--json", str(greedy_hoarder))
    assert (code, err) == (0, "")
    return [json.loads(line) for line in out.splitlines()]


def test_every_turn_is_reviewed_then_one_summary_row(
    greedy_hoarder: Path, reviewed: list[dict[str, object]]
) -> None:
    lines = greedy_hoarder.read_text(encoding="utf-8").splitlines()
    logged = [json.loads(line) for line in lines]
    first_draws = sum(t["turn"] == 1 and t["action"] == "draw" for t in logged)
    *turns, summary = reviewed
    assert len(turns) == len(lines) - first_draws
    assert summary["turns"] == len(turns) and summary["problems"] == 0


def test_each_best_is_what_hint_finds_on_the_position_written_as_a_board_file(
    greedy_hoarder: Path, reviewed: list[dict[str, object]], tmp_path: Path
) -> None:
    with greedy_hoarder.open(encoding="utf-8") as log:
        positions = [p for p in read_log(log, "log") if isinstance(p, Position)]
    from rummisolve.review import board_text

    for position, row in zip(positions, reviewed, strict=False):
        assert (row["game"], row["turn"]) == (position.game, position.turn)
        board = tmp_path / "board.txt"
        board.write_text(board_text(position.board), encoding="utf-8")
        code, out, _ = run("hint", "--json", str(board))
        hint = json.loads(out)
        assert code == 0
        assert row["best_tiles"] == hint["tiles_played"]
        assert row["best_value"] == hint["value_played"]
        assert (row["table"], row["stand_for"]) == (hint["table"], hint["stand_for"])


def test_no_turn_lays_more_than_its_best_greedy_misses_nothing_hoarder_does(
    reviewed: list[dict[str, object]],
) -> None:
    *turns, summary = reviewed
    assert all(int(str(r["tiles_played"])) <= int(str(r["best_tiles"])) for r in turns)
    assert {r["mark"] for r in turns if r["player"] == "P1"} == {"best"}
    players = summary["summary"]
    assert isinstance(players, dict)
    assert players["P1"]["tiles_missed_per_turn"] == 0
    assert players["P2"]["tiles_missed_per_turn"] > 1
    assert {r["mark"] for r in turns if r["player"] == "P2"} >= {"drew-with-a-move"}


def test_the_missed_turns_show_the_best_moves_steps() -> None:
    shipped = str(SHIPPED / "greedy-heavy-cautious.jsonl")
    code, out, err = run("review", "--turns", "missed", shipped)
    assert (code, err) == (0, "")
    assert "   1   13  P2       3 (54 pts)       4 (53 pts)       missed 1 tile\n" in out
    assert "            Play 4 tiles (53 points): R6 R8 R9 J=R7\n" in out
    assert "P2          15   93%         0.07           0.0            0\n" in out


def _two_games() -> list[str]:
    """The shipped game twice, as games 1 and 2 of one log."""
    lines = (SHIPPED / "greedy-heavy-cautious.jsonl").read_text(encoding="utf-8").splitlines()
    second = [json.dumps(json.loads(line) | {"game": 2}) for line in lines]
    return [line + "\n" for line in [*lines, *second]]


def _broken(lines: list[str], at: int, change: object) -> list[str]:
    """The log with line `at` (from 1) changed: a function of its JSON, or text."""
    changed = list(lines)
    if callable(change):
        line = json.loads(changed[at - 1])
        change(line)
        changed[at - 1] = json.dumps(line) + "\n"
    else:
        changed[at - 1] = str(change)
    return changed


def _illegal_table(line: dict[str, list[list[str]]]) -> None:
    line["table"][0] = [*line["table"][0][:-1], "B1"]


def _tile_from_nowhere(line: dict[str, dict[str, list[str]]]) -> None:
    line["racks"]["P1"].append("O13")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_illegal_table, "not a valid set"),
        (_tile_from_nowhere, "P1's rack is not what the turn leaves"),
        ('{"game": 1, "turn": 7, "player": "P2", "act\n', "not a log line (JSONDecodeError"),
        ("rules: official\n", "not a log line"),
    ],
    ids=["table-not-legal", "tile-from-nowhere", "cut-mid-line", "another-format"],
)
def test_a_wrong_turn_is_one_line_naming_the_file_and_line_and_the_next_game_is_reviewed(
    tmp_path: Path, change: object, message: str
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(_broken(_two_games(), 7, change)), encoding="utf-8")
    code, out, err = run("review", "--json", str(bad))
    assert code == 1
    assert err.count("\n") == 1 and err.startswith(f"{bad}, line 7: ") and message in err
    rows = [json.loads(line) for line in out.splitlines()[:-1]]
    assert [r["turn"] for r in rows if r["game"] == 1] == [2, 3, 4, 5, 6]
    assert [r["turn"] for r in rows if r["game"] == 2] == list(range(2, 48))


def test_a_game_the_log_holds_only_in_part_is_reported_not_guessed(tmp_path: Path) -> None:
    lines = _two_games()[:10]
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines), encoding="utf-8")
    code, out, err = run("review", str(cut))
    assert code == 1
    unfinished = "game 1 stops after turn 10, unfinished: the log holds only part of it"
    assert err == f"{cut}, line 10: {unfinished}\n"
    assert "   1   10  P2 " in out  # the turns it holds are reviewed


def test_a_log_that_is_not_there_is_named_and_the_others_reviewed(tmp_path: Path) -> None:
    shipped = str(SHIPPED / "greedy-heavy-cautious.jsonl")
    code, out, err = run("review", "--json", str(tmp_path / "none.jsonl"), shipped)
    assert code == 1 and err == f"{tmp_path / 'none.jsonl'}: No such file or directory\n"
    assert json.loads(out.splitlines()[-1])["problems"] == 1


def test_read_log_hands_out_the_position_before_each_turn() -> None:
    with (SHIPPED / "greedy-heavy-cautious.jsonl").open(encoding="utf-8") as log:
        found = list(read_log(log, "g"))
    assert not any(isinstance(f, LogProblem) for f in found)
    first = found[0]
    assert isinstance(first, Position)
    # Turn 1 drew a tile the log does not name: the review starts at turn 2.
    assert (first.line, first.turn, first.board.table, first.board.opened) == (2, 2, (), False)
    assert (first.player, len(first.board.rack)) == ("P3", 14)


def test_two_jobs_give_the_rows_one_job_gives_in_order() -> None:
    shipped = str(SHIPPED / "greedy-heavy-cautious.jsonl")
    one = run("review", "--json", shipped)
    two = run("review", "--json", "--jobs", "2", shipped)
    assert one == two and one.code == 0


def test_the_turns_that_missed_become_unique_puzzles_that_batch_confirms(
    greedy_hoarder: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "puzzles"
    code, _, err = run(
        "review", "--puzzles", str(folder), "--min-missed", "20", str(greedy_hoarder)
    )
    written = sorted(folder.iterdir())
    assert code == 0 and err == f"wrote {len(written)} puzzles to {folder}\n" and len(written) > 1
    first = written[0].read_text(encoding="utf-8")
    assert first.startswith(f"# rummisolve review: {greedy_hoarder}, game 1, turn ")
    assert "# expect: tiles=" in first
    code, _, err = run("batch", str(folder), "--check-expected", "--unique", "--jobs", "1")
    assert code == 0
    assert f"unique: {len(written)} of {len(written)} best moves proved the only ones" in err
