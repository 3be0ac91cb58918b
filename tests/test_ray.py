"""Batches and tournaments on a real Ray cluster, started by these tests on this machine
(two CPUs, bound to 127.0.0.1) and stopped after them: the same rows as the local pool,
and nothing lost when an actor dies. Skipped where the `ray` extra is not installed."""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest

from rummisolve.batch import BatchSettings, BoardResult, Outcome, board_paths, solve_path
from rummisolve.batch.pool import Task
from rummisolve.game import GameOptions
from rummisolve.rules import Rules
from rummisolve.tournament import Lineup, Work, run_games, tournament_tasks

from .cli import rows_without_times, time_masked
from .cli import run as rummisolve

ray = pytest.importorskip("ray")
ray_pool = pytest.importorskip("rummisolve.batch.ray_pool")

# Functions the actors run that live here travel by value: a worker cannot import tests.
import cloudpickle  # noqa: E402  (installed with ray)

cloudpickle.register_pickle_by_value(sys.modules[__name__])

BOARDS = 60


@pytest.fixture(scope="module", autouse=True)
def cluster() -> Iterator[None]:
    """One cluster for the module: starting one costs seconds."""
    connection = ray_pool.connect("local", cpus=2)
    try:
        yield
    finally:
        connection.close()


@pytest.fixture(scope="module")
def boards(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("ray") / "boards"
    rummisolve("generate", "--count", str(BOARDS), "--seed", "5", "--out", str(folder))
    return folder


@pytest.fixture(scope="module")
def local_rows(boards: Path) -> list[dict[str, object]]:
    code, out, err = rummisolve("batch", str(boards), "--format", "jsonl", "--jobs", "2")
    assert code == 0, err
    return rows_without_times(out)


@pytest.fixture(scope="module")
def many_boards(tmp_path_factory: pytest.TempPathFactory, boards: Path) -> Path:
    """Enough boards that a batch is still running when the test has looked at it: the
    module's boards written again and again, named as `generate` names them (generating
    2000 costs seconds)."""
    folder = tmp_path_factory.mktemp("ray") / "many"
    folder.mkdir()
    texts = [path.read_text() for path in sorted(boards.iterdir())]
    for n in range(2000):
        (folder / f"gen-{n + 1:05}.txt").write_text(texts[n % len(texts)])
    return folder


def test_a_batch_through_ray_has_the_local_pools_rows_and_summary(
    boards: Path, local_rows: list[dict[str, object]]
) -> None:
    code, out, err = rummisolve("batch", str(boards), "--format", "jsonl", "--ray", "auto")
    assert code == 0, err
    assert rows_without_times(out) == local_rows
    # One actor per CPU of the cluster, as --jobs 2 had two workers.
    assert time_masked(err) == f"{BOARDS} boards in T s (2 jobs): " + err.split("): ")[1]
    assert "(2 jobs)" in err


def test_standard_input_and_bad_paths_travel_as_locally(tmp_path: Path, boards: Path) -> None:
    """Boards read from standard input go to the actors as bytes; a missing file's row
    says so, as locally."""
    stream = "".join(path.read_text() for path in sorted(boards.iterdir())[:3])
    missing = str(tmp_path / "missing.txt")
    local = rummisolve("batch", "-", missing, "--format", "jsonl", "--jobs", "2", stdin=stream)
    remote = rummisolve("batch", "-", missing, "--format", "jsonl", "--ray", "auto", stdin=stream)
    assert (
        (remote.code, rows_without_times(remote.out))
        == (local.code, rows_without_times(local.out))
        == (1, rows_without_times(local.out))
    )
    assert remote.err.splitlines()[0] == local.err.splitlines()[0]


def test_an_actor_killed_mid_batch_loses_nothing(
    boards: Path, local_rows: list[dict[str, object]]
) -> None:
    """kill -9 on an actor after the first row: every board still gets its answer, once."""
    batch = ray_pool.RayBatch("auto", BatchSettings(), 2)
    results = batch.run(board_paths([boards]))
    found = [next(results)]
    os.kill(batch.pool.pids[0], signal.SIGKILL)
    found.extend(results)
    assert [json.loads(r.row) | {"seconds": None} for r in found] == [
        row | {"seconds": None} for row in local_rows
    ]


def crash_on_b(path: str, settings: BatchSettings) -> BoardResult:
    """A crash inside a solver library, as the cluster sees it: the actor's process gone."""
    return os._exit(1) if path.endswith("b.txt") else solve_path(path, settings)


def one_chunk(paths: Sequence[str], jobs: int) -> list[Task]:
    return [Task(0, paths)]


def test_a_board_that_kills_its_actor_twice_is_its_own_error_row(boards: Path) -> None:
    """Its chunk is solved again a board at a time; the board that kills an actor alone
    again gets an error row, the others their answers."""
    names = sorted(boards.iterdir())[:3]
    b = boards / "b.txt"
    b.write_text(names[1].read_text())
    paths = [str(names[0]), str(b), str(names[2])]
    try:
        batch = ray_pool.RayBatch("auto", BatchSettings(), 2, solve=crash_on_b, chunks=one_chunk)
        results = list(batch.run(paths))
    finally:
        b.unlink()
    assert [r.file for r in results] == paths
    assert results[1].outcome is Outcome.FAILED
    local = [solve_path(paths[i], BatchSettings()) for i in (0, 2)]
    assert [rows_without_times(results[i].row) for i in (0, 2)] == [
        rows_without_times(r.row) for r in local
    ]
    assert json.loads(results[1].row) == {
        "file": str(b),
        "error": f"{b}: the solver crashed on this board (its Ray actor died twice:"
        " killed, or a crash inside a solver library)",
    }


TOURNAMENT = ("tournament", "--players", "2", "--strategies", "greedy,hoarder", "--games", "6")


def test_a_tournament_through_ray_plays_the_games_of_two_jobs() -> None:
    local = rummisolve(*TOURNAMENT, "--jobs", "2")
    remote = rummisolve(*TOURNAMENT, "--ray", "auto")
    assert local.code == remote.code == 0, remote.err
    timed = re.compile(r"in [0-9.]+ s")
    assert timed.sub("in T s", remote.out) == timed.sub("in T s", local.out)
    assert "6 games in T s (2 jobs)" in timed.sub("in T s", remote.out)


def test_an_actor_killed_mid_tournament_loses_no_game() -> None:
    lineup = Lineup.filled(["greedy", "hoarder"], 2)
    work = Work(lineup, GameOptions(rules=Rules()), keep_turns=False)
    games = ray_pool.RayGames("auto", work, 2)
    played = games.run(tournament_tasks(lineup, 6, 1))
    found = [next(played)]
    os.kill(games.pool.pids[1], signal.SIGKILL)
    found.extend(played)
    local = list(run_games(tournament_tasks(lineup, 6, 1), work))
    untimed = partial(replace, solver_seconds=0.0, seconds=0.0)
    assert [untimed(p.record) for p in found] == [untimed(p.record) for p in local]


@contextlib.contextmanager
def started(*arguments: str, stdout: int = subprocess.PIPE) -> Iterator[subprocess.Popen[bytes]]:
    """`rummisolve ARGUMENTS` in a session of its own, as a terminal starts it (a signal
    to its group reaches the whole cluster); killed with its group if a test fails first."""
    process = subprocess.Popen(
        [sys.executable, "-m", "rummisolve", *arguments],
        stdout=stdout,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)


def test_ctrl_c_keeps_the_rows_written(many_boards: Path) -> None:
    """A batch in a process of its own joins this cluster (`auto`); Ctrl-C after its first
    row: the rows written and their summary, then exit 130."""
    with started("batch", str(many_boards), "--ray", "auto", "--format", "jsonl") as process:
        assert process.stdout is not None and process.stderr is not None
        first = process.stdout.readline()
        os.killpg(process.pid, signal.SIGINT)
        rest = process.stdout.read()
        err = process.stderr.read().decode()
        code = process.wait(timeout=60)
    written = [first, *rest.splitlines()]
    assert code == 130, err
    assert json.loads(first)["file"].endswith("gen-00001.txt")
    assert f"interrupted: {len(written)} of 2000 boards written" in err


def listening(root: int) -> dict[tuple[str, int], str]:
    """Every listening TCP socket of process `root` and of the processes it started, and
    theirs (a Ray cluster's, for its driver): its address and port, and the process's name.
    Read from /proc: each socket's inode in /proc/net/tcp{,6}, matched to the processes'
    descriptors."""
    sockets: dict[int, tuple[str, int]] = {}
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] != "0A":  # TCP_LISTEN
                continue
            address, port = fields[1].split(":")
            # The address's 32-bit words are each in the machine's byte order.
            words = bytes.fromhex(address)
            raw = b"".join(words[i : i + 4][::-1] for i in range(0, len(words), 4))
            ip = ipaddress.ip_address(raw)
            if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
                ip = ip.ipv4_mapped
            sockets[int(fields[9])] = (str(ip), int(port, 16))
    found = {}
    for pid in descendants(root):
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip()
            links = [os.readlink(fd) for fd in Path(f"/proc/{pid}/fd").iterdir()]
        except OSError:  # gone meanwhile
            continue
        for link in links:
            if link.startswith("socket:[") and int(link[8:-1]) in sockets:
                found[sockets[int(link[8:-1])]] = name
    return found


