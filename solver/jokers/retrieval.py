"""Where the table's jokers may go: the rules as written, checked without the model.

A joker on the table stands for one tile, as the rules read it (`table_readings`: declared,
else by its place in a run, else any reading of its set). It either stays with its set
(standing for the same tile, in a new set holding a real tile of its old set; with locked
sets, the one new set holding them all) or is freed by its tile from the rack, and then
(strict) lies in a set with two tiles played from the rack (docs/rules.md, "Jokers"). The
checker and the solver's shortcut (a looser reading's answer kept where it passes here)
both ask this module.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations, product
from typing import TYPE_CHECKING, NamedTuple

from ..rules import JokerRetrieval, Rules
from ..tiles import JOKER, Tile, TileRow, format_tiles
from .laying import lay_jokers
from .readings import set_readings, table_readings

if TYPE_CHECKING:  # the board reader asks the readings: Board is read by type checkers only
    from ..board import Board

# A joker place of the new table: the index of its set there, and the tile it stands for
# (None where roles do not matter: free retrieval with locked sets).
Role = Tile | None


class _Place(NamedTuple):
    row: int
    role: Role


def joker_places(
    board: Board,
    table: Sequence[TileRow],
    played: Counter[Tile],
    kept: Sequence[tuple[int, int]] = (),
) -> dict[int, tuple[Tile, ...]] | None:
    """Where the rules on the table's jokers let this new table's jokers stand: for each
    set holding a joker (by its index), what its jokers stand for, in the order of the tiles
    they stand for; {} where any place will do; None if the rules forbid the table.

    `kept` pairs the sets the move keeps as they lay (index before, index after): such a
    set keeps its own tiles and jokers, which no other set's joker may stay with."""
    rules = board.rules
    if not board.opened or not (rules.by_replacement or rules.locked_joker_sets):
        return {}
    if not any(JOKER in s for s in board.table):
        return {}
    retrieval, locked = rules.joker_retrieval, rules.locked_joker_sets
    witness = next(_tellings(board, table, played, retrieval, locked, kept), None)
    if witness is None:
        return None
    return {n: roles for n, roles in witness.new.items() if None not in roles}  # type: ignore[misc]


def joker_problems(
    board: Board,
    table: Sequence[TileRow],
    played: Counter[Tile],
    kept: Sequence[tuple[int, int]] = (),
) -> list[str]:
    """What the rules on the table's jokers find wrong with this new table (docs/rules.md,
    "Jokers"), the sets `kept` kept as they lay; an empty list if nothing."""
    if joker_places(board, table, played, kept) is not None:
        return []
    retrieval, locked = board.rules.joker_retrieval, board.rules.locked_joker_sets

    def follow(retrieval: JokerRetrieval, locked: bool) -> bool:
        if retrieval is JokerRetrieval.FREE and not locked:
            return True
        return next(_tellings(board, table, played, retrieval, locked, kept), None) is not None

    # Which rule it breaks: the one whose lifting makes the table legal.
    if retrieval is JokerRetrieval.STRICT and follow(JokerRetrieval.REPLACE, locked):
        return ["a freed joker is in no set with two tiles from the rack"]
    if locked and follow(retrieval, locked=False):
        return [_locked_problem(board, table)]
    return ["a joker left its set, or stands for another tile, and its tile was not played"]


def _locked_problem(board: Board, table: Sequence[TileRow]) -> str:
    """LOCKED-JOKER-SETS: a set whose real tiles are in no one new set; sets that would need
    the same tile of one new set; or a joker that left its set."""
    old_sets = [s for s in board.table if JOKER in s and any(not t.is_joker for t in s)]
    rows = list(table)
    for old in old_sets:
        if not any({t for t in old if not t.is_joker} <= set(row) for row in rows):
            shown = format_tiles(old)
            return f"a tile was taken out of [{shown}], which holds a joker (locked-joker-sets)"
    if next(_anchors(old_sets, rows, set(), locked=True), None) is None:
        return "sets holding a joker would need the same tile of one new set (locked-joker-sets)"
    return "a joker left the set it lay in, which stays whole (locked-joker-sets)"


