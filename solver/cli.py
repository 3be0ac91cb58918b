"""The command line: parse options, call the core, format what it returns.

The core raises named errors (`RummisolveError`); here each becomes a one-line
`click.ClickException`, exit status 1, never a traceback.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import math
import os
import re
import signal
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from . import __version__
from .backends import BACKENDS, DEFAULT_BACKEND
from .batch import (
    BatchError,
    BatchSettings,
    Format,
    Tally,
    board_paths,
    folder_problem,
    header,
    prepare_batch,
    read_path,
    read_standard_input,
    run_batch,
    usable_cpus,
)
from .bench import BackendResult, Bench, BenchReport, NamedBoard
from .board import Board, format_board, read_board, stream_entry
from .errors import BoardError, RummisolveError, printable
from .game import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    STRATEGIES,
    GameOptions,
    MatchRecord,
    SetupError,
    Strategy,
    Turn,
    make_seats,
    play_match,
    strategy_named,
    strategy_stats,
    tile_set_for,
)
from .generate import SizeError, Span, generate_boards
from .legality import check_move
from .model import Objective
from .render import move_json, render_move
from .rules import (
    LARGEST_NUMBER,
    MAX_JOKER_PENALTY,
    OPTIONS,
    PROFILE_NAMES,
    PROFILES,
    Blocked,
    Method,
    Rules,
    apply_overrides,
)
from .scoring import (
    FinishedGame,
    GameScore,
    Scoring,
    read_score_sheet,
    score_game,
)
from .solve import find_move
from .tiles import TILE_SETS, format_tiles

F = TypeVar("F", bound=Callable[..., Any])


class ProblemsError(click.ClickException):
    """Several `FILE:LINE: message` lines on stderr, exit 1, no `Error:` prefix."""

    def show(self, file: Any = None) -> None:
        click.echo(self.message, err=True)


def core_errors(command: F) -> F:
    """Turn the core's named errors into click's exit-1 messages."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except BoardError as error:
            raise ProblemsError(str(error)) from None
        except RummisolveError as error:
            raise click.ClickException(str(error)) from None
        except BrokenPipeError:
            _reader_gone()
        except KeyboardInterrupt:
            # Commands with work to keep (batch) take Ctrl-C themselves first.
            click.echo("\ninterrupted", err=True)
            raise click.exceptions.Exit(130) from None
        except OSError as error:
            # A file the command writes (--out, --log) that cannot be made or written.
            where = f"{error.filename}: " if error.filename else ""
            raise click.ClickException(f"{where}{error.strerror or error}") from None

    return wrapper  # type: ignore[return-value]


# What a board file's `rules:` line can hold, so that every board written can be read back.
RULE_NUMBER = click.IntRange(0, LARGEST_NUMBER)


def rule_options(command: F) -> F:
    """The rule options every board-reading command takes (rules.OPTIONS, declared once),
    and `--rules NAME`, a profile; the command line wins over a board's `rules:` line."""
    options = [
        click.option(
            "--rules",
            "profile",
            type=click.Choice(PROFILE_NAMES, case_sensitive=False),
            help="A rules profile, set before the options below (see 'rummisolve rules').",
        )
    ]
    for option in OPTIONS:
        if option.kind is bool:
            flags = f"--{option.word}/--no-{option.word}"
            options.append(click.option(flags, option.field, default=None, help=option.help))
            continue
        kind: click.ParamType[Any]
        if option.word == "tile-set":
            kind = click.Choice([str(n) for n in sorted(TILE_SETS)])
        elif option.word == "joker-penalty":
            kind = click.IntRange(0, MAX_JOKER_PENALTY)
        elif option.kind is int:
            kind = RULE_NUMBER
        else:
            kind = click.Choice(option.choices, case_sensitive=False)
        options.append(click.option(f"--{option.word}", option.field, type=kind, help=option.help))
    for decorator in reversed(options):
        command = decorator(command)
    return command


def rule_overrides(kwargs: dict[str, Any]) -> dict[str, object]:
    """The rule options given on the command line (None: not given), as `parse_board` and
    `rules.apply_overrides` take them: a `profile`, then each option by its field."""
    overrides: dict[str, object] = {"profile": kwargs.pop("profile", None)}
    for option in OPTIONS:
        value = kwargs.pop(option.field, None)
        if value is not None and option.kind is not bool:
            value = option.parse(str(value))
        overrides[option.field] = value
    return overrides


