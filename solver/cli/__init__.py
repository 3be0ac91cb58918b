"""The command line: parse options, call the core, format what it returns.

The core raises named errors (`RummisolveError`); here each becomes a one-line
`click.ClickException`, exit status 1, never a traceback. One module per command or
pair of commands; `options` holds what they share, `tables` their reports, `interrupts`
Ctrl-C and broken pipes.
"""

from .app import cli, main

__all__ = ["cli", "main"]
