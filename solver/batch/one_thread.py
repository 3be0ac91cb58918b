"""Loaded first in the fork server that starts batch workers, before numpy: its BLAS
library starts threads as it loads, and a process with threads must not fork (Python
3.12 warns, 3.14 no longer forks by default). Our matrices are tiny: one thread is all
the workers want anyway."""

import os

for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[variable] = "1"
