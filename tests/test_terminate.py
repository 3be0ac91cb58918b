"""TERM, as a service manager or `kill` sends it, ends a command as Ctrl-C does: its
children stopped (our workers, and the CBC that PuLP starts, which a TERM to us does not
reach), their scratch files removed, what was finished kept and reported, exit 143.

Each command runs in a session of its own, so that whatever it leaves behind can be
found (its process group) and is killed when the test ends, whatever happened.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from rummisolve.cli import cli
from rummisolve.cli.interrupts import INTERRUPTED, Interrupt

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

WAIT_SECONDS = 30.0


def group(pgid: int) -> dict[int, str]:
    """The running processes of a process group, by pid, with the program each runs
    (one that has ended and waits to be reaped by init holds nothing)."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_bytes()
            program = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")[0]
        except OSError:
            continue
        state, _parent, its_group = stat.rsplit(b")", 1)[1].split()[:3]
        if int(its_group) == pgid and state != b"Z":
            found[int(entry)] = program.decode(errors="replace")
    return found


def cbc_runs(pgid: int) -> list[int]:
    return [pid for pid, program in group(pgid).items() if Path(program).name == "cbc"]


def wait_for(condition: Callable[[], object], what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {WAIT_SECONDS} s for {what}")
        time.sleep(0.005)


class Command:
    """`rummisolve ARGS` in a session of its own, its temporary folder `scratch`."""

    def __init__(self, scratch: Path, *args: str) -> None:
        self.scratch = scratch
        scratch.mkdir(exist_ok=True)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "rummisolve", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            start_new_session=True,
            env={**os.environ, "TMPDIR": str(scratch)},
        )

    def terminate(self, first_line: bytes = b"") -> tuple[int, str, str]:
        """TERM to the command alone (not its group): its status, stdout, stderr."""
        self.process.send_signal(signal.SIGTERM)
        out, err = self.process.communicate(timeout=WAIT_SECONDS)
        return self.process.returncode, (first_line + out).decode(), err.decode()

    def first_line(self) -> bytes:
        assert self.process.stdout is not None
        return self.process.stdout.readline()

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def assert_nothing_left(self) -> None:
        """No process of its group left (our workers' fork server ends as it sees its
        parent gone: a moment), and no scratch file or folder."""
        wait_for(lambda: not group(self.process.pid), "the command's processes to end")
        assert list(self.scratch.iterdir()) == []


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Callable[..., Command]]:
    started: list[Command] = []

    def start(*args: str) -> Command:
        command = Command(tmp_path / "tmp", *args)
        started.append(command)
        return command

    yield start
    for command in started:
        command.kill()


def generate_boards(folder: Path, count: int, seed: int, *sizes: str) -> list[Path]:
    generate = ["generate", "--count", str(count), "--seed", str(seed), "--out", str(folder)]
    assert CliRunner().invoke(cli, [*generate, *sizes]).exit_code == 0
    return sorted(folder.iterdir())


@pytest.fixture
def boards(tmp_path: Path) -> Path:
    folder = tmp_path / "boards"
    generate_boards(folder, 200, 9, "--table-tiles", "10-30", "--rack-tiles", "5-10")
    return folder


@pytest.fixture
def cbc_boards(tmp_path: Path) -> Path:
    """A quick board, then boards on which each CBC run takes a second or more (most take
    a few hundredths): a TERM then comes while CBC runs, and PuLP would leave it running."""
    folder = tmp_path / "cbc"
    quick = generate_boards(folder, 1, 9, "--table-tiles", "10-30", "--rack-tiles", "5-10")
    sizes = ["--table-tiles", "90-100", "--rack-tiles", "14", "--jokers", "2"]
    hard = generate_boards(tmp_path / "hard", 5, 3, *sizes)[-1].read_text()
    quick[0].rename(folder / "a.txt")
    for number in range(1, 7):
        (folder / f"b{number}.txt").write_text(hard)
    return folder


def test_hint_with_cbc_stops_cbc_and_removes_its_files(
    running: Callable[..., Command], cbc_boards: Path
) -> None:
    hint = running("hint", "--backend", "cbc", str(cbc_boards / "b1.txt"))
    wait_for(lambda: cbc_runs(hint.process.pid), "CBC to start")
    code, out, err = hint.terminate()
    assert (code, out, err, cbc_runs(hint.process.pid)) == (143, "", "\ninterrupted\n", [])
    hint.assert_nothing_left()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_batch_with_cbc_stops_cbc_and_keeps_its_rows(
    running: Callable[..., Command], cbc_boards: Path, jobs: str
) -> None:
    """TERM while CBC runs, in this process (one job) or in the workers, which stop theirs
    as they stop."""
    options = ["--format", "jsonl", "--backend", "cbc", "--jobs", jobs]
    batch = running("batch", str(cbc_boards), *options)
    first = batch.first_line()
    wait_for(lambda: cbc_runs(batch.process.pid), "CBC to start")
    code, out, err = batch.terminate(first)
    assert (code, cbc_runs(batch.process.pid)) == (143, []), err
    # The quick board's row at least; with two workers a hard board may have been done
    # before the TERM came. Every row written is kept, in order, and the summary says so.
    files = [json.loads(row)["file"] for row in out.splitlines()]
    order = [str(cbc_boards / name) for name in ["a.txt", *(f"b{n}.txt" for n in range(1, 7))]]
    assert 1 <= len(files) < 7 and files == order[: len(files)]
    assert err.endswith(f"\ninterrupted: {len(files)} of 7 boards written\n")
    batch.assert_nothing_left()


