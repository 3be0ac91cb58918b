"""One board of a batch: read, solved, checked, and written as its row in the chosen
format (a table line, a JSON object, a CSV record); and the tally the summary reports."""

from __future__ import annotations

import csv
import enum
import io
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..board import Board, Expectation, format_sets, with_expectation
from ..checked import Checker, Finder, checked, solve_checked
from ..engine.solve import find_move
from ..errors import BoardError, RummisolveError, SolverBug, printable, unexpected
from ..files import replace_whole, replaceable
from ..inputs import folder_problem, read_path
from ..legality import check_move
from ..move import Move, Objective, Status, no_move
from ..render import move_json
from ..rules import NO_OVERRIDES, Overrides
from ..tiles import format_tiles

# Why --write-expected cannot write to standard input, a pipe, a device.
NO_FILE_TO_WRITE = "no file to write the expect line back to"

# The table format's columns after the file name (the file column fits the longest path).
TABLE_COLUMNS = ("status", "tiles", "value", "ms")


# The expect column says ok or mismatch; what differs goes to stderr with the summary.
EXPECT_WIDTH = len("mismatch")


CSV_COLUMNS = (
    "file",
    "status",
    "tiles_played",
    "value_played",
    "played",
    "table",
    "rack",
    "seconds",
    "backend",
    "error",
)


CSV_CHECK_COLUMNS = ("expected", "check")


class Format(enum.Enum):
    TABLE = "table"
    JSONL = "jsonl"
    CSV = "csv"


class Outcome(enum.Enum):
    """How one board of a batch ended."""

    SOLVED = "solved"
    NO_MOVE = "no move"
    FAILED = "failed"
    # A time limit cut the search short: a move not proved best, or none found yet.
    UNPROVED = "not proved best"
    NOTHING_FOUND = "nothing found"


@dataclass(frozen=True)
class BatchSettings:
    """Everything a worker needs to turn a path into a row."""

    format: Format = Format.JSONL
    objective: Objective = Objective.TILES
    backend: str | None = None  # None: the default backend
    time_limit: float | None = None
    overrides: Overrides = NO_OVERRIDES
    check_expected: bool = False
    # Also fail a board whose best move is not the only one (proved: engine/every.py).
    unique: bool = False
    # Stamp each proved answer as the board's `# expect:` line; `force`: over a different one.
    write_expected: bool = False
    force: bool = False
    file_width: int = 0
    # Standard input's boards by name, read once at the start when `-` is among the paths.
    standard_input: Mapping[str, bytes] = field(default_factory=dict)


@dataclass(frozen=True)
class BoardResult:
    """One board's row as written, and what the closing summary needs to know of it."""

    file: str
    outcome: Outcome
    row: str
    error: str | None = None
    mismatch: str | None = None
    checked: bool = False
    written: bool = False
    unique: bool = False  # proved the only best move (--unique)


@dataclass
class Tally:
    """What the closing summary says: counts, and a line for each board that needs a look."""

    solved: int = 0
    no_move: int = 0
    failed: int = 0
    unproved: int = 0
    nothing_found: int = 0
    checked: int = 0
    mismatched: int = 0
    written: int = 0
    unique: int = 0
    problems: list[str] = field(default_factory=list)

    def add(self, result: BoardResult) -> None:
        self.solved += result.outcome in (Outcome.SOLVED, Outcome.UNPROVED)
        self.no_move += result.outcome is Outcome.NO_MOVE
        self.failed += result.outcome is Outcome.FAILED
        self.unproved += result.outcome is Outcome.UNPROVED
        self.nothing_found += result.outcome is Outcome.NOTHING_FOUND
        self.checked += result.checked
        self.written += result.written
        self.unique += result.unique
        if result.error is not None:
            self.problems.extend(result.error.splitlines())
        if result.mismatch is not None:
            self.mismatched += 1
            self.problems.append(f"{result.file}: {result.mismatch}")

    @property
    def total(self) -> int:
        return self.solved + self.no_move + self.failed + self.nothing_found

    @property
    def passed(self) -> bool:
        """No board failed, and every answer matched its expectation."""
        return not self.failed and not self.mismatched


