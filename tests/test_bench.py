"""`rummisolve bench`: times per backend, and the check that backends agree."""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from collections.abc import Callable
from pathlib import Path

import cbcbox
import pytest

from rummisolve.bench import SOLVER, Bench, BenchReport, NamedBoard, Solver, percentile
from rummisolve.board import Board, parse_board
from rummisolve.engine import via_pulp
from rummisolve.engine.backends import get_backend
from rummisolve.engine.solve import find_move
from rummisolve.errors import SolverError
from rummisolve.move import Move, Objective, no_move

from .cli import run

# find_move's signature, for the stand-ins that make a backend misbehave.
Solve = Callable[[Board, Objective, str, "float | None"], Move]
SMALL = ["--table-tiles", "0-15", "--rack-tiles", "3-8"]
NUMBER = re.compile(r" +\d+\.\d")


def backend_options(*names: str) -> list[str]:
    """`--backend NAME` for each backend, as a user names several."""
    return [word for name in names for word in ("--backend", name)]


def bench(boards: list[NamedBoard], backends: list[str], solver: Solver = SOLVER) -> BenchReport:
    benched = Bench(backends, solver=solver)
    benched.start()
    for board in boards:
        benched.add(board)
    return benched.report()


@pytest.mark.parametrize(
    ("values", "p90"),
    [([5.0], 5.0), ([1.0, 2.0], 2.0), ([float(n) for n in range(1, 11)], 9.0)],
    ids=["one", "two", "ten"],
)
def test_p90_is_a_time_some_board_took(values: list[float], p90: float) -> None:
    assert percentile(values, 0.9) == p90


def test_json_shape_on_generated_boards() -> None:
    code, out, err = run("bench", "--generate", "4", "--seed", "3", *SMALL, "--json")
    report = json.loads(out)
    assert code == 0
    assert err == ""
    assert set(report) == {
        "boards",
        "repeat",
        "backends",
        "same_optimum",
        "unproved_boards",
        "differences",
        "illegal",
    }
    assert report["boards"] == 4
    assert report["repeat"] == 1
    assert sorted(report["backends"]) == ["cbc", "clp", "highs", "pulp-highs"]
    for times in report["backends"].values():
        assert set(times) == {"median_ms", "p90_ms", "max_ms", "unproved"}
        assert 0 <= times["median_ms"] <= times["p90_ms"] <= times["max_ms"]
        assert times["unproved"] == 0
    assert (report["same_optimum"], report["unproved_boards"]) == (True, 0)
    assert (report["differences"], report["illegal"]) == ([], [])