def test_batch_keeps_its_rows_says_so_and_leaves_nothing(
    running: Callable[..., Command], boards: Path
) -> None:
    batch = running("batch", str(boards), "--format", "jsonl", "--jobs", "2")
    first = batch.first_line()
    code, out, err = batch.terminate(first)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 143, err
    assert [row["file"] for row in rows] == [
        str(boards / f"gen-{n:05d}.txt") for n in range(1, len(rows) + 1)
    ]
    assert re.fullmatch(
        rf"{len(rows)} boards? in [0-9.]+ s \(2 jobs\): .*\n"
        rf"interrupted: {len(rows)} of 200 boards written\n",
        err,
    )
    batch.assert_nothing_left()


def test_generate_keeps_whole_boards_and_no_partial_file(
    running: Callable[..., Command], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    generate = running("generate", "--count", "100000", "--out", str(out))
    wait_for(lambda: out.is_dir() and len(os.listdir(out)) > 20, "boards to be written")
    code, stdout, err = generate.terminate()
    said = re.fullmatch(rf"interrupted: (\d+) boards written to {out}\n", err)
    assert (code, stdout, said is not None) == (143, "", True), err
    assert said is not None
    written = int(said[1])
    assert sorted(os.listdir(out)) == [f"gen-{n:06d}.txt" for n in range(1, written + 1)]
    last = (out / f"gen-{written:06d}.txt").read_text()
    assert CliRunner().invoke(cli, ["check", str(out / f"gen-{written:06d}.txt")]).exit_code == 0
    assert last.startswith("# rummisolve generate")
    generate.assert_nothing_left()


def test_a_signal_while_a_row_is_written_stops_right_after_it() -> None:
    """The first INT or TERM inside `held` waits for the row; its status is the signal's."""
    interrupt = Interrupt()
    written = []
    with pytest.raises(KeyboardInterrupt), interrupt.held():
        os.kill(os.getpid(), signal.SIGTERM)
        written.append("the whole row")
    assert written == ["the whole row"]
    assert (interrupt.came, interrupt.exit_status(INTERRUPTED), interrupt.exit_status(1)) == (
        True,
        143,
        1,
    )


def test_a_signal_while_a_command_loads_is_taken_once_it_has_loaded() -> None:
    """Inside `deferred` (a command's modules importing) a TERM waits: raised inside
    numpy's import it came out as an ImportError and a traceback, not "interrupted"."""
    interrupt = Interrupt()
    previous = signal.signal(signal.SIGTERM, interrupt.on_signal)
    loaded = []
    try:
        with pytest.raises(KeyboardInterrupt), interrupt.deferred():
            # To this thread: the mask is a thread's, and another thread may take a
            # signal sent to the process.
            signal.pthread_kill(threading.get_ident(), signal.SIGTERM)
            loaded.append("the whole module")
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert loaded == ["the whole module"]
    assert interrupt.exit_status(INTERRUPTED) == 143


# Worker processes that die, and signals at awkward moments -------------------------------


def workers_of(pid: int) -> list[int]:
    """A command's worker processes: the children of its fork server, its own child."""
    found: list[int] = []
    for server in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        with contextlib.suppress(FileNotFoundError):
            found += map(int, Path(f"/proc/{server}/task/{server}/children").read_text().split())
    return found


# Games are handed out one at a time: at the first game's row, four or more are still to play.
GAME_COUNT = 6
GAMES = {
    command: [command, "--players", "2", "--games", str(GAME_COUNT), "--jobs", "2", option]
    for command, option in [("play", "--strategy=hoarder"), ("tournament", "--strategies=hoarder")]
}


def is_game_row(line: str) -> bool:
    """A game's row of `play` or `tournament`: its number first, in five places."""
    return line[:5].strip().isdigit()


@pytest.mark.parametrize("command", list(GAMES))
def test_a_game_whose_worker_is_killed_is_played_again(
    running: Callable[..., Command], command: str
) -> None:
    """kill -9 on a worker in the middle of its game: that game is played by another
    worker, and every game is reported, in order (the pool waited for it for ever)."""
    games = running(*GAMES[command])
    shown = [games.first_line()]
    while not is_game_row(shown[-1].decode()):  # the first game's row: the workers are at work
        assert shown[-1], b"".join(shown)
        shown.append(games.first_line())
    os.kill(workers_of(games.process.pid)[0], signal.SIGKILL)
    out, err = games.process.communicate(timeout=WAIT_SECONDS)
    assert games.process.returncode == 0, err.decode()
    lines = b"".join([*shown, out]).decode().splitlines()
    rows = lines[: lines.index("")]  # the report follows
    numbers = [int(line.split()[0]) for line in rows if is_game_row(line)]
    assert numbers == list(range(1, GAME_COUNT + 1)), lines
    games.assert_nothing_left()


DIES = """
import os


class Dies:
    name = "dies"

    def choose(self, view, find):
        os._exit(1)  # as a crash inside a solver library would
"""


@pytest.mark.parametrize("command", list(GAMES))
def test_a_game_that_kills_two_workers_stops_the_run_naming_it(
    running: Callable[..., Command], tmp_path: Path, command: str
) -> None:
    plug_in = tmp_path / "dies.py"
    plug_in.write_text(DIES)
    option = "--strategy" if command == "play" else "--strategies"
    args = [command, "--players", "2", "--games", "3", option, f"{plug_in}:Dies,greedy"]
    games = running(*args, "--jobs", "2", "--json")
    out, err = games.process.communicate(timeout=WAIT_SECONDS)
    assert (games.process.returncode, err.decode()) == (
        1,
        "Error: game 1 killed its worker process twice (killed, or a crash inside a solver"
        " library): the games stop there\n",
    )
    assert json.loads(out)["games"] in ([], 0)  # the report of the games finished: none
    games.assert_nothing_left()


def takes_term(pid: int) -> bool:
    """Whether the process has taken TERM into its own hands (blocked, or a handler): the
    command's first moment, before which the system's default kills it."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True  # ended already
    masks = dict(line.split(":\t") for line in status.splitlines() if line.startswith("Sig"))
    return bool((int(masks["SigBlk"], 16) | int(masks["SigCgt"], 16)) & 1 << signal.SIGTERM - 1)


# Seconds from the command's first moment: while it loads, starts its workers, runs.
DELAYS = [0.0, 0.05, 0.15, 0.3, 0.5]


@pytest.fixture
def few_boards(tmp_path: Path) -> Path:
    folder = tmp_path / "few"
    generate_boards(folder, 40, 9, "--table-tiles", "10-30", "--rack-tiles", "5-10")
    return folder


@pytest.mark.parametrize("command", ["batch", *GAMES])
def test_a_signal_at_any_early_moment_is_a_clean_interrupt(
    running: Callable[..., Command], few_boards: Path, command: str
) -> None:
    """INT (Ctrl-C: to the whole process group) or TERM at moments from the command's
    first on: its status, its last word "interrupted", never a traceback or "Aborted!",
    nothing left running."""
    args = ["batch", str(few_boards), "--jobs", "2"] if command == "batch" else GAMES[command]
    for number, delay in enumerate(DELAYS):
        sent = signal.SIGINT if number % 2 else signal.SIGTERM
        started = running(*args)
        pid = started.process.pid
        wait_for(partial(takes_term, pid), "the command to take its signals")
        time.sleep(delay)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(started.process.pid, sent)
        _out, err = started.process.communicate(timeout=WAIT_SECONDS)
        said = f"{command}, {sent.name} after {delay} s: {err.decode()}"
        assert started.process.returncode == 128 + sent, said
        assert "Traceback" not in said and "Aborted" not in said, said
        assert err.decode().splitlines()[-1].startswith("interrupted"), said
        started.assert_nothing_left()


def test_importing_the_package_imports_nothing_else(tmp_path: Path) -> None:
    """The command holds Ctrl-C from `_entry`'s first line, which runs after the package's
    `__init__`: one that imported `typing` there gave a traceback from inside `typing`
    for a Ctrl-C 0.3 s in (without `site`, which may import `typing` itself; so the
    package is found through a link on PYTHONPATH, as an install's finder is a `site`'s)."""
    import rummisolve

    (tmp_path / "rummisolve").symlink_to(Path(rummisolve.__file__).parent)
    done = subprocess.run(
        [
            sys.executable,
            "-S",
            "-c",
            "import sys; had = set(sys.modules); import rummisolve;"
            " print(sorted(set(sys.modules) - had))",
        ],
        capture_output=True,
        text=True,
        timeout=WAIT_SECONDS,
        check=True,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )
    assert done.stdout == "['rummisolve']\n"


def test_ctrl_c_as_click_parses_is_interrupted_not_aborted() -> None:
    """Ctrl-C that reached click itself (here as the group's own option is read) gave
    click's "Aborted!" and status 1."""
    from rummisolve.cli.app import LazyGroup

    def ctrl_c(ctx: click.Context, param: click.Parameter, value: object) -> None:
        raise KeyboardInterrupt

    @click.group(cls=LazyGroup)
    @click.option("--now", is_flag=True, callback=ctrl_c, expose_value=False)
    def group() -> None:
        pass

    result = CliRunner().invoke(group, ["--now", "hint"])
    assert (result.exit_code, result.stdout, result.stderr) == (
        INTERRUPTED,
        "",
        "\n\ninterrupted\n",
    )
