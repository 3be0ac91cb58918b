"""Every `$ rummisolve ...` example in the README and the docs prints what the page shows.

An example is a fenced block whose first line is `$ COMMAND`: each `$` line is run from
the repository's root and followed by what it prints (standard output and standard
error, as a terminal shows them). A command ends in `  # exit status N` where it does
not exit 0. Besides `rummisolve ...`, a line may be `cat FILE` (the page shows a file
of the repository) or a pipe whose first stage is `printf '...'` (`\\n` escapes only),
`cat FILE` or `rummisolve ...`. Only what changes from one run or machine to the next
is masked (see `masked`); nothing is elided: a page shows whole outputs.
"""

from __future__ import annotations

import csv
import json
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

# The console entry the examples run: one line to change when the command moves.
from rummisolve.cli import cli

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "puzzles" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^(\s*)(```|~~~)")
EXIT_STATUS = re.compile(r"\s+#\s*exit status (\d+)$")
PROMPT = "$ "


@dataclass(frozen=True)
class Step:
    """One `$` line of an example and the lines the page shows after it."""

    command: str
    shown: str
    exit_status: int


@dataclass(frozen=True)
class Example:
    page: Path
    line: int  # of its first `$` line, counted from 1
    steps: tuple[Step, ...]

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT).as_posix()}:{self.line}"


def fenced_blocks(page: Path) -> Iterator[tuple[int, list[str]]]:
    """Each fenced block of a page: the number of its first line, and its lines with the
    fence's indent taken off (a block inside a list item is indented)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    at = 0
    while at < len(lines):
        opening = FENCE.match(lines[at])
        at += 1
        if opening is None:
            continue
        indent, fence = len(opening.group(1)), opening.group(2)
        start = at
        while at < len(lines) and not lines[at].strip().startswith(fence):
            at += 1
        yield start + 1, [line[indent:] for line in lines[start:at]]
        at += 1


def examples(page: Path) -> Iterator[Example]:
    for first, block in fenced_blocks(page):
        if not block or not block[0].startswith(PROMPT):
            continue
        steps: list[Step] = []
        starts = [n for n, line in enumerate(block) if line.startswith(PROMPT)]
        for start, end in zip(starts, [*starts[1:], len(block)], strict=True):
            command = block[start].removeprefix(PROMPT)
            status = EXIT_STATUS.search(command)
            steps.append(
                Step(
                    command=EXIT_STATUS.sub("", command),
                    shown="\n".join(block[start + 1 : end]),
                    exit_status=int(status.group(1)) if status else 0,
                )
            )
        yield Example(page, first, tuple(steps))


EXAMPLES = [example for page in PAGES for example in examples(page)]


def printf(text: str) -> str:
    """What `printf TEXT` prints, for the only escape the pages use."""
    assert re.search(r"\\[^n]|%", text) is None, f"printf: only \\n is supported: {text!r}"
    return text.replace("\\n", "\n")


def run(command: str) -> tuple[str, int]:
    """What a terminal shows for a command line, and its exit status (the last stage's,
    as a shell's)."""
    words = shlex.split(command)
    stages: list[list[str]] = [[]]
    for word in words:
        if word == "|":
            stages.append([])
        else:
            stages[-1].append(word)
    shown, piped, status = "", None, 0
    for number, (program, *arguments) in enumerate(stages):
        if program == "printf" and number == 0 and len(arguments) == 1:
            piped = printf(arguments[0])
        elif program == "cat" and number == 0 and len(arguments) == 1:
            piped = (ROOT / arguments[0]).read_text(encoding="utf-8")
        elif program == "rummisolve":
            result = CliRunner().invoke(cli, arguments, input=piped, prog_name="rummisolve")
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                raise result.exception
            status = result.exit_code
            if number == len(stages) - 1:
                return shown + result.output, status
            assert status == 0, f"{program} exits {status} inside a pipe"
            shown, piped = shown + result.stderr, result.stdout
        else:
            raise AssertionError(f"the examples cannot run {' '.join([program, *arguments])!r}")
    return shown + (piped or ""), status


# Times, and the jobs batch starts by default (as many as the machine's CPUs).
TIME = re.compile(r"\b\d+(?:\.\d+)? ms\b")
BATCH_SUMMARY = re.compile(r" in \d+\.\d+ s \(\d+ jobs?\)")
# The rows under a header with a column of times (batch's `ms`, bench's `median ms`...):
# each time and the spaces that right-align it, which depend on the times' widths.
TIMED_TABLE = re.compile(r"^(?:file|backend)\s.*\bms\b")
TIME_CELL = re.compile(r"\s+\d+\.\d(?=\s|$)")
TIME_KEYS = frozenset({"seconds", "median_ms", "p90_ms", "max_ms"})
# `batch --format csv`: the rows under its header, each its `seconds` field.
CSV_HEADER = re.compile(r"^file,(?:[a-z_]+,)*seconds,")


def masked(text: str) -> list[str]:
    """The lines of an output, its times masked (trailing spaces do not survive a page)."""
    lines = [line.rstrip() for line in text.rstrip("\n").splitlines()]
    timed = False
    columns: list[str] = []
    for n, line in enumerate(lines):
        line = BATCH_SUMMARY.sub(" in <s> s (<jobs>)", TIME.sub("<ms> ms", line))
        if timed and line:
            line = TIME_CELL.sub(" <ms>", line)
        timed = bool(TIMED_TABLE.match(line)) or (timed and bool(line))
        fields = next(csv.reader([line]), [])
        if columns and len(fields) == len(columns):
            fields[columns.index("seconds")] = "<s>"
            line = ",".join(fields)
        elif CSV_HEADER.match(line):
            columns = fields
        lines[n] = line
    return lines


def json_values(text: str) -> list[Any] | None:
    """The JSON values a text holds one after another (a page may wrap a long line), or
    None if it is not JSON."""
    decoder, values, at = json.JSONDecoder(), [], 0
    while (at := len(text) - len(text[at:].lstrip())) < len(text):
        try:
            value, at = decoder.raw_decode(text, at)
        except json.JSONDecodeError:
            return None
        values.append(value)
    return values


def masked_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: "<time>" if k in TIME_KEYS else masked_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [masked_json(v) for v in value]
    return value


def comparable(text: str, json_output: bool) -> list[str]:
    """An output as lines to compare: JSON value by value (key order kept), a page may
    wrap; else line by line, a line of JSON (a row of `batch --format jsonl` before the
    summary) as JSON."""
    if json_output:
        values = json_values(text)
        assert values is not None, f"not JSON, as the command prints:\n{text}"
        return [json.dumps(masked_json(v)) for v in values]
    lines = masked(text)
    for n, line in enumerate(lines):
        if line.startswith("{") and (values := json_values(line)):
            lines[n] = json.dumps(masked_json(values[0]))
    return lines


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)
def test_the_example_prints_what_the_page_shows(
    example: Example, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    for step in example.steps:
        output, status = run(step.command)
        printed_json = json_values(output) not in (None, [])
        assert comparable(step.shown, printed_json) == comparable(output, printed_json), (
            step.command
        )
        assert status == step.exit_status, step.command


def test_every_command_on_a_page_is_an_example() -> None:
    """A `$` line in a block that does not start with one would not be run."""
    missed = [
        f"{page.relative_to(ROOT)}:{first + n}"
        for page in PAGES
        for first, block in fenced_blocks(page)
        if block and not block[0].startswith(PROMPT)
        for n, line in enumerate(block)
        if line.startswith(PROMPT)
    ]
    assert missed == []
    assert {example.page.name for example in EXAMPLES} >= {"README.md", "format.md"}


def test_the_masks_keep_what_does_not_vary() -> None:
    """Two runs differ only in their times; a different move is still a difference."""
    one = "file  status  ms  played\nx.txt  optimal     12.5  R2 B5\n1 board in 0.013 s (1 job)"
    two = "file  status  ms  played\nx.txt  optimal   1032.0  R2 B5\n1 board in 1.250 s (2 jobs)"
    assert masked(one) == masked(two)
    assert masked(one) != masked(one.replace("R2 B5", "R2 O5"))
    assert masked("(optimal, 2 ms, clp)") == masked("(optimal, 79 ms, clp)")
    assert masked("(optimal, 2 ms, clp)") != masked("(optimal, 2 ms, highs)")
    csv_one = "file,status,seconds,backend\nx.txt,optimal,0.019786,clp"
    assert masked(csv_one) == masked(csv_one.replace("0.019786", "0.5"))
    assert masked(csv_one) != masked(csv_one.replace("clp", "highs"))
    shown = '{"seconds": 0.0006, "tiles_played": 3}'
    assert comparable(shown, True) == comparable('{"seconds": 0.25, "tiles_played": 3}', True)
    assert comparable(shown, True) != comparable('{"seconds": 0.25, "tiles_played": 4}', True)