def header(settings: BatchSettings) -> str | None:
    """The line written before the rows, if the format has one."""
    if settings.format is Format.CSV:
        columns = CSV_COLUMNS + (CSV_CHECK_COLUMNS if settings.check_expected else ())
        return _csv_line(columns)
    if settings.format is Format.TABLE:
        cells = [f"{'file':<{settings.file_width}}", *_table_numbers(TABLE_COLUMNS)]
        if settings.check_expected:
            cells.append(f"{'expect':<{EXPECT_WIDTH}}")
        return "  ".join([*cells, "played"])
    return None


# The best moves a --unique batch asks for: at most two (the first, or proof of another).
BestTwo = Callable[[Board, Objective, "str | None", "float | None"], "tuple[Move, str | None]"]


def best_two(
    board: Board, objective: Objective, backend: str | None, time_limit: float | None
) -> tuple[Move, str | None]:
    """The best move, and why it is not proved the only one (None: it is; or the time
    limit cut short the search for the move itself, which is then not checked)."""
    from ..engine.every import every_best_move

    found = every_best_move(board, objective, limit=1, backend=backend, time_limit=time_limit)
    if not found.moves:
        return no_move(board, found.complete, found.seconds, backend or ""), None
    move = found.moves[0]
    if found.past_limit:
        return move, "not unique: at least 2 best moves (rummisolve hint --all lists them)"
    if found.complete or move.status is Status.FEASIBLE:
        return move, None
    return move, "not proved unique within the time limit"


def solve_path(
    path: str,
    settings: BatchSettings,
    *,
    find: Finder = find_move,
    check: Checker = check_move,
    best: BestTwo = best_two,
) -> BoardResult:
    """Read, solve and check one board (`find` and `check`: the solver and the checker,
    a test's stand-ins); any failure becomes that board's error row.

    A batch must go on past one board whatever goes wrong with it, so even an error
    that is not ours (a crash inside a solver library) is caught and reported here.
    """
    if (not_a_board := folder_problem(path)) is not None:
        return failed(path, not_a_board, settings)
    try:
        board = _read(path, settings)
        arguments = (board, settings.objective, settings.backend, settings.time_limit)
        rival = None
        if settings.unique:
            move, rival = best(*arguments)
            checked(board, move, path, check)
        else:
            move = solve_checked(*arguments, source=path, find=find, check=check)
    except (BoardError, SolverBug) as error:  # each names the board's file itself
        return failed(path, str(error), settings)
    except RummisolveError as error:
        return failed(path, f"{path}: {error}", settings)
    except Exception as error:
        return failed(path, f"{path}: {unexpected(error)}", settings)
    mismatch = _mismatch(board, move) if settings.check_expected else None
    mismatch = "; ".join(m for m in (mismatch, rival) if m) or None
    proved = move.status is not Status.FEASIBLE
    written = False
    if settings.write_expected and proved and rival is None:
        try:
            written = stamp_expected(path, board, move, settings.force)
        except (RummisolveError, OSError) as error:
            return failed(path, f"{path}: {getattr(error, 'strerror', None) or error}", settings)
    return BoardResult(
        file=path,
        outcome=_outcome(move),
        row=_row(path, board, move, mismatch, settings),
        mismatch=mismatch,
        checked=settings.check_expected and board.expect is not None and proved,
        written=written,
        unique=settings.unique and rival is None and proved and move.is_move,
    )


def stamp_expected(path: str, board: Board, move: Move, force: bool) -> bool:
    """Write the answer as the board file's `# expect:` line (in place of its own, or
    first); True if the file changed. A different line there already is kept unless
    `force`: an error naming both."""
    got = Expectation(move.tiles_played, move.value_played)
    if board.expect == got:
        return False
    if path == "-" or path.startswith("-#") or replaceable(path) is None:
        raise RummisolveError(NO_FILE_TO_WRITE)
    if board.expect is not None and not force:
        raise RummisolveError(
            f"its expect line says {board.expect}, the answer is {got} (--force replaces it)"
        )
    with open(path, encoding="utf-8", newline="") as file:
        text = file.read()
    replace_whole(path, with_expectation(text, got).encode("utf-8"))
    return True


def _read(path: str, settings: BatchSettings) -> Board:
    return read_path(path, settings.standard_input, settings.overrides)


