"""The joker part of the model, where the table's jokers follow the rules as written:
its rows (joker_model.py says what they mean) and its columns, after the kept sets'."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..tiles import JOKER, Tile
from .builder import INFINITY, Columns, Ints, Rows
from .joker_model import Host, Instance, JokerPlan, OutOfTime, TileRow
from .lp import Deadline
from .tile_rows import JOKER_ROW, TILE_INDEX


@dataclass(frozen=True)
class JokerLayout:
    """Where the joker part's columns are: after the kept sets, the readings' (one per
    joker set and reading), the freed instances', then (pinned) each freed instance's
    staying, then each host's (its copy; if freeing, its freed count and each free
    place's fills, in `fills` order)."""

    plan: JokerPlan
    readings: int
    freed: list[int]
    fills: list[list[tuple[Tile, str]]]
    # Pinned: for each instance, the joker part's column that is 1 where it stays (its
    # reading's, where no rack tile can free it).
    stays: tuple[int, ...] = ()
    # The freed instances' columns, numbered in the whole program.
    freed_columns: range = range(0)

    def staying(self, counts: Sequence[int]) -> list[Instance]:
        """Pinned: the instances that stay, by the joker part's whole-number values."""
        return [i for i, at in zip(self.plan.instances, self.stays, strict=True) if counts[at]]


