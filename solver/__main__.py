"""`python -m rummisolve` runs the command line."""

from ._entry import main

main()