def _outcome(move: Move) -> Outcome:
    if move.status is Status.FEASIBLE:
        return Outcome.UNPROVED if move.is_move else Outcome.NOTHING_FOUND
    return Outcome.SOLVED if move.is_move else Outcome.NO_MOVE


def _mismatch(board: Board, move: Move) -> str | None:
    """What differs from the board's `# expect:` line, or None (also when it has none, and
    when a time limit cut the search short: such an answer may fall short, no bug)."""
    if board.expect is None or move.status is Status.FEASIBLE:
        return None
    got = Expectation(move.tiles_played, move.value_played)
    return None if got == board.expect else f"expected {board.expect}, got {got}"


def _check_cell(board: Board, move: Move, mismatch: str | None) -> str:
    """ok or mismatch; unproved for an answer a time limit cut short (not checked)."""
    if board.expect is None:
        return ""
    if move.status is Status.FEASIBLE:
        return "unproved"
    return "mismatch" if mismatch else "ok"


def _row(path: str, board: Board, move: Move, mismatch: str | None, s: BatchSettings) -> str:
    if s.format is Format.JSONL:
        return _jsonl_row(path, board, move, mismatch, s)
    if s.format is Format.CSV:
        return _csv_row(path, board, move, mismatch, s)
    return _table_row(path, board, move, mismatch, s)


def _jsonl_row(path: str, board: Board, move: Move, mismatch: str | None, s: BatchSettings) -> str:
    """`hint --json`'s object with the file first; with --check-expected, the expectation."""
    obj = {"file": path, **move_json(move, board)}
    if s.check_expected and board.expect is not None:
        obj["expect"] = board.expect._asdict()
        obj["check"] = _check_cell(board, move, mismatch)
    return json.dumps(obj)


def _csv_row(path: str, board: Board, move: Move, mismatch: str | None, s: BatchSettings) -> str:
    cells: list[object] = [
        path,
        move.status.value,
        move.tiles_played,
        move.value_played,
        format_tiles(move.played),
        format_sets(move.table),
        format_tiles(move.rack),
        f"{move.seconds:.6f}",
        move.backend,
        "",
    ]
    if s.check_expected:
        cells += [str(board.expect or ""), _check_cell(board, move, mismatch)]
    return _csv_line(cells)


def _table_row(path: str, board: Board, move: Move, mismatch: str | None, s: BatchSettings) -> str:
    numbers = (move.status.value, move.tiles_played, move.value_played, f"{move.seconds * 1e3:.1f}")
    cells = [f"{printable(path):<{s.file_width}}", *_table_numbers(numbers)]
    if s.check_expected:
        expect = "-" if board.expect is None else _check_cell(board, move, mismatch)
        cells.append(f"{expect:<{EXPECT_WIDTH}}")
    return "  ".join([*cells, format_tiles(move.played)]).rstrip()


def failed(path: str, error: str, s: BatchSettings) -> BoardResult:
    if s.format is Format.JSONL:
        row = json.dumps({"file": path, "error": error})
    elif s.format is Format.CSV:
        columns = len(CSV_COLUMNS) + (len(CSV_CHECK_COLUMNS) if s.check_expected else 0)
        cells = [path, "error", *[""] * (columns - 2)]
        cells[CSV_COLUMNS.index("error")] = "; ".join(error.splitlines())
        row = _csv_line(cells)
    else:
        row = f"{printable(path):<{s.file_width}}  {'error':<9}  " + "; ".join(error.splitlines())
    return BoardResult(file=path, outcome=Outcome.FAILED, row=row, error=error)


def _table_numbers(cells: Sequence[object]) -> list[str]:
    """The status column left-aligned, the numbers right-aligned under their headings."""
    status, *numbers = cells
    return [f"{status!s:<9}", *(f"{n!s:>5}" for n in numbers[:2]), f"{numbers[2]!s:>7}"]


def _csv_line(cells: Iterable[object]) -> str:
    """One CSV record without its line end. A cell holding a line break (a file name may)
    is quoted: the writer quotes what its line terminator holds, so that is not empty."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow(cells)
    return out.getvalue().removesuffix("\r\n")