def rule_flags(rules: Rules) -> str:
    """The command-line options that give these rules: ` --rules hebrew --joker-penalty 20`."""
    flags = []
    for word in rules.words():
        name, _, value = word.partition("=")
        if name in PROFILES:
            flags.append(f"--rules {name}")
        elif value == "no":
            flags.append(f"--no-{name}")
        elif value:
            flags.append(f"--{name} {value}")
        else:
            flags.append(f"--{name}")
    return "".join(" " + flag for flag in flags)


objective_option = click.option(
    "--objective",
    type=click.Choice([o.value for o in Objective]),
    default=Objective.TILES.value,
    show_default=True,
    help="Most tiles first, or most points first.",
)


backend_option = click.option(
    "--backend",
    type=click.Choice(sorted(BACKENDS)),
    default=DEFAULT_BACKEND,
    show_default=True,
    help="The solver: our branch-and-bound on CLP (fastest) or HiGHS LPs in this process,"
    " or CBC or HiGHS through PuLP.",
)


def finite(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    if value is not None and not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a number of seconds")
    return value


time_limit_option = click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    callback=finite,
    help="Seconds for one move: then the best found so far, status feasible.",
)


def size_range(ctx: click.Context, param: click.Parameter, value: str | None) -> Span | None:
    """A size on the command line: `N`, or `LO-HI` for a random size in that range."""
    if value is None:
        return None
    low, dash, high = value.partition("-")
    if not low.isdigit() or (dash and not high.isdigit()):
        raise click.BadParameter(f"{value!r} is not a size N or a range LO-HI")
    span = Span(int(low), int(high) if dash else int(low))
    if span.low > span.high:
        raise click.BadParameter(f"{value!r} is an empty range")
    return span


