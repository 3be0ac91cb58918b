"""The positions a review solves: each logged turn with the board before it, game by
game, read through the one game state (`game.log.replay`).

A log may hold many games (`tournament --log`); a game that is wrong stops there with a
`LogProblem` naming the file and the line, and the next game is read all the same. A game
the log holds only in part (cut short, or its first turn missing) is a problem too: its
turns read so far are reviewed, nothing after them is guessed.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..board import Board
from ..game import LogError, Turn, replay
from ..move import TileRow
from ..tiles import tile_value
from ..view import TurnKind


@dataclass(frozen=True)
class Position:
    """A logged turn, what the player did, and the position it was done in."""

    source: str
    line: int  # of the turn in the log, counted from 1
    game: int
    turn: int
    player: str
    board: Board  # the table, the player's rack, whether it had opened, the rules
    kind: TurnKind
    played: TileRow

    @property
    def value_played(self) -> int:
        return sum(tile_value(t, self.board.rules.joker_penalty) for t in self.played)


@dataclass(frozen=True)
class LogProblem:
    """A game that cannot be read further: `FILE, line N: what is wrong`."""

    message: str


def read_log(lines: Iterable[str], source: str) -> Iterator[Position | LogProblem]:
    """Every turn of every game the log holds, and a problem where a game goes wrong."""
    for first, texts in _games(lines):
        # Blank lines stand for those before the game, so that replay counts the file's lines.
        yield from _read_game(itertools.chain([""] * (first - 1), texts), source)


def _games(lines: Iterable[str]) -> Iterator[tuple[int, list[str]]]:
    """The log's lines game by game (a game starts at its turn 1, or where the game's
    number changes), each with the number of its first line."""
    first, game = 1, None
    texts: list[str] = []
    for number, text in enumerate(lines, 1):
        starts, number_of = _start(text, game)
        if starts and texts:
            yield first, texts
            first, texts = number, []
        texts.append(text)
        game = number_of if number_of is not None else game
    if texts:
        yield first, texts


def _start(text: str, game: object) -> tuple[bool, object]:
    """Whether a line starts a game, and its game's number (None: not a log line)."""
    try:
        line = json.loads(text)
    except ValueError:
        return False, None
    if not isinstance(line, dict) or "game" not in line:
        return False, None
    return line.get("turn") == 1 or line["game"] != game, line["game"]


def _read_game(lines: Iterable[str], source: str) -> Iterator[Position | LogProblem]:
    """The game's positions, each once the log's next line shows its turn followed from
    it (replay checks a turn after handing out the state before it)."""
    counted = _Counted(lines)
    pending: Position | None = None
    last: Turn | None = None
    passes = 0
    try:
        for state, turn in replay(counted, source):
            if pending is not None:
                yield pending
            board, played = state.board(), turn.played
            pending = Position(
                source, counted.at, turn.game, turn.number, turn.player, board, turn.kind, played
            )
            last = turn
            passes = passes + 1 if turn.kind is TurnKind.PASS else 0
    except LogError as error:
        if pending is not None and pending.line != counted.at:
            yield pending
        yield LogProblem(str(error))
        return
    if pending is not None:
        yield pending
    if pending and last and all(last.racks.values()) and passes < len(last.racks):
        yield LogProblem(
            f"{source}, line {pending.line}: game {last.game} stops after turn {last.number},"
            " unfinished: the log holds only part of it"
        )


class _Counted:
    """The lines, and the number of the last one read (replay yields a turn as soon as
    it has read its line)."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = iter(lines)
        self.at = 0

    def __iter__(self) -> Iterator[str]:
        for text in self.lines:
            self.at += 1
            yield text
