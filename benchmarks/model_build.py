"""The model builder before and after a change, side by side: the same models, the same
moves, and the time to build and solve.

Boards dealt by `rummisolve generate` (fixed seeds, several sizes and joker counts) and
the shipped `puzzles/`, each under `official` and `casual`, are asked of two engines at
once: this checkout's and an older one (`--old PATH`, that checkout's `solver/`), each
in a worker process of its own (old_side.py), taking turns. For every board both must
answer `hint --json` with the same table, jokers, tiles, points and status, and build
the same integer programs (the whole model and, where the rules on jokers bind under
STRICT, the pinned one and the one with homes), array for array. On the first
`--timed` boards of each deal each side also times the model's building and
`find_move` (build and solve), `--repeat` times (medians kept).

    mkdir /tmp/before && git archive <commit> solver | tar -x -C /tmp/before
    python benchmarks/model_build.py --old /tmp/before/solver
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import old_side
from common import REPO, median, results_option

NAME = "model-build"
RULES = ("official", "casual")
# Each deal: `rummisolve generate` options (all with --count and --seed given here).
DEALS = {
    "dealt": [],
    "large, 2-4 jokers": ["--jokers", "2-4", "--table-tiles", "60-100", "--tile-set", "160"],
    "mid, 1-2 jokers": ["--jokers", "1-2", "--table-tiles", "30-60"],
    "unopened": ["--not-opened"],
}
MOVE_FIELDS = ("table", "stand_for", "tiles_played", "value_played", "status")


def serve(args: argparse.Namespace) -> int:
    """One side: for each `{"text", "rules", "timed"}` asked, the move's fields, a digest
    of the models built, and (timed) the medians."""
    import dataclasses
    import json
    from inspect import signature

    from click.testing import CliRunner

    from rummisolve.board import parse_board
    from rummisolve.cli.app import cli
    from rummisolve.engine import homes, solve

    try:  # the solve's stages, where the model is built (before them: solve._model)
        from rummisolve.engine.stages import model_for
    except ImportError:
        model_for = solve._model  # type: ignore[attr-defined]
    from rummisolve.engine.joker_model import JokerPart
    from rummisolve.engine.model import build_model, jokers_bind
    from rummisolve.move import Objective
    from rummisolve.rules import JokerRetrieval, profile_rules

    runner = CliRunner()

    def models(board: Any) -> list[Any]:
        built = [build_model(board, Objective.TILES)[0]]
        binds = jokers_bind(board)
        if binds and board.rules.joker_retrieval is JokerRetrieval.STRICT:
            mip, layout = model_for(board, Objective.TILES, JokerPart.PINNED, None)
            built.append(mip)
            # Before the builder's groups, with_homes took the pinned model too.
            given = (mip, layout) if "mip" in signature(homes.with_homes).parameters else (layout,)
            add_homes: Any = homes.with_homes
            applies = getattr(homes, "applies", lambda _: True)  # before wraparound homes
            with_homes = add_homes(*given, board) if applies(board) else None
            if with_homes is not None:
                built.append(with_homes[0])
        return built

    def digest(mips: list[Any]) -> str:
        hashed = hashlib.sha256()
        for mip in mips:
            for field in dataclasses.fields(mip):
                value = getattr(mip, field.name)
                hashed.update(
                    value.tobytes() if hasattr(value, "tobytes") else repr(value).encode()
                )
        return hashed.hexdigest()

    def answer(asked: dict[str, Any]) -> dict[str, Any]:
        # The profile's rules in the board's box (the large deal's is the 160-tile set).
        board = parse_board(asked["text"])
        tile_set = int(board.rules.tile_set)
        rules = profile_rules(asked["rules"]).replace(tile_set=board.rules.tile_set)
        board = dataclasses.replace(board, rules=rules)
        command = ["hint", "-", "--json", "--rules", asked["rules"], "--tile-set", str(tile_set)]
        result = runner.invoke(cli, command, input=asked["text"])
        if result.exit_code != 0:  # a puzzle that another profile's rules refuse
            return {"error": result.output}
        found = json.loads(result.output)
        reply: dict[str, Any] = {
            "move": {k: found[k] for k in MOVE_FIELDS},
            "models": digest(models(board)),
        }
        if asked["timed"]:
            builds, solves = [], []
            for _ in range(args.repeat):
                started = time.perf_counter()
                models(board)
                builds.append(time.perf_counter() - started)
                started = time.perf_counter()
                solve.find_move(board)
                solves.append(time.perf_counter() - started)
            reply |= {"build_s": median(builds), "find_move_s": median(solves)}
        return reply

    return old_side.serve(answer)


def boards(count: int, seed: int) -> dict[str, list[str]]:
    """Each deal's board texts, and the puzzles'."""
    dealt = {}
    with tempfile.TemporaryDirectory(prefix="model-build-") as folder:
        for n, (deal, words) in enumerate(DEALS.items()):
            out = Path(folder) / str(n)
            command = ["generate", "--count", str(count), "--seed", str(seed), "--out", str(out)]
            subprocess.run([sys.executable, "-m", "rummisolve", *command, *words], check=True)
            dealt[deal] = [p.read_text() for p in sorted(out.glob("*.txt"))]
    dealt["puzzles"] = [p.read_text() for p in sorted((REPO / "puzzles").rglob("*.txt"))]
    return dealt


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    timed = [r for r in rows if "after_build_s" in r]
    figures: dict[str, Any] = {"boards": len(rows), "timed": len(timed)}
    for what in ("build_s", "find_move_s"):
        if timed:
            ratios = [r[f"after_{what}"] / r[f"before_{what}"] for r in timed]
            figures[f"{what[:-2]}_ratio_median"] = round(median(ratios), 3)
            for side in ("before", "after"):
                total = sum(r[f"{side}_{what}"] for r in timed)
                figures[f"{side}_{what[:-2]}_total_s"] = round(total, 4)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, metavar="PATH", help="an older checkout's solver/")
    parser.add_argument("--count", type=int, default=300, help="boards per deal")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--timed", type=int, default=50, help="boards timed per deal")
    parser.add_argument("--repeat", type=int, default=3)
    results_option(parser)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        return serve(args)
    if args.old is None or not (args.old / "__init__.py").is_file():
        parser.error("--old: an older checkout's solver/ folder")
    words = ["--repeat", str(args.repeat)]
    sides = {
        "before": old_side.Worker("before", args.old, __file__, *words),
        "after": old_side.Worker("after", None, __file__, *words),
    }
    questions = {
        f"{deal}, {rules}": [
            {"text": text, "rules": rules, "timed": n < args.timed} for n, text in enumerate(texts)
        ]
        for deal, texts in boards(args.count, args.seed).items()
        for rules in RULES
    }

    def row(group: str, position: int, replies: old_side.Answers) -> dict[str, Any]:
        before, after = replies["before"], replies["after"]
        for what in ("error", "move", "models"):
            if before.get(what) != after.get(what):
                raise SystemExit(f"{group} {position}: {what} {before} != {after}")
        found: dict[str, Any] = {"group": group, "position": position}
        for side, reply in replies.items():
            for what in ("build_s", "find_move_s"):
                if what in reply:
                    found[f"{side}_{what}"] = reply[what]
        return found

    return old_side.in_turn(NAME, args.old, args.results, sides, questions, row, summary)


if __name__ == "__main__":
    raise SystemExit(main())
