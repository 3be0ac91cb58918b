"""A batch run: the solver started before the clock, then every board's row in order,
solved here or by worker processes."""

from __future__ import annotations

from collections.abc import Generator, Sequence

from ..engine.backends import get_backend
from .pool import Workers
from .rows import BatchSettings, BoardResult, solve_path


def prepare_batch(settings: BatchSettings, jobs: int) -> Workers | None:
    """Start the solver before a batch's clock starts: in this process (None), or in
    `jobs` worker processes, returned once every one of them is ready to solve."""
    if jobs <= 1:
        get_backend(settings.backend)
        return None
    return Workers(settings, jobs)


def run_batch(
    paths: Sequence[str],
    settings: BatchSettings,
    jobs: int,
    workers: Workers | None = None,
) -> Generator[BoardResult, None, None]:
    """Every board's result, in the order of `paths`, each as soon as it and all before it
    are done. With `jobs` > 1 the boards are solved by that many worker processes (those
    `prepare_batch` started, if given; they are stopped at the end)."""
    if jobs <= 1 or len(paths) <= 1:
        if workers is not None:
            workers.close()
        get_backend(settings.backend)
        for path in paths:
            yield solve_path(path, settings)
        return
    pool = workers or Workers(settings, jobs)
    try:
        yield from pool.solve(paths)
    finally:
        pool.close()
