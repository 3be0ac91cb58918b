"""The solver on positions chosen by hand: the cases other solvers get wrong, and the API."""

from __future__ import annotations

import itertools
import os
import re
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cbcbox
import numpy as np
import pytest

from rummisolve.board import parse_board
from rummisolve.engine import backends, clp, highs, via_pulp
from rummisolve.engine.backends import get_backend
from rummisolve.engine.builder import Mip, Program
from rummisolve.engine.lp import Clock, Deadline, LpEnd
from rummisolve.engine.model import build_model, read_solution
from rummisolve.engine.solve import find_move
from rummisolve.errors import SolverError
from rummisolve.generate import generate_boards
from rummisolve.legality import check_move
from rummisolve.move import Move, Objective, SetChange, Status
from rummisolve.tiles import format_tiles


def solve(text: str, backend: str, **options: object) -> Move:
    board = parse_board(text)
    move = find_move(board, backend=backend, **options)  # type: ignore[arg-type]
    assert check_move(board, move) == []
    return move


def table_of(move: Move) -> list[str]:
    return [format_tiles(row) for row in move.table]


CASES = {
    # (board, tiles played, value played)
    "joker-may-leave-a-group-of-4": ("table:\nR5 B5 K5 J\nrack: O1 O2 O3\n", 3, 6),
    "joker-stays-with-its-group": ("table:\nR5 B5 K5 J\nrack: O8 O9\n", 0, 0),
    "casual-joker-leaves-a-group-of-4-for-a-run": (
        "rules: casual\ntable:\nR5 B5 K5 J\nrack: O8 O9\n",
        2,
        17,
    ),
    "joker-at-the-start-of-a-run": ("table:\nJ R4 R5\nrack: R6 R7\n", 2, 13),
    "joker-at-the-end-of-a-run": ("table:\nR4 R5 J\nrack: R3 R2\n", 2, 5),
    "two-jokers-in-one-set": ("table:\nJ R7 J\nrack: R5 R9\n", 2, 14),
    "two-jokers-cannot-bridge-two-gaps": ("table:\nJ R7 J\nrack: R5 R10\n", 1, 10),
    "joker-grows-a-run-past-tiles-not-in-play": ("table:\nB10 B11 B12\nrack: J\n", 1, 30),
    # Tiles with no copy in play folded into two jokers: high rows (blue is last) too.
    "two-jokers-and-one-tile-not-in-play": ("table:\nO5 O6 O7\nrack: J J B13\n", 3, 73),
    "freed-joker-used-again (000)": ("table:\nB3 B4 J\nrack: B5 R7 O7\n", 3, 19),
    "rack-joker-played": ("rack: J K1 K2\n", 3, 33),
    "split-a-run (000)": ("table:\nB6 B7 B8 B9 B10\nrack: B8\n", 1, 8),
    "group-from-run-end (000)": ("table:\nR3 R4 R5\nrack: R2 B5 O5\n", 3, 12),
    "seed-003-example": (
        "table:\nO5 O6 O7\nR5 R6 R7\nK5 K6 K7 K8 K9\nrack: K10 B5\n",
        2,
        15,
    ),
    "nothing-fits": ("table:\nR3 R4 R5\nrack: K9 B1\n", 0, 0),
    "empty-rack": ("table:\nR3 R4 R5\nrack:\n", 0, 0),
    "joker-penalty-50": ("rules: joker-penalty=50\nrack: J K1 K2\n", 3, 53),
    "wraparound-12-13-1": ("rules: wraparound\nrack: K12 K13 K1\n", 3, 26),
    "no-wraparound-12-13-1": ("rack: K12 K13 K1\n", 0, 0),
    "wraparound-never-13-1-2": ("rules: wraparound\nrack: K13 K1 K2\n", 0, 0),
    "160-set-three-copies": ("rules: tile-set=160\nrack: K5 K5 K5 R5 R5 R5 O5 O5 O5\n", 9, 45),
    "meld-joker-counts-its-tile": ("opened: no\nrack: R9 J R11\n", 3, 50),
    "meld-just-short": ("opened: no\nrules: initial-meld=31\nrack: R9 J R11\n", 0, 0),
    "meld-ignores-the-table": ("opened: no\ntable:\nR3 R4 R5\nrack: R6 R7 R8 K1\n", 0, 0),
    "meld-of-two-sets": ("opened: no\nrack: K1 K2 K3 R10 O10 B10 K12\n", 6, 36),
}


