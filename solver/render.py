"""A move as JSON (docs/format.md) and as text for a person, tiles in colour when wanted."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from .board import Board
from .move import Move, SetChange, Status, Step
from .narration import Do, TableAction, plan_move
from .rules import Rules
from .sets import meld_value
from .table_reading import TableReading
from .tiles import JOKER, Colour, Tile, TileRow, format_tile

_ANSI = {
    Colour.BLACK: "\x1b[1m",
    Colour.RED: "\x1b[31m",
    Colour.ORANGE: "\x1b[38;5;208m",
    Colour.BLUE: "\x1b[34m",
    None: "\x1b[35m",
}
_RESET = "\x1b[0m"
# Below steps that no order lets a player follow with copies alike mixed in the hand.
_HOLD_APART = (
    "Keep the tiles you take from each set apart in your hand: no order of these steps"
    " avoids holding copies alike that the rules tell apart (use the copy a step names;"
    " a joker goes on beside a tile of its own set)."
)
# Below a move the time limit cut short: "feasible" alone does not tell a player so.
_CUT_SHORT = (
    "Not proved best: the time limit cut the search short"
    " (a longer --time-limit may find a better move)."
)


def tiles_json(tiles: Iterable[Tile]) -> list[str]:
    return [format_tile(t) for t in tiles]


def move_json(move: Move, board: Board) -> dict[str, Any]:
    """The object `hint --json` prints (docs/format.md), with the rules it was found under
    (and, before the initial meld, the meld's value as the table counts it)."""
    rules = board.rules
    plan = plan_move(move, board)
    reading = plan.reading or TableReading(board)
    answer = {
        "status": move.status.value,
        "tiles_played": move.tiles_played,
        "value_played": move.value_played,
        "played": tiles_json(move.played),
        "table": [tiles_json(row) for row in move.table],
        # What each set's jokers stand for, in the order they lie: the next turn's reading.
        "stand_for": [tiles_json(roles) for roles in reading.after],
        "rack": tiles_json(move.rack),
        "seconds": round(move.seconds, 6),
        "sets_changed": move.sets_changed,
        "steps": [_step_json(step) for step in move.steps],
        "actions": [_action_json(action, reading, plan.actions) for action in plan.actions],
        "tiles_moved": plan.tiles_moved,
    }
    if plan.hold_apart:
        answer["hold_apart"] = True
    if not board.opened:
        answer["meld_value"] = _meld_value(move, rules)
    return answer | {"backend": move.backend, "rules": rules.as_json()}


def _meld_value(move: Move, rules: Rules) -> int:
    """The new sets' worth as an initial meld."""
    return meld_value((s.tiles for s in move.steps if s.change is not SetChange.KEEP), rules)


def _action_json(
    action: TableAction, reading: TableReading, actions: Sequence[TableAction]
) -> dict[str, Any]:
    said: dict[str, Any] = {
        "action": action.do.value,
        "text": _say(action, reading, False, actions),
        "tiles": tiles_json(action.tiles),
        "set": tiles_json(action.before),
        "after": [tiles_json(row) for row in action.after],
        "from_rack": tiles_json(action.from_rack),
        "jokers": [tiles_json(roles) for roles in _readings(action, reading)[1:]],
    }
    # Only where the action shows rack tiles laid earlier in the turn (starred as `hint` does).
    if action.marked:
        said["from_rack_earlier"] = tiles_json(action.marked)
    # Only where copies alike in the hand could be mistaken: the take each comes from.
    copies = [{"tile": format_tile(t), "take": at} for t, at in action.copies]
    if copies:
        said["copies"] = copies
    # Only where the set looks like another the rules tell apart: the table's set it is.
    if action.table_set is not None:
        said["table_set"] = action.table_set
    return said


def _step_json(step: Step) -> dict[str, Any]:
    return {
        "action": step.change.value,
        "set": tiles_json(step.tiles),
        "from_table": [{"set": s.set_index, "tiles": tiles_json(s.tiles)} for s in step.from_table],
        "from_rack": tiles_json(step.from_rack),
    }


def paint(tile: Tile, colour: bool, mark: bool = False, stands_for: Tile | None = None) -> str:
    """A tile as text: `R2*` where it comes from the rack, `J=K7` for a joker that stands
    for the K7; in its colour on a terminal."""
    text = format_tile(tile) + ("*" if mark else "")
    shown = f"{_ANSI[tile.colour]}{text}{_RESET}" if colour else text
    return shown if stands_for is None else f"{shown}={paint(stands_for, colour)}"


def render_move(board: Board, move: Move, colour: bool = False) -> str:
    """What `hint` shows a person: the play, the actions at the table in order, the new
    table, the rack after."""
    rules = board.rules
    # The rules, where they are not the official ones: "; rules: hebrew joker-penalty=20".
    words = rules.words()
    under = f"; rules: {' '.join(words)}" if words else ""
    footer = f"({move.status.value}, {move.seconds * 1000:.0f} ms, {move.backend}{under})"
    if not move.played:
        if move.status is Status.FEASIBLE:
            cut_short = "No move found within the time limit (a longer --time-limit may find one)."
            return f"{cut_short}\n{footer}\n"
        if not board.opened:
            meld = rules.initial_meld
            return f"No move: no initial meld worth {_points(meld)}; draw a tile.\n{footer}\n"
        return f"No move: draw a tile.\n{footer}\n"
    count = f"{move.tiles_played} tile{'s' * (move.tiles_played != 1)}"
    if board.opened:
        worth = f" ({_points(move.value_played)})"
    else:
        value = _meld_value(move, rules)
        worth = f", an initial meld worth {_points(value)} ({rules.initial_meld} needed)"
    plan = plan_move(move, board)
    reading = plan.reading or TableReading(board)

    played = _played(move, plan.from_rack, reading, colour)
    lines = [f"Play {count}{worth}: {played}", "", "At the table (* = from your rack):"]
    for number, action in enumerate(plan.actions, start=1):
        lines.append(f"  {number}. {_say(action, reading, colour, plan.actions)}")
    if plan.hold_apart:
        lines.extend(["", _HOLD_APART])
    lines.extend(["", "Table after the move:"])
    # The rack's tiles are marked where the actions put them (the same tile may lie in
    # two sets: the steps of the model may name the other copy).
    from_rack, staying = iter(plan.from_rack), iter(plan.staying)
    for step, roles in zip(move.steps, reading.after, strict=True):
        marked, table_jokers = (
            ((), ()) if step.change is SetChange.KEEP else (next(from_rack), next(staying, ()))
        )
        lines.append(f"  {_row(step.tiles, marked, reading, colour, roles, table_jokers)}")
    lines.append("")
    rack = _row(move.rack, (), reading, colour) if move.rack else "(empty: Rummikub!)"
    lines.append(f"Rack after: {rack}")
    if move.status is Status.FEASIBLE:
        lines.append(_CUT_SHORT)
    lines.append(footer)
    return "\n".join(lines) + "\n"


def _points(count: int) -> str:
    return f"{count} point{'s' * (count != 1)}"


def _played(
    move: Move, from_rack: Iterable[tuple[Tile, ...]], reading: TableReading, colour: bool
) -> str:
    """The tiles played; where they read as one set (`R11 R12 R13 J`), each of the rack's
    jokers with what it stands for where the new table lays it (as its row below stars
    it): their own order may read it otherwise (the R1, with wraparound, for the R10)."""
    if not reading.jokers(move.played):
        return _row(move.played, (), reading, colour)
    readings: list[Tile] = []
    marked = iter(from_rack)
    for step, roles in zip(move.steps, reading.after, strict=True):
        if step.change is not SetChange.KEEP:
            jokers = sum(t.is_joker for t in next(marked))
            readings.extend(roles[:jokers])
    stands_for = iter(readings)
    return " ".join(
        paint(t, colour, stands_for=next(stands_for, None) if t.is_joker else None)
        for t in move.played
    )


def _row(
    tiles: Iterable[Tile],
    marked: Iterable[Tile],
    reading: TableReading,
    colour: bool,
    roles: Iterable[Tile] | None = None,
    table_jokers: Iterable[Tile] = (),
) -> str:
    """A set's tiles, those of `marked` starred, each joker with the tile it stands for
    (`roles`, where the set's place on the table says it; else as the table reads it). A
    joker standing for one of `table_jokers` is the table's: a starred one is another."""
    tiles = tuple(tiles)
    stands_for = iter(reading.jokers(tiles) if roles is None else roles)
    left = list(marked)
    the_table: Counter[Tile | None] = Counter(table_jokers)
    shown = []
    for t in tiles:
        role = next(stands_for, None) if t.is_joker else None
        mark = t in left and not the_table[role]
        if mark:
            left.remove(t)
        elif t.is_joker and the_table[role]:
            the_table[role] -= 1
        shown.append(paint(t, colour, mark, role))
    return " ".join(shown)


def _table_jokers(row: TileRow, reading: TableReading) -> TileRow:
    """What the table's jokers in a set stand for (none where it holds none)."""
    return reading.jokers(row) if JOKER in row else ()


def _readings(action: TableAction, reading: TableReading) -> tuple[TileRow, ...]:
    """What the jokers of the action's set before and of each set after stand for: as
    the plan read them, else as the table reads them."""
    rows = (action.before, *action.after)
    return action.readings or tuple(_table_jokers(row, reading) for row in rows)


def _say(
    action: TableAction, reading: TableReading, colour: bool, actions: Sequence[TableAction]
) -> str:
    """One action as a person reads it; a set is named as it looks at that moment (and
    one a copy was taken from, as it looked then: `actions`, the plan's)."""

    def row(
        tiles: Iterable[Tile],
        marked: Iterable[Tile] = (),
        table_jokers: Iterable[Tile] = (),
        roles: Iterable[Tile] | None = None,
    ) -> str:
        return _row(tiles, marked, reading, colour, roles, table_jokers)

    marked = Counter(action.marked)
    on_table = Counter(action.before) & marked
    read_before, *read_after = _readings(action, reading)
    before = _before(action, reading, colour)
    # A set alike another the rules tell apart: which, by its place in the table as given.
    which = "" if action.table_set is None else f" (set {action.table_set + 1} of the table)"
    if action.do is Do.TAKE:
        if not action.after:
            return f"take all of [{before}]{which}"
        # The jokers taken: the set's less those left (as a set of their own, the tiles
        # taken may read otherwise: K7 K8 K9 J out of K7 K8 K9 K10 J K12 K13 holds the K11).
        roles = Counter(read_before) - Counter(read_after[0])
        taken = row(action.tiles, (Counter(action.tiles) & marked).elements(), (), roles.elements())
        return f"take {taken} from [{before}]{which}"
    if action.do is Do.SPLIT:
        left = Counter(marked)
        pieces = []
        for piece, roles_there in zip(action.after, read_after, strict=True):
            pieces.append(f"[{row(piece, (Counter(piece) & left).elements(), (), roles_there)}]")
            left -= Counter(piece)
        return f"split [{before}]{which} into {' '.join(pieces)}"
    marks = (*action.from_rack, *action.marked)
    made = row(action.after[0], marks, action.table_jokers, read_after[0])
    if action.do is Do.REPLACE:
        put = row(action.tiles, action.from_rack)
        return f"swap {put} for the joker in [{before}]: {made}, the joker in hand"
    copies = _copies(action, reading, colour, actions)
    if action.do is Do.LAY:
        return f"lay {made}{copies} new"
    # The jokers added: those of the set made less those there before, in its order.
    there = Counter(read_before)
    added_roles = []
    for role in read_after[0]:
        if there[role] > 0:
            there[role] -= 1
        else:
            added_roles.append(role)
    moved = Counter(action.table_jokers) - Counter(read_before)
    marks = (*action.from_rack, *(marked - on_table).elements())
    added = row(action.tiles, marks, moved, added_roles)
    return f"add {added}{copies} to [{before}]{which}: {made}"


def _before(action: TableAction, reading: TableReading, colour: bool) -> str:
    """The set the action acts on, as it looks before it."""
    on_table = Counter(action.before) & Counter(action.marked)
    return _row(action.before, on_table.elements(), reading, colour, _readings(action, reading)[0])


def _copies(
    action: TableAction, reading: TableReading, colour: bool, actions: Sequence[TableAction]
) -> str:
    """Which copies an add or a lay takes, where copies alike in the hand could be
    mistaken: ` (R8 from [R7 R8 R9 J=R10 R11])`, each set as its take showed it."""
    by_take: dict[int, list[Tile]] = {}
    for tile, at in action.copies:
        by_take.setdefault(at, []).append(tile)
    named = []
    for at, tiles in by_take.items():
        shown = " ".join(paint(t, colour) for t in tiles)
        named.append(f"{shown} from [{_before(actions[at], reading, colour)}]")
    return f" ({', '.join(named)})" if named else ""
