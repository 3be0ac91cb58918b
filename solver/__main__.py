"""`python -m rummisolve` runs the command line.

Run so, CPython ends the process by SIGINT, whatever status the command gave, once a
`KeyboardInterrupt` has passed through code run from a string (a dataclass being made as
Ctrl-C comes, while a command loads), even one the command caught: `Py_RunMain` checks a
flag that `pymain_run_module` alone leaves set. So the status is given here, after the
clean-up that an exit runs (`atexit`), as a script's would be.
"""

import atexit
import os
import sys

from ._entry import main

try:
    main()
    status = 0
except SystemExit as end:
    if end.code is None or isinstance(end.code, int):
        status = end.code or 0
    else:
        sys.stderr.write(f"{end.code}\n")
        status = 1
atexit._run_exitfuncs()
for stream in (sys.stdout, sys.stderr):
    if stream is not None:
        try:
            stream.flush()
        except OSError:
            status = status or 1
os._exit(status)