@pytest.mark.parametrize(("text", "tiles", "value"), CASES.values(), ids=CASES.keys())
def test_best_move(text: str, tiles: int, value: int, backend: str) -> None:
    move = solve(text, backend)
    assert (move.tiles_played, move.value_played) == (tiles, value)
    assert move.status is (Status.OPTIMAL if tiles else Status.NO_MOVE)


def test_tiles_not_in_play_fold_into_jokers() -> None:
    """R5 with two jokers can lie as R3 R4 R5, R5 R6 R7, R5 B5 K5...: one column, and no
    stand-in column for the tiles with no copy in play."""
    board = parse_board("rack: R5 J J\n")
    mip, layout = build_model(board, Objective.TILES)
    # The one candidate, R5 played, a joker standing in for R5, the rack's jokers played.
    assert mip.columns == 4
    assert layout.stand_ins == [board.rack[0]]
    assert solve("rack: R5 J J\n", "clp").tiles_played == 3


def test_unchanged_sets_stay_as_they_lie(backend: str) -> None:
    move = solve("table:\nK7 R7 B7 J\nR5 R3 R4\nrack: K1 K2 K3\n", backend)
    assert table_of(move) == ["K7 R7 B7 J", "R5 R3 R4", "K1 K2 K3"]
    assert [s.change for s in move.steps] == [SetChange.KEEP, SetChange.KEEP, SetChange.NEW]


def test_fewest_changes_among_equal_plays(backend: str) -> None:
    # R6 could rebuild both runs; extending the second one changes a single set.
    move = solve("table:\nR1 R2 R3\nR3 R4 R5\nrack: R6\n", backend)
    assert table_of(move) == ["R1 R2 R3", "R3 R4 R5 R6"]
    assert [s.change for s in move.steps] == [SetChange.KEEP, SetChange.EXTEND]


def test_long_runs_are_shown_whole(backend: str) -> None:
    move = solve("rack: B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11\n", backend)
    assert table_of(move) == ["B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11"]


def test_objective_value_puts_points_first(backend: str) -> None:
    # Most tiles: B3 B4 J J (4 tiles, 67 points); most points: B8 J J (3 tiles, 68).
    text = "rack: B3 B4 B8 J J\n"
    by_tiles = solve(text, backend)
    by_value = solve(text, backend, objective="value")
    assert (by_tiles.tiles_played, by_tiles.value_played) == (4, 67)
    assert (by_value.tiles_played, by_value.value_played) == (3, 68)


def test_moves_are_the_same_in_every_run(backend: str) -> None:
    text = "table:\nR3 R4 R5\nK5 O5 B5\nrack: R6 R5 J K4 K6\n"
    assert len({tuple(table_of(solve(text, backend))) for _ in range(3)}) == 1


def test_a_tiny_time_limit_still_gives_a_legal_answer(backend: str) -> None:
    rack = " ".join(f"{c}{n}" for c in "KROB" for n in range(1, 14))
    move = solve(f"rack: {rack} J\n", backend, time_limit=0.001)
    assert move.status in (Status.OPTIMAL, Status.FEASIBLE)


def test_unknown_backend_is_a_named_error() -> None:
    with pytest.raises(SolverError, match="unknown backend 'gurobi'"):
        find_move(parse_board("rack: K1\n"), backend="gurobi")
    with pytest.raises(SolverError, match="unknown backend 'gurobi'"):
        backends.get_backend("gurobi")


