"""Loaded first in the fork server that starts worker processes, before numpy: its BLAS
library starts threads as it loads, and a process with threads must not fork (Python
3.12 warns, 3.14 no longer forks by default). A top-level module, so that loading it
loads nothing else of the package."""

from .startup import one_blas_thread

one_blas_thread(whatever_named=True)
