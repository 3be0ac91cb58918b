"""Every example in the README and the docs is produced by the tests: a command's output, a
board, a part of an output, an HTTP exchange, what a Python example prints.

Each fenced block of a page is of one kind, told by its first line, its language, or a
comment on the line just before its fence, `<!-- check: KIND ... -->`:

- `$ COMMAND` (first line): an example. Each `$` line is run from the repository's root
  and followed by what it prints (standard output and standard error, as a terminal shows
  them). A command ends in `  # exit status N` where it does not exit 0. Besides
  `rummisolve ...`, a line may be `cat FILE` (the page shows a file of the repository) or
  a pipe whose first stage is `printf '...'` (`\\n` escapes only), `cat FILE` or
  `rummisolve ...`. Only what changes from one run or machine to the next is masked (see
  `masked`); nothing is elided: a page shows whole outputs.
- `check: board [FILE]`: a board, read by the board reader; the same board as FILE (its
  comments aside) where one is named; where it or FILE has an `# expect:` line, solved
  and the answer compared.
- `check: part COMMAND`: a part of what COMMAND (as a `$` line) prints: lines that follow
  one another in its output, or a JSON value found within it (`"key": value, ...` alone:
  those keys of an object), times masked.
- `check: http [COMMAND]`: a request sent to `rummisolve serve` on 127.0.0.1, then the
  answer it gets (`HTTP/1.1 STATUS`, headers, the body); or, with COMMAND, status 200 and
  what COMMAND prints.
- ```` ```python ````: run from the root; the next block, `check: printed`, is what it
  prints. ```` ```pycon ````: run as a doctest.
- ```` ```sh ````: commands to type, not run: each `rummisolve` command and option exists,
  and each `python benchmarks/SCRIPT.py` exists and takes the options given.

A block of no kind fails `test_every_block_is_checked`.
"""

from __future__ import annotations

import contextlib
import csv
import doctest
import io
import itertools
import json
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import pytest
from click.testing import CliRunner

from rummisolve import find_move, parse_board, read_board

# The console entry the examples run: one line to change when the command moves.
from rummisolve.cli import cli

if TYPE_CHECKING:
    from .serving import Server

ROOT = Path(__file__).resolve().parent.parent
PAGES = [
    ROOT / "README.md",
    ROOT / "puzzles" / "README.md",
    ROOT / "benchmarks" / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
]
FENCE = re.compile(r"^(\s*)(```|~~~)(\w*)")
CHECK = re.compile(r"^\s*<!-- check: (\w+) ?(.*?) -->$")
EXIT_STATUS = re.compile(r"\s+#\s*exit status (\d+)$")
PROMPT = "$ "
# The kinds a `check:` comment names.
CHECKS = frozenset({"board", "part", "http", "printed"})


@dataclass(frozen=True)
class Block:
    """A fenced block of a page: its lines (the fence's indent taken off: a block inside a
    list item is indented), its language, and the `check:` comment before it."""

    page: Path
    line: int  # of its first line inside the fence, counted from 1
    language: str
    check: str | None
    argument: str  # what follows the check's kind: a file or a command
    lines: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT).as_posix()}:{self.line}"

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def kind(self) -> str | None:
        if self.check is not None:
            return self.check
        if self.lines and self.lines[0].startswith(PROMPT):
            return "example"
        return self.language if self.language in ("python", "pycon", "sh") else None


def fenced_blocks(page: Path) -> Iterator[Block]:
    lines = page.read_text(encoding="utf-8").splitlines()
    at = 0
    while at < len(lines):
        opening = FENCE.match(lines[at])
        at += 1
        if opening is None:
            continue
        indent, fence, language = len(opening.group(1)), opening.group(2), opening.group(3)
        check = CHECK.match(lines[at - 2]) if at >= 2 else None
        start = at
        while at < len(lines) and not lines[at].strip().startswith(fence):
            at += 1
        yield Block(
            page,
            start + 1,
            language,
            check.group(1) if check else None,
            check.group(2) if check else "",
            tuple(line[indent:] for line in lines[start:at]),
        )
        at += 1


BLOCKS = [block for page in PAGES for block in fenced_blocks(page)]


@dataclass(frozen=True)
class Step:
    """One `$` line of an example and the lines the page shows after it."""

    command: str
    shown: str
    exit_status: int


