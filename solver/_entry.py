"""The `rummisolve` command's first moment. INT and TERM are held (blocked) from here
until the command's own handler is in place (`cli.app.main`): one that comes while the
libraries load (numpy, the solvers: a fifth of a second) then ends the command as at
any later time, with "interrupted" and its status, not "Aborted!" or a plain kill.
Before this line run only Python's start-up, the script that calls `main` and the
package's `__init__` (which imports nothing): a signal then is Python's to take.

The command runs with one BLAS thread unless the environment names a count
(`startup.one_blas_thread`).

When the command is done, every object it has is frozen (`gc.freeze`): the collections
that Python runs as it exits would otherwise walk all that the imports made (numpy,
click, the engine), to no use in a process that is ending: ~18 ms of a 170 ms `hint`
(benchmarks/README.md, section 7).
"""

import signal

if hasattr(signal, "pthread_sigmask"):
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})

import gc
import sys

from .startup import loading, one_blas_thread


def main() -> None:
    if sys.stdout is None:  # started with its output closed (`>&-`)
        sys.stderr.write("Error: cannot write the output: standard output is closed\n")
        raise SystemExit(1)
    one_blas_thread()
    with loading():
        from .cli import main as run
    try:
        run()
    finally:
        gc.freeze()
