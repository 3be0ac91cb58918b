"""A move as JSON (docs/format.md) and as text for a person, tiles in colour when wanted."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .board import Board
from .move import Action, Move, Status, Step
from .rules import Rules
from .tiles import Colour, Tile, format_tile, format_tiles

_ANSI = {
    Colour.BLACK: "\x1b[1m",
    Colour.RED: "\x1b[31m",
    Colour.ORANGE: "\x1b[38;5;208m",
    Colour.BLUE: "\x1b[34m",
    None: "\x1b[35m",
}
_RESET = "\x1b[0m"


def tiles_json(tiles: Iterable[Tile]) -> list[str]:
    return [format_tile(t) for t in tiles]


def move_json(move: Move, rules: Rules) -> dict[str, Any]:
    """The object `hint --json` prints (docs/format.md), with the rules it was found under."""
    return {
        "status": move.status.value,
        "tiles_played": move.tiles_played,
        "value_played": move.value_played,
        "played": tiles_json(move.played),
        "table": [tiles_json(row) for row in move.table],
        "rack": tiles_json(move.rack),
        "seconds": round(move.seconds, 6),
        "sets_changed": move.sets_changed,
        "steps": [_step_json(step) for step in move.steps],
        "backend": move.backend,
        "rules": rules.as_json(),
    }


def _step_json(step: Step) -> dict[str, Any]:
    return {
        "action": step.action.value,
        "set": tiles_json(step.tiles),
        "from_table": [{"set": s.set_index, "tiles": tiles_json(s.tiles)} for s in step.from_table],
        "from_rack": tiles_json(step.from_rack),
    }


def paint(tile: Tile, colour: bool, mark: bool = False) -> str:
    text = format_tile(tile) + ("*" if mark else "")
    return f"{_ANSI[tile.colour]}{text}{_RESET}" if colour else text


def render_move(board: Board, move: Move, colour: bool = False) -> str:
    """What `hint` shows a person: the play, the new table with its steps, the rack after."""

    def row(tiles: Iterable[Tile]) -> str:
        return " ".join(paint(t, colour) for t in tiles)

    # The rules, where they are not the official ones: "; rules: hebrew joker-penalty=20".
    words = board.rules.words()
    under = f"; rules: {' '.join(words)}" if words else ""
    footer = f"({move.status.value}, {move.seconds * 1000:.0f} ms, {move.backend}{under})"
    if not move.played:
        if move.status is Status.FEASIBLE:
            cut_short = "No move found within the time limit (a longer --time-limit may find one)."
            return f"{cut_short}\n{footer}\n"
        if not board.opened:
            meld = board.rules.initial_meld
            return f"No move: no initial meld worth {meld} points; draw a tile.\n{footer}\n"
        return f"No move: draw a tile.\n{footer}\n"
    lines = [
        f"Play {move.tiles_played} tile{'s' * (move.tiles_played != 1)}"
        f" ({move.value_played} points): {row(move.played)}",
        "",
        "Table after the move (* = from your rack):",
    ]
    marked = [_mark_rack_tiles(step, colour) for step in move.steps]
    width = max(_plain_width(step) for step in move.steps)
    for step, shown in zip(move.steps, marked, strict=True):
        padding = " " * (width - _plain_width(step))
        lines.append(f"  {shown}{padding}   {_explain(board, step)}")
    lines.append("")
    lines.append(f"Rack after: {row(move.rack) if move.rack else '(empty: Rummikub!)'}")
    lines.append(footer)
    return "\n".join(lines) + "\n"


def _plain_width(step: Step) -> int:
    return len(format_tiles(step.tiles)) + len(step.from_rack)


def _mark_rack_tiles(step: Step, colour: bool) -> str:
    """The set's tiles, those that come from the rack marked with a star."""
    from_rack = list(step.from_rack)
    shown = []
    for t in step.tiles:
        mark = t in from_rack
        if mark:
            from_rack.remove(t)
        shown.append(paint(t, colour, mark))
    return " ".join(shown)


def _explain(board: Board, step: Step) -> str:
    if step.action is Action.KEEP:
        return "stays"
    rack = f"{format_tiles(step.from_rack)} from the rack" if step.from_rack else ""
    if step.action is Action.NEW:
        return "new, from the rack"
    if step.action is Action.EXTEND:
        source = step.from_table[0]
        return f"[{format_tiles(board.table[source.set_index])}] + {format_tiles(step.from_rack)}"
    if len(step.from_table) == 1 and not step.from_rack:
        return f"split off [{format_tiles(board.table[step.from_table[0].set_index])}]"
    parts = []
    for source in step.from_table:
        whole = board.table[source.set_index]
        parts.append(f"{format_tiles(source.tiles)} of [{format_tiles(whole)}]")
    if rack:
        parts.append(rack)
    return "rebuilt: " + ", ".join(parts)
