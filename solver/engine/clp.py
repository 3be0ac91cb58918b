"""COIN-OR CLP in this process, through its documented C interface only.

`pulp[cbc]` installs cbcbox, which carries CLP's shared library and the header of its C
interface (`include/coin-or/Clp_C_Interface.h`); ctypes loads it in a few milliseconds.
Not through cylp: its imports (scipy) slow the start, and it leaks its matrix on every
model loaded (cylp's CyCoinPackedMatrix has no destructor; figures in benchmarks/README.md).

Every function called is declared in that header and listed once, in `ENTRY_POINTS`: a
library that lacks one is a SolverError naming it when the backend starts. The one type
the header leaves to the build, CoinBigIndex (the matrix's column starts), is asked of
the library itself (`_index_type`).

Between the nodes of a branch-and-bound only column bounds change: the new bounds are
set and the dual simplex goes on from the last basis, which CLP keeps with the model.
The C interface offers no way to keep the factorization from one solve to the next nor
to choose the dual pricing; CBC's C interface can choose it (`Cbc_setDualPivot`), but
only through a first LP solve that costs ten times CLP's (benchmarks/clp_binding.py).
"""

from __future__ import annotations

import ctypes
import functools
import importlib.util
import itertools
import os
import sys
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ..errors import SolverError
from ..startup import blas_loading
from .builder import Floats, Mip
from .lp import LpEnd

# Clp_status: 0 optimal, 1 primal infeasible, 2 dual infeasible, 3 stopped, 4 errors.
_OPTIMAL, _INFEASIBLE = 0, 1
# CLP reads bounds beyond 1e27 as infinite; numpy's inf is clamped to a finite double.
_LARGEST = float(np.finfo(np.float64).max)

_OR_HIGHS = " (--backend highs needs no CLP)"

_POINTER, _INT, _DOUBLE = ctypes.c_void_p, ctypes.c_int, ctypes.c_double
# Every C function this binding calls, as Clp_C_Interface.h declares it: arguments, result.
ENTRY_POINTS: dict[str, tuple[tuple[Any, ...], Any]] = {
    "Clp_newModel": ((), _POINTER),
    "Clp_deleteModel": ((_POINTER,), None),
    "Clp_setLogLevel": ((_POINTER, _INT), None),
    # model, columns, rows, then starts, indices, values, column bounds, objective, row bounds
    "Clp_loadProblem": ((_POINTER, _INT, _INT, *[_POINTER] * 8), None),
    "Clp_getVectorLengths": ((_POINTER,), _POINTER),
    "Clp_chgColumnLower": ((_POINTER, _POINTER), None),
    "Clp_chgColumnUpper": ((_POINTER, _POINTER), None),
    "Clp_dual": ((_POINTER, _INT), _INT),
    "Clp_status": ((_POINTER,), _INT),
    "Clp_objectiveValue": ((_POINTER,), _DOUBLE),
    "Clp_primalColumnSolution": ((_POINTER,), _POINTER),
    # Each column's and row's status in the basis: a byte each, columns first.
    "Clp_statusArray": ((_POINTER,), _POINTER),
    "Clp_copyinStatus": ((_POINTER, _POINTER), None),
}


class ClpApi(NamedTuple):
    """CLP's library with every entry point declared, and CoinBigIndex as it was built."""

    lib: Any  # a ctypes.CDLL: its functions are its attributes
    index_type: type[np.signedinteger[Any]]


@functools.cache
def api() -> ClpApi:
    """CLP's library, loaded and checked once; a SolverError says what is missing."""
    return declare(*load_library())


def load_library() -> tuple[Any, str]:
    """CLP's shared library from cbcbox, and where it was found."""
    lib_dir = library_folder()
    found = _libraries_in(lib_dir)
    if not found:
        raise SolverError(f"backend clp: no CLP library in {lib_dir}{_OR_HIGHS}")
    try:
        # It links OpenBLAS, which starts a thread for each core as it loads: ~100 ms of
        # a `hint` on a busy 2-core machine (benchmarks/README.md, section 7).
        with blas_loading():
            return ctypes.CDLL(found[0]), found[0]
    except OSError as error:
        raise SolverError(f"backend clp: cannot load {found[0]}: {error}{_OR_HIGHS}") from None