class JokerRows:
    """The rows of the joker part (joker_model.py says what they mean), and its columns."""

    def __init__(
        self,
        plan: JokerPlan,
        rows: Rows,
        table_sets: Sequence[TileRow],
        rack: Ints,
        deadline: Deadline | None = None,
    ) -> None:
        self.plan = plan
        self.deadline = deadline
        self.rack = rack
        self.table_sets = table_sets
        numbers = [js.number for js in plan.joker_sets]
        choice = rows.add(
            len(numbers),
            1.0,
            1.0,
            name="choice",
            says="kept[s] + sum_r reading[s,r] = 1: a joker set is kept, or takes a reading",
        )
        self.choice = dict(zip(numbers, choice, strict=True))
        alone = rows.add(
            len(plan.jokers_alone),
            1.0,
            1.0,
            name="alone",
            says="kept[s] = 1: a set of jokers alone is kept as it lies",
        )
        self.alone = dict(zip(plan.jokers_alone, alone, strict=True))
        # A joker is freed by a copy of its tile played from the rack, one copy each.
        self.freeable = [
            i
            for i, inst in enumerate(plan.instances)
            if inst.role is not None and rack[TILE_INDEX[inst.role]] > 0
        ]
        # Each joker of the reading taken lies in a host or is freed (its count, times the
        # reading's column, equals that). Pinned, one that no rack tile frees stays: its
        # staying is its reading's column, which stands for it.
        bound = self.freeable if plan.pinned else range(len(plan.instances))
        instance = rows.add(
            len(bound),
            0.0,
            0.0,
            name="instance",
            says="sum_h jokers[h,i] host[h] + freed[i] (+ stays[i]) = copies[i] reading[s,r]",
        )
        self.instance = dict(zip(bound, instance, strict=True))
        roles = {plan.instances[i].role for i in self.freeable}
        freed_tiles = sorted({t for t in roles if t is not None}, key=Tile.sort_key)
        cap = rows.add(
            len(freed_tiles),
            -INFINITY,
            0.0,
            name="cap",
            says="sum_{i standing for t} freed[i] <= played[t]: one copy frees one joker",
        )
        self.cap = dict(zip(freed_tiles, cap, strict=True))
        # A tile of a joker set with two jokers or more anchors them in one host at most.
        anchors = sorted(
            {
                (s, t)
                for h in plan.hosts
                for s, t in h.held
                if not plan.locked and self._jokers_of(s) > 1
            },
            key=lambda anchor: (anchor[0], anchor[1].sort_key()),
        )
        anchor = rows.add(
            len(anchors),
            -INFINITY,
            1.0,
            name="anchor",
            says="sum_{h holding t of s} host[h] <= 1",
        )
        self.anchor = dict(zip(anchors, anchor, strict=True))
        # Locked sets: a joker set is kept, or lies with all its real tiles in one host.
        locked = numbers if plan.locked else []
        lock = rows.add(
            len(locked),
            1.0,
            1.0,
            name="lock",
            says="kept[s] + sum_{h holding s} host[h] = 1",
        )
        self.lock = dict(zip(locked, lock, strict=True))
        self.freed_total = self.rack_count = self.real = None
        self.place: list[dict[Tile, int]] = []
        self.rackish: list[int] = []
        self.room: list[int] = []
        if plan.strict:
            # STRICT: the freed jokers are the freeing hosts' freed ones.
            self.freed_total = rows.one(
                0.0,
                0.0,
                name="freed total",
                says="sum_i freed[i] = sum_h freed_in[h]: freed jokers lie in freeing hosts",
            )
            rack_tiles = sorted(
                {
                    t
                    for h in plan.hosts
                    if h.freeing
                    for t in h.free_places
                    if rack[TILE_INDEX[t]] > 0
                },
                key=Tile.sort_key,
            )
            # Places counted as the rack's copies: no more than were played.
            rack_count = rows.add(
                len(rack_tiles),
                -INFINITY,
                0.0,
                name="rack count",
                says="sum_h rack_fills[h,t] <= played[t]",
            )
            self.rack_count = dict(zip(rack_tiles, rack_count, strict=True))
            real_tiles = sorted(
                {t for h in plan.hosts for _, t in h.held}
                | {t for h in plan.hosts if h.freeing for t in h.free_places},
                key=Tile.sort_key,
            )
            # Places that hold real tiles (held places, freeing hosts' real fills, kept
            # sets) hold no more than the copies there are (table and played).
            table_counts = Counter(t for s in table_sets for t in s)
            real = rows.add(
                len(real_tiles),
                -INFINITY,
                [table_counts[t] for t in real_tiles],
                name="real",
                says="sum_h held[h,t] host[h] + real_fills[t] + sum_s a[t,s] kept[s]"
                " <= table[t] + played[t]",
            )
            self.real = dict(zip(real_tiles, real, strict=True))
            self._freeing_rows(rows)
        self.fills: list[list[tuple[Tile, str]]] = []

    def _freeing_rows(self, rows: Rows) -> None:
        """For each freeing host, in turn: a row for each free place (it holds one tile or
        joker a copy), one saying a copy holding freed jokers holds two tiles from the rack
        (rack copies, or loose jokers not freed), one saying its freed jokers are among its
        loose ones."""
        freeing = [len(h.free_places) for h in self.plan.hosts if h.freeing]
        lower = [b for n in freeing for b in [0.0] * n + [-INFINITY, -INFINITY]]
        numbers = iter(
            rows.add(
                len(lower),
                lower,
                0.0,
                name="freeing hosts",
                says="fills[h,p] = host[h]; 2 host[h] + freed_in[h] <= rack_fills[h]"
                " + loose[h]; freed_in[h] <= loose[h]",
            )
        )
        for h in self.plan.hosts:
            if not h.freeing:
                self.place.append({})
                self.rackish.append(-1)
                self.room.append(-1)
                continue
            self.place.append({t: next(numbers) for t in h.free_places})
            self.rackish.append(next(numbers))
            self.room.append(next(numbers))

    def _jokers_of(self, number: int) -> int:
        return self.table_sets[number].count(JOKER)

    def played_entries(self, tile: Tile) -> dict[int, float]:
        """A played tile's entries beyond its tile row: the copies that free jokers, and
        the copies counted as the rack's, come out of it."""
        entries = {}
        for row in (
            self.cap.get(tile),
            (self.rack_count or {}).get(tile),
            (self.real or {}).get(tile),
        ):
            if row is not None:
                entries[row] = -1.0
        return entries

    def entered_tiles(self) -> set[Tile]:
        """The tiles whose played copies have entries beyond their tile row (a few: the
        jokers' tiles, and pieces of hosts)."""
        return self.cap.keys() | (self.rack_count or {}).keys() | (self.real or {}).keys()

    def kept_entries(self, number: int, tiles: TileRow) -> dict[int, float]:
        """A kept table set's entries beyond its tiles': its choice or lock, its real tiles."""
        entries: dict[int, float] = {}
        for row in (self.choice.get(number), self.alone.get(number), self.lock.get(number)):
            if row is not None:
                entries[row] = 1.0
        if self.real is not None:
            for t in tiles:
                if (row := self.real.get(t)) is not None:
                    entries[row] = entries.get(row, 0.0) + 1.0
        return entries

    def add_columns(self, columns: Columns, stay_rows: Sequence[Sequence[int]] = ()) -> None:
        """The joker part's columns; pinned, each instance's staying column takes -1 in
        each of its `stay_rows` (pinned.add_stay_rows), entered here, not merged after."""
        plan = self.plan
        stay_rows = stay_rows or [()] * len(plan.instances)
        reading_column = {}
        readings = 0
        for js in plan.joker_sets:
            for r in range(len(js.readings)):
                # Joker set js takes reading r (pinned: its jokers that no rack tile frees
                # stay, each standing for its tile, anywhere).
                entries = {self.choice[js.number]: 1.0}
                staying = []
                for i, inst in enumerate(plan.instances):
                    if inst.set_number == js.number and inst.reading == r:
                        if i in self.instance:
                            entries[self.instance[i]] = -float(inst.copies)
                        else:
                            assert inst.role is not None
                            entries[JOKER_ROW] = entries.get(JOKER_ROW, 0.0) + 1.0
                            entries[TILE_INDEX[inst.role]] = -1.0
                            staying.append(i)
                entries |= {row: -1.0 for i in staying for row in stay_rows[i]}
                columns.add(1, 0.0, entries)
                reading_column[js.number, r] = readings
                readings += 1
        start = columns.count
        for i in self.freeable:
            # Instance i is freed by a copy of its tile from the rack.
            role = plan.instances[i].role
            assert role is not None
            entries = {self.instance[i]: 1.0, self.cap[role]: 1.0}
            if self.freed_total is not None:
                entries[self.freed_total] = -1.0
            columns.add(1, 0.0, entries)
        freed_columns = range(start, columns.count)
        stays: list[int] = []
        if plan.pinned:
            stays = [reading_column[i.set_number, i.reading] for i in plan.instances]
            for k, i in enumerate(self.freeable):
                # Instance i stays: a joker on the table standing for its tile, anywhere.
                role = plan.instances[i].role
                assert role is not None
                entries = {self.instance[i]: 1.0, JOKER_ROW: 1.0, TILE_INDEX[role]: -1.0}
                columns.add(1, 0.0, entries | dict.fromkeys(stay_rows[i], -1.0))
                stays[i] = readings + len(self.freeable) + k
        for n, host in enumerate(plan.hosts):
            # Thousands of hosts (STRICT) take tens of milliseconds: the deadline holds.
            if self.deadline is not None and self.deadline.passed():
                raise OutOfTime
            self.fills.append(self._add_host(columns, n, host))
        self.layout = JokerLayout(
            plan, readings, self.freeable, self.fills, tuple(stays), freed_columns
        )

    def _add_host(self, columns: Columns, n: int, host: Host) -> list[tuple[Tile, str]]:
        """One host's columns: its copy; if freeing, its freed jokers and its fills."""
        entries: dict[int, float] = {}
        for i, _ in host.jokers:
            entries[self.instance[i]] = entries.get(self.instance[i], 0.0) + 1.0
        entries[JOKER_ROW] = float(len(host.jokers))
        for s, t in host.held:
            entries[TILE_INDEX[t]] = 1.0
            if (s, t) in self.anchor:
                entries[self.anchor[s, t]] = 1.0
            if self.real is not None:
                entries[self.real[t]] = 1.0
        # A locked set lies here whole: its real tiles held, its jokers (a set of jokers
        # alone has only these) here.
        instances = self.plan.instances
        for s in {s for s, _ in host.held} | {instances[i].set_number for i, _ in host.jokers}:
            if s in self.lock:
                entries[self.lock[s]] = 1.0
        if not host.freeing:
            # A core: its free places are filled as the pieces' are.
            for t in host.free_places:
                entries[TILE_INDEX[t]] = 1.0
            columns.add(1, 0.0, entries)
            return []
        place, rackish, room = self.place[n], self.rackish[n], self.room[n]
        entries |= {row: -1.0 for row in place.values()} | {rackish: 2.0}
        columns.add(1, 0.0, entries)
        # Freed jokers in the copy.
        assert (
            self.freed_total is not None and self.real is not None and self.rack_count is not None
        )
        columns.add(len(host.free_places), 0.0, {self.freed_total: 1.0, rackish: 1.0, room: 1.0})
        fills = []
        for t in host.free_places:
            index = TILE_INDEX[t]
            if not host.rack_only:
                # A real tile at t (the table's copy, or the rack's not counted as such).
                columns.add(1, 0.0, {place[t]: 1.0, index: 1.0, self.real[t]: 1.0})
                fills.append((t, "real"))
            if t in self.rack_count:
                # The rack's copy of t, counted towards the two.
                entries = {place[t]: 1.0, index: 1.0, self.real[t]: 1.0}
                columns.add(1, 0.0, entries | {self.rack_count[t]: 1.0, rackish: -1.0})
                fills.append((t, "rack"))
            # A loose joker at t: from the rack, or freed.
            columns.add(1, 0.0, {place[t]: 1.0, JOKER_ROW: 1.0, rackish: -1.0, room: -1.0})
            fills.append((t, "joker"))
        return fills
