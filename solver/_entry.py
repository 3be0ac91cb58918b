"""The `rummisolve` command's first moment: Ctrl-C while the libraries load (numpy,
the solvers: a fifth of a second) is `interrupted`, like Ctrl-C at any later time.

OpenBLAS (numpy's, and CLP's) starts a thread for each core as it loads, and they spin a
while; the command's arrays are far too small to share out, and a batch runs one worker
a core. So the command runs with one BLAS thread, unless the environment names a count:
a `hint` took 441 -> 388 ms on 2 cores (benchmarks/README.md, section 7).

When the command is done, every object it has is frozen (`gc.freeze`): the collections
that Python runs as it exits would otherwise walk all that the imports made (numpy,
click, the engine), to no use in a process that is ending: ~18 ms of a 170 ms `hint`
(section 7).
"""

import gc
import os
import sys

from .startup import BLAS_THREADS, loading


def main() -> None:
    if sys.stdout is None:  # started with its output closed (`>&-`)
        sys.stderr.write("Error: cannot write the output: standard output is closed\n")
        raise SystemExit(1)
    if not any(name in os.environ for name in BLAS_THREADS):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        with loading():
            from .cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted\n")
        raise SystemExit(130) from None
    try:
        run()
    finally:
        gc.freeze()