class Telling(NamedTuple):
    """One way of telling the jokers apart that the rules allow: what the jokers of each
    old set stood for (by its index on the table before), which of them the move freed,
    what the jokers of each new set stand for (by its index on the new table), where each
    joker that stayed lies, and (STRICT) the sets the freed jokers lie in, each with how
    many lie there and the tiles there counted as the rack's copies."""

    old: dict[int, tuple[Role, ...]]
    freed: dict[int, tuple[Role, ...]]
    new: dict[int, tuple[Role, ...]]
    stays: tuple[tuple[int, Role, int], ...]  # (old set, the tile its joker stands for, new set)
    hosts: dict[int, tuple[int, TileRow]]


def tell_jokers(
    board: Board, table: Sequence[TileRow], played: Counter[Tile], kept: Sequence[tuple[int, int]]
) -> Telling | None:
    """The telling apart a person at the table sees, for the narration: each old set read
    as it lies where the rules allow it, each new set's jokers where they lie (a run's
    place says what its joker stands for), else any; None if none fits the board's rules."""
    rules = board.rules
    retrieval, locked = rules.joker_retrieval, rules.locked_joker_sets
    laid = _tellings(board, table, played, retrieval, locked, kept, as_laid=True)
    return next(laid, None) or next(_tellings(board, table, played, retrieval, locked, kept), None)


def _tellings(
    board: Board,
    table: Sequence[TileRow],
    played: Counter[Tile],
    retrieval: JokerRetrieval,
    locked: bool,
    kept: Sequence[tuple[int, int]] = (),
    as_laid: bool = False,
) -> Iterator[Telling]:
    """Every telling apart of the new table's jokers in which each table joker stayed
    with its set or was freed, as `retrieval` and `locked` say (some repeated); none if
    the rules forbid the table.

    Jokers are alike, and so are copies of one tile: the new table is legal if some telling
    apart fits. A table joker not freed stands for the same tile in a new set holding a real
    tile of its old set (with locked sets: the one new set holding all of them); one freed
    had its tile played from the rack and (STRICT) lies in a set with two tiles played from
    the rack. The jokers are few, so every telling apart is tried. `as_laid`: the readings
    the sets' places show first (old sets), or alone where one fits (new sets).
    """
    rules = board.rules
    by_role = retrieval is not JokerRetrieval.FREE
    # A set kept as it lay is its own tiles and jokers: out of the telling apart.
    kept_now = {n for _, n in kept}
    number = [n for n in range(len(table)) if n not in kept_now]  # each row's index in the table
    rows = [table[n] for n in number]
    pinned = {i for i, _ in kept}
    old_sets, old_declared, old_number = [], [], []
    for i, old in enumerate(board.table):
        if JOKER not in old or i in pinned:
            continue
        if old.count(JOKER) == len(old) and (by_role or not locked):
            # A set of jokers alone holds no tile to stay with: it stays as it lies (with
            # jokers free and sets locked it may grow, its jokers together: as a set).
            if old not in rows:
                return
            del number[rows.index(old)]
            rows.remove(old)
        else:
            old_sets.append(old)
            old_declared.append(board.declared_for(i))
            old_number.append(i)
    with_jokers = [n for n, row in enumerate(rows) if JOKER in row]
    new_readings = [_readings(rows[n], rules, by_role) for n in with_jokers]
    if as_laid:
        new_readings = [
            [r for r in readings if _lies_as(rows[n], r, rules)] or readings
            for n, readings in zip(with_jokers, new_readings, strict=True)
        ]
    if not old_sets:
        new = {
            number[n]: readings[0] for n, readings in zip(with_jokers, new_readings, strict=True)
        }
        yield Telling({}, {}, new, (), {})
        return
    # A table joker stands for the tile the rules read it as (declared, or by its place).
    old_readings: list[list[tuple[Role, ...]]] = [
        list(table_readings(old, said, rules)) if by_role else [(None,) * old.count(JOKER)]
        for old, said in zip(old_sets, old_declared, strict=True)
    ]
    if as_laid:
        old_readings = [
            _laid_first(old, readings, rules)
            for old, readings in zip(old_sets, old_readings, strict=True)
        ]
    for old_roles in product(*old_readings):
        instances = [(i, role) for i, roles in enumerate(old_roles) for role in roles]
        for new_roles in product(*new_readings):
            places = [
                _Place(n, role)
                for n, roles in zip(with_jokers, new_roles, strict=True)
                for role in roles
            ]
            for homes, freed in _fates(instances, places, played, by_role):
                kept_at = {(instances[i][0], places[p].row) for i, p in homes.items()}
                freed_at: dict[int, tuple[Role, ...]] = {}
                for k, (i, role) in enumerate(instances):
                    if k not in homes:
                        freed_at[old_number[i]] = (*freed_at.get(old_number[i], ()), role)
                telling = Telling(
                    {old_number[i]: roles for i, roles in enumerate(old_roles)},
                    freed_at,
                    {number[n]: roles for n, roles in zip(with_jokers, new_roles, strict=True)},
                    tuple(
                        (old_number[instances[k][0]], instances[k][1], number[places[p].row])
                        for k, p in homes.items()
                    ),
                    {},
                )
                for anchors in _anchors(old_sets, rows, kept_at, locked):
                    if retrieval is not JokerRetrieval.STRICT or not freed:
                        yield telling
                        continue
                    loose = [p for p in range(len(places)) if p not in homes.values()]
                    for hosts in _freed_hosts(
                        rows, places, loose, sum(freed.values()), anchors, played
                    ):
                        yield telling._replace(hosts={number[n]: host for n, host in hosts.items()})