def steps(block: Block) -> list[Step]:
    found: list[Step] = []
    starts = [n for n, line in enumerate(block.lines) if line.startswith(PROMPT)]
    for start, end in zip(starts, [*starts[1:], len(block.lines)], strict=True):
        command = block.lines[start].removeprefix(PROMPT)
        status = EXIT_STATUS.search(command)
        found.append(
            Step(
                command=EXIT_STATUS.sub("", command),
                shown="\n".join(block.lines[start + 1 : end]),
                exit_status=int(status.group(1)) if status else 0,
            )
        )
    return found


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


def json_in(text: str) -> list[Any]:
    """The JSON values an output holds: the whole of it, else each line that is one (a
    log line among a table's)."""
    whole = json_values(text)
    if whole:
        return whole
    return [v for line in text.splitlines() if line[:1] in "{[" for v in json_values(line) or []]


def within(value: Any) -> Iterator[Any]:
    """A JSON value and every value inside it."""
    yield value
    inside = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    for each in inside:
        yield from within(each)


def is_part(shown: str, output: str) -> bool:
    """Whether a page's part of an output is in it: a JSON value (or, written without its
    braces, some keys of an object) within it, times masked; else lines one after another."""
    keys_only = json_values(shown) is None
    part = json_values("{" + shown + "}" if keys_only else shown)
    if part is None or len(part) != 1:
        lines, printed = masked(shown), masked(output)
        return any(printed[n : n + len(lines)] == lines for n in range(len(printed)))
    wanted = masked_json(part[0])
    for value in (v for found in json_in(output) for v in within(masked_json(found))):
        some_keys = keys_only and isinstance(value, dict) and wanted.items() <= value.items()
        if value == wanted or some_keys:
            return True
    return False


def check_example(block: Block) -> None:
    for step in steps(block):
        output, status = run(step.command)
        printed_json = json_values(output) not in (None, [])
        assert comparable(step.shown, printed_json) == comparable(output, printed_json), (
            step.command
        )
        assert status == step.exit_status, step.command


def check_board(block: Block) -> None:
    """A board as a page writes it: read, the same as the file it names, and answered as
    its `# expect:` line (or the file's) says."""
    board = parse_board(block.text + "\n", block.name)
    expect = board.expect
    if block.argument:
        named = read_board(ROOT / block.argument)
        assert replace(board, expect=None) == replace(named, expect=None), block.argument
        assert expect in (None, named.expect)
        expect = named.expect
    if expect is not None:
        move = find_move(board)
        assert (move.tiles_played, move.value_played) == (expect.tiles, expect.value)


def check_part(block: Block) -> None:
    output, _ = run(block.argument)
    assert is_part(block.text, output), f"not in what {block.argument!r} prints"


@dataclass(frozen=True)
class Message:
    """An HTTP request or answer as a page writes it: the first line, headers, a body."""

    first: str
    headers: dict[str, str]
    body: str


def http_messages(lines: tuple[str, ...]) -> list[Message]:
    """The request, and the answer where the block shows one (from its `HTTP/1.1` line)."""
    starts = [0] + [n for n, line in enumerate(lines) if line.startswith("HTTP/1.1 ")]
    messages = []
    for start, end in zip(starts, [*starts[1:], len(lines)], strict=True):
        head, _, body = "\n".join(lines[start:end]).partition("\n\n")
        first, *fields = head.splitlines()
        headers = dict(field.split(": ", 1) for field in fields)
        messages.append(Message(first, headers, body.strip()))
    return messages


def check_http(block: Block, server: Server) -> None:
    request, *answer = http_messages(block.lines)
    method, path, version = request.first.split()
    assert version == "HTTP/1.1" and set(request.headers) <= {"Content-Type"}
    reply = server.request(method, path, request.body, request.headers.get("Content-Type"))
    if block.argument:
        assert answer == [], "an answer shown, and a command that prints it"
        status, content_type, body = 200, "application/json", run(block.argument)[0]
    else:
        (shown,) = answer
        assert set(shown.headers) <= {"Content-Type"}, "only Content-Type is checked"
        status, body = int(shown.first.split()[1]), shown.body
        content_type = shown.headers.get("Content-Type", "")
    assert reply.status == status, reply.text
    assert reply.content_type.startswith(content_type)
    json_body = json_values(reply.text) not in (None, [])
    assert comparable(body, json_body) == comparable(reply.text, json_body)