def folder_path(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """A folder named on the command line; an empty name is refused (it would mean the
    current folder, unsaid)."""
    if value is None:
        return None
    if not value.strip():
        raise click.BadParameter("an empty path: name a folder")
    return Path(value)


def size_options(command: F) -> F:
    """Table and rack sizes of generated positions, each N or LO-HI."""
    for name, default, what in (
        ("--rack-tiles", "5-20", "Tiles on the rack"),
        ("--table-tiles", "0-60", "Tiles on the table"),
    ):
        command = click.option(
            name,
            metavar="N|LO-HI",
            default=default,
            show_default=True,
            callback=size_range,
            help=f"{what}: exactly N, or between LO and HI.",
        )(command)
    return command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rummisolve")
def cli() -> None:
    """Rummikub solver: the proved-best play from a table and a rack."""


@cli.command("rules")
@click.argument("name", metavar="[NAME|BOARD]", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@rule_options
@core_errors
def rules_command(name: str | None, as_json: bool, **options: Any) -> None:
    """The rules a profile (or a board file) puts in force, each with where it comes from;
    without NAME, every profile.

    Example: rummisolve rules hebrew
    """
    overrides = rule_overrides(options)
    if name is None and not any(v is not None for v in overrides.values()):
        profiles = [PROFILES[n].rules for n in PROFILE_NAMES]
        if as_json:
            click.echo(json.dumps({"profiles": {r.profile: rules_json(r) for r in profiles}}))
        else:
            click.echo("\n\n".join(rules_text(r) for r in profiles))
        return
    if name is None:
        chosen = apply_overrides(Rules(), overrides)
    elif name.lower() in PROFILES:
        chosen = apply_overrides(PROFILES[name.lower()].rules, overrides)
    else:
        chosen = read_board(name, **overrides).rules
    click.echo(json.dumps(rules_json(chosen)) if as_json else rules_text(chosen))


def rules_json(rules: Rules) -> dict[str, Any]:
    """`rules --json`: the profile, what it is, every option's value and its source."""
    profile = PROFILES[rules.profile]
    return {
        "profile": rules.profile,
        "summary": profile.summary,
        "rules": rules.as_json(),
        "sources": {o.field: rules.source_of(o.field) for o in OPTIONS},
        "words": rules.words(full=True),
    }


def rules_text(rules: Rules) -> str:
    """`rules`: the profile and what it is, then each option, its value and its source."""
    profile = PROFILES[rules.profile]
    changed = rules.differences()
    title = f"{rules.profile}: {profile.summary}"
    if changed:
        title += f" (changed here: {' '.join(changed)})"
    values = {o.field: o.word_for(rules) for o in OPTIONS}
    width = max(len(v) for v in values.values())
    lines = [title]
    lines.extend(f"  {values[o.field]:<{width}}  {rules.source_of(o.field)}" for o in OPTIONS)
    return "\n".join(lines)


@cli.command()
@click.argument(
    "board_path",
    metavar="BOARD",
)
@rule_options
@core_errors
def check(board_path: str, **options: Any) -> None:
    """Validate BOARD (a file, or - for standard input): exit 0 valid, 1 invalid."""
    board = read_board(board_path, **rule_overrides(options))
    click.echo(f"{printable(board_path)}: valid: {describe_board(board)}")


@cli.command()
@click.argument("board_path", metavar="BOARD")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/format.md).")
@objective_option
@backend_option
@time_limit_option
@rule_options
@core_errors
def hint(
    board_path: str,
    as_json: bool,
    objective: str,
    backend: str,
    time_limit: float | None,
    **options: Any,
) -> None:
    """The best move on BOARD (a file, or - for standard input), proved best."""
    board = read_board(board_path, **rule_overrides(options))
    move = find_move(board, objective=objective, backend=backend, time_limit=time_limit)
    if problems := check_move(board, move):
        raise click.ClickException(
            f"{board_path}: the answer breaks the rules (a solver bug): {'; '.join(problems)}"
        )
    if as_json:
        click.echo(json.dumps(move_json(move, board.rules)))
    else:
        click.echo(render_move(board, move, colour=use_colour()), nl=False)


def use_colour() -> bool:
    """Colour on a terminal that shows it: not where NO_COLOR is set (no-color.org), nor
    on a dumb terminal."""
    dumb = os.environ.get("TERM") == "dumb"
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR") and not dumb


def describe_board(board: Board) -> str:
    sets, tiles = len(board.table), len(board.table_tiles)
    words = [
        f"{plural(sets, 'set')} ({tiles} tiles) on the table",
        f"{plural(len(board.rack), 'tile')} on the rack",
        "opened" if board.opened else "not opened",
    ]
    if rule_words := board.rules.words():
        words.append("rules: " + " ".join(rule_words))
    return ", ".join(words)


def deal(count: int, seed: int, **sizes: Any) -> Iterable[Board]:
    """generate_boards, with sizes no position can have a usage error naming the options
    (the core names the arguments at fault, which the options are named after)."""
    try:
        return generate_boards(count, seed, **sizes)
    except SizeError as error:
        options_at_fault = ["--" + argument.replace("_", "-") for argument in error.arguments]
        raise click.BadParameter(str(error), param_hint=options_at_fault) from None


@cli.command()
@click.option(
    "--count", type=click.IntRange(0), default=10, show_default=True, help="How many boards."
)
@click.option("--seed", type=int, default=1, show_default=True, help="Same seed, same boards.")
@click.option(
    "--out",
    type=click.Path(),
    callback=folder_path,
    help="Folder for gen-00001.txt, ... (default: all boards on stdout).",
)
@click.option(
    "--overwrite",
    is_flag=True,
    help="Remove the boards an earlier generate wrote in --out first (without it, such a"
    " folder is refused); nothing else is touched.",
)
@size_options
@click.option(
    "--jokers",
    metavar="N|LO-HI",
    callback=size_range,
    help="Jokers in play, table and rack  [default: as dealt]",
)
@click.option("--opened/--not-opened", default=True, show_default=True, help="Initial meld made.")
@rule_options
@core_errors
def generate(
    count: int,
    seed: int,
    out: Path | None,
    overwrite: bool,
    table_tiles: Span,
    rack_tiles: Span,
    jokers: Span | None,
    opened: bool,
    **options: Any,
) -> None:
    """Deal random, legal positions from the box, as board files."""
    if overwrite and out is None:
        raise click.UsageError("--overwrite needs --out")
    rules = apply_overrides(Rules(), rule_overrides(options))
    boards = deal(
        count,
        seed,
        table_tiles=table_tiles,
        rack_tiles=rack_tiles,
        jokers=jokers,
        rules=rules,
        opened=opened,
    )
    recipe = f"rummisolve generate --seed {seed} --table-tiles {table_tiles}"
    recipe += f" --rack-tiles {rack_tiles}"
    if jokers is not None:
        recipe += f" --jokers {jokers}"
    if not opened:
        recipe += " --not-opened"
    recipe += rule_flags(rules)
    if out is not None:
        prepare_board_folder(out, overwrite)
    width = max(5, len(str(count)))
    written = 0
    try:
        with CtrlC() as ctrl_c:
            for number, board in enumerate(boards, start=1):
                if out is None:
                    click.echo(stream_entry(number, recipe, board), nl=False)
                else:
                    text = f"# {recipe}: board {number}\n{format_board(board, full_rules=True)}"
                    write_whole(out / f"gen-{number:0{width}d}.txt", text)
                written = number
                if ctrl_c.pressed:
                    raise KeyboardInterrupt
    except KeyboardInterrupt:
        where = "" if out is None else f" to {out}"
        click.echo(f"interrupted: {plural(written, 'board')} written{where}", err=True)
        raise click.exceptions.Exit(130) from None
    if out is not None:
        click.echo(f"wrote {plural(count, 'board')} to {out}")


def prepare_board_folder(out: Path, overwrite: bool) -> None:
    """Make `out` hold this run's boards only: a later `batch OUT` must never solve a board
    of an earlier run. Refused, with nothing changed, unless `overwrite` removes them; it
    removes only what generate wrote (its file names, its first line), and only once it
    has checked that it can remove them all."""
    earlier = generated_boards(out) if out.is_dir() else []
    if earlier and not overwrite:
        raise click.ClickException(
            f"{out} already holds boards generate wrote (gen-NNNNN.txt): --overwrite"
            " removes them first"
        )
    out.mkdir(parents=True, exist_ok=True)
    if earlier and not os.access(out, os.W_OK | os.X_OK):
        raise click.ClickException(f"{out}: cannot remove the earlier boards (no write access)")
    for path in earlier:
        path.unlink()


# What generate writes in a folder: its names, and the first line of each.
GENERATED_NAME = re.compile(r"gen-[0-9]{5,}\.txt")
GENERATED_MARK = "# rummisolve generate "


def generated_boards(out: Path) -> list[Path]:
    """The boards an earlier `generate --out` wrote in `out`, and nothing else of a user's:
    regular files named gen-NNNNN.txt whose first line is generate's."""
    found = []
    for path in sorted(out.iterdir()):
        if not GENERATED_NAME.fullmatch(path.name) or not path.is_file():
            continue
        with path.open("rb") as file:
            first = file.readline(len(GENERATED_MARK) + 1)
        if first.startswith(GENERATED_MARK.encode()):
            found.append(path)
    return found


def write_whole(path: Path, text: str) -> None:
    """Written under another name beside `path`, then renamed: `path` is never half a
    board, wherever the run stops (Ctrl-C, a full disk)."""
    partial = path.with_name(path.name + ".partial")
    try:
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)