def test_human_table_on_files_and_repeats(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("table:\nR3 R4 R5\nrack: R2 B5 O5\n")
    (tmp_path / "b.txt").write_text("rack: K1\n")
    code, out, _err = run(
        "bench", str(tmp_path), *backend_options("highs", "pulp-highs"), "--repeat", "2"
    )
    assert code == 0
    assert NUMBER.sub("  T", out) == (
        "2 boards, 2 solves per board and backend\n"
        "backend     median ms  p90 ms  max ms\n"
        "highs  T  T  T\n"
        "pulp-highs  T  T  T\n"
        "same optimum: all 2 backends agree on every board\n"
    )


def test_bad_boards_are_named_and_left_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad file, an empty folder, a missing file: each one line as batch says it; the
    boards around them are benched, and the exit status is 1 at the end."""
    monkeypatch.chdir(tmp_path)
    Path("a.txt").write_text("table:\nR3 R4 R5\nrack: R2 B5 O5\n")
    Path("bad.txt").write_text("table:\nR3 R4 R5\nrack: X9\n")
    Path("b.txt").write_text("rack: K1\n")
    Path("empty").mkdir()
    code, out, err = run(
        "bench", "a.txt", "bad.txt", "empty", "missing.txt", "b.txt", "--backend", "highs"
    )
    assert code == 1
    assert err == (
        "bad.txt:3: unknown tile 'X9': colour must be K, R, O (or Y) or B\n"
        "empty: no *.txt boards in this folder\n"
        "missing.txt: cannot read: No such file or directory\n"
    )
    assert NUMBER.sub("  T", out).splitlines()[:3] == [
        "2 boards, 1 solve per board and backend",
        "backend  median ms  p90 ms  max ms",
        "highs  T  T  T",
    ]


def test_backends_that_disagree_are_named_with_the_board() -> None:
    """A backend whose answer is a tile short: the board is named, and the answer,
    which no longer adds up, is also flagged by check_move."""

    def short_for_cbc(
        board: Board, objective: Objective, backend: str, time_limit: float | None = None
    ) -> Move:
        move = find_move(board, objective, backend, time_limit)
        if backend != "cbc":
            return move
        return dataclasses.replace(move, tiles_played=move.tiles_played - 1)

    solver = Solver(find=short_for_cbc)
    board = NamedBoard("puzzle 1", parse_board("table:\nR3 R4 R5\nrack: R2 B5 O5\n"))
    report = bench([board], ["highs", "cbc"], solver)
    assert not report.passed
    assert [(d.board, {b: str(o) for b, o in d.optima.items()}) for d in report.disagreements] == [
        ("puzzle 1", {"highs": "tiles=3 value=12 changed=1", "cbc": "tiles=2 value=12 changed=1"})
    ]
    assert report.illegal == ("puzzle 1: cbc: tiles_played is 2, but 3 were played",)


def test_disagreement_exits_1_and_names_the_board(three_boards: list[str]) -> None:
    def none_for_cbc(
        board: Board, objective: Objective, backend: str, time_limit: float | None = None
    ) -> Move:
        """cbc proves every board one with nothing to play."""
        return (
            no_move(board, backend=backend)
            if backend == "cbc"
            else find_move(board, objective, backend, time_limit)
        )

    solver = Solver(find=none_for_cbc)
    code, out, err = run("bench", "a.txt", "b.txt", *backend_options("highs", "cbc"), obj=solver)
    assert (code, err) == (1, "")
    assert NUMBER.sub("  T", out).splitlines()[-2:] == [
        "optimum differs on 1 board:",
        "  a.txt: highs tiles=3 value=12 changed=1, cbc tiles=0 value=0 changed=0",
    ]


def interrupted_on_solve(number: int) -> Solve:
    """find_move, but Ctrl-C is pressed during solve `number` (counting from 1)."""
    solves = itertools.count(1)

    def solve(
        board: Board, objective: Objective, backend: str, time_limit: float | None = None
    ) -> Move:
        if next(solves) == number:
            raise KeyboardInterrupt
        return find_move(board, objective, backend, time_limit)

    return solve


def test_ctrl_c_reports_the_boards_finished() -> None:
    """Two backends, Ctrl-C in the second one's solve of board 3: boards 1 and 2 are reported."""
    solver = Solver(find=interrupted_on_solve(6))
    code, out, err = run(
        "bench", "--generate", "5", *SMALL, *backend_options("highs", "clp"), obj=solver
    )
    assert code == 130
    assert err == "\ninterrupted: 2 of 5 boards benched\n"
    assert NUMBER.sub("  T", out) == (
        "2 boards, 1 solve per board and backend\n"
        "backend  median ms  p90 ms  max ms\n"
        "highs  T  T  T\n"
        "clp  T  T  T\n"
        "same optimum: all 2 backends agree on every board\n"
    )


def test_ctrl_c_before_any_board_finished_gives_json() -> None:
    solver = Solver(find=interrupted_on_solve(1))
    code, out, err = run("bench", "--generate", "1", "--backend", "highs", "--json", obj=solver)
    assert (code, err) == (130, "\ninterrupted: 0 of 1 board benched\n")
    assert json.loads(out)["boards"] == 0


def failing(backend: str, on_solve: int, error: Exception) -> Solve:
    """find_move, but `backend` raises `error` on its solve number `on_solve`."""
    solves = itertools.count(1)

    def solve(
        board: Board, objective: Objective, name: str, time_limit: float | None = None
    ) -> Move:
        if name == backend and next(solves) == on_solve:
            raise error
        return find_move(board, objective, name, time_limit)

    return solve


@pytest.fixture
def three_boards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Three board files in the working directory, so that the output names them short."""
    monkeypatch.chdir(tmp_path)
    Path("a.txt").write_text("table:\nR3 R4 R5\nrack: R2 B5 O5\n")
    Path("b.txt").write_text("rack: K1\n")
    Path("c.txt").write_text("table:\nK7 R7 B7\nrack: O7 K1\n")
    return ["a.txt", "b.txt", "c.txt"]


def test_a_backend_failing_on_a_board_keeps_the_others(three_boards: list[str]) -> None:
    error = SolverError("the solver failed: Pulp: cannot execute cbc")
    solver = Solver(find=failing("cbc", 2, error))
    code, out, err = run(
        "bench", *three_boards, *backend_options("highs", "cbc", "clp"), obj=solver
    )
    assert code == 1
    assert err == "b.txt: cbc: the solver failed: Pulp: cannot execute cbc\n"
    assert NUMBER.sub("  T", out) == (
        "3 boards, 1 solve per board and backend\n"
        "backend  median ms  p90 ms  max ms\n"
        "highs  T  T  T\n"
        "cbc         failed\n"
        "clp  T  T  T\n"
        "same optimum: all 2 backends agree on every board\n"
    )


def test_a_backend_that_cannot_start_is_an_error_in_json(three_boards: list[str]) -> None:
    def no_cbc(name: str) -> object:
        if name == "cbc":
            raise SolverError("backend cbc needs CBC: pip install 'pulp[cbc]'")
        return get_backend(name)

    solver = Solver(start=no_cbc)
    code, out, err = run(
        "bench", *three_boards, *backend_options("cbc", "highs"), "--json", obj=solver
    )
    report = json.loads(out)
    assert code == 1
    assert err == "cbc: backend cbc needs CBC: pip install 'pulp[cbc]'\n"
    assert report["boards"] == 3
    assert report["backends"]["cbc"] == {"error": err.strip()}
    assert set(report["backends"]["highs"]) == {"median_ms", "p90_ms", "max_ms", "unproved"}


def test_a_crash_inside_a_solver_library_is_that_backends_failure() -> None:
    solver = Solver(find=failing("clp", 1, RuntimeError("boom")))
    board = NamedBoard("puzzle 1", parse_board("table:\nR3 R4 R5\nrack: R2 B5 O5\n"))
    report = bench([board], ["clp", "highs"], solver)
    assert [str(f) for f in report.failures] == [
        "puzzle 1: clp: solver crashed: RuntimeError: boom"
    ]
    assert [(b.backend, b.timing is not None) for b in report.backends] == [
        ("clp", False),
        ("highs", True),
    ]
    assert not report.passed


def unproved_for(backend: str, limits: list[float | None]) -> Solve:
    """find_move, noting each time limit; `backend` always stops short, with nothing played."""

    def solve(
        board: Board, objective: Objective, name: str, time_limit: float | None = None
    ) -> Move:
        limits.append(time_limit)
        if name == backend:
            return no_move(board, proved=False, seconds=time_limit or 0.0, backend=name)
        return find_move(board, objective, name, time_limit)

    return solve


def test_answers_cut_short_are_counted_and_not_compared(three_boards: list[str]) -> None:
    """cbc hits the time limit on every board with nothing played: not a disagreement
    with highs, which plays tiles on two of them, and not an agreement either."""
    limits: list[float | None] = []
    solver = Solver(find=unproved_for("cbc", limits))
    code, out, err = run(
        "bench", *three_boards, *backend_options("highs", "cbc"), "--time-limit", "0.25", obj=solver
    )
    assert (code, err) == (0, "")
    assert set(limits) == {0.25}
    assert NUMBER.sub("  T", out) == (
        "3 boards, 1 solve per board and backend\n"
        "backend  median ms  p90 ms  max ms  not proved best\n"
        "highs  T  T  T                0\n"
        "cbc  T  T  T                3\n"
        "same optimum: the answers proved best agree on every board;"
        " answers not proved best (on 3 boards) not compared\n"
    )
    report = json.loads(
        run("bench", *three_boards, *backend_options("highs", "cbc"), "--json", obj=solver).out
    )
    assert [b["unproved"] for b in report["backends"].values()] == [0, 3]
    assert (report["same_optimum"], report["unproved_boards"]) == (True, 3)


def test_answers_proved_best_that_differ_are_still_a_disagreement() -> None:
    def worse_for_clp(
        board: Board, objective: Objective, name: str, time_limit: float | None = None
    ) -> Move:
        """clp proves nothing can be played; cbc is cut short; highs plays 3 tiles."""
        if name == "clp":
            return no_move(board, backend=name)
        return unproved_for("cbc", [])(board, objective, name, time_limit)

    solver = Solver(find=worse_for_clp)
    board = NamedBoard("puzzle 1", parse_board("table:\nR3 R4 R5\nrack: R2 B5 O5\n"))
    report = bench([board], ["highs", "clp", "cbc"], solver)
    assert [(d.board, {b: str(o) for b, o in d.optima.items()}) for d in report.disagreements] == [
        ("puzzle 1", {"highs": "tiles=3 value=12 changed=1", "clp": "tiles=0 value=0 changed=0"})
    ]
    assert report.unproved_boards == 1
    assert [b.unproved for b in report.backends] == [0, 0, 1]


@pytest.mark.parametrize(
    ("limit", "reason"),
    [
        ("0", "0.0 is not in the range x>0."),
        ("nan", "nan is not a number of seconds"),
        ("inf", "inf is not a number of seconds"),
    ],
    ids=["zero", "nan", "infinite"],
)
def test_time_limit_is_a_positive_number_of_seconds(limit: str, reason: str) -> None:
    code, out, err = run("bench", "--generate", "1", "--time-limit", limit)
    assert (code, out) == (2, "")
    assert err.splitlines()[-1] == f"Error: Invalid value for '--time-limit': {reason}"


def test_with_every_backend_failed_no_board_is_benched(three_boards: list[str]) -> None:
    solver = Solver(find=failing("clp", 1, SolverError("no CLP")))
    code, out, err = run("bench", *three_boards, "--backend", "clp", obj=solver)
    assert (code, err) == (1, "a.txt: clp: no CLP\n")
    assert out == (
        "0 boards, 1 solve per board and backend\n"
        "backend  median ms  p90 ms  max ms\n"
        "clp         failed\n"
        "same optimum: 0 backends, nothing to compare\n"
    )


def test_a_backend_named_twice_is_benched_once() -> None:
    code, out, err = run("bench", "--generate", "1", *SMALL, *backend_options("clp", "clp"))
    assert (code, err) == (0, "")
    assert NUMBER.sub("  T", out) == (
        "1 board, 1 solve per board and backend\n"
        "backend  median ms  p90 ms  max ms\n"
        "clp  T  T  T\n"
        "same optimum: 1 backend, nothing to compare\n"
    )


def test_no_board_benched_says_so(tmp_path: Path) -> None:
    code, out, err = run("bench", str(tmp_path), *backend_options("highs", "clp"))
    assert (code, err) == (1, f"{tmp_path}: no *.txt boards in this folder\n")
    assert out == (
        "0 boards, 1 solve per board and backend\n"
        "backend  median ms  p90 ms  max ms\n"
        "highs            -       -       -\n"
        "clp              -       -       -\n"
        "same optimum: no board benched\n"
    )


def test_sizes_no_position_can_have_are_a_usage_error() -> None:
    code, out, err = run("bench", "--generate", "3", "--table-tiles", "200", "--rack-tiles", "1")
    assert (code, out) == (2, "")
    assert err.splitlines()[-1] == (
        "Error: Invalid value for '--table-tiles' / '--rack-tiles':"
        " a table of 200 tiles and a rack of 1 do not fit in the 106-tile set"
    )


def test_a_stream_generate_wrote_on_standard_input_is_a_board_each() -> None:
    stream = run("generate", "--count", "3", "--seed", "4").out
    code, out, err = run("bench", "-", "--backend", "clp", "--json", stdin=stream)
    assert code == 0, err
    assert json.loads(out)["boards"] == 3


def test_a_backend_that_cannot_start_is_named_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cbcbox, "cbc_bin_path", lambda: "/nowhere/cbc")
    via_pulp.cbc_binary.cache_clear()
    try:
        code, out, err = run("bench", "--generate", "2", *backend_options("cbc", "clp"), "--json")
    finally:
        via_pulp.cbc_binary.cache_clear()
    assert (code, err) == (1, "cbc: cannot run CBC's binary /nowhere/cbc\n")
    assert json.loads(out)["backends"]["cbc"] == {
        "error": "cbc: cannot run CBC's binary /nowhere/cbc"
    }
