"""The named errors of the core; the CLI turns each into a one-line message and exit 1."""

from __future__ import annotations

from typing import NamedTuple


class RummisolveError(Exception):
    """Base of every error the core raises on purpose."""


class TileError(RummisolveError):
    """A word that is not a tile; the caller adds where it stood."""


def printable(text: str) -> str:
    """A name as a terminal may show it: a control character (an ESC in a file name would
    reach the terminal, a line break would split a row) written as its escape."""
    if text.isprintable():  # a problem's name, told for each of a bad board's 300,000
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class Problem(NamedTuple):
    """One thing wrong with an input, where it was found."""

    source: str
    line: int
    message: str

    def __str__(self) -> str:
        """`FILE:LINE: message`; line 0 means the whole file (it could not be read)."""
        source = printable(self.source)
        where = f"{source}:{self.line}" if self.line else source
        return f"{where}: {self.message}"


class BoardError(RummisolveError):
    """An input that is refused, with every problem found in it: its text, a line each,
    is written only when asked for (the API tells the first 100 of 300,000)."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems)
        self.problems = problems

    def __str__(self) -> str:
        return "\n".join(map(str, self.problems))


class SolverBug(RummisolveError):
    """An answer the legality checker refuses: a bug in the solver, named and reported
    where the answer would have been, never shown as a move."""

    def __init__(self, source: str, problems: list[str]) -> None:
        super().__init__(source, problems)
        self.source = source
        self.problems = problems

    def __str__(self) -> str:
        """`SOURCE: the answer breaks the rules (a solver bug): problem; problem`."""
        message = "the answer breaks the rules (a solver bug): " + "; ".join(self.problems)
        return str(Problem(self.source, 0, message))


class SolverError(RummisolveError):
    """A backend that is missing or failed to give an answer."""


def unexpected(error: Exception) -> str:
    """An error that is not ours (a crash inside a solver library), told in one line: a
    batch or a bench reports it and goes on."""
    return f"solver crashed: {type(error).__name__}: {error}"