def check_python(block: Block) -> None:
    """A Python example, run from the root; what it prints is the next block."""
    after = BLOCKS[BLOCKS.index(block) + 1]
    assert (after.page, after.check) == (block.page, "printed"), "show what it prints"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        try:
            exec(compile(block.text, block.name, "exec"), {})
        except ModuleNotFoundError as missing:  # an extra (rl, ray) that is not installed
            pytest.skip(f"needs {missing.name}")
    assert masked(after.text) == masked(printed.getvalue())


def check_pycon(block: Block) -> None:
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(parser.get_doctest(block.text, {}, block.name, str(block.page), block.line))
    assert runner.summarize(verbose=False).failed == 0


def commands(block: Block) -> Iterator[list[str]]:
    """Each simple command of a shell block, its words (`\\` continues a line)."""
    for line in block.text.replace("\\\n", " ").splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        command: list[str] = []
        for word in [*lexer, ";"]:
            if word not in (";", "&&", "||", "|", "do", "then"):
                command.append(word)
            elif command:
                yield command
                command = []


def benchmark_source(script: Path) -> str:
    """A benchmark script's text and that of the benchmark modules it imports, where its
    options are declared (`common.results_option`...)."""
    text = script.read_text(encoding="utf-8")
    imported = re.findall(r"^(?:from|import) (\w+)", text, re.M)
    modules = [script.parent / f"{name}.py" for name in imported]
    return "\n".join([text, *(m.read_text(encoding="utf-8") for m in modules if m.exists())])


def check_commands(block: Block) -> None:
    """Commands to type: every `rummisolve` command and option exists; every benchmark
    script exists and names each option given."""
    for words in commands(block):
        options = [w.partition("=")[0] for w in words if w.startswith("--")]
        if words[0] == "rummisolve":
            command = cli.get_command(click.Context(cli), words[1])
            assert command is not None, words
            known = {o for p in command.params for o in (*p.opts, *p.secondary_opts)}
            assert set(options) <= known | {"--help"}, words
        elif len(words) > 1 and words[1].startswith("benchmarks/"):
            script = benchmark_source(ROOT / words[1])
            assert [o for o in options if f'"{o}"' not in script] == [], words


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """`rummisolve serve`, started once for the page's HTTP examples."""
    from .serving import serving

    with serving() as started:
        yield started


CHECKED = [block for block in BLOCKS if block.kind not in (None, "printed")]


@pytest.mark.parametrize("block", CHECKED, ids=lambda b: f"{b.name} {b.kind}")
def test_the_block_is_what_the_code_makes(
    block: Block, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    monkeypatch.chdir(ROOT)
    match block.kind:
        case "example":
            check_example(block)
        case "board":
            check_board(block)
        case "part":
            check_part(block)
        case "http":
            check_http(block, request.getfixturevalue("server"))
        case "python":
            check_python(block)
        case "pycon":
            check_pycon(block)
        case "sh":
            check_commands(block)


def test_every_block_is_checked() -> None:
    """A block of no kind would go stale unseen; `printed` only after a Python example; a
    `$` line only at the start of a block, where it is run."""
    unchecked = [b.name for b in BLOCKS if b.kind is None]
    assert unchecked == [], "say what makes each: see this module's docstring"
    assert {b.check for b in BLOCKS if b.check} <= CHECKS
    for before, block in itertools.pairwise(BLOCKS):
        if block.check == "printed":
            assert before.kind == "python", block.name
    missed = [
        f"{b.name}+{n}"
        for b in BLOCKS
        if b.kind != "example"
        for n, line in enumerate(b.lines)
        if line.startswith(PROMPT)
    ]
    assert missed == []
    assert {b.page.name for b in BLOCKS if b.kind == "example"} >= {"README.md", "format.md"}


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


def test_a_part_is_found_only_as_the_page_shows_it() -> None:
    """An object is found whole (a key left out is a difference); keys written without
    braces are found among an object's; lines are found one after another."""
    output = 'table\n{"turn": 2, "stand_for": [[]], "seconds": 0.5}\ntotal +14'
    assert is_part('{"turn": 2, "stand_for": [[]], "seconds": 0.1}', output)
    assert not is_part('{"turn": 2, "seconds": 0.1}', output)
    assert is_part('"stand_for": [[]]', output)
    assert not is_part('"stand_for": [[], []]', output)
    assert is_part("table", output) and not is_part("total +14\ntable", output)