def descendants(root: int) -> list[int]:
    """Process `root` and every process under it (ids of the living only)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        found.append(pid := todo.pop())
        todo.extend(children.get(pid, []))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize("command", ["batch", "tournament"])
def test_a_local_cluster_listens_on_loopback_alone_and_stops_with_term(
    many_boards: Path, command: str
) -> None:
    """`--ray local`: while the first rows come, every socket the cluster's processes
    listen on is on 127.0.0.0/8; TERM to the command then keeps what finished (its
    summary, exit 143) and stops the cluster before the command exits."""
    arguments = {
        "batch": ["batch", str(many_boards), "--format", "jsonl"],
        "tournament": [*TOURNAMENT[:-1], "2000"],
    }[command]
    with started(*arguments, "--ray", "local") as process:
        assert process.stdout is not None and process.stderr is not None
        first = process.stdout.readline()
        if command == "tournament":  # the header, then a game
            first += process.stdout.readline()
        sockets = listening(process.pid)
        cluster = descendants(process.pid)
        os.kill(process.pid, signal.SIGTERM)
        rest = process.stdout.read()
        err = process.stderr.read().decode()
        code = process.wait(timeout=60)
    names = set(sockets.values())
    assert {"raylet", "gcs_server", "python3"} <= names, sockets  # the driver too
    assert [a for a in sockets if not ipaddress.ip_address(a[0]).is_loopback] == []
    assert code == 143, err
    if command == "batch":
        rows = len([first, *rest.splitlines()])
        assert f"interrupted: {rows} of 2000 boards written" in err, err
    else:  # the rows, then the report of the games played
        played = re.search(r"interrupted: (\d+) of 2000 games played", err)
        assert played is not None, err
        assert re.search(rf"\n{played[1]} games? in ", rest.decode()), rest
    assert [pid for pid in cluster if alive(pid)] == []


def test_an_interrupt_while_the_cluster_starts_stops_all_of_it(boards: Path) -> None:
    """Ctrl-C as soon as Ray's agents run (the actors not yet started, or just): exit 130,
    and every process of the cluster has ended before the command does."""
    seen: set[int] = set()
    with started("batch", str(boards), "--ray", "local", stdout=subprocess.DEVNULL) as process:
        assert process.stderr is not None
        while not any(agent(pid) for pid in seen) and process.poll() is None:
            seen.update(descendants(process.pid))
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C in a terminal
        err = process.stderr.read().decode()
        code = process.wait(timeout=60)
    assert code == 130, err
    assert [pid for pid in seen if alive(pid)] == []


def agent(pid: int) -> bool:
    """Whether `pid` is one of a Ray node's agents (DashboardAgent, RuntimeEnvAgent)."""
    try:
        return "agent" in Path(f"/proc/{pid}/cmdline").read_text().lower()
    except OSError:
        return False