def library_folder() -> str:
    """The `lib` folder of the cbcbox build that cbcbox itself would choose.

    On Linux, unless CBCBOX_BUILD asks for a build, the choice is plain (the AVX2 build
    where the CPU has AVX2, else the generic one) and is made here from the package's
    folder, found without running it: importing cbcbox loads `subprocess` and `platform`,
    about 10 ms of a `hint`'s start (benchmarks/README.md, section 7). Elsewhere, or if
    those folders are missing, cbcbox is asked.
    """
    spec = importlib.util.find_spec("cbcbox")
    if spec is None or not spec.submodule_search_locations:
        raise SolverError(f"backend clp needs cbcbox: pip install 'pulp[cbc]'{_OR_HIGHS}")
    if sys.platform.startswith("linux") and not os.environ.get("CBCBOX_BUILD"):
        package = spec.submodule_search_locations[0]
        builds = ("cbc_dist_avx2", "cbc_dist") if _has_avx2() else ("cbc_dist",)
        for build in builds:
            folder = os.path.join(package, build, "lib")
            if os.path.isdir(folder):
                return folder
    try:
        import cbcbox

        return str(cbcbox.cbc_lib_dir())
    except Exception as error:  # an older or newer cbcbox, or a broken install
        raise SolverError(
            f"backend clp: cbcbox names no library folder ({error}){_OR_HIGHS}"
        ) from None


def _has_avx2() -> bool:
    """Whether Linux lists AVX2 among the CPU's flags (x86 only: others have no `flags`)."""
    try:
        with open("/proc/cpuinfo") as cpus:
            for line in cpus:
                if line.startswith("flags"):
                    return "avx2" in line.partition(":")[2].split()
    except OSError:
        pass
    return False


def _libraries_in(lib_dir: str) -> list[str]:
    """CLP's library in a build's `lib` folder (on Windows, DLLs named with their version,
    in `lib` or `bin`, whose folders are added to the DLL search path)."""
    if sys.platform != "win32":
        path = os.path.join(lib_dir, "libClp.dylib" if sys.platform == "darwin" else "libClp.so")
        return [path] if os.path.exists(path) else []
    import glob

    folders = (lib_dir, os.path.join(os.path.dirname(lib_dir), "bin"))
    for folder in folders:
        if os.path.isdir(folder):
            os.add_dll_directory(folder)
    return [
        path
        for pattern in ("libClp*.dll", "Clp*.dll")
        for folder in folders
        for path in sorted(glob.glob(os.path.join(folder, pattern)))
    ]


def declare(lib: Any, path: str) -> ClpApi:
    """Every entry point of ENTRY_POINTS declared on `lib`, found at `path`; a SolverError
    names the first one it lacks, before any is called."""
    for name, (arguments, result) in ENTRY_POINTS.items():
        try:
            function = getattr(lib, name)
        except AttributeError:
            raise SolverError(
                f"backend clp: {path} lacks {name} of CLP's C interface{_OR_HIGHS}"
            ) from None
        function.argtypes, function.restype = list(arguments), result
    return ClpApi(lib, _index_type(lib, path))


def _index_type(lib: Any, path: str) -> type[np.signedinteger[Any]]:
    """CoinBigIndex as the library was built (C int, or 64 bits), asked of the library.

    Two columns, one row, one element, loaded from column starts written as three
    native 64-bit integers 0 1 1: read so, the element is column 0's. Read as 32-bit
    integers, the first three of the same bytes are 0 0 1 on a little-endian machine
    (the element is column 1's), 0 0 0 on a big-endian one (no element). Every reading
    stays within the bytes given, and the lengths read back are plain ints.
    """
    starts = np.array([0, 1, 1], dtype=np.int64)
    rows = np.zeros(1, dtype=np.int32)
    values = np.ones(1)
    model = lib.Clp_newModel()
    try:
        lib.Clp_setLogLevel(model, 0)
        lib.Clp_loadProblem(
            model, 2, 1, _address(starts), _address(rows), _address(values), *[None] * 5
        )
        lengths = lib.Clp_getVectorLengths(model)
        found = tuple((ctypes.c_int * 2).from_address(lengths)) if lengths else ()
    finally:
        lib.Clp_deleteModel(model)
    if found == (1, 0):
        return np.int64
    if found == (0, 1):
        return np.int32
    raise SolverError(f"backend clp: cannot tell the width of {path}'s CoinBigIndex{_OR_HIGHS}")


