"""The `rummisolve` command's first moment: Ctrl-C while the libraries load (numpy,
the solvers: a fifth of a second) is `interrupted`, like Ctrl-C at any later time."""

import sys


def main() -> None:
    try:
        from .cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted\n")
        raise SystemExit(130) from None
    run()
