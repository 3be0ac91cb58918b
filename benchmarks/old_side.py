"""An older checkout's code, run beside this one's: issue 14's figures are ratios to it.

An older package is imported from a folder holding only a link `rummisolve -> PATH`
(PATH: that checkout's `solver/`), put first on PYTHONPATH: it wins over the editable
install, which Python looks at later. It runs in a process of its own, which answers
one JSON line for each JSON line asked, so that a benchmark can take both sides in turn.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any


@contextlib.contextmanager
def environment(package: Path | None) -> Iterator[dict[str, str]]:
    """The environment of a process importing `rummisolve` from `package` (None: this
    checkout's, as installed)."""
    env = dict(os.environ)
    if package is None:
        yield env
        return
    with tempfile.TemporaryDirectory(prefix="rummisolve-old-") as folder:
        os.symlink(package.resolve(), Path(folder) / "rummisolve")
        env["PYTHONPATH"] = folder
        yield env


class Worker:
    """A process running `script --serve ...` under one side's code: a JSON line asked,
    a JSON line answered."""

    def __init__(self, name: str, package: Path | None, script: str, *words: str) -> None:
        self.name = name
        self._environment = environment(package)
        env = self._environment.__enter__()
        self.process = subprocess.Popen(
            [sys.executable, script, "--serve", *words],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def ask(self, question: dict[str, Any]) -> dict[str, Any]:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(json.dumps(question) + "\n")
        stdin.flush()
        answer = stdout.readline()
        if not answer:
            raise SystemExit(f"the {self.name} side stopped (its error is above)")
        found: dict[str, Any] = json.loads(answer)
        return found

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()
        self._environment.__exit__(None, None, None)


def serve(answer: Any) -> int:
    """A worker's loop: `answer(question)` for each JSON line read, written as one. The
    answers keep standard output to themselves: what solvers print there from C goes
    to the null device."""
    answers = os.fdopen(os.dup(1), "w")
    with open(os.devnull, "wb") as null:
        os.dup2(null.fileno(), 1)
    for line in sys.stdin:
        answers.write(json.dumps(answer(json.loads(line))) + "\n")
        answers.flush()
    return 0


Answers = dict[str, dict[str, Any]]


def in_turn(
    benchmark: str,
    old: Path,
    results: Path,
    sides: dict[str, Worker],
    questions: dict[str, list[dict[str, Any]]],
    row: Callable[[str, int, Answers], dict[str, Any]],
    summary: Callable[[list[dict[str, Any]]], dict[str, Any]],
    together: str | None = None,
) -> int:
    """Each group's questions asked of every side in turn (which goes first alternating,
    so that both meet the same load), a row made of each question's answers, a summary
    of each group's rows (and of the groups whose names start with `together`, as one);
    the workers stopped whatever happens, the results written."""
    from common import finished, header, write_results

    started = header(benchmark)
    rows: list[dict[str, Any]] = []
    summaries = {}
    try:
        for group, asked in questions.items():
            done = []
            for position, question in enumerate(asked):
                names = list(sides) if position % 2 == 0 else list(sides)[::-1]
                answers = {name: sides[name].ask(question) for name in names}
                done.append(row(group, position, answers))
            rows.extend(done)
            summaries[group] = summary(done)
            print(group, json.dumps(summaries[group]), file=sys.stderr)
    finally:
        for worker in sides.values():
            worker.close()
    if together is not None:
        summaries[together] = summary([r for r in rows if r["group"].startswith(together)])
    result = finished(started, {"old": str(old), "summaries": summaries})
    write_results(results, result, rows)
    print(json.dumps(result, indent=1))
    return 0