def test_a_cluster_that_cannot_start_is_one_line(boards: Path) -> None:
    """Ray's own failure to start (under a memory cap: its node "timed out during
    startup", a bare Exception) is a one-line message, exit 1."""
    script = (
        "import ray\n"
        "def init(*args, **kwargs):\n"
        "    raise Exception('The current node timed out during startup.\\nMore.')\n"
        "ray.init = init\n"
        "from rummisolve.cli import cli\n"
        f"cli(['batch', {str(next(boards.iterdir()))!r}, '--ray', 'local'])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (
        1,
        "",
        "Error: --ray local: cannot start a Ray cluster:"
        " The current node timed out during startup.\n",
    )


def test_without_the_option_nothing_of_ray_is_imported(boards: Path) -> None:
    script = (
        "import sys\n"
        "from rummisolve.cli import cli\n"
        f"try: cli(['batch', {str(boards)!r}, '--jobs', '2'])\n"
        "except SystemExit: pass\n"
        "assert not [m for m in sys.modules if m == 'ray' or m.startswith('ray.')], 'ray'\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_an_address_where_nothing_answers_is_one_line(boards: Path) -> None:
    board = str(next(boards.iterdir()))
    code, out, err = rummisolve("batch", board, "--ray", "127.0.0.1:1")
    message = "--ray 127.0.0.1:1: cannot reach a Ray cluster: nothing answers at 127.0.0.1:1"
    assert (code, out, err.startswith(f"Error: {message} (")) == (1, "", True), err
    assert err.count("\n") == 1


@pytest.mark.parametrize("command", ["batch", "tournament"])
def test_without_ray_installed_the_option_says_what_to_install(boards: Path, command: str) -> None:
    arguments = [str(next(boards.iterdir()))] if command == "batch" else ["--games", "1"]
    script = (
        "import sys\n"
        "sys.modules['ray'] = None  # as if it were not installed\n"
        "from rummisolve.cli import cli\n"
        f"cli([{command!r}, *{arguments!r}, '--ray', 'local'])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert "Invalid value for '--ray': needs Ray: pip install \"rummisolve[ray]\"" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_option_is_named_in_the_help() -> None:
    code, out, _ = rummisolve("batch", "--help")
    assert code == 0 and "--ray ADDRESS" in out
