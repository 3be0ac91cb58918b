"""`rummisolve batch` and `rummisolve bench`: many boards solved, or solved by every
backend and compared."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import click

from ..batch import (
    BatchError,
    BatchSettings,
    Format,
    Tally,
    Workers,
    board_paths,
    folder_problem,
    header,
    prepare_batch,
    read_path,
    read_standard_input,
    run_batch,
    usable_cpus,
)
from ..batch.rows import NO_FILE_TO_WRITE
from ..bench import SOLVER, BackendResult, Bench, BenchReport, NamedBoard, Solver
from ..board import Board
from ..engine.backends import BACKENDS
from ..errors import BoardError, printable
from ..files import replaceable
from ..generate import Span
from ..move import Objective
from ..rules import Overrides, Rules
from .generate import deal, size_options
from .interrupts import INTERRUPT, INTERRUPTED, drop_stdout
from .options import (
    backend_option,
    core_errors,
    objective_option,
    plural,
    rule_options,
    rule_overrides,
    time_limit_option,
)
from .output import write_row
from .progress import progress
from .tables import (
    batch_summary,
    bench_table,
)

if TYPE_CHECKING:
    from ..batch.ray_pool import RayBatch


def read_named_board(
    path: str, overrides: Overrides, standard_input: Mapping[str, bytes]
) -> NamedBoard | str:
    """The board in a file (or one of standard input's, as batch reads them), or why it
    is left out: its problems, `FILE:LINE: message`."""
    if (not_a_board := folder_problem(path)) is not None:
        return not_a_board
    try:
        return NamedBoard(path, read_path(path, standard_input, overrides))
    except BoardError as error:
        return str(error)


@click.command()
@click.argument("paths", metavar="PATH...", nargs=-1, required=True)
@click.option(
    "--jobs",
    type=click.IntRange(1),
    default=usable_cpus(),
    show_default="the CPUs this process may use",
    help="Worker processes solving boards in parallel.",
)
@click.option(
    "--ray",
    "ray_address",
    metavar="ADDRESS",
    help="Solve on a Ray cluster: auto (the running one), local (a new one here), or its"
    " address; --jobs then counts actors  [default: the cluster's CPUs].",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice([f.value for f in Format]),
    default=Format.TABLE.value,
    show_default=True,
    help='jsonl: one object per board, as hint --json plus "file".',
)
@objective_option
@backend_option
@time_limit_option
@click.option(
    "--check-expected",
    is_flag=True,
    help="Compare each answer with the board's '# expect: tiles=N value=N' line.",
)
@click.option(
    "--unique",
    is_flag=True,
    help="Fail a board whose best move is not the only one (proved: see hint --all).",
)
@click.option(
    "--write-expected",
    is_flag=True,
    help="Write each proved answer into its board file as its '# expect:' line.",
)
@click.option(
    "--force", is_flag=True, help="With --write-expected: replace a different expect line."
)
@rule_options
@core_errors
def batch(
    paths: tuple[str, ...],
    jobs: int,
    ray_address: str | None,
    output_format: str,
    objective: str,
    backend: str,
    time_limit: float | None,
    check_expected: bool,
    unique: bool,
    write_expected: bool,
    force: bool,
    **options: Any,
) -> None:
    """Solve every board in PATH... (a board file, or a folder: every *.txt below it).

    Rows come out in the order of the input, each as soon as it is ready; a board that
    fails gets an error row and the batch goes on (exit status 1). A summary goes to stderr.
    """
    for flag, given in (("--check-expected", check_expected), ("--write-expected", write_expected)):
        if given and objective != Objective.TILES.value:
            raise click.BadParameter(
                "expect lines record answers under --objective tiles", param_hint=f"'{flag}'"
            )
    if force and not write_expected:
        raise click.BadParameter("only with --write-expected", param_hint="'--force'")
    if write_expected:
        for path in paths:
            if path == "-" or (not os.path.isdir(path) and replaceable(path) is None):
                raise click.BadParameter(
                    f"{'standard input' if path == '-' else printable(path)}: {NO_FILE_TO_WRITE}",
                    param_hint="'--write-expected'",
                )
    # A path that does not exist holds no board: named, and not counted as one.
    missing = [path for path in paths if path not in ("-", "") and not_found(path)]
    for path in missing:
        click.echo(f"{printable(path)}: no such file or folder", err=True)
    paths = tuple(path for path in paths if path not in missing)
    if not paths:
        raise click.exceptions.Exit(1)
    # Standard input is read here: worker processes have none of their own.
    files, standard_input = read_standard_input(board_paths(paths))
    cpus = usable_cpus()
    if (
        ray_address is not None
        and click.get_current_context().get_parameter_source("jobs")
        is click.core.ParameterSource.DEFAULT
    ):
        jobs = 0  # one actor per CPU of the cluster
    if jobs > cpus and ray_address is None:
        # More workers than CPUs only share them: each costs a solver's memory, none helps.
        click.echo(
            f"--jobs {jobs}: this process may use {plural(cpus, 'CPU')}; using {cpus}", err=True
        )
        jobs = cpus
    jobs = max(1, min(jobs, len(files))) if jobs else 0  # no more workers than boards
    settings = BatchSettings(
        format=Format(output_format),
        objective=Objective(objective),
        backend=backend,
        time_limit=time_limit,
        overrides=rule_overrides(options),
        check_expected=check_expected,
        unique=unique,
        write_expected=write_expected,
        force=force,
        file_width=max(len("file"), *(len(printable(f)) for f in files)),
        standard_input=standard_input,
    )
    tally = Tally()
    workers: Workers | RayBatch | None = None
    results = None
    started = time.perf_counter()
    try:
        # The solver starts before the clock, in this process or in every worker.
        if ray_address is None:
            workers = prepare_batch(settings, jobs)
            started = time.perf_counter()
            results = run_batch(files, settings, jobs, workers)
        else:
            try:
                from ..batch.ray_pool import RayBatch  # Ray is loaded only when asked for
            except ImportError as error:
                raise click.BadParameter(needs_ray(error), param_hint="'--ray'") from None
            workers = RayBatch(ray_address, settings, jobs or None, most=len(files))
            jobs, started = workers.jobs, time.perf_counter()
            results = workers.run(files)
        if (first := header(settings)) is not None:
            click.echo(first)
        with progress("solving", len(files)) as bar:
            # Ctrl-C or TERM stops the batch at once while it waits for a row (a row
            # finished after Ctrl-C may have been cut short by it: a CBC run gets the
            # signal too), and after the row while one is written.
            for result in results:
                with INTERRUPT.held():
                    try:
                        bar.before_row()
                        write_row(result.row)
                    except BrokenPipeError:
                        # Ctrl-C stops a pipeline's reader too (`| tee log`): an interrupt.
                        if not INTERRUPT.came:
                            raise
                        drop_stdout()
                        raise KeyboardInterrupt from None
                    tally.add(result)
                    bar.advance()
    except KeyboardInterrupt:
        with INTERRUPT.ignored():
            if results is not None:
                results.close()  # the workers stopped, their files removed
            report_batch(tally, time.perf_counter() - started, jobs, check_expected, unique)
            click.echo(f"interrupted: {tally.total} of {len(files)} boards written", err=True)
        raise click.exceptions.Exit(INTERRUPTED) from None
    except BatchError:
        if tally.total:  # what was written stands: its summary, then the error
            report_batch(tally, time.perf_counter() - started, jobs, check_expected, unique)
        raise
    finally:
        if workers is not None:  # also when no row was asked for (run_batch never ran)
            workers.close()
    report_batch(tally, time.perf_counter() - started, jobs, check_expected, unique)
    if missing:
        named = ", ".join(printable(path) for path in missing)
        click.echo(f"{plural(len(missing), 'path')} not found: {named}", err=True)
    if not tally.passed or missing:
        raise click.exceptions.Exit(1)


def not_found(path: str) -> bool:
    """Whether nothing lies at `path` (a name that cannot be looked up is a board's row)."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return False


def needs_ray(error: ImportError) -> str:
    return f'needs Ray: pip install "rummisolve[ray]" ({error})'


def report_batch(
    tally: Tally, seconds: float, jobs: int, check_expected: bool, unique: bool = False
) -> None:
    """On stderr: a line for each board that needs a look, then the summary (and how many
    expect lines were written, if any)."""
    for line in tally.problems:
        click.echo(line, err=True)
    click.echo(batch_summary(tally, seconds, jobs, check_expected), err=True)
    if unique:
        click.echo(
            f"unique: {tally.unique} of {tally.solved} best moves proved the only ones", err=True
        )
    if tally.written:
        click.echo(f"expect lines written: {tally.written}", err=True)


@click.command()
@click.argument("paths", metavar="[PATH...]", nargs=-1)
@click.option(
    "--generate",
    "count",
    type=click.IntRange(1),
    help="Also bench this many generated boards  [default: 50 when no PATH is given]",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of --generate.")
@size_options
@click.option(
    "--backend",
    "backends",
    type=click.Choice(sorted(BACKENDS)),
    multiple=True,
    help="A backend to compare (repeat the option)  [default: all]",
)
@click.option(
    "--repeat",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Solves per board and backend; a board's time is their median.",
)
@objective_option
@time_limit_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@rule_options
@core_errors
def bench(
    paths: tuple[str, ...],
    count: int | None,
    seed: int,
    table_tiles: Span,
    rack_tiles: Span,
    backends: tuple[str, ...],
    repeat: int,
    objective: str,
    time_limit: float | None,
    as_json: bool,
    **options: Any,
) -> None:
    """Compare solver backends on boards (files, folders) or generated positions.

    Per backend the median, p90 and max solve time, and how many answers the time limit
    left not proved best; and a check that the backends' answers proved best are the same
    on every board (exit status 1 if not, naming the boards).
    A bad board is named on stderr and left out, a backend that fails is named and its
    row says so, and the rest goes on (exit status 1); Ctrl-C reports the boards
    finished (exit status 130).
    """
    # The solver benched: a `Solver` the caller made the click context's object
    # (`cli.main(obj=...)`, a backend that misbehaves on cue), or the real one.
    solver = click.get_current_context().find_object(Solver) or SOLVER
    overrides = rule_overrides(options)
    files, standard_input = read_standard_input(board_paths(paths))
    if count is None and not paths:
        count = DEFAULT_BENCH_BOARDS
    generated: Iterable[Board] = ()
    if count:
        rules = overrides.apply(Rules())
        generated = deal(count, seed, table_tiles=table_tiles, rack_tiles=rack_tiles, rules=rules)
    total = len(files) + (count or 0)
    run = Bench(backends or BACKENDS, repeat, Objective(objective), time_limit, solver)
    bad_boards = 0
    try:
        run.start()
        with progress("benching", total) as bar:
            for path in files:
                named = read_named_board(path, overrides, standard_input)
                if isinstance(named, str):
                    bar.before_row()
                    click.echo(named, err=True)
                    bad_boards += 1
                else:
                    run.add(named)
                bar.advance()
            for number, board in enumerate(generated, start=1):
                run.add(NamedBoard(f"seed {seed} board {number}", board))
                bar.advance()
    except KeyboardInterrupt:
        # The board under way is left out; those finished still make a report.
        report = run.report()
        click.echo(f"\ninterrupted: {report.boards} of {plural(total, 'board')} benched", err=True)
        show_bench(report, as_json)
        raise click.exceptions.Exit(INTERRUPTED) from None
    report = run.report()
    show_bench(report, as_json)
    if bad_boards or not report.passed:
        raise click.exceptions.Exit(1)


DEFAULT_BENCH_BOARDS = 50


def show_bench(report: BenchReport, as_json: bool) -> None:
    """What stopped a backend on stderr, one line each; the report on stdout."""
    for failure in report.failures:
        click.echo(str(failure), err=True)
    click.echo(json.dumps(bench_json(report)) if as_json else bench_table(report))


def bench_json(report: BenchReport) -> dict[str, Any]:
    return {
        "boards": report.boards,
        "repeat": report.repeat,
        "backends": {b.backend: backend_json(b) for b in report.backends},
        "same_optimum": not report.disagreements,
        "unproved_boards": report.unproved_boards,
        "differences": [
            {"board": d.board, "optima": {b: o._asdict() for b, o in d.optima.items()}}
            for d in report.disagreements
        ],
        "illegal": list(report.illegal),
    }


def backend_json(result: BackendResult) -> dict[str, Any]:
    """Times in ms (null before any board) and answers not proved best, or `error` for a
    backend that failed, as in batch."""
    if result.failure is not None:
        return {"error": str(result.failure)}
    keys = ("median_ms", "p90_ms", "max_ms")
    times: dict[str, float | None] = dict.fromkeys(keys)
    if result.timing is not None:
        times = {key: round(s * 1000, 3) for key, s in zip(keys, result.timing, strict=True)}
    return {**times, "unproved": result.unproved}