def test_the_default_backend_starts_highs_only_when_a_search_needs_it() -> None:
    """CLP solves; HiGHS, the last resort past the node limit, costs ~40 ms to start and is
    left alone by a move that does not need it (in a process of its own, where no test has
    started HiGHS before)."""
    script = (
        "from rummisolve import find_move, parse_board\n"
        "from rummisolve.engine import highs\n"
        "move = find_move(parse_board('table:\\nR3 R4 R5\\nrack: R6 K9 R7\\n'))\n"
        "assert move.backend == 'clp' and move.tiles_played == 2, move\n"
        "assert not highs.highs_started(), 'HiGHS started'\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True)


def test_played_tiles_leave_the_rack(backend: str) -> None:
    move = solve("table:\nR3 R4 R5\nrack: R6 K9 R7\n", backend)
    assert move.played == tuple(parse_board("rack: R6 R7\n").rack)
    assert Counter(move.rack) == Counter(parse_board("rack: K9\n").rack)


# A position whose branch-and-bound finds a first solution at its 4th node and proves it
# only at its 17th: stopping in between must give that solution, marked feasible.
DEEP = """\
rules: casual
table:
R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13
K2 R2 J B2
K2 K3 K4
O4 O5 O6
R5 R6 R7 R8 R9 R10
K13 R13 J B13
O1 O2 O3 O4 O5 O6 O7
rack: K1 K3 O3 O7 O8 O12 B6 B9 B11 B13
"""


def ticking() -> Clock:
    """A clock that moves one second each time it is read. The search reads it once for
    its deadline, once before the model's solve, then twice a node (is time left? how
    much?): under a limit of 12 s the 6th node finds the time gone."""
    return itertools.count().__next__


def test_time_running_out_mid_search_gives_the_best_so_far() -> None:
    move = solve(DEEP, "highs", time_limit=12.0, clock=ticking())
    assert move.status is Status.FEASIBLE and move.tiles_played > 0


def test_time_running_out_before_any_solution_is_no_move_yet() -> None:
    move = solve(DEEP, "highs", time_limit=1.0, clock=ticking())
    assert (move.status, move.played, move.table) == (Status.FEASIBLE, (), parse_board(DEEP).table)


@pytest.mark.parametrize("with_start", [True, False], ids=["from-incumbent", "from-nothing"])
def test_highs_mip_out_of_time(with_start: bool) -> None:
    """Past the node limit HiGHS's MIP takes over; out of time it keeps what it has."""
    board = parse_board(DEEP)
    mip, layout = build_model(board, Objective.TILES)
    proved = backends.solve_highs(mip, None)
    start = np.array(proved.values) if with_start else None
    solution = highs.highs_mip(mip, start, Deadline(0.0, clock=lambda: 0.0))
    assert not solution.proved
    if with_start:
        assert solution.values is not None
        assert read_solution(layout, solution.values).played


def test_cbc_cut_short_never_passes_off_its_lp_as_a_move() -> None:
    """Stopped by a time limit, CBC may label its fractional LP "optimal"."""
    board = list(generate_boards(50, seed=9, table_tiles=(40, 80), rack_tiles=(10, 25)))[-1]
    for _ in range(5):
        move = find_move(board, backend="cbc", time_limit=0.002)
        assert check_move(board, move) == []


def _fake_cbc(monkeypatch: pytest.MonkeyPatch, folder: Path, body: str) -> Path:
    """A `cbc` that runs `body` (sh), given where cbcbox names CBC's binary; each run
    appends its pid to `runs` in `folder` first. Returns that file."""
    runs = folder / "runs"
    script = folder / "cbc"
    script.write_text(f"#!/bin/sh\necho $$ >> {runs}\n{body}\n")
    script.chmod(0o755)
    monkeypatch.setattr(cbcbox, "cbc_bin_path", lambda: str(script))
    via_pulp.cbc_binary.cache_clear()
    return runs


@pytest.fixture
def cbc_restored() -> Iterator[None]:
    """CBC's binary looked up afresh in the test (once patched) and after it."""
    via_pulp.cbc_binary.cache_clear()
    yield
    via_pulp.cbc_binary.cache_clear()


@pytest.fixture
def clp_restored() -> Iterator[None]:
    """CLP's library loaded afresh in the test (once patched) and after it."""
    clp.api.cache_clear()
    yield
    clp.api.cache_clear()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_hung_cbc_is_stopped_at_the_time_limit(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cbc_restored: None
) -> None:
    """CBC that never answers (a script that sleeps) is killed at the limit: nothing found
    in time, not a wait for ever (the sleep ends the test should that fail)."""
    runs = _fake_cbc(monkeypatch, tmp_path, "exec sleep 30")
    move = find_move(parse_board("table:\nR3 R4 R5\nrack: R6 K9 R7\n"), "tiles", "cbc", 0.2)
    assert (move.status, move.played) == (Status.FEASIBLE, ())
    (pid,) = map(int, runs.read_text().split())
    assert not _alive(pid)


def test_ctrl_c_as_cbc_starts_stops_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cbc_restored: None
) -> None:
    """Ctrl-C that comes once CBC runs but before Popen has handed it over (seen once in
    CI, as TERM) stops the search and CBC with it."""
    _fake_cbc(monkeypatch, tmp_path, "exec sleep 30")
    started = []

    class Interrupted(subprocess.Popen[bytes]):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            started.append(self.pid)
            signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(subprocess, "Popen", Interrupted)
    with pytest.raises(KeyboardInterrupt):
        find_move(parse_board("table:\nR3 R4 R5\nrack: R6 K9 R7\n"), backend="cbc")
    (pid,) = started
    assert not _alive(pid)


