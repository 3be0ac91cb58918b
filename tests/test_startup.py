"""What a process pays before and after its work (startup.py, _entry.py)."""

from __future__ import annotations

import gc
import subprocess
import sys

from rummisolve.startup import loading


def test_loading_freezes_what_it_made_and_leaves_the_collector_as_it_was() -> None:
    frozen = gc.get_freeze_count()
    for on in (True, False):
        (gc.enable if on else gc.disable)()
        try:
            with loading():
                assert not gc.isenabled()
                made: list[list[int]] = [[] for _ in range(1000)]
            assert gc.isenabled() is on
        finally:
            gc.enable()
    assert gc.get_freeze_count() >= frozen + len(made)


def test_the_command_exits_with_its_objects_frozen() -> None:
    """The collections Python runs as it exits would walk everything the imports made."""
    code = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print(len(gc.get_objects()), gc.get_freeze_count()))\n"
        "sys.argv = ['rummisolve', 'rules']\n"
        "from rummisolve._entry import main\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    # Left for the exit's collections: next to nothing (not a count of 0: Python 3.10
    # allocates a few objects on the way out); frozen: what the imports made.
    left, frozen = map(int, done.stdout.split()[-2:])
    assert left < 100 and frozen > 5000, (left, frozen)