def _laid_first(
    row: TileRow, readings: list[tuple[Role, ...]], rules: Rules
) -> list[tuple[Role, ...]]:
    """The readings the set's places show first, then the others, each in its order."""
    return sorted(readings, key=lambda roles: not _lies_as(row, roles, rules))


def _lies_as(row: TileRow, roles: Sequence[Role], rules: Rules) -> bool:
    """Does the set lie as its jokers standing for `roles` lay it?"""
    tiles = [r for r in roles if r is not None]
    return len(tiles) == len(roles) and lay_jokers(row, tiles, rules) == row


def _readings(row: TileRow, rules: Rules, by_role: bool) -> list[tuple[Role, ...]]:
    """What the jokers of a set can stand for, one tuple a reading; roles all None where
    they do not matter."""
    if not by_role:
        return [(None,) * row.count(JOKER)]
    return list(set_readings(row, rules))


def _fates(
    instances: list[tuple[int, Role]],
    places: list[_Place],
    played: Counter[Tile],
    by_role: bool,
) -> Iterator[tuple[dict[int, int], dict[Role, int]]]:
    """Every way to give each table joker (old set, role) a joker place of the same role
    (it stayed), or (by_role) a played copy of its role (it was freed): the places kept by
    instance, and the roles freed."""
    homes: dict[int, int] = {}
    freed: dict[Role, int] = {}  # plain dicts: the checker's inner loop

    def give(at: int) -> Iterator[tuple[dict[int, int], dict[Role, int]]]:
        if at == len(instances):
            yield dict(homes), {role: k for role, k in freed.items() if k}
            return
        role = instances[at][1]
        tried: set[_Place] = set()
        for p, place in enumerate(places):
            if p in homes.values() or place in tried or (by_role and place.role != role):
                continue
            tried.add(place)  # places alike give alike fates
            homes[at] = p
            yield from give(at + 1)
            del homes[at]
        if by_role and role is not None and freed.get(role, 0) < played.get(role, 0):
            freed[role] = freed.get(role, 0) + 1
            yield from give(at + 1)
            freed[role] -= 1

    yield from give(0)


