"""What a `rummisolve` process pays before and after its work, kept small (issue 14: a
whole `hint` within 1.5 times numpy's own import; benchmarks/README.md, section 7).

OpenBLAS, which numpy and CLP's library each link, starts a thread for each core as it
loads, and they spin a while: the command and the CLP binding load it with one thread,
unless the environment names a count (`BLAS_THREADS`).

Loading modules makes tens of thousands of objects (functions, classes, tables) that
live as long as the process, and no garbage: the cyclic collector, set off by every 700
new objects, ran some fifty times during a `hint`'s imports, to free nothing, and once
resumed it would walk them all again. So the command's modules load with it paused, and
what they made is then frozen (`gc.freeze`: left out of every later collection).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

# OpenBLAS's thread counts, in the order it reads them.
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


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