@cli.command()
@click.argument("paths", metavar="PATH...", nargs=-1, required=True)
@click.option(
    "--jobs",
    type=click.IntRange(1),
    default=usable_cpus(),
    show_default="the CPUs this process may use",
    help="Worker processes solving boards in parallel.",
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
@rule_options
@core_errors
def batch(
    paths: tuple[str, ...],
    jobs: int,
    output_format: str,
    objective: str,
    backend: str,
    time_limit: float | None,
    check_expected: bool,
    **options: Any,
) -> None:
    """Solve every board in PATH... (a board file, or a folder: every *.txt below it).

    Rows come out in the order of the input, each as soon as it is ready; a board that
    fails gets an error row and the batch goes on (exit status 1). A summary goes to stderr.
    """
    if check_expected and objective != Objective.TILES.value:
        raise click.BadParameter(
            "expect lines record answers under --objective tiles", param_hint="'--check-expected'"
        )
    # Standard input is read here: worker processes have none of their own.
    files, standard_input = read_standard_input(board_paths(paths))
    cpus = usable_cpus()
    if jobs > cpus:
        # More workers than CPUs only share them: each costs a solver's memory, none helps.
        click.echo(
            f"--jobs {jobs}: this process may use {plural(cpus, 'CPU')}; using {cpus}", err=True
        )
        jobs = cpus
    jobs = max(1, min(jobs, len(files)))  # no more workers than boards
    settings = BatchSettings(
        format=Format(output_format),
        objective=Objective(objective),
        backend=backend,
        time_limit=time_limit,
        rule_overrides=tuple(rule_overrides(options).items()),
        check_expected=check_expected,
        file_width=max(len("file"), *(len(printable(f)) for f in files)),
        standard_input=standard_input,
    )
    tally = Tally()
    workers = results = None
    started = time.perf_counter()
    hidden = not sys.stderr.isatty()
    try:
        # The solver starts before the clock, in this process or in every worker.
        workers = prepare_batch(settings, jobs)
        started = time.perf_counter()
        results = run_batch(files, settings, jobs, workers)
        if (first := header(settings)) is not None:
            click.echo(first)
        # The bar is drawn only when a person watches stderr; never in a log or a pipe.
        # On one terminal with the rows, the bar is taken off its line before each row.
        clear_bar = "" if hidden or not sys.stdout.isatty() else "\r\x1b[K"
        with (
            CtrlC() as ctrl_c,
            click.progressbar(
                length=len(files), label="solving", file=sys.stderr, hidden=hidden, show_pos=True
            ) as bar,
        ):
            for result in results:
                # A row finished after Ctrl-C may have been cut short by it (a CBC run
                # gets the signal too): only rows finished before are written.
                if ctrl_c.pressed:
                    raise KeyboardInterrupt
                try:
                    click.echo(clear_bar, nl=False, err=True)
                    click.echo(result.row)
                    sys.stdout.flush()
                except BrokenPipeError:
                    # Ctrl-C stops a pipeline's reader too (`| tee log`): still an interrupt.
                    if not ctrl_c.pressed:
                        raise
                    drop_stdout()
                    raise KeyboardInterrupt from None
                tally.add(result)
                bar.update(1)
    except KeyboardInterrupt:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # another Ctrl-C: the summary
        try:
            if results is not None:
                results.close()
            if not hidden:
                click.echo("", err=True)  # off the progress bar's line
            report_batch(tally, time.perf_counter() - started, jobs, check_expected)
            click.echo(f"interrupted: {tally.total} of {len(files)} boards written", err=True)
        finally:
            signal.signal(signal.SIGINT, previous)
        raise click.exceptions.Exit(130) from None
    except BatchError:
        if tally.total:  # what was written stands: its summary, then the error
            report_batch(tally, time.perf_counter() - started, jobs, check_expected)
        raise
    finally:
        if workers is not None:  # also when no row was asked for (run_batch never ran)
            workers.close()
    report_batch(tally, time.perf_counter() - started, jobs, check_expected)
    if not tally.passed:
        raise click.exceptions.Exit(1)


def report_batch(tally: Tally, seconds: float, jobs: int, check_expected: bool) -> None:
    """On stderr: a line for each board that needs a look, then the summary."""
    for line in tally.problems:
        click.echo(line, err=True)
    click.echo(batch_summary(tally, seconds, jobs, check_expected), err=True)


class CtrlC:
    """Ctrl-C taken between rows: never inside one (a row blocked on a full pipe would be
    cut short). The batch stops before the next row; a second Ctrl-C stops at once, even
    while waiting for a worker."""

    def __init__(self) -> None:
        self.pressed = False
        self.previous: Any = None

    def __enter__(self) -> CtrlC:
        self.previous = signal.signal(signal.SIGINT, self.on_interrupt)
        return self

    def __exit__(self, *exc: object) -> None:
        signal.signal(signal.SIGINT, self.previous)

    def on_interrupt(self, signum: int, frame: object) -> None:
        global _interrupted
        if self.pressed:
            _on_ctrl_c(signum, frame)
        self.pressed = _interrupted = True


def batch_summary(tally: Tally, seconds: float, jobs: int, check_expected: bool) -> str:
    """`200 boards in 1.203 s (2 jobs): 190 solved, 7 no move, 3 failed`, and the checks."""
    words = [f"{tally.solved} solved", f"{tally.no_move} no move", f"{tally.failed} failed"]
    if tally.unproved:
        words.append(f"{tally.unproved} not proved best (time limit)")
    if tally.nothing_found:
        words.append(f"{tally.nothing_found} with nothing found in the time limit")
    line = f"{plural(tally.total, 'board')} in {seconds:.3f} s ({plural(jobs, 'job')}): "
    line += ", ".join(words)
    if check_expected:
        line += f"; expect: {tally.checked} checked, {tally.mismatched} mismatched"
        # A board without an expect line, or one a time limit cut short, is not checked.
        if unchecked := tally.total - tally.failed - tally.checked:
            line += f", {unchecked} unchecked"
    return line


@cli.command()
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
    overrides = rule_overrides(options)
    files, standard_input = read_standard_input(board_paths(paths))
    if count is None and not paths:
        count = DEFAULT_BENCH_BOARDS
    generated: Iterable[Board] = ()
    if count:
        rules = apply_overrides(Rules(), overrides)
        generated = deal(count, seed, table_tiles=table_tiles, rack_tiles=rack_tiles, rules=rules)
    total = len(files) + (count or 0)
    run = Bench(backends or BACKENDS, repeat, Objective(objective), time_limit)
    bad_boards = 0
    try:
        run.start()
        for path in files:
            named = read_named_board(path, overrides, standard_input)
            if isinstance(named, str):
                click.echo(named, err=True)
                bad_boards += 1
            else:
                run.add(named)
        for number, board in enumerate(generated, start=1):
            run.add(NamedBoard(f"seed {seed} board {number}", board))
    except KeyboardInterrupt:
        # The board under way is left out; those finished still make a report.
        report = run.report()
        click.echo(f"\ninterrupted: {report.boards} of {plural(total, 'board')} benched", err=True)
        show_bench(report, as_json)
        raise click.exceptions.Exit(130) from None
    report = run.report()
    show_bench(report, as_json)
    if bad_boards or not report.passed:
        raise click.exceptions.Exit(1)


DEFAULT_BENCH_BOARDS = 50


def read_named_board(
    path: str, overrides: dict[str, object], standard_input: Mapping[str, bytes]
) -> NamedBoard | str:
    """The board in a file (or one of standard input's, as batch reads them), or why it
    is left out: its problems, `FILE:LINE: message`."""
    if (not_a_board := folder_problem(path)) is not None:
        return not_a_board
    try:
        return NamedBoard(path, read_path(path, standard_input, overrides))
    except BoardError as error:
        return str(error)


def plural(count: int, word: str) -> str:
    """`1 board`, `2 boards`, `0 boards`."""
    return f"{count} {word}{'s' * (count != 1)}"


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


def bench_table(report: BenchReport) -> str:
    """The times per backend, then whether the backends agree, naming every board they don't."""
    solves = f"{report.repeat} solves" if report.repeat > 1 else "1 solve"
    rows = [["backend", "median ms", "p90 ms", "max ms", "not proved best"]]
    rows += [bench_row(result) for result in report.backends]
    if not any(result.unproved for result in report.backends):
        rows = [row[:-1] for row in rows]  # the column only when the time limit cut a search
    boards = plural(report.boards, "board")
    lines = [f"{boards}, {solves} per board and backend", *_columns(rows, 1)]
    lines += bench_agreement(report)
    lines.extend(f"illegal answer: {line}" for line in report.illegal)
    return "\n".join(lines)


def bench_agreement(report: BenchReport) -> list[str]:
    """Whether the answers proved best agree, naming every board where they do not."""
    unproved = ""
    if report.unproved_boards:
        boards = plural(report.unproved_boards, "board")
        unproved = f"; answers not proved best (on {boards}) not compared"
    if report.disagreements:
        return [
            f"optimum differs on {plural(len(report.disagreements), 'board')}{unproved}:",
            *(
                f"  {d.board}: " + ", ".join(f"{b} {o}" for b, o in d.optima.items())
                for d in report.disagreements
            ),
        ]
    running = sum(result.failure is None for result in report.backends)
    if running < 2:
        return [f"same optimum: {plural(running, 'backend')}, nothing to compare"]
    if not report.boards:
        return ["same optimum: no board benched"]
    if report.unproved_boards:
        return [f"same optimum: the answers proved best agree on every board{unproved}"]
    return [f"same optimum: all {running} backends agree on every board"]


def bench_row(result: BackendResult) -> list[str]:
    """Backend, times in ms, answers not proved best; or that it failed, or had no board."""
    if result.failure is not None:
        return [result.backend, "failed", "", "", ""]
    if result.timing is None:
        return [result.backend, "-", "-", "-", "-"]
    return [result.backend, *(f"{s * 1000:.1f}" for s in result.timing), str(result.unproved)]


@cli.command()
@click.argument("score_path", metavar="FILE")
@click.option(
    "--rules",
    "profile",
    type=click.Choice(PROFILE_NAMES, case_sensitive=False),
    help="A rules profile's scoring (its method, blocked-game winner and joker penalty),"
    " over the file's; the options below win.",
)
@click.option(
    "--joker-penalty",
    type=click.IntRange(0, MAX_JOKER_PENALTY),
    help="A joker's value on a rack  [default: the file's rules: line, else 30]",
)
@click.option("--doubled", is_flag=True, help="The winner went out in one turn (house rule).")
@click.option(
    "--scoring",
    "method",
    type=click.Choice([m.value for m in Method]),
    help="standard: losers lose their rack, the winner takes the sum; laid: value laid minus"
    " the rack, needs laid=N (the Norwegian rules).",
)
@click.option(
    "--blocked",
    type=click.Choice([b.value for b in Blocked]),
    help="Who wins when no rack is empty: the lowest total (the rulebook) or the fewest tiles"
    " (the Hebrew rules).",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object: the scores.")
@core_errors
def score(
    score_path: str,
    profile: str | None,
    joker_penalty: int | None,
    doubled: bool,
    method: str | None,
    blocked: str | None,
    as_json: bool,
) -> None:
    """Score a finished game from the racks left (one line per player, NAME: tiles).

    Example: rummisolve score game.txt --rules norwegian
    """
    sheet = read_score_sheet(score_path)
    scoring = sheet.scoring
    if profile is not None:
        scoring = Scoring.of(PROFILES[profile.lower()].rules)
    if joker_penalty is not None:
        scoring = dataclasses.replace(scoring, joker_penalty=joker_penalty)
    if method is not None:
        scoring = dataclasses.replace(scoring, method=Method(method))
    if blocked is not None:
        scoring = dataclasses.replace(scoring, blocked=Blocked(blocked))
    finished = dataclasses.replace(sheet.game, doubled=sheet.game.doubled or doubled)
    result = score_game(finished, scoring)
    if as_json:
        click.echo(json.dumps({"scores": dict(result.scores), "winner": result.winner}))
        return
    click.echo(score_table(finished, result, scoring))


def score_table(finished: FinishedGame, result: GameScore, scoring: Scoring) -> str:
    """One row per player: name, score, what was left on the rack; then the winner."""
    width = max(len(p.name) for p in finished.players)
    points = {name: f"{s:+d}" for name, s in result.scores.items()}
    digits = max(len(p) for p in points.values())
    lines = []
    for player in finished.players:
        left = format_tiles(player.rack) if player.rack else "out"
        total = f" ({scoring.rack_total(player.rack)})" if len(player.rack) > 1 else ""
        lines.append(f"{player.name:<{width}}  {points[player.name]:>{digits}}  {left}{total}")
    double = " (doubled: out in one turn)" if finished.doubled else ""
    lines.append(f"winner: {result.winner}{double}" if result.winner else "no winner: a tie")
    return "\n".join(lines)


def strategy_list(ctx: click.Context, param: click.Parameter, value: str) -> tuple[Strategy, ...]:
    """`greedy,cautious`: one strategy per seat, in seat order."""
    try:
        return tuple(strategy_named(name) for name in value.split(","))
    except SetupError as error:
        raise click.BadParameter(str(error)) from None


@cli.command()
@click.option(
    "--players",
    type=click.IntRange(MIN_PLAYERS, MAX_PLAYERS),
    default=4,
    show_default=True,
    help="5-6 play with the 160-tile set.",
)
@click.option(
    "--games",
    type=click.IntRange(1),
    help="Games to play  [default: one per player, the official round; with --target: no limit]",
)
@click.option(
    "--target",
    type=click.IntRange(1),
    help="Play until a total reaches this score (--games then caps the match).",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Same seed, same games.")
@click.option(
    "--strategy",
    "strategies",
    default="greedy",
    show_default=True,
    callback=strategy_list,
    help=f"One per seat, comma-separated, repeated if fewer: {', '.join(STRATEGIES)}.",
)
# Before --double-out was a rule option, play took --doubled for it: kept, not shown.
@click.option("--doubled", is_flag=True, hidden=True)
@backend_option
@time_limit_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object: games and totals.")
@click.option(
    "--log",
    "log_path",
    type=click.Path(path_type=Path),
    help="Write one JSON line per turn: the state after it.",
)
@rule_options
@core_errors
def play(
    players: int,
    games: int | None,
    target: int | None,
    seed: int,
    strategies: tuple[Strategy, ...],
    doubled: bool,
    backend: str,
    time_limit: float | None,
    as_json: bool,
    log_path: Path | None,
    **options: Any,
) -> None:
    """Simulate games between solver-driven players, and score them."""
    if len(strategies) > players:
        raise click.BadParameter(
            f"{len(strategies)} strategies for {players} players", param_hint="'--strategy'"
        )
    # Opened before the first game, so that a bad path fails at once.
    with contextlib.ExitStack() as stack:
        log_file = stack.enter_context(log_path.open("w", encoding="utf-8")) if log_path else None
        overrides = rule_overrides(options)
        if doubled:
            overrides["double_out"] = True
        rules = apply_overrides(Rules(), overrides)
        if overrides["tile_set"] is None:
            rules = rules.replace(tile_set=tile_set_for(players))
        game_options = GameOptions(rules=rules, backend=backend, time_limit=time_limit)

        def log(turn: Turn) -> None:
            if log_file is not None:
                log_file.write(json.dumps(turn.as_json() | {"rules": rules.as_json()}) + "\n")

        record = play_match(make_seats(strategies, players), game_options, seed, games, target, log)
        if as_json:
            click.echo(json.dumps(match_json(record, seed) | {"rules": rules.as_json()}))
        else:
            click.echo(match_table(record, seed))


def match_json(record: MatchRecord, seed: int) -> dict[str, Any]:
    """`play --json`: docs/format.md's keys, then the seeds and each strategy's results."""
    return {
        "games": [
            {
                "winner": g.score.winner,
                "scores": dict(g.score.scores),
                "turns": g.turns,
                "end": g.end.value,
                "starter": g.starter,
                "seed": g.seed,
                "doubled": g.result.doubled,
                "solver_calls": g.solver_calls,
            }
            for g in record.games
        ],
        "totals": record.match.totals,
        "seed": seed,
        "players": {s.name: s.strategy.name for s in record.seats},
        "strategies": {
            s.name: {"seats": s.seats, "wins": s.wins, "mean_score": round(s.mean_score, 2)}
            for s in strategy_stats(record)
        },
    }


def match_table(record: MatchRecord, seed: int) -> str:
    """A row per game (winner, how it ended, each player's score), the totals, and a row
    per strategy: its wins and mean score per game."""
    names = [s.name for s in record.seats]
    rows = [["game", "winner", "end", "turns", *names]]
    for g in record.games:
        end = f"{g.end.value}, doubled" if g.result.doubled else g.end.value
        scores = [f"{g.score.scores[n]:+d}" for n in names]
        rows.append([str(g.number), g.score.winner or "-", end, str(g.turns), *scores])
    totals = record.match.totals
    leaders = " ".join(record.match.leaders)
    rows.append(["total", leaders, "", "", *(f"{totals[n]:+d}" for n in names)])
    strategies = [s.strategy.name for s in record.seats]
    lines = [
        f"seed {seed}: {len(names)} players ("
        + ", ".join(f"{n} {s}" for n, s in zip(names, strategies, strict=True))
        + ")",
        *_columns(rows, right_from=3),
        "",
        *_columns(
            [["strategy", "seats", "wins", "mean score"]]
            + [
                [s.name, str(s.seats), str(s.wins), f"{s.mean_score:+.1f}"]
                for s in strategy_stats(record)
            ],
            right_from=1,
        ),
    ]
    return "\n".join(lines)


def _columns(rows: list[list[str]], right_from: int) -> list[str]:
    """Rows as aligned text columns: left-aligned, then right-aligned from `right_from`."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.ljust(w) if i < right_from else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]


def main() -> None:
    signal.signal(signal.SIGINT, _on_ctrl_c)
    try:
        cli(prog_name="rummisolve")
    except SystemExit:
        _flush_stdout()
        raise
    except BrokenPipeError:
        _reader_gone()
    except OSError as error:
        # Only writing the output fails outside a command (`--help > /dev/full`): the
        # commands turn their own errors into messages.
        _cannot_write(error)


def _flush_stdout() -> None:
    """Output that cannot be written (a full disk, /dev/full) is a message, not a traceback."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _reader_gone()
    except OSError as error:
        _cannot_write(error)


def _cannot_write(error: OSError) -> NoReturn:
    drop_stdout()
    click.echo(f"Error: cannot write the output: {error.strerror or error}", err=True)
    raise SystemExit(1) from None


def _reader_gone() -> NoReturn:
    """The output's reader stopped reading (`| head`): stop quietly, status 1 as the output
    is cut short. After Ctrl-C, which stops a pipeline's reader too, it is an interrupt."""
    drop_stdout()
    if _interrupted:
        click.echo("\ninterrupted", err=True)
        raise SystemExit(130)
    raise SystemExit(1)


def drop_stdout() -> None:
    """What is still buffered for a closed output goes nowhere, instead of failing again."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


_interrupted = False


def _on_ctrl_c(signum: int, frame: object) -> None:
    """Python's own Ctrl-C, remembered: a broken pipe that follows is part of it."""
    global _interrupted
    _interrupted = True
    raise KeyboardInterrupt


if __name__ == "__main__":
    main()
