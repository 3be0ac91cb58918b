"""The `rummisolve` command's first moment: Ctrl-C while the libraries load (numpy,
the solvers: a fifth of a second) is `interrupted`, like Ctrl-C at any later time."""

import sys


def main() -> None:
    if sys.stdout is None:  # started with its output closed (`>&-`)
        sys.stderr.write("Error: cannot write the output: standard output is closed\n")
        raise SystemExit(1)
    try:
        from .cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted\n")
        raise SystemExit(130) from None
    run()
