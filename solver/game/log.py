"""A game's log (`play --log`, docs/format.md): one line per turn, the state after it;
written by `Turn`, read back into states by `replay`.

A log holds every rack and the table after each turn, so each turn's position (the table,
what its jokers stand for, the player's rack, whether it had opened, the rules) can be
rebuilt and every logged move refereed again. One thing a log does not say: which tile a
game's first turn drew (the rack before it was never written), so a game that begins with
a draw is replayed from its second turn.
"""

from __future__ import annotations

import enum
import json
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..board import Board
from ..errors import RummisolveError
from ..move import Move, Status, TileRow, no_move
from ..rules import OPTIONS, Rules, profile_rules
from ..sets import read_meld
from ..tiles import JOKER, Tile, format_tile, format_tiles, parse_tile, sort_tiles, tile_value
from ..view import Seen, TurnKind
from .state import Declared, GameState, IllegalMoveError, SeatState


@dataclass(frozen=True)
class Turn:
    """The state after one turn, as `play --log` writes it."""

    game: int
    number: int
    player: str
    kind: TurnKind
    played: TileRow
    table: tuple[TileRow, ...]
    racks: Mapping[str, TileRow]
    pool: int
    # What the table's jokers stand for (`Board.declared`): the next player's reading.
    declared: Declared = ()

    @classmethod
    def after(cls, state: GameState, game: int) -> Turn:
        """The turn `state` has just played, in the game numbered `game`."""
        seen = state.history[-1]
        racks = {p.name: p.rack for p in state.in_seat_order()}
        return cls(
            game,
            state.turns,
            seen.player,
            seen.kind,
            seen.played,
            state.table,
            racks,
            len(state.pool),
            state.declared,
        )

    def as_json(self) -> dict[str, Any]:
        said = self.declared or tuple((None,) * row.count(JOKER) for row in self.table)
        return {
            "game": self.game,
            "turn": self.number,
            "player": self.player,
            "action": self.kind.value,
            "played": _names(self.played),
            "table": [_names(s) for s in self.table],
            "stand_for": [[format_tile(t) for t in roles if t is not None] for roles in said],
            "racks": {name: _names(rack) for name, rack in self.racks.items()},
            "pool": self.pool,
        }

    @classmethod
    def from_json(cls, line: Mapping[str, Any]) -> Turn:
        """A logged line read back (KeyError, ValueError or TypeError when it is not one).
        A set whose `stand_for` names fewer tiles than it has jokers: the rest unnamed."""
        table = tuple(_tiles(row) for row in line["table"])
        said = [_tiles(roles) for roles in line.get("stand_for", [])]
        declared: Declared = ()
        if any(said):
            declared = tuple(
                (*roles, *(None,) * (row.count(JOKER) - len(roles)))
                for row, roles in zip(table, said, strict=True)
            )
        return cls(
            game=int(line["game"]),
            number=int(line["turn"]),
            player=str(line["player"]),
            kind=TurnKind(line["action"]),
            played=_tiles(line["played"]),
            table=table,
            racks={str(name): _tiles(rack) for name, rack in line["racks"].items()},
            pool=int(line["pool"]),
            declared=declared,
        )


def _names(tiles: Sequence[Tile]) -> list[str]:
    return [format_tile(t) for t in tiles]


def _tiles(words: Iterable[str]) -> TileRow:
    return tuple(parse_tile(str(word)) for word in words)


class LogError(RummisolveError):
    """A log line that cannot be read, or a turn that does not follow from the one before."""


def rules_of(values: Mapping[str, Any]) -> Rules:
    """The rules a log line's `rules` holds (`Rules.as_json`), read back."""
    rules = profile_rules(str(values["profile"]))
    changes = {}
    for option in OPTIONS:
        if option.field in values:
            value = values[option.field]
            kind = option.kind
            changes[option.field] = kind(value) if issubclass(kind, enum.Enum) else value
    return rules.replace(**changes)


def _why(error: Exception) -> str:
    """What is wrong with a line, in the log's words, not Python's."""
    if isinstance(error, json.JSONDecodeError):
        return f"not JSON: {error.msg.lower()} (column {error.colno})"
    if isinstance(error, KeyError):
        return f"it has no {json.dumps(error.args[0])}"
    if isinstance(error, (TypeError, AttributeError)):
        return "a value of the wrong kind"
    return str(error)


