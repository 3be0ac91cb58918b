"""`python -m rummisolve` runs the command line."""

from .cli import main

main()
