"""`rummisolve serve` under a bounded load: latency (p50, p99) and the share of 503s,
this checkout's server against an older commit's, side by side in one run.

    python benchmarks/serve_load.py                  # against --old c6dead4
    python benchmarks/serve_load.py --old COMMIT --rounds 2

Each side's server is started on 127.0.0.1 and a free port and stopped with Ctrl-C's
signal; all traffic goes there, a bounded number of requests. A round per side:

- steady: a few clients, one request at a time each, a slow board in four, and
  clients that post a slow board and leave at once (a phone that lost its network);
- burst: many connections at once, each a trivial board.

The older side's code is taken from git as `pool_compare.py` takes it; this side's is
what `rummisolve` imports here (PYTHONPATH as set).
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from common import finished, header, percentile, results_option, write_results
from old_side import environment
from pool_compare import commit_of, old_package

TRIVIAL = "table:\nR1 R2 R3\nrack: R4\n"
# A board of about a second and a half: the fourth of these (issue 6's deal).
DEAL = "--seed 301 --count 4 --table-tiles 90-140 --rack-tiles 10-20 --jokers 4 --wraparound"


def slow_board(folder: Path) -> str:
    command = [sys.executable, "-m", "rummisolve", "generate", *DEAL.split(), "--tile-set", "160"]
    subprocess.run([*command, "--out", str(folder)], check=True, capture_output=True)
    return (folder / "gen-00004.txt").read_text(encoding="utf-8")


@contextmanager
def server(env: dict[str, str]) -> Iterator[tuple[str, int]]:
    """`rummisolve serve --port 0` under `env`: its host and port until the block ends."""
    process = subprocess.Popen(
        [sys.executable, "-m", "rummisolve", "serve", "--host", "127.0.0.1", "--port", "0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], 60)
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", process.stdout.readline() if ready else "")
        if found is None:
            raise SystemExit("serve did not start")
        yield "127.0.0.1", int(found.group(1))
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def post(host: str, port: int, board: str) -> tuple[int, float]:
    """The status of a POST /api/hint (0: no answer) and its seconds."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection(host, port, timeout=120)
    try:
        body = json.dumps({"board": board})
        connection.request("POST", "/api/hint", body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        status = response.status
    except OSError:
        status = 0
    finally:
        connection.close()
    return status, time.perf_counter() - started


def abandon(host: str, port: int, board: str) -> None:
    """Post the board and leave before the answer."""
    body = json.dumps({"board": board}).encode()
    head = (
        f"POST /api/hint HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    with socket.create_connection((host, port), timeout=10) as connection:
        connection.sendall(head.encode() + body)
        time.sleep(0.05)


def steady(host: str, port: int, slow: str, clients: int, requests: int) -> list[dict[str, Any]]:
    def client(number: int) -> list[dict[str, Any]]:
        rows = []
        for n in range(requests):
            if number == 0 and n % 2 == 0:
                abandon(host, port, slow)
                continue
            kind = "slow" if (number + n) % 4 == 0 else "trivial"
            status, seconds = post(host, port, slow if kind == "slow" else TRIVIAL)
            rows.append({"phase": "steady", "kind": kind, "status": status, "seconds": seconds})
        return rows

    with ThreadPoolExecutor(clients) as pool:
        return [row for rows in pool.map(client, range(clients)) for row in rows]


def burst(host: str, port: int, connections: int) -> list[dict[str, Any]]:
    with ThreadPoolExecutor(connections) as pool:
        answers = list(pool.map(lambda _: post(host, port, TRIVIAL), range(connections)))
    return [
        {"phase": "burst", "kind": "trivial", "status": status, "seconds": seconds}
        for status, seconds in answers
    ]


def figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def ms(kind: str, phase: str, p: float) -> float | None:
        times = [
            r["seconds"] for r in rows if (r["kind"], r["phase"], r["status"]) == (kind, phase, 200)
        ]
        return round(percentile(times, p) * 1000, 1) if times else None

    bursts = [r for r in rows if r["phase"] == "burst"]
    return {
        "steady_trivial_p50_ms": ms("trivial", "steady", 0.5),
        "steady_trivial_p99_ms": ms("trivial", "steady", 0.99),
        "steady_slow_p50_ms": ms("slow", "steady", 0.5),
        "steady_slow_p99_ms": ms("slow", "steady", 0.99),
        "burst_p50_ms": ms("trivial", "burst", 0.5),
        "burst_p99_ms": ms("trivial", "burst", 0.99),
        "burst_503_share": round(sum(r["status"] == 503 for r in bursts) / len(bursts), 3),
        "statuses": sorted({r["status"] for r in rows}),
        "answers": len(rows),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", default="c6dead4", help="the commit whose server to compare")
    parser.add_argument("--rounds", type=int, default=2, help="rounds per side, alternating")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--requests", type=int, default=8, help="per steady client")
    parser.add_argument("--burst", type=int, default=100, help="connections at once")
    results_option(parser)
    args = parser.parse_args()
    started = header("serve-load")
    started["old_commit"] = commit_of(args.old)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="serve-load-") as temp:
        slow = slow_board(Path(temp) / "boards")
        started["slow_board"] = f"generate {DEAL} --tile-set 160: the 4th"
        old_package(args.old, Path(temp))  # its solver/ lands in temp
        sides = {"new": environment(None), "old": environment(Path(temp) / "solver")}
        envs = {name: side.__enter__() for name, side in sides.items()}
        for round_number in range(args.rounds):
            for name in ("old", "new") if round_number % 2 == 0 else ("new", "old"):
                with server(envs[name]) as (host, port):
                    post(host, port, TRIVIAL)  # the first solve loads the solver
                    got = steady(host, port, slow, args.clients, args.requests)
                    got += burst(host, port, args.burst)
                rows += [{"side": name, "round": round_number, **row} for row in got]
                print(f"round {round_number} {name}: {figures(got)}", file=sys.stderr)
        for side in sides.values():
            side.__exit__(None, None, None)
    results = {name: figures([r for r in rows if r["side"] == name]) for name in ("old", "new")}
    print(json.dumps(results, indent=2))
    write_results(args.results, finished(started, {"sides": results}), rows)


if __name__ == "__main__":
    main()
