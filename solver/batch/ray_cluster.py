"""This process on a Ray cluster: joining one (or starting one on this machine, on
127.0.0.1 alone), and leaving it with every process a cluster started here stopped.

This module imports Ray: only `--ray` loads it.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import signal
import socket
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any

import psutil
import ray
from ray._private import ray_constants
from ray._private import worker as ray_worker

from .pool import BatchError


@dataclass
class Connection:
    """This process on a Ray cluster: whether `connect` joined it (and so `close` leaves
    it), and the processes that started a cluster here (and so are stopped with it)."""

    joined: bool
    started: frozenset[int] = frozenset()

    def close(self) -> None:
        """Leave the cluster; one started here stops, every process of it before this
        returns (Ray would leave its agents running for a minute or two after an interrupted
        start)."""
        if not self.joined:
            return
        self.joined = False
        cluster = _with_descendants(self.started)
        ray.shutdown()
        _stop(cluster)


def connect(address: str, cpus: int | None = None) -> Connection:
    """Join the Ray cluster at `address` (`auto`: the one running on this machine, `local`:
    a new one on this machine, listening on 127.0.0.1 alone, of `cpus` CPUs or all), unless
    this process already has."""
    if (unreachable := _unreachable(address)) is not None:
        raise BatchError(f"--ray {address}: cannot reach a Ray cluster: {unreachable}")
    _cluster_errors_to_stderr()
    if ray.is_initialized():
        return Connection(joined=False)
    quiet: dict[str, Any] = {
        "include_dashboard": False,
        "log_to_driver": False,
        "logging_level": logging.ERROR,
    }
    try:
        with _own_signals(), _on_loopback(_on_this_machine(address)):
            if address != "local":
                ray.init(address=address, **quiet)
                return Connection(joined=True)
            os.environ["RAY_USAGE_STATS_ENABLED"] = "0"  # read by the cluster's processes
            before = _children()
            try:
                ray.init(address="local", _node_ip_address=LOOPBACK, num_cpus=cpus, **quiet)
            except BaseException:
                Connection(True, _children() - before).close()
                raise
            return Connection(True, _children() - before)
    except Exception as error:  # Ray's own, of many kinds: "timed out during startup"...
        what = "cannot start a Ray cluster" if address == "local" else "cannot reach a Ray cluster"
        text = str(error).strip()
        first_line = text.splitlines()[0] if text else type(error).__name__
        raise BatchError(f"--ray {address}: {what}: {first_line}") from None


@contextmanager
def _own_signals() -> Iterator[None]:
    """Ray sets a TERM handler of its own as it starts, one that exits at once (status 15,
    or 1): this process's handlers are put back after, and a TERM that Ray's took meanwhile
    goes to this process's own again (Ctrl-C's handler Ray leaves alone)."""
    handlers = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}

    def restore() -> None:
        for number, handler in handlers.items():
            signal.signal(number, handler)

    try:
        yield
    except SystemExit:  # Ray's TERM handler; ray.init exits for nothing else
        restore()
        signal.raise_signal(signal.SIGTERM)
        raise
    finally:
        restore()


LOOPBACK = "127.0.0.1"


@contextmanager
def _on_loopback(on: bool) -> Iterator[None]:
    """A cluster on this machine (`on`) is started, or joined, on 127.0.0.1 alone.

    Ray turns an address of 127.0.0.1 into the machine's external one (for other machines
    to join), and a node's servers then listen on every address. Where it holds a cluster
    to be one machine's (macOS, Windows: clusters off), it keeps 127.0.0.1, and every
    server listens there alone. Clusters are off meanwhile (the switch,
    RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER, is read as Ray is imported: hence its constant).
    """
    clusters = ray_constants.ENABLE_RAY_CLUSTER
    ray_constants.ENABLE_RAY_CLUSTER = clusters and not on
    try:
        yield
    finally:
        ray_constants.ENABLE_RAY_CLUSTER = clusters


def _on_this_machine(address: str) -> bool:
    """Whether `address` names a cluster on this machine: `local`, `auto` (a cluster found
    here, which may listen on 127.0.0.1 alone), or a loopback address."""
    if address in ("local", "auto"):
        return True
    host = address.split("://")[-1].rpartition(":")[0].strip("[]")
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _children() -> frozenset[int]:
    return frozenset(child.pid for child in psutil.Process().children())


def _with_descendants(pids: frozenset[int]) -> list[psutil.Process]:
    """The processes `pids` and all theirs, those still running."""
    found = []
    for pid in pids:
        try:
            process = psutil.Process(pid)
            found += [process, *process.children(recursive=True)]
        except psutil.Error:  # ended meanwhile
            pass
    return found


# How long a process of the cluster has to end after TERM before it is killed.
STOP_SECONDS = 5.0


def _stop(processes: list[psutil.Process]) -> None:
    """End those of `processes` still running: TERM, then KILL to any that lingers."""
    running = [process for process in processes if process.is_running()]
    for process in running:
        with suppress(psutil.Error):
            process.terminate()
    _, lingering = psutil.wait_procs(running, timeout=STOP_SECONDS)
    for process in lingering:
        with suppress(psutil.Error):
            process.kill()
    psutil.wait_procs(lingering, timeout=STOP_SECONDS)


# How long the head's port may take to answer: Ray itself would retry for minutes.
CONNECT_SECONDS = 5.0


def _unreachable(address: str) -> str | None:
    """Why nothing answers at a `host:port` address (a cluster's head), if it does not."""
    if address in ("local", "auto") or "://" in address or ":" not in address:
        return None
    host, _, port = address.rpartition(":")
    if not port.isdigit():
        return None
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_SECONDS).close()
    except OSError as error:
        return f"nothing answers at {address} ({error.strerror or error})"
    return None


def _cluster_errors_to_stderr() -> None:
    """Ray prints the cluster's error messages ("a worker died...") on the driver's
    stdout, where they would fall between a batch's rows: they go to stderr instead.
    (Ray has no option for it; its listener looks the printer up on each message.)"""
    printer = ray_worker.print_to_stdstream
    if getattr(printer, "to_stderr", False):
        return

    def to_stderr(data: dict[str, Any], ignore_prefix: bool) -> None:
        printer({**data, "is_err": True}, ignore_prefix)

    to_stderr.to_stderr = True  # type: ignore[attr-defined]
    ray_worker.print_to_stdstream = to_stderr


def cluster_cpus() -> int:
    """The CPUs of the whole cluster: one actor each by default."""
    resources: Any = ray.cluster_resources  # untyped in Ray
    return max(1, int(resources().get("CPU", 1)))
