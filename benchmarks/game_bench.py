"""How long a whole game takes, and how many solver calls it makes (issue 5: a
4-player game should take well under 5 seconds).

    python benchmarks/game_bench.py --players 4 --seeds 7

One JSON line per game (seeded 1..N, so the same run gives the same games), then one
summary line with the medians and maxima over the games. Every move of every game
passes `check_move` on the way, as in `rummisolve play`.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
from typing import Any

from rummisolve.engine.backends import BACKENDS, DEFAULT_BACKEND
from rummisolve.game import (
    STRATEGIES,
    GameOptions,
    GameRecord,
    make_seats,
    play_game,
    strategy_named,
    tile_set_for,
)
from rummisolve.rules import Rules


def game_line(record: GameRecord, players: int, strategy: str) -> dict[str, Any]:
    return {
        "seed": record.seed,
        "players": players,
        "strategy": strategy,
        "end": record.end.value,
        "turns": record.turns,
        "solver_calls": record.solver_calls,
        "seconds": round(record.seconds, 3),
        "solver_seconds": round(record.solver_seconds, 3),
        "ms_per_call": round(1000 * record.solver_seconds / max(record.solver_calls, 1), 2),
    }


def summary_line(lines: list[dict[str, Any]]) -> dict[str, Any]:
    def median(key: str) -> float:
        return round(statistics.median(line[key] for line in lines), 3)

    return {
        "summary": True,
        "games": len(lines),
        "median_seconds": median("seconds"),
        "max_seconds": max(line["seconds"] for line in lines),
        "median_solver_calls": median("solver_calls"),
        "max_solver_calls": max(line["solver_calls"] for line in lines),
        "median_turns": median("turns"),
        "median_ms_per_call": median("ms_per_call"),
        "python": platform.python_version(),
        "processor": platform.processor() or platform.machine(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7))
    parser.add_argument("--seeds", type=int, default=7, help="games, seeded 1..N")
    parser.add_argument("--strategy", default="greedy", help=", ".join(STRATEGIES))
    parser.add_argument("--backend", default=DEFAULT_BACKEND, choices=sorted(BACKENDS))
    args = parser.parse_args()
    strategies = [strategy_named(name) for name in args.strategy.split(",")]
    seats = make_seats(strategies, args.players)
    options = GameOptions(rules=Rules(tile_set=tile_set_for(args.players)), backend=args.backend)
    lines = []
    for seed in range(1, args.seeds + 1):
        line = game_line(play_game(seats, options, seed), args.players, args.strategy)
        print(json.dumps(line), flush=True)
        lines.append(line)
    print(json.dumps(summary_line(lines)))


if __name__ == "__main__":
    main()