def _anchors(
    old_sets: list[TileRow], rows: list[TileRow], kept_at: set[tuple[int, int]], locked: bool
) -> Iterator[frozenset[tuple[int, Tile]]]:
    """Every way to give each (old set, new row) where jokers of that set stayed a real tile
    of the set there (with locked sets: give each old set one row holding all its real
    tiles, where its jokers that stayed are): the places (row, tile) so given, which hold
    the table's copies. One place holds one tile, of one old set."""
    needs: list[tuple[int, list[int]]]  # each old set, and the rows it may lie in
    if locked:
        needs = []
        for i, old in enumerate(old_sets):
            real = {t for t in old if not t.is_joker}
            at = {row for set_number, row in kept_at if set_number == i}
            if len(at) > 1:
                return
            candidates = [n for n, row in enumerate(rows) if real <= set(row)]
            needs.append((i, [n for n in candidates if not at or n in at]))
    else:
        needs = [(i, [row]) for i, row in sorted(kept_at)]
    used: set[tuple[int, Tile]] = set()
    by_set: set[tuple[int, Tile]] = set()

    def give(at: int) -> Iterator[frozenset[tuple[int, Tile]]]:
        if at == len(needs):
            yield frozenset(used)
            return
        i, candidates = needs[at]
        real = [t for t in dict.fromkeys(old_sets[i]) if t != JOKER]
        for n in candidates:
            if locked:
                places = {(n, t) for t in real}
                if not places & used:
                    used.update(places)
                    yield from give(at + 1)
                    used.difference_update(places)
                continue
            for t in real:
                if t in rows[n] and (n, t) not in used and (i, t) not in by_set:
                    used.add((n, t))
                    by_set.add((i, t))
                    yield from give(at + 1)
                    used.discard((n, t))
                    by_set.discard((i, t))

    yield from give(0)


def _freed_hosts(
    rows: list[TileRow],
    places: list[_Place],
    loose: list[int],
    freed: int,
    anchors: frozenset[tuple[int, Tile]],
    played: Counter[Tile],
) -> Iterator[dict[int, tuple[int, TileRow]]]:
    """STRICT: every way `freed` of the loose joker places (the others hold rack jokers)
    can be the freed jokers, each in a row with two tiles played from the rack: rack
    jokers, or real tiles counted as the rack's copies (no more than were played, none of
    `anchors`). Each way: for each such row, the freed jokers there and the tiles counted."""
    tried: set[tuple[int, ...]] = set()
    for chosen in combinations(loose, freed):
        hosts = tuple(sorted(places[p].row for p in chosen))
        if hosts in tried:
            continue
        tried.add(hosts)
        rack_jokers: dict[int, int] = {}
        for p in loose:
            if p not in chosen:
                rack_jokers[places[p].row] = rack_jokers.get(places[p].row, 0) + 1
        short = {n: 2 - rack_jokers.get(n, 0) for n in set(hosts) if rack_jokers.get(n, 0) < 2}
        choices = [
            list(
                combinations(
                    [
                        t
                        for t in dict.fromkeys(rows[n])
                        if t != JOKER and played.get(t) and (n, t) not in anchors
                    ],
                    need,
                )
            )
            for n, need in short.items()
        ]
        for picks in product(*choices):
            if _within(picks, played):
                counted = dict(zip(short, picks, strict=True))
                yield {n: (hosts.count(n), counted.get(n, ())) for n in set(hosts)}


def _within(picks: Sequence[Sequence[Tile]], played: Counter[Tile]) -> bool:
    """Whether the tiles picked are no more copies of each tile than were played (as a
    Counter's difference would say, without making Counters: the checker's inner loop)."""
    counted: dict[Tile, int] = {}
    for pick in picks:
        for t in pick:
            counted[t] = counted.get(t, 0) + 1
    return all(played.get(t, 0) >= k for t, k in counted.items())