def test_cbc_killed_once_is_run_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cbc_restored: None
) -> None:
    real = via_pulp.cbc_binary()
    runs = _fake_cbc(
        monkeypatch,
        tmp_path,
        f"[ -s {tmp_path}/killed ] || {{ echo x > {tmp_path}/killed; kill -9 $$; }}\n"
        f'exec {real} "$@"',
    )
    move = find_move(parse_board("table:\nR3 R4 R5\nrack: R6 K9 R7\n"), backend="cbc")
    assert (move.status, move.tiles_played) == (Status.OPTIMAL, 2)
    assert len(runs.read_text().split()) == 2


def test_cbc_killed_twice_is_a_named_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cbc_restored: None
) -> None:
    """The cause named, without PuLP's "use msg=True" and a path run into it."""
    _fake_cbc(monkeypatch, tmp_path, "kill -9 $$")
    with pytest.raises(SolverError) as error:
        find_move(parse_board("table:\nR3 R4 R5\nrack: R6 K9 R7\n"), backend="cbc")
    assert str(error.value) == "backend cbc: CBC was killed by SIGKILL, run twice"


def test_a_time_limit_counts_from_this_search_not_from_the_process_start() -> None:
    """HiGHS holds its time limit against all the time its object has run: once the
    process had solved for as long as the limit, every search stopped unproved at once."""
    limit = 0.05
    boards = generate_boards(400, seed=5, table_tiles=(20, 60), rack_tiles=(5, 20))
    for board in boards:
        find_move(board, backend="highs")
        if highs.highs_solver().getRunTime() > 2 * limit:
            break
    solver = highs.highs_solver()
    assert solver.getRunTime() > 2 * limit
    highs._set_time_limit(solver, limit)
    _status, applied = solver.getOptionValue("time_limit")
    assert applied - solver.getRunTime() == pytest.approx(limit, abs=1e-3)


def test_clp_without_its_library_is_a_named_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, clp_restored: None
) -> None:
    monkeypatch.setattr(clp, "library_folder", lambda: str(tmp_path))
    with pytest.raises(SolverError, match="backend clp: no CLP library in"):
        find_move(parse_board("rack: K1 K2 K3\n"), backend="clp")


def test_without_clp_the_default_is_highs_and_a_named_clp_an_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The default backend falls back to HiGHS where CLP's library cannot load (decided
    once a process); asked for by name, CLP's absence is the named error it always was."""
    monkeypatch.setattr(clp, "library_folder", lambda: str(tmp_path))
    clp.api.cache_clear()
    backends.default_backend.cache_clear()
    try:
        move = find_move(parse_board("rack: K1 K2 K3\n"))
        assert (move.status, move.tiles_played, move.backend) == (Status.OPTIMAL, 3, "highs")
        with pytest.raises(SolverError, match="backend clp: no CLP library in"):
            backends.get_backend("clp")
    finally:
        monkeypatch.undo()
        clp.api.cache_clear()
        backends.default_backend.cache_clear()
    assert find_move(parse_board("rack: K1 K2 K3\n")).backend == "clp"


