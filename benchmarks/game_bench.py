"""How long a whole game takes, and how many solver calls it makes (issue 5: a
4-player game should take well under 5 seconds); with `--old`, side by side with an
older checkout (issue 14: games per second twice an older commit's).

    python benchmarks/game_bench.py --players 4 6 --seeds 7
    python benchmarks/game_bench.py --players 4 6 --seeds 7 --old /path/to/old/solver

For each number of players, games seeded 1..N (the same run gives the same games): one
row per game in results/game-bench.jsonl, and the medians and maxima over each number
of players' games in results/game-bench-summary.json. Every move of every game passes
`check_move` on the way, as in `rummisolve play`.

`--old PATH` names an older checkout's package folder (its `solver/`). Then each side
plays in a process of its own (the older one imports `rummisolve` from PATH through a
folder holding only a link to it), the two take each game in turn, which one goes first
alternating, and each game is timed the same way on both sides: the wall clock around
`play_game`, which checks every move. The summary gives each side's games per second
and their ratio. The two sides may break ties between equal moves differently, so
their games may part ways: the rows say where they ended.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import old_side
from common import finished, header, median, paired_ratio, results_option, write_results

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


def options_for(players: int, backend: str) -> GameOptions:
    return GameOptions(rules=Rules(tile_set=tile_set_for(players)), backend=backend)


def serve(args: argparse.Namespace) -> int:
    """One side of `--old`: a game for each `{"players", "seed"}` asked, its row."""
    strategies = [strategy_named(name) for name in args.strategy.split(",")]

    def game(question: dict[str, int]) -> dict[str, Any]:
        players = question["players"]
        started = time.perf_counter()
        record = play_game(
            make_seats(strategies, players), options_for(players, args.backend), question["seed"]
        )
        seconds = time.perf_counter() - started
        return {**game_line(record, players, args.strategy), "wall_seconds": seconds}

    return old_side.serve(game)


def side_by_side(args: argparse.Namespace) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Both sides, game by game in turn: each side's figures, and the ratio of games/s."""
    words = ["--backend", args.backend, "--strategy", args.strategy]
    sides = [
        old_side.Worker("new", None, __file__, *words),
        old_side.Worker("old", args.old, __file__, *words),
    ]
    rows: list[dict[str, Any]] = []
    by_players: dict[str, Any] = {}
    try:
        for players in args.players:
            for side in sides:  # each side's first game builds its caches: not measured
                side.ask({"players": players, "seed": args.seeds + 1})
            for seed in range(1, args.seeds + 1):
                order = sides if seed % 2 else sides[::-1]
                for side in order:
                    row = {"side": side.name, **side.ask({"players": players, "seed": seed})}
                    print(json.dumps(row), flush=True)
                    rows.append(row)
            figures = {}
            for side in sides:
                lines = [r for r in rows if r["side"] == side.name and r["players"] == players]
                total = sum(r["wall_seconds"] for r in lines)
                figures[side.name] = {**summary(lines), "games_per_second": len(lines) / total}
            ratio = figures["new"]["games_per_second"] / figures["old"]["games_per_second"]
            walls = {
                side.name: [
                    r["wall_seconds"]
                    for r in rows
                    if r["side"] == side.name and r["players"] == players
                ]
                for side in sides
            }
            by_players[str(players)] = {
                "tile_set": tile_set_for(players),
                **figures,
                "games_per_second_new_over_old": round(ratio, 3),
                # Game by game (the same seed on both sides): below 1 is faster.
                "seconds_a_game_new_over_old": paired_ratio(walls["new"], walls["old"]),
            }
    finally:
        for side in sides:
            side.close()
    return {"old": str(args.old), "players": by_players}, rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--players", type=int, nargs="+", default=[4, 6], choices=range(2, 7), metavar="N"
    )
    parser.add_argument("--seeds", type=int, default=7, help="games, seeded 1..N")
    parser.add_argument("--strategy", default="greedy", help=", ".join(STRATEGIES))
    parser.add_argument("--backend", default=DEFAULT_BACKEND, choices=sorted(BACKENDS))
    parser.add_argument(
        "--old", type=Path, metavar="PATH", help="an older checkout's solver/: side by side"
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    results_option(parser)
    args = parser.parse_args(argv)
    if args.serve:
        return serve(args)
    started = header("game-bench")
    if args.old is not None:
        figures, rows = side_by_side(args)
        result = finished(started, {"strategy": args.strategy, **figures})
    else:
        strategies = [strategy_named(name) for name in args.strategy.split(",")]
        rows, by_players = [], {}
        for players in args.players:
            seats = make_seats(strategies, players)
            options = options_for(players, args.backend)
            lines = []
            for seed in range(1, args.seeds + 1):
                line = game_line(play_game(seats, options, seed), players, args.strategy)
                print(json.dumps(line), flush=True)
                lines.append(line)
            rows.extend(lines)
            by_players[str(players)] = {"tile_set": tile_set_for(players), **summary(lines)}
        result = finished(started, {"strategy": args.strategy, "players": by_players})
    write_results(args.results, result, rows)
    print(json.dumps(result["players"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
