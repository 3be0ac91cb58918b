"""Options that several commands share, each declared once, and small helpers for
what commands print; nothing here runs a command."""

from __future__ import annotations

import functools
import math
import os
import sys
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from ..errors import BoardError, RummisolveError
from ..move import Objective
from ..rules import (
    OPTIONS,
    PROFILE_NAMES,
    PROFILES,
    Overrides,
    Rules,
    RuleValue,
)
from .interrupts import INTERRUPTED, reader_gone
from .output import output_error

if TYPE_CHECKING:  # pathlib is ~3 ms of a hint's start: loaded where a Path is made
    from pathlib import Path

F = TypeVar("F", bound=Callable[..., Any])


class ProblemsError(click.ClickException):
    """Several `FILE:LINE: message` lines on stderr, exit 1, no `Error:` prefix."""

    def show(self, file: Any = None) -> None:
        click.echo(self.message, err=True)


# Keys of the group's global options in the click context's `meta` (its `obj` is the
# caller's: a stand-in solver in bench's tests).
DEBUG = "rummisolve.debug"
COLOUR = "rummisolve.colour"


def debugging() -> bool:
    """Whether `--debug` (or RUMMISOLVE_DEBUG=1) asks for the whole traceback of an error."""
    context = click.get_current_context(silent=True)
    return context is not None and bool(context.meta.get(DEBUG))


def show_traceback(error: Exception) -> None:
    """Under --debug, an error's whole traceback on stderr before its one-line message: a
    plug-in's own (`details`, from the worker that ran it), or the error's."""
    if debugging():
        details = getattr(error, "details", "") or "".join(traceback.format_exception(error))
        click.echo(details.rstrip("\n"), err=True)


def core_errors(command: F) -> F:
    """Turn the core's named errors into click's exit-1 messages."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except BoardError as error:
            raise ProblemsError(str(error)) from None
        except RummisolveError as error:
            show_traceback(error)
            raise click.ClickException(str(error)) from None
        except BrokenPipeError:
            reader_gone()
        except KeyboardInterrupt:
            # Commands with work to keep (batch) take Ctrl-C themselves first.
            click.echo("\ninterrupted", err=True)
            raise click.exceptions.Exit(130) from None
        except OSError as error:
            # A file the command writes (--out, --log) that cannot be made, or its output.
            if (message := output_error(error)) is not None:
                raise message from None
            where = f"{error.filename}: " if error.filename else ""
            raise click.ClickException(f"{where}{error.strerror or error}") from None

    return wrapper  # type: ignore[return-value]


def seed_option(made: str) -> Callable[[F], F]:
    """`--seed` of a command that deals `made` (boards, puzzles, games) at random."""
    return click.option(
        "--seed", type=int, default=1, show_default=True, help=f"Same seed, same {made}."
    )


def count_option(made: str) -> Callable[[F], F]:
    """`--count`: how many `made` a command makes."""
    return click.option(
        "--count", type=click.IntRange(0), default=10, show_default=True, help=f"How many {made}."
    )


# Rule options that change a game's scores, never a move: a command that answers with a
# move (hint, serve) takes them, as every board may say them, but its help leaves them out.
SCORES_ONLY = frozenset({"scoring", "blocked", "double_out"})


def move_rule_options(command: F) -> F:
    """`rule_options` for a command that answers with a move."""
    return _rule_options(command, hidden=SCORES_ONLY)


def rule_options(command: F) -> F:
    """The rule options every board-reading command takes (rules.OPTIONS, declared once),
    and `--rules NAME`, a profile; the command line wins over a board's `rules:` line."""
    return _rule_options(command, hidden=frozenset())


def _rule_options(command: F, hidden: frozenset[str]) -> F:
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
            options.append(
                click.option(
                    flags,
                    option.field,
                    default=None,
                    help=option.help,
                    hidden=option.field in hidden,
                )
            )
            continue
        kind: click.ParamType[Any]
        if option.allowed:
            kind = click.Choice([str(n) for n in option.allowed])
        elif option.kind is int:
            kind = click.IntRange(0, option.maximum)
        else:
            kind = click.Choice(option.choices, case_sensitive=False)
        options.append(
            click.option(
                f"--{option.word}",
                option.field,
                type=kind,
                help=option.help,
                hidden=option.field in hidden,
            )
        )
    for decorator in reversed(options):
        command = decorator(command)
    return command


def rule_overrides(kwargs: dict[str, Any]) -> Overrides:
    """The rule options given on the command line (taken out of the command's keyword
    arguments; None: not given), as `parse_board` takes them."""
    profile = kwargs.pop("profile", None)
    given: list[tuple[str, RuleValue]] = []
    for option in OPTIONS:
        value = kwargs.pop(option.field, None)
        if value is not None:
            given.append((option.field, value if option.kind is bool else option.parse(str(value))))
    return Overrides(profile, tuple(given))


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


class BackendChoice(click.Choice[str]):
    """The backends by name, looked up when an option is read or its help shown: the
    engine (and numpy) load only for a command that uses them (issue 14)."""

    def __init__(self) -> None:
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        from ..engine.backends import BACKENDS

        return tuple(sorted(BACKENDS))

    @choices.setter
    def choices(self, value: object) -> None:
        """click sets its choices when made: these are read from the engine instead."""


backend_option = click.option(
    "--backend",
    type=BackendChoice(),
    help="The solver: our branch-and-bound on CLP (the default: fastest) or HiGHS LPs in"
    " this process, or CBC or HiGHS through PuLP. Unnamed, clp, or highs where CLP's"
    " library cannot load.",
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


def folder_path(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """A folder named on the command line, or None for `-`, standard output; an empty
    name is refused (it would mean the current folder, unsaid)."""
    if value is None or value == "-":
        return None
    if not value.strip():
        raise click.BadParameter("an empty path: name a folder")
    from pathlib import Path

    return Path(value)


def use_colour() -> bool:
    """Colour as `--color/--no-color` says; else where FORCE_COLOR is set (force-color.org),
    even in a pipe; else on a terminal that shows it: not where NO_COLOR is set
    (no-color.org), nor on a dumb terminal."""
    context = click.get_current_context(silent=True)
    if context is not None and (said := context.meta.get(COLOUR)) is not None:
        return bool(said)
    if os.environ.get("FORCE_COLOR"):
        return True
    dumb = os.environ.get("TERM") == "dumb"
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR") and not dumb


def plural(count: int, word: str) -> str:
    """`1 board`, `2 boards`, `0 boards`."""
    return f"{count} {word}{'s' * (count != 1)}"


def interrupted_writing(written: int, what: str, out: Path | None) -> NoReturn:
    """Ctrl-C while `generate` or `puzzle` writes: how many were written whole (to the
    folder, or as a stream), then exit 130."""
    where = "" if out is None else f" to {out}"
    click.echo(f"interrupted: {plural(written, what)} written{where}", err=True)
    raise click.exceptions.Exit(INTERRUPTED) from None