def _address(array: npt.NDArray[Any]) -> int:
    return int(array.ctypes.data)


class ClpLp:
    """One model's LP relaxation in CLP, re-solved under changing column bounds.

    CLP copies what it is given; `close` frees the model (the caller's `finally`).
    """

    engine = "clp"

    def __init__(self, mip: Mip) -> None:
        self.api = api()
        lib = self.api.lib
        self.columns = mip.columns
        self.statuses = mip.columns + mip.rows
        self.model = lib.Clp_newModel()
        lib.Clp_setLogLevel(self.model, 0)
        # Every array of doubles in one: one conversion and one address, the others at
        # offsets from it (CLP copies each). CLP minimises: the objective is negated,
        # and so is its value read back. Infinite bounds are clamped to finite doubles.
        doubles = np.concatenate(
            (mip.col_value, mip.lower, mip.upper, -mip.cost, mip.row_lower, mip.row_upper),
            dtype=np.float64,
        )
        np.clip(doubles, -_LARGEST, _LARGEST, out=doubles)
        at = _address(doubles)
        elements, columns = len(mip.col_value), mip.columns
        starts = [0, elements, columns, columns, columns, mip.rows]
        addresses = [at + 8 * offset for offset in itertools.accumulate(starts)]
        # Named, so that they live until CLP has copied them.
        col_start = np.ascontiguousarray(mip.col_start, dtype=self.api.index_type)
        col_index = np.ascontiguousarray(mip.col_index, dtype=np.int32)
        lib.Clp_loadProblem(
            self.model, columns, mip.rows, _address(col_start), _address(col_index), *addresses
        )

    def bound(self, lower: Floats, upper: Floats) -> None:
        # CLP copies both arrays and keeps its basis: the next solve starts from it.
        lower = np.ascontiguousarray(lower, dtype=np.float64)
        upper = np.ascontiguousarray(upper, dtype=np.float64)
        self.api.lib.Clp_chgColumnLower(self.model, _address(lower))
        self.api.lib.Clp_chgColumnUpper(self.model, _address(upper))

    def basis(self) -> bytes:
        """The status of every column and row (a copy: CLP's array changes as it solves)."""
        return ctypes.string_at(self.api.lib.Clp_statusArray(self.model), self.statuses)

    def restore(self, basis: object) -> None:
        assert isinstance(basis, bytes) and len(basis) == self.statuses
        self.api.lib.Clp_copyinStatus(self.model, basis)

    def solve(self, seconds: float) -> LpEnd:
        # One LP here takes well under the resolution of a time limit: the search checks
        # the clock between LPs.
        self.api.lib.Clp_dual(self.model, 0)
        status = self.api.lib.Clp_status(self.model)
        if status == _OPTIMAL:
            return LpEnd.OPTIMAL
        return LpEnd.INFEASIBLE if status == _INFEASIBLE else LpEnd.OTHER

    def objective(self) -> float:
        return -float(self.api.lib.Clp_objectiveValue(self.model))

    def values(self) -> Floats:
        """A copy of the column values (CLP writes the next solve's into the same place;
        a copy by memmove costs less than a ctypes array type made for each model)."""
        values = np.empty(self.columns)
        address = self.api.lib.Clp_primalColumnSolution(self.model)
        ctypes.memmove(values.ctypes.data, address, values.nbytes)
        return values

    def close(self) -> None:
        if self.model is not None:
            self.api.lib.Clp_deleteModel(self.model)
            self.model = None
