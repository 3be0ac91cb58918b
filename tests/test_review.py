"""`rummisolve review`: each logged turn against the best move of its position."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

from rummisolve.review import (
    Best,
    LogProblem,
    Position,
    Solving,
    TurnReview,
    best_on,
    board_text,
    read_log,
    review,
)
from rummisolve.review.turns import CRASHED

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
        ('{"game": 1, "turn": 7, "player": "P2", "act\n', "not a log line: not JSON: "),
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


def _shipped_start(tmp_path: Path, lines: int) -> Path:
    """The shipped game's first lines: a game the log holds in part."""
    start = tmp_path / "start.jsonl"
    start.write_text("".join(_two_games()[:lines]), encoding="utf-8")
    return start


def test_two_jobs_give_the_rows_one_job_gives_in_order(tmp_path: Path) -> None:
    start = str(_shipped_start(tmp_path, 8))
    one = run("review", "--json", start)
    two = run("review", "--json", "--jobs", "2", start)
    assert one == two and one.code == 1 and one.out.count("\n") == 8


def _positions(tmp_path: Path, lines: int) -> list[Position | LogProblem]:
    with _shipped_start(tmp_path, lines).open(encoding="utf-8") as log:
        return list(read_log(log, "start"))


def lays_nothing(text: str, solving: Solving) -> Best:
    """A best move found wrong: nothing to lay, proved."""
    best = best_on(text, solving)
    return Best(best.answer | {"tiles_played": 0, "value_played": 0}, best.steps)


def test_a_turn_that_lays_more_than_the_proved_best_is_a_problem_not_a_row(
    tmp_path: Path,
) -> None:
    found = list(review(_positions(tmp_path, 8), Solving(), best=lays_nothing))
    assert [f.position.turn for f in found if isinstance(f, TurnReview)] == [2, 3, 4, 5, 6, 8]
    assert found[5] == LogProblem(
        "start, line 7: turn 7 lays 6 tiles, more than the best move's 0 under the game's rules"
    )


def crash_on(position: str, text: str, solving: Solving) -> Best:
    """A solver library crashing on one position: its worker process gone."""
    if text == position:
        os._exit(70)
    return best_on(text, solving)


def test_a_position_that_kills_its_workers_is_a_problem_naming_its_line(
    tmp_path: Path,
) -> None:
    found = _positions(tmp_path, 5)
    third = found[1]
    assert isinstance(third, Position)
    reviewed = list(review(found, Solving(), 2, partial(crash_on, board_text(third.board))))
    assert reviewed[1] == LogProblem(f"start, line 3: {CRASHED}")
    assert [r.position.turn for r in reviewed if isinstance(r, TurnReview)] == [2, 4, 5]


def test_ctrl_c_keeps_the_rows_written_then_the_summary_and_exits_130(tmp_path: Path) -> None:
    """SIGINT to the process group, as a terminal sends it, once rows are coming."""
    lines = (SHIPPED / "greedy-heavy-cautious.jsonl").read_text(encoding="utf-8").splitlines()
    many = [json.dumps(json.loads(line) | {"game": n}) for n in range(1, 31) for line in lines]
    log = tmp_path / "many.jsonl"
    log.write_text("\n".join(many) + "\n", encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "rummisolve", "review", "--json", str(log)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        bufsize=0,  # nothing read ahead past the first row, where communicate would miss it
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        os.killpg(process.pid, signal.SIGINT)
        rest, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    *turns, summary = [json.loads(row) for row in (first + rest).decode().splitlines()]
    assert process.returncode == 130
    total = 30 * (len(lines) - 1)
    reviewed = f"{len(turns)} turn{'s' * (len(turns) != 1)}"
    assert stderr.decode() == f"interrupted: {reviewed} of {total} reviewed\n"
    assert 1 <= len(turns) < total and summary["turns"] == len(turns)


def test_the_turns_that_missed_become_unique_puzzles_that_batch_confirms(
    greedy_hoarder: Path, tmp_path: Path
) -> None:
    """Of the turns missing 22 tiles or more, two are proved unique within 20 solves, two
    need more (skipped, counted, not written), the rest have rival best moves."""
    folder = tmp_path / "puzzles"
    args = ["--min-missed", "22", "--proof-solves", "20", str(greedy_hoarder)]
    code, _, err = run("review", "--puzzles", str(folder), *args)
    written = sorted(folder.iterdir())
    assert code == 0 and len(written) == 2
    assert err == (
        f"wrote 2 puzzles to {folder}; 2 turns skipped: proving the best move the only one"
        " needed more than 20 solves (--proof-solves)\n"
    )
    first = written[0].read_text(encoding="utf-8")
    assert first.startswith(f"# rummisolve review: {greedy_hoarder}, game 1, turn ")
    assert "# expect: tiles=" in first
    code, _, err = run("batch", str(folder), "--check-expected", "--unique", "--jobs", "1")
    assert code == 0
    assert f"unique: {len(written)} of {len(written)} best moves proved the only ones" in err


def test_puzzle_files_of_the_same_names_are_refused_unless_overwrite(tmp_path: Path) -> None:
    shipped = str(SHIPPED / "greedy-heavy-cautious.jsonl")
    mine = tmp_path / "greedy-heavy-cautious-g1-t13.txt"
    mine.write_text("mine\n", encoding="utf-8")
    code, out, err = run("review", "--puzzles", str(tmp_path), "--min-missed", "1", shipped)
    assert (code, out) == (1, "")
    assert err == f"Error: {mine} exists: --overwrite replaces it\n"
    assert [p.name for p in tmp_path.iterdir()] == [mine.name]
    assert mine.read_text(encoding="utf-8") == "mine\n"
    code, _, err = run("review", "--overwrite", shipped)
    assert code == 2 and "--overwrite needs --puzzles" in err


def test_tournament_review_gives_each_strategys_tiles_missed_as_review_finds_them(
    tmp_path: Path,
) -> None:
    """Per strategy (whatever its seat), the mean of the review's tiles missed over its
    turns, and the interval of those means game by game."""
    from rummisolve.stats import clustered_mean

    log = tmp_path / "games.jsonl"
    code, out, err = run(
        "tournament", "--players", "2", "--strategies", "greedy,hoarder", "--games", "2",
        "--seed", "2", "--review", "--json", "--log", str(log),
    )  # fmt: skip
    assert (code, err) == (0, "")
    report = json.loads(out)
    seats = {row_number: row["seats"] for row_number, row in enumerate(report["rows"], 1)}
    code, out, _ = run("review", "--json", str(log))
    *turns, _ = [json.loads(line) for line in out.splitlines()]
    for name in ("greedy", "hoarder"):
        per_game = [
            [
                t["tiles_missed"]
                for t in turns
                if (t["game"], seats[t["game"]][t["player"]]) == (g, name)
            ]
            for g in seats
        ]
        mean, low, high = clustered_mean(per_game)
        assert report["review"][name] == {
            "turns": sum(map(len, per_game)),
            "tiles_missed_per_turn": round(mean, 4),
            "tiles_missed_per_turn_ci": [round(low, 4), round(high, 4)],
        }
    assert report["review"]["greedy"]["tiles_missed_per_turn"] == 0
    assert report["review"]["hoarder"]["tiles_missed_per_turn"] > 1
