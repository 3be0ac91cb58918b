"""What a `rummisolve` process pays before and after its work, kept small (issue 14: a
whole `hint` within 1.5 times numpy's own import; benchmarks/README.md, section 7).

OpenBLAS, which numpy and CLP's library each link, starts a thread for each core as it
loads, and they spin a while; the engine's arrays are far too small to share out, and a
batch runs one worker a core. `one_blas_thread` is the one place that sets the thread
counts: the command and the CLP binding load with one thread unless the environment
names a count, and the workers' fork server always (`rummisolve.one_thread`).

Loading modules makes tens of thousands of objects (functions, classes, tables) that
live as long as the process, and no garbage: the cyclic collector, set off by every 700
new objects, ran some fifty times during a `hint`'s imports, to free nothing, and once
resumed it would walk them all again. So the command's modules load with it paused, and
what they made is then frozen (`gc.freeze`: left out of every later collection).
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager

# The thread counts of the BLAS and OpenMP libraries: OpenBLAS reads the first three in
# this order, MKL's numpy the last.
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def one_blas_thread(*, whatever_named: bool = False) -> list[str]:
    """Every BLAS library loaded from now on starts one thread, unless the environment
    names a count (the user's choice), or `whatever_named` (a process that will fork
    must have no threads). Returns the variables it set, for `blas_loading`."""
    if not whatever_named and any(name in os.environ for name in BLAS_THREADS):
        return []
    changed = [name for name in BLAS_THREADS if name not in os.environ]
    os.environ.update(dict.fromkeys(BLAS_THREADS, "1"))
    return changed


@contextmanager
def blas_loading() -> Iterator[None]:
    """A library that links BLAS loaded with one thread (`one_blas_thread`), and the
    environment as it was afterwards: a library's own import must not change it."""
    changed = one_blas_thread()
    try:
        yield
    finally:
        for name in changed:
            del os.environ[name]


@contextmanager
def loading() -> Iterator[None]:
    """Imports with the cyclic garbage collector paused; what they made is frozen, and
    the collector runs again as it was."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_on:
            gc.enable()
