"""Per player, over the turns reviewed: how often the turn laid as many tiles as it could,
and what it left on the rack against the best move.

What it measures is the most tiles a turn could have laid: a strategy that holds tiles
back on purpose (hoarder) shows its choices as misses. The figure, not a verdict.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .turns import Mark, TurnReview

MEASURE = (
    "Each turn against the most tiles it could have laid (points break ties):"
    " tiles held back on purpose count as missed. The figure, not a verdict."
)
# The biggest misses shown per player.
BIGGEST = 3


@dataclass(frozen=True)
class Miss:
    """A turn that laid fewer tiles than it could."""

    source: str
    game: int
    turn: int
    tiles: int

    def as_json(self) -> dict[str, Any]:
        return {"log": self.source, "game": self.game, "turn": self.turn, "tiles": self.tiles}


@dataclass(frozen=True)
class PlayerSummary:
    player: str
    turns: int
    best_turns: int
    tiles_missed: int
    points_missed: int
    could_have_gone_out: int
    not_proved: int
    biggest: tuple[Miss, ...]

    @property
    def best_share(self) -> float:
        return self.best_turns / self.turns if self.turns else 0.0

    @property
    def tiles_missed_per_turn(self) -> float:
        return self.tiles_missed / self.turns if self.turns else 0.0

    @property
    def points_missed_per_turn(self) -> float:
        return self.points_missed / self.turns if self.turns else 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "turns": self.turns,
            "best_turns": self.best_turns,
            "best_share": round(self.best_share, 4),
            "tiles_missed_per_turn": round(self.tiles_missed_per_turn, 4),
            "points_missed_per_turn": round(self.points_missed_per_turn, 4),
            "could_have_gone_out": self.could_have_gone_out,
            "not_proved": self.not_proved,
            "biggest_misses": [m.as_json() for m in self.biggest],
        }


def summarize(reviews: Iterable[TurnReview]) -> tuple[PlayerSummary, ...]:
    """Each player's figures, players by name."""
    by_player: dict[str, list[TurnReview]] = {}
    for review in reviews:
        by_player.setdefault(review.position.player, []).append(review)
    return tuple(_player(name, by_player[name]) for name in sorted(by_player))


def _player(name: str, turns: Sequence[TurnReview]) -> PlayerSummary:
    misses = [
        Miss(t.position.source, t.position.game, t.position.turn, t.tiles_missed)
        for t in turns
        if t.tiles_missed
    ]
    misses.sort(key=lambda m: -m.tiles)  # stable: the earliest of equal misses first
    return PlayerSummary(
        player=name,
        turns=len(turns),
        best_turns=sum(t.mark is Mark.BEST for t in turns),
        tiles_missed=sum(t.tiles_missed for t in turns),
        points_missed=sum(t.points_missed for t in turns),
        could_have_gone_out=sum(t.mark is Mark.OUT for t in turns),
        not_proved=sum(not t.proved for t in turns),
        biggest=tuple(misses[:BIGGEST]),
    )


def summary_json(players: Sequence[PlayerSummary], problems: int) -> dict[str, Any]:
    """The summary row of `review --json`."""
    return {
        "summary": {p.player: p.as_json() for p in players},
        "turns": sum(p.turns for p in players),
        "problems": problems,
        "measure": MEASURE,
    }
