"""Our branch-and-bound over an LP engine's re-solves (lp.py's protocol), for small
models whose LP optimum is often integral already."""

from __future__ import annotations

import heapq
import itertools
import math
from typing import Any, NamedTuple

from ..errors import SolverError
from .builder import Floats, Mip
from .lp import INTEGRALITY_TOLERANCE, Deadline, Lp, LpEnd, Solution

# Nodes of our own branch-and-bound before HiGHS's MIP takes over, per LP engine: those
# that gave the lowest p99 on generated positions (CLP's nodes cost less: more of them).
# The figures that chose them, and the two below: benchmarks/README.md, "The figures
# behind the engine's settings".
NODE_LIMIT = {"highs": 100, "clp": 300}
# Rows past which a model's nodes are fewer (the whole STRICT model of a large table):
# a search there that does not close in a few dozen LPs does not close in a hundred.
LARGE_MODEL_ROWS = 1000
LARGE_MODEL_NODE_LIMIT = 25
# Relative margin on an LP bound before it prunes a node (objectives reach ~1e6).
PRUNE_TOLERANCE = 1e-7


class _Node(NamedTuple):
    """An open node: its column bounds, its parent's LP bound rounded down, and its
    parent's optimal basis, where its own LP starts (`parent`: which LP that was)."""

    lower: Floats
    upper: Floats
    ceiling: float
    depth: int
    basis: object = None
    parent: int = 0


class Branching:
    """Branch-and-bound over LP re-solves, for at most NODE_LIMIT nodes.

    Every cost is a whole number, so a node whose LP bound rounds down to the incumbent's
    value cannot improve on it. The search dives depth-first, down branch first, to a
    first solution; from then on each dive starts from the open node with the best bound.
    Diving down first alone found poor solutions first on hard positions, and then
    improved them one unit at a time (841 LPs where best-bound dives need far fewer).
    """

    def __init__(self, lp: Lp, mip: Mip, deadline: Deadline | None) -> None:
        """`deadline`: None, no time limit; one whose clock runs as a caller says stops
        the search at the node it chooses."""
        self.lp, self.mip, self.deadline = lp, mip, deadline
        self.node_limit = NODE_LIMIT[lp.engine]
        if mip.rows > LARGE_MODEL_ROWS:
            self.node_limit = min(self.node_limit, LARGE_MODEL_NODE_LIMIT)
        self.cost = mip.cost
        self.incumbent: Any = None
        # Only solutions better than the cutoff are sought (whole-number costs).
        self.best = self.floor = -float("inf") if mip.cutoff is None else mip.cutoff
        # While a solution reaching `mip.reach` is sought, nodes that cannot reach it but
        # could beat the cutoff wait here: searched only if no solution reaches it.
        self.waiting: list[_Node] = []
        if mip.reach is not None:
            self.best = max(self.best, mip.reach - 1)
        self.dive: list[_Node] = []
        # Open nodes off the dive, best bound first, then deepest (nearest a solution).
        self.queued: list[tuple[float, int, int, _Node]] = []
        self.queue_order = itertools.count()

    def queue(self, node: _Node) -> None:
        heapq.heappush(self.queued, (-node.ceiling, -node.depth, next(self.queue_order), node))

    def run(self) -> Solution | None:
        """The proved optimum, the best found when time ran out, or None when HiGHS's own
        MIP should take over: past the node limit, or an LP that ended unexpectedly."""
        import numpy as np

        self.dive.append(_Node(self.mip.lower, self.mip.upper, math.inf, 0))
        nodes = 0
        while self.dive or self.queued or self.unreached():
            node = self.dive.pop() if self.dive else heapq.heappop(self.queued)[-1]
            # Closed unsolved when its parent's bound cannot beat the best found since.
            if node.ceiling <= self.best:
                self.set_aside(node)
                continue
            if nodes == self.node_limit:
                return None
            if not self.time_left():
                return self.stopped()
            if nodes:
                self.lp.bound(node.lower, node.upper)
                # From the parent's optimum, not the last LP's (another branch, after a
                # solution or a pruned node): 10-15% fewer dual iterations in all.
                if node.parent != nodes and node.basis is not None:
                    self.lp.restore(node.basis)
            nodes += 1
            end = self.lp.solve(self.remaining())
            if end is LpEnd.INFEASIBLE:
                continue
            if end is not LpEnd.OPTIMAL:
                return self.stopped() if not self.time_left() else None
            bound = self.lp.objective()
            # Whole-number costs: a bound that rounds down to the best found cannot beat it
            # (the margin keeps an LP's rounding error from pruning a better node).
            ceiling = math.floor(bound + PRUNE_TOLERANCE * max(1.0, abs(bound)))
            if ceiling <= self.best:
                if self.reaching():  # its optimal basis kept: solved again from there
                    self.set_aside(node._replace(ceiling=ceiling, basis=self.lp.basis(), parent=-1))
                continue
            values = self.lp.values()
            rounded = np.rint(values)
            fraction = np.abs(values - rounded)
            if fraction.max() < INTEGRALITY_TOLERANCE:
                self.incumbent = rounded
                self.best = float(self.cost @ self.incumbent)
                # A solution ends the dive: the next starts from the best bound.
                for waiting in self.dive:
                    self.queue(waiting)
                self.dive.clear()
                continue
            # Branch on the fractional column that weighs most in the objective, down first.
            j = int(
                np.argmax(np.where(fraction >= INTEGRALITY_TOLERANCE, self.cost + fraction, -1))
            )
            raised, lowered = node.lower.copy(), node.upper.copy()
            raised[j], lowered[j] = np.ceil(values[j]), np.floor(values[j])
            basis, depth = self.lp.basis(), node.depth + 1
            up = _Node(raised, node.upper, ceiling, depth, basis, nodes)
            if self.incumbent is None:
                self.dive.append(up)
            else:
                self.queue(up)
            self.dive.append(_Node(node.lower, lowered, ceiling, depth, basis, nodes))
        if self.incumbent is None:
            if self.mip.cutoff is not None:  # proved: nothing beats the cutoff
                return Solution(None, proved=True)
            raise SolverError("the LP found the position infeasible (a bug in the model)")
        return Solution(self.incumbent, proved=True)

    def reaching(self) -> bool:
        """Whether a solution reaching `mip.reach` is still sought (none found yet)."""
        return self.incumbent is None and self.best > self.floor

    def set_aside(self, node: _Node) -> None:
        """Keep a node that cannot reach `mip.reach` but could beat the cutoff, while no
        solution reaches it."""
        if node.ceiling > self.floor and self.reaching():
            self.waiting.append(node)

    def unreached(self) -> bool:
        """Whether the search for a solution reaching `mip.reach` ended without one: then
        the nodes set aside are searched, for the best solution there is."""
        if not self.waiting or self.incumbent is not None:
            return False
        self.best = self.floor
        for node in self.waiting:
            self.queue(node)
        self.waiting.clear()
        return True

    def time_left(self) -> bool:
        return self.deadline is None or not self.deadline.passed()

    def remaining(self) -> float:
        return float("inf") if self.deadline is None else self.deadline.left()

    def stopped(self) -> Solution:
        return Solution(self.incumbent, proved=False)