def replay(lines: Iterable[str], source: str = "log") -> Iterator[tuple[GameState, Turn]]:
    """Each logged turn with the state before it (its own copy: keep it as you like), game
    after game; LogError names the `source` and the line of the first that is wrong."""
    state: GameState | None = None
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        where = f"{source}, line {number}"
        try:
            line = json.loads(text)
            turn = Turn.from_json(line)
            if turn.number == 1:
                state = _before_first(turn, rules_of(line["rules"]))
        except (KeyError, ValueError, TypeError, AttributeError, RummisolveError) as error:
            raise LogError(f"{where}: not a log line: {_why(error)}") from None
        if state is None:
            raise LogError(f"{where}: turn {turn.number} of a game whose turn 1 is not logged")
        if turn.number > 1 or turn.kind is TurnKind.PLAY:
            yield _copy(state), turn
        try:
            _follow(state, turn)
        except (IllegalMoveError, ValueError) as error:
            raise LogError(f"{where}: {error}") from None


def _before_first(turn: Turn, rules: Rules) -> GameState:
    """The game before its first turn (after it, when that turn drew: which tile it drew
    is not logged)."""
    names = list(turn.racks)
    first = names.index(turn.player)
    racks = dict(turn.racks)
    drew = turn.kind is TurnKind.DRAW
    if not drew:
        racks[turn.player] = (*racks[turn.player], *turn.played)
    seats = [SeatState(name, racks[name], 0) for name in [*names[first:], *names[:first]]]
    table = turn.table if drew else ()
    left = Counter(rules.box.tiles())
    left.subtract(t for rack in racks.values() for t in rack)
    left.subtract(t for row in table for t in row)
    if any(count < 0 for count in left.values()):
        raise ValueError("more tiles than the box holds")
    state = GameState(names, seats, sort_tiles(left.elements()), rules, table, (), _checked)
    if drew:  # the turn is played already
        state.history.append(Seen(turn.player, TurnKind.DRAW, ()))
        state.turns = 1
    return state


def _checked(board: Board, move: Move) -> Board:
    """The next board of a logged move, once what a log can show is legal: each set of the
    table is a set, the table is the one before and the tiles played, and a first play
    makes the initial meld. (A log has no steps, so the joker rules that read where each
    tile came from are not checked.) Its jokers stand for what the log says."""
    rules = board.rules
    problems = [
        f"not a valid set: {format_tiles(row)}" for row in move.table if not read_meld(row, rules)
    ]
    expected = Counter(board.table_tiles)
    expected.update(move.played)
    if Counter(t for row in move.table for t in row) != expected:
        problems.append("the table is not the table before and the tiles played")
    if not board.opened:
        new = Counter(move.table)
        new.subtract(Counter(board.table))
        melds = [read_meld(row, rules) for row in new.elements()]
        meld = sum(m.face_value for m in melds if m is not None)
        if meld < rules.initial_meld:
            problems.append(f"an initial meld of {meld} points, under {rules.initial_meld}")
    if problems:
        raise IllegalMoveError(0, "", problems)
    return Board(move.table, move.rack, True, rules)


def _follow(state: GameState, turn: Turn) -> None:
    """Play the logged turn on `state`; ValueError when it does not follow."""
    if turn.number == 1 and turn.kind is TurnKind.DRAW:
        return  # played when the state was built
    player = state.player
    if turn.player != player.name or turn.number != state.turns + 1:
        expected = f"turn {state.turns + 1} is {player.name}'s"
        raise ValueError(f"turn {turn.number} by {turn.player}, but {expected}")
    board = state.board()
    rack = turn.racks[player.name]
    if turn.kind is TurnKind.PLAY:
        left = Counter(player.rack)
        left.subtract(turn.played)
        if Counter(rack) != left:
            raise ValueError(f"turn {turn.number}: the rack is not the rack before less the played")
        value = sum(tile_value(t, state.rules.joker_penalty) for t in turn.played)
        move = Move(
            Status.OPTIMAL, turn.played, turn.table, rack, len(turn.played), value, 0.0, (), "log"
        )
        state.apply(move)
        state.declared = turn.declared
    else:
        drawn = list((Counter(rack) - Counter(player.rack)).elements())
        if turn.kind is TurnKind.DRAW and len(drawn) != 1:
            raise ValueError(f"turn {turn.number}: a draw that does not add one tile to the rack")
        state.apply(no_move(board), drawn[0] if drawn else None)
    for seat in state.seats:
        if seat.rack != tuple(sort_tiles(turn.racks[seat.name])):
            raise ValueError(f"turn {turn.number}: {seat.name}'s rack is not what the turn leaves")
    if state.table != turn.table or len(state.pool) != turn.pool:
        raise ValueError(f"turn {turn.number}: the table or the pool is not what the turn leaves")


def _copy(state: GameState) -> GameState:
    seats = []
    for seat in state.seats:
        copy = SeatState(seat.name, seat.rack, 0)
        copy.opened, copy.laid, copy.plays = seat.opened, seat.laid, seat.plays
        seats.append(copy)
    rules, table, declared = state.rules, state.table, state.declared
    copied = GameState(state.names, seats, state.pool, rules, table, declared, state.next_board)
    copied.history, copied.turns, copied.passes = list(state.history), state.turns, state.passes
    return copied
