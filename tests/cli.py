"""The one way the tests run a command: `rummisolve ARGS...` through click's CliRunner,
as a user's shell would see it (exit status, standard output, standard error apart)."""

from __future__ import annotations

import json
import re
from typing import IO, Any, NamedTuple

from click.testing import CliRunner

from rummisolve.cli import cli


class Result(NamedTuple):
    """A command's exit status and what it wrote; equal to the tuple (code, out, err)."""

    code: int
    out: str
    err: str


def run(*args: str, stdin: str | bytes | IO[Any] | None = None, obj: object = None) -> Result:
    """Run `rummisolve ARGS...` with `stdin` as standard input. `obj` is the click context's
    object, through which a command takes a stand-in for the solver (bench's `Solver`).

    An exception the command lets out (not an exit) is raised here: a traceback is a
    failure of the test, never a silent exit status of 1."""
    result = CliRunner().invoke(cli, list(args), input=stdin, obj=obj, prog_name="rummisolve")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Result(result.exit_code, result.stdout, result.stderr)


def rows_without_times(jsonl: str) -> list[dict[str, object]]:
    """A batch's JSON rows, each without its `seconds`, so that runs compare exactly."""
    rows = [json.loads(line) for line in jsonl.splitlines()]
    for row in rows:
        row.pop("seconds", None)
    return rows


def time_masked(text: str) -> str:
    """`in 1.23 s` written `in T s`, so that a summary compares exactly."""
    return re.sub(r"in [0-9.]+ s", "in T s", text)