def test_a_cbcbox_that_names_no_library_folder_is_a_named_error(
    monkeypatch: pytest.MonkeyPatch, clp_restored: None
) -> None:
    monkeypatch.setenv("CBCBOX_BUILD", "generic")  # a build asked for: cbcbox is asked
    monkeypatch.delattr(cbcbox, "cbc_lib_dir")
    with pytest.raises(SolverError, match="backend clp: cbcbox names no library folder"):
        find_move(parse_board("rack: K1 K2 K3\n"), backend="clp")


@pytest.mark.parametrize(
    ("binary", "message"),
    [
        (None, "backend cbc: cbcbox names no CBC binary"),
        ("/nowhere/cbc", "backend cbc: cannot run CBC's binary /nowhere/cbc"),
    ],
    ids=["no-binary-named", "binary-missing"],
)
def test_cbc_without_its_binary_is_named_before_any_board(
    monkeypatch: pytest.MonkeyPatch, cbc_restored: None, binary: str | None, message: str
) -> None:
    if binary is None:
        monkeypatch.delattr(cbcbox, "cbc_bin_path")
    else:
        monkeypatch.setattr(cbcbox, "cbc_bin_path", lambda: binary)
    with pytest.raises(SolverError, match=re.escape(message)):
        get_backend("cbc")


def test_clp_frees_every_model() -> None:
    """CLP copies what it is given and each model is deleted after its search, also when
    the search fails: nothing is left behind for the next position."""
    made: list[object] = []
    freed: list[object] = []

    class Deleting:
        """CLP's library, noting each model it is asked to delete."""

        def __init__(self, lib: Any) -> None:
            self.lib = lib

        def __getattr__(self, name: str) -> object:
            return getattr(self.lib, name)

        def Clp_deleteModel(self, model: object) -> None:
            freed.append(model)
            self.lib.Clp_deleteModel(model)

    class Counting(clp.ClpLp):
        def __init__(self, mip: Mip) -> None:
            super().__init__(mip)
            made.append(self.model)
            self.api = self.api._replace(lib=Deleting(self.api.lib))

    class Failing(Counting):
        def solve(self, seconds: float) -> LpEnd:
            raise ZeroDivisionError

    for text in ("table:\nR3 R4 R5\nrack: R6 R7 K1\n", "rack: K1 K2 K3 O9\n"):
        mip, _layout = build_model(parse_board(text), Objective.TILES)
        assert backends.solve_clp(mip, None, open_lp=Counting).proved
    mip, _layout = build_model(parse_board("rack: K1 K2 K3\n"), Objective.TILES)
    with pytest.raises(ZeroDivisionError):
        backends.solve_clp(mip, None, open_lp=Failing)
    assert len(made) == 3 and freed == made


def test_clp_hands_a_model_past_its_row_limit_to_highs_lps() -> None:
    """Through CLP's C interface the LPs of the whole strict model on a large table led
    the search astray (272 LPs, 7.7 s, where HiGHS's took 0.18 s): past CLP_MAX_ROWS rows
    the clp backend's search runs on HiGHS's LPs, with the same answer."""
    program = Program()
    rows = program.rows.add(backends.CLP_MAX_ROWS + 1, 0.0, 1.0, name="each", says="x[j] <= 1")
    for row in rows:
        program.columns.add(2.0, 1.0, {row: 1.0})
    mip = program.mip()

    def no_clp(mip: Mip) -> clp.ClpLp:
        raise AssertionError("CLP was given a model past its row limit")

    solution = backends.solve_clp(mip, None, open_lp=no_clp)
    assert solution.proved and solution.values is not None
    assert solution.values.sum() == backends.CLP_MAX_ROWS + 1
