"""Solving many boards: files and folders in, one formatted row per board out, in order.

`..inputs` finds the boards, `rows` turns one into its row, `pool` runs worker processes,
`run` puts them together. A board that fails is its row; the batch goes on.
"""

from ..inputs import board_paths, folder_problem, read_path, read_standard_input
from .pool import BatchError, Workers, usable_cpus
from .rows import BatchSettings, BoardResult, Format, Outcome, Tally, header, solve_path
from .run import prepare_batch, run_batch

__all__ = [
    "BatchError",
    "BatchSettings",
    "BoardResult",
    "Format",
    "Outcome",
    "Tally",
    "Workers",
    "board_paths",
    "folder_problem",
    "header",
    "prepare_batch",
    "read_path",
    "read_standard_input",
    "run_batch",
    "solve_path",
    "usable_cpus",
]
