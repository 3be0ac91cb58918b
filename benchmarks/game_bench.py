"""How long a whole game takes, and how many solver calls it makes (issue 5: a
4-player game should take well under 5 seconds).

    python benchmarks/game_bench.py --players 4 6 --seeds 7

For each number of players, games seeded 1..N (the same run gives the same games): one
row per game in results/game-bench.jsonl, and the medians and maxima over each number
of players' games in results/game-bench-summary.json. Every move of every game passes
`check_move` on the way, as in `rummisolve play`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from common import finished, header, median, results_option, write_results

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


def summary(lines: list[dict[str, Any]]) -> dict[str, Any]:
    def typical(key: str) -> float:
        return round(median(line[key] for line in lines), 3)

    return {
        "games": len(lines),
        "median_seconds": typical("seconds"),
        "max_seconds": max(line["seconds"] for line in lines),
        "median_solver_calls": typical("solver_calls"),
        "max_solver_calls": max(line["solver_calls"] for line in lines),
        "median_turns": typical("turns"),
        "median_ms_per_call": typical("ms_per_call"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--players", type=int, nargs="+", default=[4, 6], choices=range(2, 7), metavar="N"
    )
    parser.add_argument("--seeds", type=int, default=7, help="games, seeded 1..N")
    parser.add_argument("--strategy", default="greedy", help=", ".join(STRATEGIES))
    parser.add_argument("--backend", default=DEFAULT_BACKEND, choices=sorted(BACKENDS))
    results_option(parser)
    args = parser.parse_args(argv)
    started = header("game-bench")
    strategies = [strategy_named(name) for name in args.strategy.split(",")]
    rows, by_players = [], {}
    for players in args.players:
        seats = make_seats(strategies, players)
        rules = Rules(tile_set=tile_set_for(players))
        options = GameOptions(rules=rules, backend=args.backend)
        lines = []
        for seed in range(1, args.seeds + 1):
            line = game_line(play_game(seats, options, seed), players, args.strategy)
            print(json.dumps(line), flush=True)
            lines.append(line)
        rows.extend(lines)
        by_players[str(players)] = {"tile_set": rules.tile_set, **summary(lines)}
    result = finished(started, {"strategy": args.strategy, "players": by_players})
    written = write_results(args.results, result, rows)
    print(json.dumps(result["players"]))
    print(f"wrote {' and '.join(map(str, written))}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
